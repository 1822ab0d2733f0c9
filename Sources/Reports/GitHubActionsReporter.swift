import Foundation
import Findings

/// GitHub Actions workflow commands: each finding becomes an annotation on its file and line
/// in the pull request (`::error file=…,line=…,col=…,title=…::message`). The run's Markdown
/// summary for `$GITHUB_STEP_SUMMARY` is `MarkdownReporter`'s.
public enum GitHubActionsReporter: Reporter {
    public static let identifier = "github"
    public static let summary = "GitHub Actions annotations (workflow commands)"

    public static func render(_ input: ReportInput, options: ReportOptions = ReportOptions()) -> String {
        var lines: [String] = []
        for scan in input.scans {
            for f in scan.findings {
                let command = f.severity == .error ? "error" : f.severity == .warning ? "warning" : "notice"
                var properties: [String] = []
                // Annotations name files by their path in the repository: the scanned folder as
                // given (relative to the job's working directory, the checkout) joined with the
                // finding's file. Archives have no file in the repository to annotate.
                if scan.rootDirectory != nil, let file = f.file {
                    properties.append("file=" + property(repositoryPath(file, in: scan)))
                    if let line = f.line { properties.append("line=\(line)") }
                    if let column = f.column { properties.append("col=\(column)") }
                }
                properties.append("title=" + property("Preflight " + f.rule + (f.bundle.map { " (\($0))" } ?? "")))
                let fix = f.fix.map { "\n\nFix: " + $0 } ?? ""
                lines.append("::\(command) \(properties.joined(separator: ","))::\(data(f.message + fix))")
            }
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// `input/file` for a relative input (`.` dropped), the absolute path for an absolute one.
    static func repositoryPath(_ file: String, in scan: ScannedInput) -> String {
        if scan.input.hasPrefix("/") { return scan.displayPath(file) }
        var base = scan.input
        while base.hasSuffix("/") { base.removeLast() }
        if base == "." || base.isEmpty { return file }
        if base.hasPrefix("./") { base.removeFirst(2) }
        return base + "/" + file
    }

    /// A command's message: `%`, CR and LF escaped as the runner reads them back.
    static func data(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A property value: as `data`, and `:` and `,`, which end it.
    static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
