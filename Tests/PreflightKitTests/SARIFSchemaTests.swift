import XCTest
import TestSupport
import Foundation

/// Every SARIF report validates against the official SARIF 2.1.0 JSON schema (OASIS, errata 01).
/// The schema is not committed: `bash .ci/sarif-schema` puts it at `.build/sarif-schema/` (CI's
/// `.ci/run` does so first), or `PREFLIGHT_SARIF_SCHEMA` names a copy. Without it the tests skip
/// locally and fail in CI.
final class SARIFSchemaTests: XCTestCase {
    struct SchemaMissing: Error, CustomStringConvertible { let message: String; var description: String { message } }

    static let schemaURL: URL = {
        if let path = ProcessInfo.processInfo.environment["PREFLIGHT_SARIF_SCHEMA"], !path.isEmpty { return URL(fileURLWithPath: path) }
        return CLITests.packageRoot.appendingPathComponent(".build/sarif-schema/sarif-schema-2.1.0.json")
    }()

    func officialSchema() throws -> [String: Any] {
        guard let data = FileManager.default.contents(atPath: Self.schemaURL.path) else {
            let message = "the official SARIF 2.1.0 schema is not at \(Self.schemaURL.path): run `bash .ci/sarif-schema`"
            // In CI `.ci/run` has put it there: missing is a failure, never a skip.
            if ProcessInfo.processInfo.environment["CI"] == "true" { throw SchemaMissing(message: message) }
            throw XCTSkip(message)
        }
        let schema = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(schema["id"] as? String, "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json")
        XCTAssertEqual(schema["title"] as? String, "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema")
        return schema
    }

    func sarif(_ args: [String], cwd: URL = CLITests.packageRoot, status: Int32 = 2, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let r = try CLITests.run(args + ["--format", "sarif"], cwd: cwd)
        XCTAssertEqual(r.status, status, r.stderr, file: file, line: line)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], file: file, line: line)
    }

    func validate(_ doc: [String: Any], _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let validator = JSONSchemaValidator(root: try officialSchema())
        XCTAssertEqual(validator.errors(doc), [], what, file: file, line: line)
    }

    func testTheValidatorChecksEveryKeywordOfTheOfficialSchema() throws {
        let schema = try officialSchema()
        XCTAssertEqual(JSONSchemaValidator(root: schema).unsupported(), [])
    }

    /// The same validator rejects what the official schema forbids, so a passing report means something.
    func testTheValidatorCatchesWhatTheOfficialSchemaForbids() throws {
        let validator = JSONSchemaValidator(root: try officialSchema())
        var doc = try sarif(["scan", "Examples/DemoApp"])
        XCTAssertEqual(validator.errors(doc), [])
        doc["version"] = "2.0.0"
        doc["extra"] = true
        var run = try XCTUnwrap((doc["runs"] as? [[String: Any]])?.first)
        var results = try XCTUnwrap(run["results"] as? [[String: Any]])
        results[0]["level"] = "fatal"
        results[0]["ruleIndex"] = -2
        results[0]["partialFingerprints"] = ["preflightFingerprint/v1": 7]
        var location = try XCTUnwrap((results[0]["locations"] as? [[String: Any]])?.first)
        location["physicalLocation"] = ["artifactLocation": ["uri": "has space"], "region": ["startLine": 0]]
        results[0]["locations"] = [location]
        results[0]["relatedLocations"] = [["id": 1, "message": ["text": "x"]], ["id": 1, "message": ["text": "x"]]]
        results[0]["suppressions"] = [["kind": "ignoredBecause", "justification": "x"]]
        run["results"] = results
        var invocations = try XCTUnwrap(run["invocations"] as? [[String: Any]])
        invocations[0]["executionSuccessful"] = "no"
        invocations[0]["startTimeUtc"] = "yesterday"
        run["invocations"] = invocations
        var tool = try XCTUnwrap(run["tool"] as? [String: Any])
        var driver = try XCTUnwrap(tool["driver"] as? [String: Any])
        var rules = try XCTUnwrap(driver["rules"] as? [[String: Any]])
        rules[0]["helpUri"] = "docs/rules/x.md"
        driver["rules"] = rules
        driver["language"] = "english"
        tool["driver"] = driver
        run["tool"] = tool
        doc["runs"] = [run]
        let bad = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONSerialization.data(withJSONObject: doc)) as? [String: Any])
        let found = validator.errors(bad)
        for expected in ["$: unexpected extra", "$.version: 2.0.0 is not one of", "$.runs[0].results[0].level: fatal is not one of",
                         "$.runs[0].results[0].ruleIndex: -2.0 below the minimum -1.0",
                         "$.runs[0].results[0].partialFingerprints.preflightFingerprint/v1: 7 is not string",
                         "$.runs[0].results[0].relatedLocations: items 0 and 1 are equal",
                         "$.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri: has space is not a uri-reference",
                         "$.runs[0].results[0].locations[0].physicalLocation.region.startLine: 0.0 below the minimum 1.0",
                         "$.runs[0].results[0].suppressions[0].kind: ignoredBecause is not one of",
                         "$.runs[0].invocations[0].executionSuccessful: no is not boolean",
                         "$.runs[0].invocations[0].startTimeUtc: yesterday is not a date-time",
                         "$.runs[0].tool.driver.rules[0].helpUri: docs/rules/x.md is not a uri",
                         "$.runs[0].tool.driver.language: english does not match"] {
            XCTAssertTrue(found.contains { $0.hasPrefix(expected) }, "\(expected) in \(found)")
        }
    }

    func testEverySARIFReportValidates() throws {
        _ = try officialSchema()
        let demo = try sarif(["scan", "Examples/DemoApp"])
        try validate(demo, "demo app")
        try checkCodeScanningProperties(demo)
        let ipa = try GoldenTests.makeIPA()
        let golden = try sarif(["scan", ipa.lastPathComponent], cwd: ipa.deletingLastPathComponent())
        try validate(golden, "golden .ipa")
        try checkCodeScanningProperties(golden)
        try validate(try sarif(["scan", "Examples/DemoApp", ipa.path]), "two inputs")

        // Suppressed results carry a justification.
        let dir = try Scratch.folder("sarif-schema").appendingPathComponent("DemoApp")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: CLITests.demo), to: dir)
        try Data("suppressions:\n  - rule: duplicate_plist_key\n    reason: accepted\n".utf8).write(to: dir.appendingPathComponent(".preflight.yml"))
        let suppressed = try sarif(["scan", "."], cwd: dir)
        try validate(suppressed, "with a suppression")
        let results = try XCTUnwrap((suppressed["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        XCTAssertTrue(results.contains { ($0["suppressions"] as? [[String: Any]])?.first?["justification"] as? String == "accepted" })
    }

    /// An unreadable input: still a valid log, whose invocation failed and says why.
    func testAnUnreadableInputGivesAValidLogThatSaysSo() throws {
        _ = try officialSchema()
        for args in [["scan", "/nonexistent/App.ipa"], ["scan", "Examples/DemoApp", "/nonexistent/App.ipa"]] {
            let doc = try sarif(args, status: 1)
            try validate(doc, "\(args)")
            let invocation = try XCTUnwrap(((doc["runs"] as? [[String: Any]])?.first?["invocations"] as? [[String: Any]])?.first)
            XCTAssertEqual(invocation["executionSuccessful"] as? Bool, false)
            let notes = try XCTUnwrap(invocation["toolExecutionNotifications"] as? [[String: Any]])
            XCTAssertEqual(notes.compactMap { ($0["message"] as? [String: Any])?["text"] as? String }, ["/nonexistent/App.ipa: no such file or folder"])
            XCTAssertEqual(notes.first?["level"] as? String, "error")
        }
    }

    /// What code scanning reads beyond the schema: a security severity on security rules, a help
    /// page under docs/rules/ for every rule, and a fingerprint on every result.
    func checkCodeScanningProperties(_ doc: [String: Any], file: StaticString = #filePath, line: UInt = #line) throws {
        let run = try XCTUnwrap((doc["runs"] as? [[String: Any]])?.first, file: file, line: line)
        let rules = try XCTUnwrap((run["tool"] as? [String: Any]).flatMap { $0["driver"] as? [String: Any] }?["rules"] as? [[String: Any]])
        XCTAssertFalse(rules.isEmpty, file: file, line: line)
        var security = 0
        for rule in rules {
            let id = try XCTUnwrap(rule["id"] as? String)
            let help = try XCTUnwrap(rule["helpUri"] as? String, "\(id) has a helpUri", file: file, line: line)
            XCTAssertEqual(help, "https://github.com/preflight-ios/preflight/blob/main/docs/rules/\(id).md", file: file, line: line)
            XCTAssertTrue(FileManager.default.fileExists(atPath: CLITests.packageRoot.appendingPathComponent("docs/rules/\(id).md").path),
                          "docs/rules/\(id).md exists", file: file, line: line)
            let properties = try XCTUnwrap(rule["properties"] as? [String: Any], file: file, line: line)
            let tags = properties["tags"] as? [String] ?? []
            if tags.contains("security") {
                security += 1
                // GitHub reads a number from 0.0 to 10.0, as a string.
                let score = try XCTUnwrap((properties["security-severity"] as? String).flatMap(Double.init), "\(id)", file: file, line: line)
                XCTAssertTrue((0...10).contains(score), "\(id): \(score)", file: file, line: line)
            } else {
                XCTAssertNil(properties["security-severity"], id, file: file, line: line)
            }
        }
        XCTAssertGreaterThan(security, 0, "the report has security rules", file: file, line: line)
        let results = try XCTUnwrap(run["results"] as? [[String: Any]], file: file, line: line)
        XCTAssertFalse(results.isEmpty, file: file, line: line)
        for result in results {
            let print = (result["partialFingerprints"] as? [String: String])?["preflightFingerprint/v1"] ?? ""
            XCTAssertFalse(print.isEmpty, "\(result["ruleId"] ?? "?") has a partial fingerprint", file: file, line: line)
        }
    }
}
