import XCTest
@testable import Rules

/// `docs/rules/<id>.md` is generated from each rule's description and examples. Run the tests
/// with `PREFLIGHT_UPDATE_DOCS=1` to regenerate after changing a rule.
final class RuleDocsTests: XCTestCase {
    static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/rules")

    func testRuleDocsAreCurrent() throws {
        let update = ProcessInfo.processInfo.environment["PREFLIGHT_UPDATE_DOCS"] == "1"
        if update { try FileManager.default.createDirectory(at: Self.docs, withIntermediateDirectories: true) }
        var index = "# Rules\n\nEach page shows examples that trigger the rule and examples that do not. In a triggering example, `↓` marks where the finding points: a line and column in a file, or, after a path, that file or folder as a whole.\n\n| rule | severity | area | summary |\n|---|---|---|---|\n"
        for rule in RuleRegistry.all.sorted(by: { $0.description.identifier < $1.description.identifier }) {
            let d = rule.description
            index += "| [`\(d.identifier)`](\(d.identifier).md) | \(d.severity.rawValue)\(d.optIn ? " (opt-in)" : "") | \(d.area.rawValue) | \(d.summary) |\n"
            try check(RuleDocumentation.markdown(d), name: "\(d.identifier).md", update: update)
        }
        index += "\nHow Preflight reads every App Transport Security key and precedence case, each row a test: [ats-reading.md](ats-reading.md).\n"
        index += "\n" + ITMSCoverage.markdown(rules: RuleRegistry.all.map { $0.description })
        try check(index, name: "README.md", update: update)
        try check(ATSReadingTable.markdown(), name: "ats-reading.md", update: update)
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.docs.path).filter { $0.hasSuffix(".md") }
        XCTAssertEqual(files.count, RuleRegistry.all.count + 2, "docs/rules has pages for rules that no longer exist")
    }

    func check(_ text: String, name: String, update: Bool) throws {
        let url = Self.docs.appendingPathComponent(name)
        if update { try Data(text.utf8).write(to: url); return }
        let current = try? String(contentsOf: url, encoding: .utf8)
        XCTAssertEqual(current, text, "docs/rules/\(name) is stale: run PREFLIGHT_UPDATE_DOCS=1 swift test --filter RuleDocsTests")
    }
}
