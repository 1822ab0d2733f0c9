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
                XCTAssertTrue("\(error)".hasPrefix("p.yml: "), "\(error)")
                XCTAssertTrue("\(error)".contains(message), "\(error)")
            }
        }
        for value in ["\(ceiling + 1)", "-1", "0", "ten"] {
            let r = try CLITests.run(["scan", CLITests.demo, "--limit", "max-nesting-depth=\(value)"])
            XCTAssertEqual(r.status, 64, "\(value): \(r.stderr)")
        }
    }
}
