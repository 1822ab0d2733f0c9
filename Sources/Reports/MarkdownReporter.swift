import Foundation
import Findings

/// A Markdown report to read in a pull request or forward to a release manager: counts by
/// severity, then the findings of each bundle with where, why and the fix.
public enum MarkdownReporter: Reporter {
    public static let identifier = "markdown"
    public static let summary = "a Markdown report (pull requests, GitHub step summaries)"

    public static func render(_ input: ReportInput, options: ReportOptions = ReportOptions()) -> String {
        let all = input.scans.flatMap(\.findings)
        var out = "# Preflight report\n\n"
        out += "| input | errors | warnings | notes |\n|---|---|---|---|\n"
        for scan in input.scans {
            let count = { (s: Severity) in scan.findings.filter { $0.severity == s }.count }
            out += "| \(cell(scan.input)) | \(count(.error)) | \(count(.warning)) | \(count(.note)) |\n"
        }
        let suppressed = input.scans.flatMap(\.suppressed)
        if !suppressed.isEmpty {
            out += "\n\(suppressed.count) finding\(suppressed.count == 1 ? " is" : "s are") suppressed by the configuration:\n\n"
            for s in suppressed {
                out += "- `\(s.finding.rule)`" + (s.finding.bundle.map { " in `\($0)`" } ?? "") + ": \(s.reason)\n"
            }
        }
        if all.isEmpty { return out + "\nNo findings.\n" }
        let names = Dictionary(input.rules.map { ($0.identifier, $0.name) }, uniquingKeysWith: { a, _ in a })
        for scan in input.scans {
            if input.scans.count > 1 { out += "\n## \(scan.input)\n" }
            var byBundle: [String: [Finding]] = [:]
            for f in scan.findings { byBundle[f.bundle ?? "", default: []].append(f) }
            for bundle in byBundle.keys.sorted() {
                out += "\n### \(bundle.isEmpty ? "The input as a whole" : "`\(bundle)`")\n\n"
                for f in byBundle[bundle] ?? [] {
                    var place = f.file.map { "`\($0)" + (f.line.map { ":\($0)" } ?? "") + "`" } ?? ""
                    if !place.isEmpty { place = " at " + place }
                    out += "- **\(f.severity.rawValue)** \(names[f.rule].map { "\($0) " } ?? "")(`\(f.rule)`)\(place): \(f.message)\n"
                    if let fix = f.fix { out += "  - Fix: \(fix)\n" }
                }
            }
        }
        return out
    }

    /// Text for a table cell: pipes and line breaks would end it.
    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
