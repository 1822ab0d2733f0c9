import Foundation

/// What a reporter shows of a rule (SARIF rule metadata, help text): the rule engine's
/// description reduced to plain values.
public struct RuleInfo: Sendable, Equatable {
    public var identifier: String
    public var name: String
    public var summary: String
    /// Why it matters and how to fix it (Markdown).
    public var rationale: String
    /// The rule's area (`privacy`, `bundle`, …).
    public var area: String
    public var severity: Severity
    public var optIn: Bool
    public var tags: [String]
    public var references: [String]
    /// App Store Connect upload errors (`ITMS-90087`) the rule finds before the upload.
    public var itms: [String]

    public init(identifier: String, name: String, summary: String, rationale: String, area: String,
                severity: Severity, optIn: Bool, tags: [String], references: [String], itms: [String] = []) {
        self.identifier = identifier
        self.name = name
        self.summary = summary
        self.rationale = rationale
        self.area = area
        self.severity = severity
        self.optIn = optIn
        self.tags = tags
        self.references = references
        self.itms = itms
    }
}
