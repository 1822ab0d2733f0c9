import XCTest
import TestSupport
import Foundation

/// The HTML report as a person sees it: headless Chromium loads the file, runs its script, and
/// the DOM it leaves is checked (filters from the address, counts, no external asset).
final class HTMLReportTests: XCTestCase {
    static func chromium() -> String? { BuiltProducts.chromium() }

    /// The DOM after the page's script ran, for the report opened with `hash`.
    func dom(_ file: URL, hash: String) throws -> String {
        guard let browser = Self.chromium() else {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("CI installs chromium (.ci/run)") }
            throw XCTSkip("chromium is not installed")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: browser)
        p.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", file.absoluteString + hash]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = Pipe()
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    func shown(_ dom: String) -> Int? {
        guard let r = dom.range(of: #"data-shown="(\d+)""#, options: .regularExpression) else { return nil }
        return Int(dom[r].filter(\.isNumber))
    }

    func testTheReportFiltersAndCountsInABrowser() throws {
        // Skip before any assertion: an XCTSkip thrown inside XCTAssertEqual's autoclosure
        // counts as a failure, not a skip (a fresh machine without Chromium saw 3 failures).
        guard Self.chromium() != nil else {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("CI installs chromium (.ci/run)") }
            throw XCTSkip("chromium is not installed (Debian: apt-get install chromium)")
        }
        let dir = try Scratch.folder("html")
        let html = dir.appendingPathComponent("report.html"), json = dir.appendingPathComponent("report.json")
        let r = try CLITests.run(["scan", "Examples/DemoApp", "--report", "html:" + html.path, "--report", "json:" + json.path],
                                 cwd: CLITests.packageRoot)
        XCTAssertEqual(r.status, 2, r.stderr)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        let findings = try XCTUnwrap(doc["findings"] as? [[String: Any]])
        let count = { (key: String, value: String) in findings.filter { $0[key] as? String == value }.count }

        let page = try String(contentsOf: html, encoding: .utf8)
        XCTAssertNil(page.range(of: #"(src|href)\s*=\s*"(https?:)?//"#, options: .regularExpression), "no external asset")

        let all = try dom(html, hash: ""), errors = try dom(html, hash: "#severity=error")
        let extensionOnly = try dom(html, hash: "#bundle=ShareExtension")
        XCTAssertEqual(shown(all), findings.count)
        XCTAssertEqual(shown(errors), count("severity", "error"))
        XCTAssertEqual(shown(extensionOnly), count("bundle", "ShareExtension"))
        let oneRule = try dom(html, hash: "#rule=placeholder_purpose_string&severity=error")
        XCTAssertEqual(shown(oneRule), count("rule", "placeholder_purpose_string"))
        XCTAssertTrue(oneRule.contains("id=\"count-error\">\(count("severity", "error"))<"), "the summary counts every finding")
    }
}
