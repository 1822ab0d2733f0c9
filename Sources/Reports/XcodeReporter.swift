import Foundation
import Findings

/// `path:line:col: warning: message [rule_id]` — what Xcode shows inline from a Run Script phase.
public enum XcodeReporter: Reporter {
    public static let identifier = "xcode"
    public static let summary = "path:line:column: severity: message [rule], as Xcode shows it inline"

    public static func render(_ input: ReportInput, options: ReportOptions = ReportOptions()) -> String {
        let colored = options.colored
        var lines: [String] = []
        for scan in input.scans {
            for f in scan.findings {
                var location = f.file.map(scan.displayPath) ?? scan.input
                if let l = f.line { location += ":\(l)" + (f.column.map { ":\($0)" } ?? "") }
                var sev = f.severity.rawValue
                if colored {
                    let code = f.severity == .error ? "31" : f.severity == .warning ? "33" : "36"
                    sev = "\u{1b}[1;\(code)m\(sev)\u{1b}[0m"
                }
                var line = "\(location): \(sev): \(f.message) [\(f.rule)]"
                // Without a file of its own the finding points at the input: name its bundle.
                if f.file == nil, let b = f.bundle { line += " (bundle \(b))" }
                lines.append(line)
            }
        }
        let all = input.scans.flatMap(\.findings)
        let counts = Severity.allCases.reversed().map { s in (s, all.filter { $0.severity == s }.count) }
        let summary = counts.map { "\($0.1) \($0.0.rawValue)\($0.1 == 1 ? "" : "s")" }.joined(separator: ", ")
        let inputs = input.scans.count == 1 ? input.scans[0].input : "\(input.scans.count) inputs"
        let suppressed = input.scans.reduce(0) { $0 + $1.suppressed.count }
        lines.append("Preflight: \(summary) in \(inputs)" + (suppressed > 0 ? " (\(suppressed) suppressed by the configuration)." : "."))
        return lines.joined(separator: "\n") + "\n"
    }
}
