import Foundation
import TestSupport
import XCTest

@testable import PreflightKit

/// `preflight privacy manifest`: the drafted manifest keeps what the team wrote, passes
/// Preflight's own validator and `plutil -lint`, and a re-scan no longer reports ITMS-91053.
final class PrivacyManifestDraftTests: XCTestCase {
    let info = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.example.app</string></dict></plist>
        """
    let code = """
        import Foundation

        func cacheAge(_ url: URL) throws -> Date? {
            try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date
        }
        let shared = UserDefaults(suiteName: "group.com.example")
        let mine = UserDefaults.standard
        """
    /// The team's manifest: a comment, tracking keys and one declared category, in its own layout.
    let existing = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <!-- reviewed by legal, 2025-02 -->
            <key>NSPrivacyTracking</key>
            <false/>
            <key>NSPrivacyAccessedAPITypes</key>
            <array>
                <dict>
                    <key>NSPrivacyAccessedAPIType</key>
                    <string>NSPrivacyAccessedAPICategoryDiskSpace</string>
                    <key>NSPrivacyAccessedAPITypeReasons</key>
                    <array><string>85F4.1</string></array>
                </dict>
            </array>
        </dict>
        </plist>

        """

    func project(manifest: String?) throws -> URL {
        let root = try Scratch.folder("privacy-draft")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("App"), withIntermediateDirectories: true)
        try Data(info.utf8).write(to: root.appendingPathComponent("App/Info.plist"))
        try Data(code.utf8).write(to: root.appendingPathComponent("App/Cache.swift"))
        if let manifest { try Data(manifest.utf8).write(to: root.appendingPathComponent("App/PrivacyInfo.xcprivacy")) }
        return root
    }

    func requiredReasonFindings(_ root: URL) throws -> [String] {
        try PreflightScanner.scan(root.path).findings.filter { $0.rule.hasPrefix("required_reason") || $0.rule.hasPrefix("privacy_manifest") || $0.rule == "malformed_privacy_manifest" }
            .map { "\($0.rule) \($0.key ?? "")" }
    }

    func testDraftKeepsTheTeamsTextAndAddsWhatTheCodeNeeds() throws {
        let root = try project(manifest: existing)
        XCTAssertEqual(try requiredReasonFindings(root).sorted(), [
            "required_reason_api_undeclared NSPrivacyAccessedAPICategoryFileTimestamp",
            "required_reason_api_undeclared NSPrivacyAccessedAPICategoryUserDefaults",
        ])
        let drafts = PrivacyManifestDrafting.drafts(try PreflightScanner.load(root.path))
        let draft = try XCTUnwrap(drafts.first)
        XCTAssertEqual(drafts.count, 1)
        XCTAssertTrue(draft.exists)
        XCTAssertEqual(draft.choices.map(\.category), ["NSPrivacyAccessedAPICategoryFileTimestamp", "NSPrivacyAccessedAPICategoryUserDefaults"])
        XCTAssertEqual(draft.choices.map(\.reasons), [["C617.1"], ["CA92.1", "1C8F.1"]], "a suite read is an App Group (1C8F.1), .standard the app's own")
        let text = try XCTUnwrap(draft.text)
        // Everything the team wrote is still there, in order: the new entries go inside its array.
        let head = existing.components(separatedBy: "    </array>\n</dict>\n</plist>")[0]
        XCTAssertTrue(text.hasPrefix(head), text)
        XCTAssertTrue(text.hasSuffix("    </array>\n</dict>\n</plist>\n"), text)
        XCTAssertTrue(text.contains("<!-- reviewed by legal, 2025-02 -->"))

        try Data(text.utf8).write(to: root.appendingPathComponent(draft.path))
        XCTAssertEqual(try requiredReasonFindings(root), [], "the written manifest is valid and declares everything")
        try lint(root.appendingPathComponent(draft.path))
    }

    func testANewManifestForABundleWithoutOne() throws {
        let root = try project(manifest: nil)
        let draft = try XCTUnwrap(PrivacyManifestDrafting.drafts(try PreflightScanner.load(root.path)).first)
        XCTAssertFalse(draft.exists)
        XCTAssertEqual(draft.path, "App/PrivacyInfo.xcprivacy")
        XCTAssertTrue(draft.remark?.contains("Copy Bundle Resources") ?? false)
        try Data(try XCTUnwrap(draft.text).utf8).write(to: root.appendingPathComponent(draft.path))
        XCTAssertEqual(try requiredReasonFindings(root), [])
        try lint(root.appendingPathComponent(draft.path))
    }

    func testInsertionIntoEmptyArraysAndManifestsWithoutTheKey() {
        let entry = "\t\t<dict/>\n"
        XCTAssertEqual(PrivacyManifestDrafting.insert(entry, into: "<plist version=\"1.0\">\n<dict>\n\t<key>NSPrivacyAccessedAPITypes</key>\n\t<array/>\n</dict>\n</plist>\n"),
                       "<plist version=\"1.0\">\n<dict>\n\t<key>NSPrivacyAccessedAPITypes</key>\n\t<array>\n\t\t<dict/>\n\t</array>\n</dict>\n</plist>\n")
        XCTAssertEqual(PrivacyManifestDrafting.insert(entry, into: "<plist version=\"1.0\">\n<dict>\n\t<key>NSPrivacyTracking</key>\n\t<false/>\n</dict>\n</plist>\n"),
                       "<plist version=\"1.0\">\n<dict>\n\t<key>NSPrivacyTracking</key>\n\t<false/>\n\t<key>NSPrivacyAccessedAPITypes</key>\n\t<array>\n\t\t<dict/>\n\t</array>\n</dict>\n</plist>\n")
        XCTAssertNil(PrivacyManifestDrafting.insert(entry, into: "<plist version=\"1.0\"><array/></plist>"), "no root dictionary: nothing is guessed")
    }

    func testTheCommandWritesOnlyIntoProjectFolders() throws {
        let root = try project(manifest: nil)
        let written = try CLITests.run(["privacy", "manifest", root.path, "--write"])
        XCTAssertEqual(written.status, 0, written.stderr)
        XCTAssertTrue(written.stdout.contains("App/PrivacyInfo.xcprivacy (written)"), written.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("App/PrivacyInfo.xcprivacy").path))
        let again = try CLITests.run(["privacy", "manifest", root.path])
        XCTAssertTrue(again.stdout.contains("Every bundle declares"), again.stdout)

        var zip = ZipWriter()
        zip.add("Payload/App.app/Info.plist", "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>CFBundleExecutable</key><string>App</string></dict></plist>")
        let refused = try CLITests.run(["privacy", "manifest", try zip.write().path, "--write"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("project folders only"), refused.stderr)
    }

    func lint(_ file: URL) throws {
        guard let plutil = ["/usr/bin/plutil", "/opt/swift/usr/bin/plutil"].first(where: FileManager.default.isExecutableFile(atPath:)) else { return }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: plutil)
        p.arguments = ["-lint", file.path]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }
}
