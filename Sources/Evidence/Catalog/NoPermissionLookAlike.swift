/// An API that looks like it reaches a protected resource but needs no purpose string.
/// Its names are never triggers, so rules never flag it.
public struct NoPermissionLookAlike: Sendable, Hashable, Codable {
    public let api: String
    public let kind: TriggerKind
    /// Class names, selectors or mangled-name substrings that identify it.
    public let names: [String]
    /// The capability it is mistaken for, if any.
    public let resemblesCapability: String?
    public let reason: String
    public let source: String
    public let confidence: FactConfidence

    public init(api: String, kind: TriggerKind, names: [String], resembles capability: String?,
                reason: String, source: String, confidence: FactConfidence) {
        self.api = api
        self.kind = kind
        self.names = names
        self.resemblesCapability = capability
        self.reason = reason
        self.source = source
        self.confidence = confidence
    }
}
