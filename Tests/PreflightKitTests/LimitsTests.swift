import XCTest
import Formats
import PreflightKit

/// README's "Limits" table documents `--limit` and `limits:` in `.preflight.yml`: the same
/// names, in the same order, with the defaults the readers use; values out of range are
/// refused in both places.
final class LimitsTests: XCTestCase {
    func testReadmeListsEveryLimitWithItsDefault() throws {
        let readme = try String(contentsOf: CLITests.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `max-") }
        let documented = rows.map { row -> (name: String, value: Int?) in
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            return (cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`")), Int(cells[1].prefix { $0.isNumber }))
        }
        XCTAssertEqual(documented.map(\.name), ReaderLimits.default.named.map(\.0))
        XCTAssertEqual(documented.map(\.value), ReaderLimits.default.named.map(\.1))
    }

    func testTheCommandLineAcceptsEveryLimitAndNamesThemWhenOneIsUnknown() throws {
        let all = ReaderLimits.default.named.flatMap { ["--limit", "\($0.0)=\($0.1)"] }
        let withDefaults = try CLITests.run(["scan", CLITests.demo, "--format", "json"] + all)
        XCTAssertEqual(withDefaults.status, 2, withDefaults.stderr)

        let unknown = try CLITests.run(["scan", CLITests.demo, "--limit", "max-bogus=1"])
        XCTAssertEqual(unknown.status, 64)
        for (name, _) in ReaderLimits.default.named {
            XCTAssertTrue(unknown.stderr.contains(name), "\(name) missing from: \(unknown.stderr)")
        }
    }

    func testValuesOutOfRangeAreRefused() throws {
        let ceiling = try XCTUnwrap(Configuration.limitCeilings["max-nesting-depth"])
        XCTAssertNoThrow(try Configuration.parse(yaml: "limits:\n  max-nesting-depth: \(ceiling)\n"))
        for (yaml, message) in [("max-nesting-depth: \(ceiling + 1)", "can be at most \(ceiling)"),
                                ("max-file-bytes: 0", "must be a positive integer"),
                                ("max-bogus: 3", "unknown limit 'max-bogus'")] {
            XCTAssertThrowsError(try Configuration.parse(yaml: "limits:\n  \(yaml)\n", path: "p.yml"), yaml) { error in
                XCTAssertTrue("\(error)".hasPrefix("p.yml:2: "), "\(error)")
                XCTAssertTrue("\(error)".contains(message), "\(error)")
            }
        }
        for value in ["\(ceiling + 1)", "-1", "0", "ten"] {
            let r = try CLITests.run(["scan", CLITests.demo, "--limit", "max-nesting-depth=\(value)"])
            XCTAssertEqual(r.status, 64, "\(value): \(r.stderr)")
        }
    }
}

/// A source file the scan leaves unread is a finding naming the limit, never a silent gap.
final class SourceLimitTests: XCTestCase {
    func testOversizedSourceFileIsReported() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("preflight-src-limit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("App"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("<plist version=\"1.0\"><dict><key>CFBundleIdentifier</key><string>a</string></dict></plist>".utf8)
            .write(to: folder.appendingPathComponent("App/Info.plist"))
        try Data(("import CoreLocation\nlet m = CLLocationManager()\n" + String(repeating: "// padding\n", count: 20)).utf8)
            .write(to: folder.appendingPathComponent("App/Big.swift"))
        var configuration = Configuration()
        try configuration.setLimit("max-source-file-bytes", to: 64)
        let findings = try PreflightScanner.scan(folder.path, configuration: configuration).findings.filter { $0.rule == "unreadable_file" }
        XCTAssertEqual(findings.map(\.file), ["App/Big.swift"])
        XCTAssertEqual(findings.first?.severity, .warning)
        XCTAssertTrue(findings.first?.message.contains("max-source-file-bytes limit of 64") ?? false, findings.first?.message ?? "")
        // Under the default limits the same file is scanned and nothing is reported about it.
        XCTAssertEqual(try PreflightScanner.scan(folder.path).findings.filter { $0.rule == "unreadable_file" }, [])
    }
}
