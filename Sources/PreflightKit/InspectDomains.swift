import Foundation
import Artifacts
import Evidence

/// The hosts each bundle's shipping code names in `http://` and `https://` URLs (source
/// literals, binary strings), for `inspect`: what the app contacts, beside its ATS policy.
public struct ContactedDomain: Sendable, Equatable {
    public var host: String
    /// `http`, `https`, or both.
    public var schemes: [String]
    /// Where the host is named (up to three places), and how many places in all.
    public var seenAt: [String]
    public var count: Int
}

extension InspectReport {
    /// Contacted hosts by bundle name.
    public static func contactedDomains(_ loaded: LoadedInput, limits: ReaderLimits = .default) -> [String: [ContactedDomain]] {
        let urls = URLEvidence.scan(loaded, limits: limits, schemes: ["http", "https"]).urls.filter(\.ships)
        var out: [String: [ContactedDomain]] = [:]
        for (bundle, list) in Dictionary(grouping: urls, by: \.bundle) {
            out[bundle] = Dictionary(grouping: list, by: \.host).map { host, uses in
                let places = uses.map { u -> String in
                    switch u.location {
                    case .source(let p, let l, _): return "\(p):\(l)"
                    case .binary(let p, _): return p
                    }
                }
                return ContactedDomain(host: host, schemes: Array(Set(uses.map(\.scheme))).sorted(),
                                       seenAt: Array(Array(Set(places)).sorted().prefix(3)), count: Set(places).count)
            }.sorted { $0.host < $1.host }
        }
        return out
    }

    static func domainsText(_ domains: [ContactedDomain]) -> String {
        domains.map { d in
            let more = d.count > d.seenAt.count ? ", \(d.count) places" : ""
            return "  contacts:    \(d.host) (\(d.schemes.joined(separator: ", ")); \(d.seenAt.joined(separator: ", "))\(more))\n"
        }.joined()
    }

    static func domainsJSON(_ domains: [ContactedDomain]) -> [[String: Any]] {
        domains.map { ["host": $0.host, "schemes": $0.schemes, "seenAt": $0.seenAt, "count": $0.count] }
    }
}
