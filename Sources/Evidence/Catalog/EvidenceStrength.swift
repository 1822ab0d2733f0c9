/// How much a single reference proves.
///
/// `definite`: the reference alone means the code uses the protected resource (an
/// authorization request, or a class that exists only to reach the resource).
/// `indicative`: the reference suggests use but has innocent readings (status reads,
/// classes shared with unprotected features, selectors whose argument decides the resource).
public enum EvidenceStrength: String, Sendable, Hashable, Codable, Comparable, CaseIterable {
    case indicative
    case definite

    public static func < (lhs: EvidenceStrength, rhs: EvidenceStrength) -> Bool {
        lhs == .indicative && rhs == .definite
    }
}
