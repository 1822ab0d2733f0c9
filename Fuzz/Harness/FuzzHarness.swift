import Foundation
import Formats
import Artifacts

/// What the libFuzzer targets in `Fuzz/Targets/` feed their readers with, shared with the tests
/// that replay committed crashers (`Tests/Fixtures/Malformed/`), so that a replay runs with
/// exactly the limits and files the fuzzer used.
public enum FuzzHarness {
    /// Tighter than the defaults, so that one input cannot run for seconds.
    public static var limits: ReaderLimits {
        var l = ReaderLimits()
        l.maxPlistObjects = 100_000
        l.maxNestingDepth = 128
        return l
    }

    public static var machOLimits: ReaderLimits {
        var l = limits
        l.maxLoadCommands = 4_096
        l.maxSymbols = 100_000
        l.maxStringLength = 4_096
        return l
    }

    public static var projectLimits: ReaderLimits {
        var l = ReaderLimits()
        l.maxPlistObjects = 50_000
        l.maxNestingDepth = 64
        l.maxArchiveEntries = 10_000
        return l
    }

    /// Loads `pbxproj` as `ios/X.xcodeproj/project.pbxproj` next to a few fixed files (three
    /// xcconfigs that include each other, an Info.plist, a strings file, a source file), so
    /// that settings resolution, the xcconfig reader and Info.plist reads are reached too.
    public static func loadProject(_ pbxproj: Data, configuration: String? = nil) throws {
        var files = fixedProjectFiles()
        files["ios/X.xcodeproj/project.pbxproj"] = pbxproj
        let source = MemorySource(name: "fuzz", files: files)
        _ = try XcodeProjectLoader.load(project: "ios/X.xcodeproj", source: source, index: FileIndex(source.entries),
                                        limits: projectLimits, configuration: configuration)
    }

    // The files are built on every run, not held in a global: LeakSanitizer does not recognize a
    // pointer that a Swift multi-payload enum (Data's representation) keeps with tag bits in its
    // spare bits, so a global [String: Data] is reported as leaked as soon as any run triggers a
    // leak check (a false positive seen on the first run of this target).
    static func fixedProjectFiles() -> [String: Data] { [
        "ios/Configs/Project.xcconfig": Data("""
            // Project-level settings.
            #include "Shared.xcconfig"
            #include? "Local.xcconfig"
            BUNDLE_PREFIX = com.example
            OTHER_SWIFT_FLAGS = $(inherited) -DPROJECT
            SWIFT_VERSION = 5.0
            SUPPORT_URL = https:/$()/example.com/support

            """.utf8),
        "ios/Configs/App.xcconfig": Data("""
            OTHER_SWIFT_FLAGS = $(inherited) -DAPP_XCCONFIG
            ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon
            PRODUCT_NAME = Overridden By Target
            SWIFT_ACTIVE_COMPILATION_CONDITIONS[config=Release] = RELEASE_ONLY
            #include "Project.xcconfig"

            """.utf8),
        "ios/Configs/Shared.xcconfig": Data("""
            OTHER_SWIFT_FLAGS = -DSHARED
            CURRENT_PROJECT_VERSION = 42
            DEVELOPMENT_TEAM = ABCDE12345 // the team

            """.utf8),
        "ios/App/Info.plist": Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>CFBundleIdentifier</key><string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
            <key>CFBundleShortVersionString</key><string>$(MARKETING_VERSION)</string>
            <key>NSCameraUsageDescription</key><string>Scan</string>
            </dict></plist>

            """.utf8),
        "ios/App/en.lproj/InfoPlist.strings": Data("\"NSCameraUsageDescription\" = \"Scan\";\n".utf8),
        "ios/App/AppDelegate.swift": Data("import UIKit\n".utf8),
    ] }
}
