import XCTest
import TestSupport
import Foundation
@testable import PreflightKit
import Evidence

/// Suppressions in `.preflight.yml`: matching, the required reason, errors with their line, and
/// what reports show of suppressed findings.
final class SuppressionTests: XCTestCase {
    func testGlobs() {
        for (pattern, path, expected) in [
            ("DemoApp/Info.plist", "DemoApp/Info.plist", true), ("*.plist", "Info.plist", true), ("*.plist", "App/Info.plist", false),
            ("**/Info.plist", "Info.plist", true), ("**/Info.plist", "A/B/Info.plist", true), ("Legacy/**", "Legacy/a/b.swift", true),
            ("Legacy/**", "Other/a.swift", false), ("App/*/Info.plist", "App/Share/Info.plist", true), ("App/*/Info.plist", "App/a/b/Info.plist", false),
            ("App/?nfo.plist", "App/Info.plist", true), ("App/?nfo.plist", "App//nfo.plist", false), ("", "x", false), ("**", "any/thing", true),
        ] {
            XCTAssertEqual(Suppression.glob(pattern, matches: path), expected, "\(pattern) ~ \(path)")
        }
        XCTAssertFalse(Suppression.glob(String(repeating: "*a", count: 2_000), matches: String(repeating: "a", count: 3_000) + "b"),
                       "a pathological pattern ends")
    }

    func testEveryGivenFieldMustMatch() {
        let f = Finding(rule: "ats_arbitrary_loads", severity: .warning, message: "m", bundle: "VLC-tvOS",
                        file: "Resources/tvOS/Info.plist", line: 57, key: "NSAppTransportSecurity.NSAllowsArbitraryLoads")
        XCTAssertTrue(Suppression(rule: "ats_arbitrary_loads", bundle: "VLC-tvOS", reason: "r").matches(f))
        XCTAssertTrue(Suppression(path: "Resources/**", reason: "r").matches(f))
        XCTAssertFalse(Suppression(rule: "ats_arbitrary_loads", bundle: "VLC-iOS", reason: "r").matches(f))
        XCTAssertFalse(Suppression(key: "NSAppTransportSecurity", reason: "r").matches(f))
    }

    func testConfigurationErrorsNameTheirLine() {
        for (yaml, message) in [
            ("fail_on: error\nsuppressions:\n  - rule: ats_arbitrary_loads\n", ".preflight.yml:3: a suppression needs a reason"),
            ("suppressions:\n  - reason: because\n", ".preflight.yml:2: a suppression needs at least one of rule"),
            ("suppressions:\n  - rule: no_such_rule\n    reason: x\n", ".preflight.yml:2: a suppression names unknown rule 'no_such_rule'"),
            ("suppressions:\n  - rule: ats_arbitrary_loads\n    reson: typo\n", ".preflight.yml:3: unknown suppression key 'reson'"),
            ("fail_on: error\nfailon: warning\n", ".preflight.yml:2: unknown key 'failon'"),
        ] {
            XCTAssertThrowsError(try Configuration.parse(yaml: yaml), yaml) { error in
                XCTAssertTrue("\(error)".hasPrefix(message), "\(error)")
            }
        }
        XCTAssertEqual(try Configuration.parse(yaml: "suppressions:\n  - rule: duplicate_plist_key\n    reason: flavours\n").suppressions,
                       [Suppression(rule: "duplicate_plist_key", reason: "flavours")])
    }

    func testSuppressedFindingsLeaveTheResultsAndReportsShowTheReason() throws {
        let dir = try Scratch.folder("suppress").appendingPathComponent("DemoApp")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: CLITests.demo), to: dir)
        try Data("suppressions:\n  - rule: duplicate_plist_key\n    bundle: DemoApp\n    reason: the second value is the one we mean\n".utf8)
            .write(to: dir.appendingPathComponent(".preflight.yml"))
        let text = try CLITests.run(["scan", "."], cwd: dir)
        XCTAssertFalse(text.stdout.contains("[duplicate_plist_key]"), text.stdout)
        XCTAssertTrue(text.stdout.contains("(1 suppressed by the configuration)."), text.stdout)
        let json = try CLITests.run(["scan", ".", "--format", "json"], cwd: dir)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let suppressed = try XCTUnwrap(doc["suppressed"] as? [[String: Any]])
        XCTAssertEqual(suppressed.count, 1)
        XCTAssertEqual(suppressed.first?["reason"] as? String, "the second value is the one we mean")
        XCTAssertEqual((suppressed.first?["finding"] as? [String: Any])?["rule"] as? String, "duplicate_plist_key")
        let sarif = try CLITests.run(["scan", ".", "--format", "sarif"], cwd: dir)
        XCTAssertTrue(sarif.stdout.contains("\"justification\" : \"the second value is the one we mean\""), sarif.stdout)
        let check = try CLITests.run(["config", "check"], cwd: dir)
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertTrue(check.stdout.contains("1 suppression"), check.stdout)
        try Data("suppressions:\n  - rule: duplicate_plist_key\n".utf8).write(to: dir.appendingPathComponent(".preflight.yml"))
        let bad = try CLITests.run(["config", "check"], cwd: dir)
        XCTAssertEqual(bad.status, 1)
        XCTAssertEqual(bad.stderr, "preflight: error: .preflight.yml:2: a suppression needs a reason (reports show it)\n")
    }
}

/// `// preflight:disable:next rule — reason` comments in sources.
final class InlineSuppressionTests: XCTestCase {
    func testCommentsAreReadWithTheirReason() {
        let text = """
        let a = 1 // preflight:disable:this udid_access — the vendor id, not the UDID
        // preflight:disable:next missing_purpose_string, unused_purpose_string -- only in the debug menu
        manager.requestAlwaysAuthorization()
        // preflight:disable:next missing_purpose_string
        let noReason = 1
        let s = "preflight:disable:next missing_purpose_string — in a string, not a comment"
        /* preflight:disable:next generic_purpose_string - block comment */
        call()
        """
        let found = InlineSuppressions.parse(text)
        XCTAssertEqual(found[1], [InlineSuppression(rules: ["udid_access"], reason: "the vendor id, not the UDID")])
        XCTAssertEqual(found[3], [InlineSuppression(rules: ["missing_purpose_string", "unused_purpose_string"], reason: "only in the debug menu")])
        XCTAssertNil(found[5], "a comment without a reason accepts nothing")
        XCTAssertNil(found[7], "text in a string is no comment")
        XCTAssertEqual(found[8], [InlineSuppression(rules: ["generic_purpose_string"], reason: "block comment")])
        XCTAssertEqual(found.count, 3)
    }

    func testACommentAtTheUseSuppressesTheFindingAndReportsTheReason() throws {
        let dir = try Scratch.folder("inline").appendingPathComponent("DemoApp")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: CLITests.demo), to: dir)
        let file = dir.appendingPathComponent("DemoApp/AppDelegate.swift")
        let text = try String(contentsOf: file, encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let use = try XCTUnwrap(lines.firstIndex { $0.contains("requestAlwaysAuthorization()") })
        var edited = lines
        edited.insert("        // preflight:disable:next missing_purpose_string — background tracking ships in 2.0", at: use)
        try Data(edited.joined(separator: "\n").utf8).write(to: file)
        let before = try PreflightScanner.scan(CLITests.demo).findings.filter { $0.rule == "missing_purpose_string" }
        let result = try PreflightScanner.scan(dir.path)
        let after = result.findings.filter { $0.rule == "missing_purpose_string" }
        XCTAssertEqual(after.count, before.count - 1)
        XCTAssertEqual(result.suppressed.map(\.reason), ["background tracking ships in 2.0"])
        XCTAssertEqual(result.suppressed.first?.finding.key, "NSLocationAlwaysAndWhenInUseUsageDescription")
    }
}
