import Foundation
import Artifacts
import Formats
import Rules

/// What an app is made of, for fleet queries (`preflight batch`, docs/fleet.md): per bundle its
/// permissions with their purpose strings, entitlements, App Transport Security policy, minimum
/// OS and privacy-manifest tracking; for the app its embedded frameworks, the system frameworks
/// its binaries link and the domains its configuration names. Every value is the one
/// `preflight inspect` and `preflight diff` already compute (`InspectReport`, `ReleaseDiff`);
/// nothing here reads a file.
public struct AppInventory: Sendable, Codable, Equatable {
    public struct Bundle: Sendable, Codable, Equatable {
        public var name: String
        public var kind: String
        public var path: String
        public var identifier: String?
        public var version: String?
        public var build: String?
        public var minimumOS: String?
        /// The containing bundle's name.
        public var parent: String?
        /// Purpose-string key → the text users read (as `preflight diff` compares them).
        public var permissions: [String: String]
        /// Entitlement key path → value.
        public var entitlements: [String: String]
        public var backgroundModes: [String]
        /// Nil when the bundle sets no `NSAppTransportSecurity`.
        public var ats: ATSSummary?
        /// `NSPrivacyTracking` of the bundle's privacy manifests, nil when none says.
        public var privacyTracking: Bool?
        public var trackingDomains: [String]
    }

    public struct ATSSummary: Sendable, Codable, Equatable {
        /// Connection kinds (`url-loading`, `web-content`, `media`) for which ATS is off for
        /// every host on some iOS generation the app supports: cleartext to any host.
        public var globallyOpen: [String]
        public var exceptionDomains: [String]
        /// Exception domains that allow plain HTTP.
        public var insecureHTTPDomains: [String]
        public var pinnedDomains: [String]
        /// `preflight inspect`'s `ats` object for the bundle, as JSON.
        public var policy: String
    }

    public struct Framework: Sendable, Codable, Equatable {
        /// The framework's folder name (`Alamofire.framework`), as `preflight diff` names it.
        public var name: String
        public var identifier: String?
        public var version: String?
    }

    public var bundles: [Bundle]
    /// Embedded frameworks (SDKs shipped inside the app).
    public var frameworks: [Framework]
    /// System frameworks and libraries the app's binaries link (`AdSupport`, `libz`), by name.
    public var linkedSystemFrameworks: [String]
    /// Domains the app's configuration names: ATS exception and pinned domains, privacy-manifest
    /// tracking domains and associated domains (without their `applinks:` service prefix).
    public var domains: [String]

    public static func of(_ product: Product) -> AppInventory {
        var bundles: [Bundle] = [], frameworks: [Framework] = []
        var linked = Set<String>(), domains = Set<String>()
        for b in product.bundles {
            for f in b.binaries {
                for s in f.macho?.slices ?? [] {
                    for l in s.linkedLibraries where l.path.hasPrefix("/System/") || l.path.hasPrefix("/usr/lib/") {
                        linked.insert(systemName(l.path))
                    }
                }
            }
            if b.kind == .framework {
                frameworks.append(Framework(name: PathUtil.lastComponent(b.path), identifier: b.identifier, version: b.shortVersion))
                continue
            }
            let entitlements = ReleaseDiff.flatten(b.entitlements?.root)
            for d in b.entitlements?.root?.dictionary?["com.apple.developer.associated-domains"]?.strings ?? [] {
                let host = d.split(separator: ":", maxSplits: 1).last.map(String.init) ?? d
                domains.insert(String(host.split(separator: "?").first ?? Substring(host)))
            }
            var tracking: Bool?
            var trackingDomains: [String] = []
            for file in b.privacyManifests {
                guard let root = file.root?.dictionary else { continue }
                if let t = root["NSPrivacyTracking"]?.bool { tracking = (tracking ?? false) || t }
                trackingDomains += root["NSPrivacyTrackingDomains"]?.strings ?? []
            }
            domains.formUnion(trackingDomains)
            let ats = atsSummary(b)
            if let ats { domains.formUnion(ats.exceptionDomains + ats.pinnedDomains) }
            bundles.append(Bundle(
                name: b.name, kind: b.kind.rawValue, path: b.path, identifier: b.identifier, version: b.shortVersion,
                build: b.buildVersion, minimumOS: b.minimumOSVersion, parent: product.parent(of: b)?.name,
                permissions: ReleaseDiff.purposes(b), entitlements: entitlements,
                backgroundModes: (b.infoValue("UIBackgroundModes")?.node.strings ?? []).sorted(),
                ats: ats, privacyTracking: tracking, trackingDomains: Array(Set(trackingDomains)).sorted()))
        }
        return AppInventory(bundles: bundles, frameworks: frameworks.sorted { $0.name < $1.name },
                            linkedSystemFrameworks: linked.sorted(), domains: domains.filter { !$0.isEmpty }.sorted())
    }

    /// `/System/Library/Frameworks/AdSupport.framework/AdSupport` → `AdSupport`;
    /// `/usr/lib/libz.1.dylib` → `libz`.
    static func systemName(_ path: String) -> String {
        let parts = path.split(separator: "/")
        if let i = parts.lastIndex(where: { $0.hasSuffix(".framework") }) { return String(parts[i].dropLast(".framework".count)) }
        let file = parts.last.map(String.init) ?? path
        return String(file.split(separator: ".").first ?? Substring(file))
    }

    static func atsSummary(_ b: AppBundle) -> ATSSummary? {
        guard let doc = InspectReport.ats(b) else { return nil }
        let policy = ATSPolicy(bundle: b)
        guard let c = policy.configuration else { return nil }
        var open = Set<String>()
        for generation in policy.generations {
            for o in policy.globallyOpen(on: generation) { open.insert(o.kind.rawValue) }
        }
        let json = (try? JSONSerialization.data(withJSONObject: doc, options: [.sortedKeys, .withoutEscapingSlashes]))
            .map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return ATSSummary(
            globallyOpen: open.sorted(), exceptionDomains: c.exceptionDomains.map(\.name).sorted(),
            insecureHTTPDomains: c.exceptionDomains.filter { ATSPolicy.decision(of: $0).allowsInsecureHTTP }.map(\.name).sorted(),
            pinnedDomains: c.pinnedDomains.map(\.name).sorted(), policy: json)
    }
}
