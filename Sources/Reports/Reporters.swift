import Findings

/// Every reporter, by the identifier `--format` takes.
public enum Reporters {
    public static let all: [any Reporter.Type] = [
        XcodeReporter.self, JSONReporter.self, SARIFReporter.self, MarkdownReporter.self, HTMLReporter.self, JUnitReporter.self, GitHubActionsReporter.self,
    ]
    public static var identifiers: [String] { all.map { $0.identifier } }
    public static func reporter(_ id: String) -> (any Reporter.Type)? { all.first { $0.identifier == id } }
}
