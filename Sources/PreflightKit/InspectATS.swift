import Foundation
import Artifacts
import Rules

/// The effective App Transport Security policy of a bundle, for `preflight inspect`: what iOS
/// does for hosts outside `NSExceptionDomains` per connection kind and iOS generation, and
/// what each exception domain's dictionary requires. Only bundles that set `NSAppTransportSecurity`.
extension InspectReport {
    static func ats(_ b: AppBundle) -> [String: Any]? {
        let policy = ATSPolicy(bundle: b)
        guard let c = policy.configuration else { return nil }
        var global: [String: Any] = [:]
        for generation in policy.generations {
            let open = policy.globallyOpen(on: generation)
            global[generation.rawValue] = Dictionary(uniqueKeysWithValues: ATSConnectionKind.allCases.map { kind in
                (kind.rawValue, open.first { $0.kind == kind }.map { "off (\($0.key))" } ?? "on")
            })
        }
        let domains = c.exceptionDomains.map { d -> [String: Any] in
            let rules = ATSPolicy.decision(of: d)
            var entry: [String: Any] = ["domain": d.name, "includesSubdomains": d.includesSubdomains?.value ?? false, "allowsInsecureHTTP": rules.allowsInsecureHTTP,
                    "minimumTLS": rules.minimumTLS?.rawValue ?? NSNull(), "requiresForwardSecrecy": rules.requiresForwardSecrecy,
                    "requiresCertificateTransparency": rules.requiresCertificateTransparency]
            if let range = ATSAddressRange(d.name) {
                entry["addressRange"] = ["prefixLength": range.prefixLength, "ipVersion": range.bytes.count == 4 ? 4 : 6,
                                         "honouredFrom": "iOS \(ATSAddressRange.firstHonouringMajorVersion)"] as [String: Any]
            }
            return entry
        }
        return ["global": global, "exceptionDomains": domains, "pinnedDomains": c.pinnedDomains.map(\.name), "issueCount": c.issues.count]
    }

    static func atsText(_ b: AppBundle) -> String {
        let policy = ATSPolicy(bundle: b)
        guard let c = policy.configuration else { return "" }
        var out = ""
        for generation in policy.generations {
            let open = policy.globallyOpen(on: generation)
            let state = open.isEmpty ? "on" : "off for " + open.map { "\($0.kind.rawValue) (\($0.key))" }.joined(separator: ", ")
            out += "  ATS (\(generation.rawValue)): \(state)\n"
        }
        for d in c.exceptionDomains {
            let r = ATSPolicy.decision(of: d)
            let address = ATSAddressRange(d.name).map { "\($0.isRange ? " (IP range" : " (IP address"), iOS \(ATSAddressRange.firstHonouringMajorVersion)+)" } ?? ""
            out += "  ATS exception \(d.name)\(address)\(d.includesSubdomains?.value == true ? " +subdomains" : ""): "
                + "\(r.allowsInsecureHTTP ? "HTTP allowed" : "HTTPS only"), minimum TLS \(r.minimumTLS?.rawValue ?? "none")"
                + "\(r.requiresForwardSecrecy ? "" : ", no forward secrecy")\(r.requiresCertificateTransparency ? ", CT required" : "")\n"
        }
        if !c.pinnedDomains.isEmpty { out += "  ATS pinned:  \(c.pinnedDomains.map(\.name).joined(separator: ", "))\n" }
        return out
    }
}
