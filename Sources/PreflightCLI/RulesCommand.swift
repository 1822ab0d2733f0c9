import ArgumentParser
import Foundation
import PreflightKit
import Rules

struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rules", abstract: "List every rule.")

    @Option(name: .shortAndLong, help: "Output format: text or json.")
    var format: String = "text"

    func validate() throws {
        guard ["text", "json"].contains(format) else { throw ValidationError("--format must be text or json") }
    }

    func run() throws {
        let rules = RuleRegistry.all.map { $0.description }
        if format == "json" {
            let list: [[String: Any]] = rules.map {
                ["identifier": $0.identifier, "name": $0.name, "summary": $0.summary, "area": $0.area.rawValue,
                 "severity": $0.severity.rawValue, "optIn": $0.optIn, "tags": $0.tags]
            }
            let data = try JSONSerialization.data(withJSONObject: list, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        let width = rules.map(\.identifier.count).max() ?? 0
        for r in rules.sorted(by: { $0.identifier < $1.identifier }) {
            let id = r.identifier.padding(toLength: width, withPad: " ", startingAt: 0)
            let sev = r.severity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
            print("\(id)  \(sev)  \(r.area.rawValue)\(r.optIn ? " (opt-in)" : "")  \(r.summary)")
        }
    }
}

struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain", abstract: "Explain a rule, with its examples: its docs/rules/ page, for the terminal.")

    @Argument(help: "A rule identifier (see `preflight rules`).")
    var rule: String

    @Flag(name: .customLong("markdown"), help: "Print the page's Markdown source instead.")
    var markdown = false

    func run() throws {
        guard let r = RuleRegistry.rule(rule) else {
            throw ValidationError("unknown rule '\(rule)'; `preflight rules` lists them")
        }
        let page = RuleDocumentation.markdown(r.description)
        let text = markdown ? page : TerminalMarkdown.forStandardOutput().render(page)
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
