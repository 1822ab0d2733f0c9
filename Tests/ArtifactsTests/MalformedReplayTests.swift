import Foundation
import XCTest
@testable import Artifacts
import Formats

/// Replays every input under Tests/Fixtures/Malformed/XcodeProject/<name> the way
/// Fuzz/Targets/FuzzXcodeProject.swift does (as `ios/X.xcodeproj/project.pbxproj` next to a
/// few fixed files, with the target's limits) and compares the outcome with <name>.expected:
/// `ok`, or the exact description of the error thrown. The other reader folders are replayed
/// by FormatsTests.MalformedReplayTests.
final class MalformedReplayTests: XCTestCase {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Malformed/XcodeProject")

    /// The fixed files of the fuzz target (Fuzz/Targets/FuzzXcodeProject.swift).
    static let fixed: [String: String] = [
        "ios/Configs/Project.xcconfig": """
            // Project-level settings.
            #include "Shared.xcconfig"
            #include? "Local.xcconfig"
            BUNDLE_PREFIX = com.example
            OTHER_SWIFT_FLAGS = $(inherited) -DPROJECT
            SWIFT_VERSION = 5.0
            SUPPORT_URL = https:/$()/example.com/support

            """,
        "ios/Configs/App.xcconfig": """
            OTHER_SWIFT_FLAGS = $(inherited) -DAPP_XCCONFIG
            ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon
            PRODUCT_NAME = Overridden By Target
            SWIFT_ACTIVE_COMPILATION_CONDITIONS[config=Release] = RELEASE_ONLY
            #include "Project.xcconfig"

            """,
        "ios/Configs/Shared.xcconfig": """
            OTHER_SWIFT_FLAGS = -DSHARED
            CURRENT_PROJECT_VERSION = 42
            DEVELOPMENT_TEAM = ABCDE12345 // the team

            """,
        "ios/App/Info.plist": """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>CFBundleIdentifier</key><string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
            <key>CFBundleShortVersionString</key><string>$(MARKETING_VERSION)</string>
            <key>NSCameraUsageDescription</key><string>Scan</string>
            </dict></plist>

            """,
        "ios/App/en.lproj/InfoPlist.strings": "\"NSCameraUsageDescription\" = \"Scan\";\n",
        "ios/App/AppDelegate.swift": "import UIKit\n",
    ]

    static func outcome(_ pbxproj: Data, configuration: String?) -> String {
        var files = fixed.mapValues { Data($0.utf8) }
        files["ios/X.xcodeproj/project.pbxproj"] = pbxproj
        let source = MemorySource(name: "fuzz", files: files)
        var limits = ReaderLimits()
        limits.maxPlistObjects = 50_000
        limits.maxNestingDepth = 64
        limits.maxArchiveEntries = 10_000
        do {
            _ = try XcodeProjectLoader.load(project: "ios/X.xcodeproj", source: source, index: FileIndex(source.entries),
                                            limits: limits, configuration: configuration)
            return "ok"
        } catch {
            return String(describing: error)
        }
    }

    func testEveryMalformedProjectGivesItsExpectedOutcome() throws {
        let fm = FileManager.default
        guard fm.fileExists(atPath: Self.folder.path) else { return }
        for name in try fm.contentsOfDirectory(atPath: Self.folder.path).sorted()
        where !name.hasPrefix(".") && !name.hasSuffix(".expected") {
            let input = Self.folder.appendingPathComponent(name)
            guard let text = try? String(contentsOf: input.appendingPathExtension("expected"), encoding: .utf8) else {
                XCTFail("XcodeProject/\(name): missing \(name).expected")
                continue
            }
            let data = try Data(contentsOf: input)
            XCTAssertEqual(Self.outcome(data, configuration: nil), text.trimmingCharacters(in: .newlines), "XcodeProject/\(name)")
            // The fuzz target also loads the Debug configuration; it must not crash either.
            _ = Self.outcome(data, configuration: "Debug")
        }
    }
}
