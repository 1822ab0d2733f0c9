import Foundation
import Formats

/// `--timings` as text: the phases in the order they ran, then the slowest rules.
enum TimingsTable {
    static let slowestRules = 10

    static func render(_ entries: [PhaseTimings.Entry]) -> String {
        let rules = entries.filter { $0.name.hasPrefix("rule ") }
        let phases = entries.filter { !$0.name.hasPrefix("rule ") }
        var lines = ["timings (seconds; phases run on several threads add up):"]
        for e in phases { lines.append(row(e.name, e.seconds, count: e.count)) }
        let total = rules.reduce(0) { $0 + $1.seconds }
        lines.append(row("rules (\(rules.count), summed)", total, count: 1))
        for e in rules.sorted(by: { ($0.seconds, $1.name) > ($1.seconds, $0.name) }).prefix(slowestRules) {
            lines.append(row("  " + e.name, e.seconds, count: 1))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func row(_ name: String, _ seconds: Double, count: Int) -> String {
        let label = count > 1 ? "\(name) (\(count))" : name
        return label.padding(toLength: max(label.count, 46), withPad: " ", startingAt: 0) + String(format: "%8.3f", seconds)
    }
}
