import XCTest
import TestSupport
import Foundation

/// Every JSON report validates against `docs/json-schema.json`: the demo app, the golden `.ipa`,
/// several inputs in one report, and a configuration with a suppression.
final class JSONSchemaTests: XCTestCase {
    nonisolated(unsafe) static let schema: [String: Any] = {
        let url = CLITests.packageRoot.appendingPathComponent("docs/json-schema.json")
        let data = (try? Data(contentsOf: url)) ?? Data()
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }()

    /// The report's errors against `docs/json-schema.json` (or another schema whose local
    /// references point into `docs/json-schema.json`), by the suite's validator.
    static func errors(_ value: Any, _ schema: [String: Any]) -> [String] {
        JSONSchemaValidator(root: Self.schema).errors(value, schema, at: "$")
    }

    func validate(_ args: [String], cwd: URL = CLITests.packageRoot, file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try CLITests.run(args + ["--format", "json"], cwd: cwd)
        let doc = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
        XCTAssertEqual(Self.errors(doc, Self.schema), [], "\(args)", file: file, line: line)
    }

    func testTheValidatorCatchesWhatTheSchemaForbids() throws {
        XCTAssertFalse(Self.schema.isEmpty, "docs/json-schema.json is read")
        XCTAssertEqual(JSONSchemaValidator(root: Self.schema).unsupported(), [], "every keyword of docs/json-schema.json is checked")
        let raw: [String: Any] = ["schemaVersion": 2, "tool": ["name": "p", "version": "1", "informationURI": "u"],
                                  "input": ["path": "x", "kind": "zip"], "bundles": [],
                                  "findings": [["rule": "Bad-Id", "line": true], ["line": 0, "column": 1.5]], "suppressed": [], "extra": true]
        // As a report is read: through JSONSerialization, whose booleans are also numbers.
        let bad = try JSONSerialization.jsonObject(with: JSONSerialization.data(withJSONObject: raw))
        let found = Self.errors(bad, Self.schema)
        for expected in ["$: unexpected extra", "$.schemaVersion: 2 is not 1", "$.input.kind: zip is not one of", "$.findings[0]: no severity",
                         "$.findings[0].rule: Bad-Id does not match", "$.findings[0].line: true is not integer or null",
                         "$.findings[1].line: 0.0 below the minimum 1.0", "$.findings[1].column: 1.5 is not integer or null"] {
            XCTAssertTrue(found.contains { $0.hasPrefix(expected) }, "\(expected) in \(found)")
        }
    }

    func testEveryReportValidates() throws {
        try validate(["scan", "Examples/DemoApp"])
        try validate(["scan", try GoldenTests.makeIPA().path])
        try validate(["scan", "Examples/DemoApp", try GoldenTests.makeIPA().path])
        let dir = try Scratch.folder("schema").appendingPathComponent("DemoApp")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: CLITests.demo), to: dir)
        try Data("suppressions:\n  - rule: duplicate_plist_key\n    reason: accepted\n".utf8).write(to: dir.appendingPathComponent(".preflight.yml"))
        try validate(["scan", "."], cwd: dir)
    }
}

/// An input that cannot be read still gives a valid machine-readable document, besides exit 1.
final class UnreadableInputReportTests: XCTestCase {
    func testJSONAndSARIFSayWhatCouldNotBeRead() throws {
        let dir = try Scratch.folder("unreadable")
        let json = dir.appendingPathComponent("out.json"), sarif = dir.appendingPathComponent("out.sarif")
        let r = try CLITests.run(["scan", "Examples/DemoApp", "/nonexistent/App.ipa", "--report", "json:" + json.path, "--report", "sarif:" + sarif.path],
                                 cwd: CLITests.packageRoot)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("/nonexistent/App.ipa: no such file or folder"), r.stderr)
        let doc = try JSONSerialization.jsonObject(with: Data(contentsOf: json))
        XCTAssertEqual(JSONSchemaTests.errors(doc, JSONSchemaTests.schema), [])
        let object = try XCTUnwrap(doc as? [String: Any])
        XCTAssertEqual(object["errors"] as? [String], ["/nonexistent/App.ipa: no such file or folder"])
        XCTAssertFalse((object["findings"] as? [Any] ?? []).isEmpty, "the readable input is still reported")
        let s = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: sarif)) as? [String: Any])
        let invocation = try XCTUnwrap(((s["runs"] as? [[String: Any]])?.first?["invocations"] as? [[String: Any]])?.first)
        XCTAssertEqual(invocation["executionSuccessful"] as? Bool, false)

        let alone = try CLITests.run(["scan", "/nonexistent/App.ipa", "--format", "json"], cwd: CLITests.packageRoot)
        XCTAssertEqual(alone.status, 1)
        let only = try JSONSerialization.jsonObject(with: Data(alone.stdout.utf8))
        XCTAssertEqual(JSONSchemaTests.errors(only, JSONSchemaTests.schema), [])
    }
}
