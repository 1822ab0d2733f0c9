import XCTest
import TestSupport
import Foundation
@testable import PreflightKit

/// Adopting Preflight on an app with findings: a baseline accepts today's findings, a later
/// scan reports exactly what is new, and fingerprints survive edits that change no finding.
final class BaselineTests: XCTestCase {
    /// A copy of the demo app to edit.
    func demoCopy() throws -> URL {
        let dir = try Scratch.folder("baseline").appendingPathComponent("DemoApp")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: CLITests.demo), to: dir)
        return dir
    }

    /// The text with `insert` after the first `<dict>` line (the Info.plist's root).
    func afterRootDict(_ text: String, _ insert: String) -> String {
        guard let r = text.range(of: "<dict>\n") else { return text }
        return text.replacingCharacters(in: r, with: "<dict>\n" + insert)
    }

    func edit(_ file: URL, _ change: (String) -> String) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        let changed = change(text)
        XCTAssertNotEqual(changed, text, "the edit changed nothing in \(file.lastPathComponent)")
        try Data(changed.utf8).write(to: file)
    }

    func testOneNewProblemIsTheOnlyFindingAndUnrelatedEditsChangeNothing() throws {
        let app = try demoCopy()
        let before = try Pipeline.scan([app.path], configuration: Configuration())
        let baseline = Baseline(findings: before.results.flatMap(\.findings))
        XCTAssertFalse(baseline.entries.isEmpty)

        // Unrelated edits: lines added above every finding of the app's Info.plist, the
        // project's targets listed in the other order.
        try edit(app.appendingPathComponent("DemoApp/Info.plist")) {
            self.afterRootDict($0, "\t<key>UIStatusBarHidden</key>\n\t<false/>\n\t<key>UIRequiresFullScreen</key>\n\t<true/>\n")
        }
        try edit(app.appendingPathComponent("DemoApp.xcodeproj/project.pbxproj")) {
            $0.replacingOccurrences(of: "A70000000000000000000001 /* DemoApp */,\n\t\t\t\tA70000000000000000000002 /* ShareExtension */,",
                                    with: "A70000000000000000000002 /* ShareExtension */,\n\t\t\t\tA70000000000000000000001 /* DemoApp */,")
        }
        // And lines added above a source-based finding's evidence (the Always location request).
        try edit(app.appendingPathComponent("DemoApp/AppDelegate.swift")) {
            "// Added above everything.\n// A second line.\n\n" + $0
        }
        // The edits really moved findings: the same fingerprints, other lines or evidence.
        let moved = try Pipeline.scan([app.path], configuration: Configuration()).results.flatMap(\.findings)
        XCTAssertEqual(Set(moved.map(\.fingerprint)), Set(before.results.flatMap(\.findings).map(\.fingerprint)))
        let earlier = Dictionary(before.results.flatMap(\.findings).map { ($0.fingerprint, "\($0.line ?? 0) \($0.evidence)") }) { a, _ in a }
        let changed = moved.filter { earlier[$0.fingerprint] != "\($0.line ?? 0) \($0.evidence)" }
        XCTAssertTrue(changed.contains { $0.file == "DemoApp/Info.plist" }, "an Info.plist finding moved")
        XCTAssertTrue(changed.contains { $0.evidence.contains { if case .file(let p, _) = $0 { return p == "DemoApp/AppDelegate.swift" }; return false } },
                      "a finding whose evidence is in AppDelegate.swift moved")
        let unrelated = try Pipeline.scan([app.path], configuration: Configuration(), baseline: baseline)
        XCTAssertEqual(unrelated.results.flatMap(\.findings), [], "no finding is new after edits that change none")
        XCTAssertEqual(unrelated.staleBaselineEntries, [])
        XCTAssertEqual(unrelated.exitStatus, .clean)

        // One new problem: a key written twice in the extension's Info.plist.
        try edit(app.appendingPathComponent("ShareExtension/Info.plist")) {
            self.afterRootDict($0, "\t<key>CFBundlePackageType</key>\n\t<string>XPC!</string>\n")
        }
        var strict = Configuration()
        strict.failOn = .warning
        let after = try Pipeline.scan([app.path], configuration: strict, baseline: baseline)
        let new = after.results.flatMap(\.findings)
        XCTAssertEqual(new.map(\.rule), ["duplicate_plist_key"])
        XCTAssertEqual(new.first?.bundle, "ShareExtension")
        XCTAssertEqual(after.exitStatus, .findings)
    }

    func testAFixedFindingIsAStaleEntryAndASecondOfAKindIsNew() throws {
        let f = Finding(rule: "placeholder_purpose_string", severity: .error, message: "m", bundle: "App", file: "App/Info.plist", line: 3,
                        key: "NSCameraUsageDescription")
        var moved = f
        moved.line = 30
        let baseline = Baseline(findings: [f])
        XCTAssertEqual(baseline.filter([moved]).new, [], "a line is not part of a fingerprint")
        XCTAssertEqual(baseline.filter([moved, f]).new.count, 1, "the second of a kind the baseline holds once is new")
        XCTAssertEqual(baseline.filter([]).stale.map(\.rule), ["placeholder_purpose_string"])
    }

    func testTheFileRoundTripsAndRefusesOtherVersions() throws {
        let f = Finding(rule: "duplicate_plist_key", severity: .warning, message: "m", bundle: "App", key: "CFBundleName")
        let baseline = Baseline(findings: [f, f])
        XCTAssertEqual(try Baseline(data: baseline.data(), path: "b.json"), baseline)
        XCTAssertEqual(baseline.entries.first?.count, 2)
        let other = Data(#"{"version": 2, "tool": "preflight", "findings": []}"#.utf8)
        XCTAssertThrowsError(try Baseline(data: other, path: "b.json")) { XCTAssertTrue("\($0)".contains("version 2")) }
        XCTAssertThrowsError(try Baseline(data: Data("[]".utf8), path: "b.json"))
    }

    func testTheCommandLineWritesAndReadsIt() throws {
        let app = try demoCopy()
        let file = app.deletingLastPathComponent().appendingPathComponent("preflight-baseline.json")
        let write = try CLITests.run(["baseline", "write", file.path, app.path])
        XCTAssertEqual(write.status, 0, write.stderr)
        let scan = try CLITests.run(["scan", app.path, "--baseline", file.path])
        XCTAssertEqual(scan.status, 0, scan.stdout + scan.stderr)
        XCTAssertTrue(scan.stdout.contains("0 errors, 0 warnings, 0 notes"), scan.stdout)
    }
}
