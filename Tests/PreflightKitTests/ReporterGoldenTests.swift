import XCTest
import TestSupport
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import Reports

/// The demo app in every report format that has no golden of its own elsewhere, run from the
/// repository's root as CI runs it (so paths are relative), and several reports in one run.
final class ReporterGoldenTests: XCTestCase {
    static let root = CLITests.packageRoot

    func check(_ format: String, golden name: String) throws {
        let r = try CLITests.run(["scan", "Examples/DemoApp", "--report", format], cwd: Self.root)
        XCTAssertEqual(r.status, 2, r.stderr)
        try GoldenTests.compare(r.stdout, golden: name)
    }

    /// The golden `.ipa` in the same formats, scanned from its folder so paths are relative.
    func checkIPA(_ format: String, golden name: String) throws {
        let ipa = try GoldenTests.makeIPA()
        let r = try CLITests.run(["scan", ipa.lastPathComponent, "--report", format], cwd: ipa.deletingLastPathComponent())
        XCTAssertEqual(r.status, 2, r.stderr)
        try GoldenTests.compare(r.stdout, golden: name)
    }

    /// Formats that name the checkout by its absolute path (Xcode diagnostics, SARIF's SRCROOT):
    /// the golden has `<root>` in its place.
    func checkAtRoot(_ format: String, golden name: String) throws {
        let r = try CLITests.run(["scan", "Examples/DemoApp", "--report", format], cwd: Self.root)
        XCTAssertEqual(r.status, 2, r.stderr)
        var root = Self.root.path
        while root.hasSuffix("/") { root.removeLast() }
        try GoldenTests.compare(r.stdout.replacingOccurrences(of: root + "/", with: "<root>/"), golden: name)
    }

    func testDemoAppXcodeSARIFAndHTML() throws {
        try checkAtRoot("xcode", golden: "demo-app.xcode.txt")
        try checkAtRoot("sarif", golden: "demo-app.sarif")
        try check("html", golden: "demo-app.html")
    }

    func testIPAInEveryTextFormat() throws {
        try checkIPA("html", golden: "synthetic-ipa.html")
        try checkIPA("xcode", golden: "synthetic-ipa.xcode.txt")
        try checkIPA("markdown", golden: "synthetic-ipa.md")
        try checkIPA("junit", golden: "synthetic-ipa.junit.xml")
        try checkIPA("github", golden: "synthetic-ipa.github.txt")
        try checkIPA("sarif", golden: "synthetic-ipa.sarif")
    }

    func testMarkdown() throws { try check("markdown", golden: "demo-app.md") }
    func testJUnit() throws { try check("junit", golden: "demo-app.junit.xml") }
    func testGitHubActions() throws { try check("github", golden: "demo-app.github.txt") }

    func testJUnitIsWellFormedXMLWithOneCasePerRuleAndBundle() throws {
        let r = try CLITests.run(["scan", "Examples/DemoApp", "--report", "junit"], cwd: Self.root)
        let doc = try XMLDocument(data: Data(r.stdout.utf8))
        let cases = try doc.nodes(forXPath: "//testcase")
        let failures = try doc.nodes(forXPath: "//testcase[failure]")
        XCTAssertFalse(failures.isEmpty)
        let names = cases.compactMap { ($0 as? XMLElement)?.attribute(forName: "classname")?.stringValue }
        XCTAssertEqual(Set(names), ["preflight.DemoApp", "preflight.ShareExtension"])
        let root = try XCTUnwrap(doc.rootElement())
        XCTAssertEqual(root.attribute(forName: "tests")?.stringValue, "\(cases.count)")
        XCTAssertEqual(root.attribute(forName: "failures")?.stringValue, "\(failures.count)")
    }

    func testSeveralReportsInOneRunAndTheStepSummary() throws {
        let dir = try Scratch.folder("reports")
        let summary = dir.appendingPathComponent("summary.md")
        try Data("earlier step\n".utf8).write(to: summary)
        let json = dir.appendingPathComponent("out.json"), sarif = dir.appendingPathComponent("out.sarif")
        let r = try CLITests.run(["scan", "Examples/DemoApp", "--report", "json:" + json.path, "--report", "sarif:" + sarif.path,
                                  "--report", "github"], cwd: Self.root, environment: ["GITHUB_STEP_SUMMARY": summary.path])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("::error file=Examples/DemoApp/"), r.stdout)
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        XCTAssertTrue(try String(contentsOf: sarif, encoding: .utf8).contains("\"version\" : \"2.1.0\""))
        let written = try String(contentsOf: summary, encoding: .utf8)
        XCTAssertTrue(written.hasPrefix("earlier step\n# Preflight report\n"), "the summary is appended")
    }

    func testTwoReportsOnStandardOutputAreRefused() throws {
        let r = try CLITests.run(["scan", "Examples/DemoApp", "--report", "json", "--report", "markdown"], cwd: Self.root)
        XCTAssertEqual(r.status, 64)
        XCTAssertTrue(r.stderr.contains("only one report can go to standard output"), r.stderr)
    }

    func testGitHubCommandEscaping() {
        XCTAssertEqual(GitHubActionsReporter.data("50% done\nnext"), "50%25 done%0Anext")
        XCTAssertEqual(GitHubActionsReporter.property("a:b,c"), "a%3Ab%2Cc")
    }
}
