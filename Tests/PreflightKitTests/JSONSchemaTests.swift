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

    /// The subset of JSON Schema the file uses: type (one or a list), const, enum, required,
    /// properties, additionalProperties false, items, pattern, minimum and local `$ref`s.
    static func errors(_ value: Any, _ schema: [String: Any], at path: String = "$") -> [String] {
        if let ref = schema["$ref"] as? String {
            let name = String(ref.dropFirst("#/$defs/".count))
            guard let defs = Self.schema["$defs"] as? [String: Any], let target = defs[name] as? [String: Any] else { return ["\(path): unknown \(ref)"] }
            return errors(value, target, at: path)
        }
        var out: [String] = []
        if let types = (schema["type"] as? [String]) ?? (schema["type"] as? String).map({ [$0] }),
           !types.contains(where: { typeMatches(value, $0) }) {
            return ["\(path): \(value) is not \(types.joined(separator: " or "))"]
        }
        if let c = schema["const"], "\(c)" != "\(value)" { out.append("\(path): \(value) is not \(c)") }
        if let options = schema["enum"] as? [Any], !options.contains(where: { "\($0)" == "\(value)" }) {
            out.append("\(path): \(value) is not one of \(options)")
        }
        if let pattern = schema["pattern"] as? String, let s = value as? String, s.range(of: pattern, options: .regularExpression) == nil {
            out.append("\(path): \(s) does not match \(pattern)")
        }
        if let minimum = schema["minimum"] as? Int, let n = value as? Int, n < minimum { out.append("\(path): \(n) < \(minimum)") }
        if let object = value as? [String: Any] {
            for key in schema["required"] as? [String] ?? [] where object[key] == nil { out.append("\(path): no \(key)") }
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for (key, v) in object {
                if let sub = properties[key] as? [String: Any] {
                    out += errors(v, sub, at: "\(path).\(key)")
                } else if schema["additionalProperties"] as? Bool == false {
                    out.append("\(path): unexpected \(key)")
                }
            }
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            for (i, v) in array.enumerated() { out += errors(v, items, at: "\(path)[\(i)]") }
        }
        return out
    }

    static func typeMatches(_ value: Any, _ type: String) -> Bool {
        switch type {
        case "null": return value is NSNull
        case "object": return value is [String: Any]
        case "array": return value is [Any]
        case "string": return value is String
        case "boolean": return value is Bool
        case "integer": return value is Int
        case "number": return value is Int || value is Double
        default: return false
        }
    }

    func validate(_ args: [String], cwd: URL = CLITests.packageRoot, file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try CLITests.run(args + ["--format", "json"], cwd: cwd)
        let doc = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
        XCTAssertEqual(Self.errors(doc, Self.schema), [], "\(args)", file: file, line: line)
    }

    func testTheValidatorCatchesWhatTheSchemaForbids() {
        XCTAssertFalse(Self.schema.isEmpty, "docs/json-schema.json is read")
        let bad: [String: Any] = ["schemaVersion": 2, "tool": ["name": "p", "version": "1", "informationURI": "u"],
                                  "input": ["path": "x", "kind": "zip"], "bundles": [], "findings": [["rule": "Bad-Id"]], "suppressed": [], "extra": true]
        let found = Self.errors(bad, Self.schema)
        for expected in ["$: unexpected extra", "$.schemaVersion: 2 is not 1", "$.input.kind: zip is not one of", "$.findings[0]: no severity",
                         "$.findings[0].rule: Bad-Id does not match"] {
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
