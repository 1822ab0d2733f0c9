import Foundation
import Findings

/// JUnit XML for CI systems that show test results: one test suite per input, one test case
/// per rule and bundle (a bundle with no finding of a rule passes it); errors and warnings fail
/// their case, notes are written to its output.
public enum JUnitReporter: Reporter {
    public static let identifier = "junit"
    public static let summary = "JUnit XML, one test case per rule and bundle"

    public static func render(_ input: ReportInput, options: ReportOptions = ReportOptions()) -> String {
        var suites: [String] = []
        var totalTests = 0, totalFailures = 0
        for scan in input.scans {
            let used = Set(scan.findings.map(\.rule))
            let rules = input.rules.filter { !$0.optIn || used.contains($0.identifier) }.map(\.identifier)
            let bundles = scan.bundles.map(\.name) + (scan.findings.contains { $0.bundle == nil } ? [""] : [])
            var cases: [String] = []
            var failures = 0
            for bundle in bundles {
                for rule in rules {
                    let found = scan.findings.filter { $0.rule == rule && ($0.bundle ?? "") == bundle }
                    let className = "preflight." + (bundle.isEmpty ? "input" : bundle)
                    var body = ""
                    let failing = found.filter { $0.severity >= .warning }
                    if !failing.isEmpty {
                        failures += 1
                        let worst = failing.map(\.severity).max() ?? .warning
                        let text = failing.map(line).joined(separator: "\n")
                        body += "<failure type=\"\(worst.rawValue)\" message=\"\(xml(failing[0].message))\">\(xml(text))</failure>"
                    }
                    let notes = found.filter { $0.severity == .note }
                    if !notes.isEmpty { body += "<system-out>\(xml(notes.map(line).joined(separator: "\n")))</system-out>" }
                    cases.append("    <testcase classname=\"\(xml(className))\" name=\"\(xml(rule))\"" + (body.isEmpty ? "/>" : ">\(body)</testcase>"))
                }
            }
            totalTests += cases.count
            totalFailures += failures
            suites.append("  <testsuite name=\"\(xml(scan.input))\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\">\n"
                          + cases.joined(separator: "\n") + "\n  </testsuite>")
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"preflight\" tests=\"\(totalTests)\" failures=\"\(totalFailures)\">\n"
            + suites.joined(separator: "\n") + "\n</testsuites>\n"
    }

    static func line(_ f: Finding) -> String {
        let place = f.file.map { $0 + (f.line.map { ":\($0)" } ?? "") + ": " } ?? ""
        return "\(place)\(f.severity.rawValue): \(f.message)" + (f.fix.map { " Fix: \($0)" } ?? "")
    }

    static func xml(_ text: String) -> String { MarkupEscaping.escape(text) }
}
