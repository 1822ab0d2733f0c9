import XCTest
import Formats

/// README's "Limits" table documents `--limit` and `limits:` in `.preflight.yml`: the same
/// names, in the same order, with the defaults the readers use.
final class LimitsDocumentationTests: XCTestCase {
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
}
