import Foundation
import Formats
import Artifacts

// The input is the project's project.pbxproj; the folder around it holds a few fixed files
// (three xcconfigs that include each other, an Info.plist, a strings file) so that the
// loader's settings resolution, xcconfig reader and Info.plist reads are reached too.
//
// The files are built on every run, not held in a global: LeakSanitizer does not recognize a
// pointer that a Swift multi-payload enum (Data's representation) keeps with tag bits in its
// spare bits, so a global [String: Data] is reported as leaked as soon as any run triggers a
// leak check (a false positive seen on the first run of this target).
private func fixedFiles() -> [String: Data] { [
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

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var files = fixedFiles()
    files["ios/X.xcodeproj/project.pbxproj"] = Data(bytes: data, count: size)
    let source = MemorySource(name: "fuzz", files: files)
    let index = FileIndex(source.entries)
    var limits = ReaderLimits()
    limits.maxPlistObjects = 50_000
    limits.maxNestingDepth = 64
    limits.maxArchiveEntries = 10_000
    _ = try? XcodeProjectLoader.load(project: "ios/X.xcodeproj", source: source, index: index, limits: limits)
    _ = try? XcodeProjectLoader.load(project: "ios/X.xcodeproj", source: source, index: index, limits: limits,
                                     configuration: "Debug")
    return 0
}
