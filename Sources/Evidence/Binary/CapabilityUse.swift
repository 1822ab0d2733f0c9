/// One protected capability a binary uses, with the reference that shows it.
public struct CapabilityUse: Sendable, Hashable, Comparable {
    public var capability: String
    public var key: String
    /// The class name, selector, C symbol or full mangled Swift symbol found.
    public var proof: String
    public var proofKind: TriggerKind
    public var strength: EvidenceStrength
    /// For selector triggers that need a class too: that class.
    public var alongsideClass: String?

    public init(capability: String, key: String, proof: String, proofKind: TriggerKind,
                strength: EvidenceStrength, alongsideClass: String? = nil) {
        self.capability = capability
        self.key = key
        self.proof = proof
        self.proofKind = proofKind
        self.strength = strength
        self.alongsideClass = alongsideClass
    }

    /// Capability, then key, then definite before indicative, then proof.
    public static func < (lhs: CapabilityUse, rhs: CapabilityUse) -> Bool {
        if lhs.capability != rhs.capability { return lhs.capability < rhs.capability }
        if lhs.key != rhs.key { return lhs.key < rhs.key }
        if lhs.strength != rhs.strength { return lhs.strength > rhs.strength }
        if lhs.proofKind != rhs.proofKind {
            return TriggerKind.allCases.firstIndex(of: lhs.proofKind)!
                < TriggerKind.allCases.firstIndex(of: rhs.proofKind)!
        }
        if lhs.proof != rhs.proof { return lhs.proof < rhs.proof }
        return (lhs.alongsideClass ?? "") < (rhs.alongsideClass ?? "")
    }
}
