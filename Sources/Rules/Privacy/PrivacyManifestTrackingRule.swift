import Foundation
import Artifacts
import Evidence
import Formats

public struct PrivacyManifestTrackingRule: Rule {
    public init() {}
    typealias Document = PrivacyManifestDocument
    typealias Catalog = PrivacyManifestCatalog

    public static let description = RuleDescription(
        identifier: "privacy_manifest_tracking",
        name: "Privacy manifest tracking flag and domains disagree",
        summary: "`NSPrivacyTrackingDomains` lists domains while `NSPrivacyTracking` is not true, `NSPrivacyTracking` is true with no domain, or a tracking domain is not a plain domain name.",
        rationale: """
        App Store Connect requires `NSPrivacyTracking` to be true when \
        `NSPrivacyTrackingDomains` is not empty, and rejects the upload otherwise: ITMS-91064 \
        for the app, extension and framework manifests, ITMS-91107 for manifests elsewhere such \
        as SDK resource bundles (since 2024-11-12). A missing `NSPrivacyTracking` counts as \
        false. Set it to true if the app or SDK tracks (and ask for App Tracking Transparency), \
        else remove the domains.

        The other direction is a warning: Apple's documentation says that when \
        `NSPrivacyTracking` is true, `NSPrivacyTrackingDomains` must list at least one domain; \
        one 2026 upload was reported rejected with ITMS-91064 for it.

        Each tracking domain should be a domain name as the app connects to it \
        (`ads.example.com`): iOS 17+ blocks connections to these domains until the person allows \
        tracking. A URL, a path, a port or a wildcard is not a domain name, and how iOS would \
        match it is undocumented, so the traffic may go unblocked (a warning). A domain listed \
        twice is a warning too.
        """,
        area: .privacyManifest, severity: .error, tags: ["privacy", "app-review", "tracking"],
        references: ["https://developer.apple.com/documentation/bundleresources/app-privacy-configuration/nsprivacytrackingdomains",
                     "ITMS-91064", "ITMS-91107"],
        itms: ["ITMS-91064", "ITMS-91107"],
        triggering: [
            RuleExample(Document.example("""
                <key>NSPrivacyTracking</key>
                ↓<false/>
                <key>NSPrivacyTrackingDomains</key>
                <array>
                \t<string>ads.example.com</string>
                \t↓<string>https://metrics.example.com/v1</string>
                \t↓<string>*.example.net</string>
                </array>
                """),
                        note: "Domains with tracking false (ITMS-91064, an error), a URL and a wildcard (warnings)."),
            RuleExample(Document.builtExample("""
                ↓<key>NSPrivacyTrackingDomains</key>
                <array>
                \t<string>ads.example.com</string>
                \t↓<string>ADS.example.com</string>
                </array>
                """), kind: .app,
                        note: "An SDK's resource bundle with domains and no NSPrivacyTracking (ITMS-91107), one domain twice."),
            RuleExample(Document.example("""
                <key>NSPrivacyTracking</key>
                ↓<true/>
                <key>NSPrivacyTrackingDomains</key>
                <array/>
                """),
                        note: "Tracking without a domain: Apple's documentation asks for at least one (a warning)."),
        ],
        nonTriggering: [
            RuleExample(Document.example("""
                <key>NSPrivacyTracking</key>
                <true/>
                <key>NSPrivacyTrackingDomains</key>
                <array>
                \t<string>ads.example.com</string>
                \t<string>t.example.co.uk</string>
                </array>
                """)),
            RuleExample(Document.example("""
                <key>NSPrivacyTracking</key>
                <false/>
                <key>NSPrivacyTrackingDomains</key>
                <array/>
                """), note: "No tracking, no domains."),
            RuleExample(Document.example(""), note: "An empty manifest."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        eachManifest(context, problems: "tracking-domain problems", key: Catalog.trackingDomains) { flag($0) + domains($0) }
    }

    /// NSPrivacyTracking against NSPrivacyTrackingDomains.
    func flag(_ doc: Document) -> [Finding] {
        let tracking = doc.root.entry(Catalog.tracking)
        let domainsEntry = doc.root.entry(Catalog.trackingDomains)
        guard tracking == nil || tracking?.value.bool != nil, domainsEntry == nil || domainsEntry?.value.array != nil else {
            return []  // a mistyped value is privacy_manifest_schema's
        }
        let domains = doc.strings(Catalog.trackingDomains)
        let tracks = tracking?.value.bool == true
        if !tracks, !domains.isEmpty {
            let stated = tracking == nil ? "is absent (false)" : "is false"
            let position = tracking.map { $0.value.position ?? $0.keyPosition } ?? domainsEntry?.keyPosition
            return [finding("\(doc.name): NSPrivacyTracking \(stated) but NSPrivacyTrackingDomains lists \(domains.count) domain(s) (\(domains[0].value)…); App Store Connect rejects the upload: NSPrivacyTracking must be true if NSPrivacyTrackingDomains isn't empty (\(doc.trackingCode))",
                            bundle: doc.bundle.name, at: doc.location(position), key: Catalog.tracking,
                            fix: "If the app or SDK tracks, set NSPrivacyTracking to <true/> (and request App Tracking Transparency); otherwise empty NSPrivacyTrackingDomains.",
                            fingerprint: [doc.path])]
        }
        if tracks, domainsEntry?.value.array?.isEmpty ?? true {
            let position = tracking.flatMap { $0.value.position ?? $0.keyPosition }
            return [manifestWarning("\(doc.name): NSPrivacyTracking is true but NSPrivacyTrackingDomains lists no domain; Apple's documentation requires at least one domain when NSPrivacyTracking is true, and one upload was reported rejected for it (\(doc.trackingCode))",
                            doc, at: position, key: Catalog.tracking,
                            fix: "List in NSPrivacyTrackingDomains the domains the app or SDK contacts to track; if it does not track, set NSPrivacyTracking to <false/>.",
                            parts: [])]
        }
        return []
    }

    /// Tracking domains that are not host names, or are listed twice.
    func domains(_ doc: Document) -> [Finding] {
        var out: [Finding] = []
        var seen = Set<String>()
        for domain in doc.strings(Catalog.trackingDomains) {
            let path = "\(Catalog.trackingDomains)[\(domain.index)]"
            if let problem = Self.hostProblem(domain.value) {
                let host = domain.value.contains("*") ? nil : Self.host(in: domain.value)
                let fix = host.map { "Write the domain name alone: \($0)." } ?? "List each domain name the app or SDK connects to for tracking, such as ads.example.com."
                out.append(manifestWarning("\(doc.name): tracking domain \"\(domain.value.prefix(200))\" \(problem); iOS blocks connections to the domains listed until the person allows tracking, and how it would match this entry is undocumented",
                                   doc, at: domain.position, key: path, fix: fix, parts: [domain.value]))
            } else if !seen.insert(domain.value.lowercased()).inserted {
                out.append(manifestWarning("\(doc.name): tracking domain \(domain.value) is listed twice (domain names ignore case)", doc, at: domain.position,
                                   key: path, fix: "Remove the repeated \(domain.value).", parts: [domain.value.lowercased()]))
            }
        }
        return out
    }

    /// Why `value` is not a host name, or nil when it is one.
    static func hostProblem(_ value: String) -> String? {
        if value.trimmingCharacters(in: .whitespaces).isEmpty { return "is empty" }
        if value.contains("://") { return "is a URL, not a domain name" }
        if value.contains("*") { return "has a wildcard (list each domain instead)" }
        if value.contains(where: \.isWhitespace) { return "contains white space" }
        if value.contains("/") { return "has a path (list the domain only)" }
        if value.contains(":") { return "has a port (list the domain only)" }
        if value.utf8.count > 253 { return "is longer than a domain name can be (253 characters)" }
        let labels = value.split(separator: ".", omittingEmptySubsequences: false)
        if labels.contains(where: \.isEmpty) { return "has an empty label (a leading, trailing or double dot)" }
        for label in labels {
            if label.utf8.count > 63 { return "has a label longer than 63 characters" }
            if label.hasPrefix("-") || label.hasSuffix("-") { return "has a label that starts or ends with a hyphen" }
            if !label.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }) {
                return "has characters a domain name cannot have (write internationalized names in their xn-- form)"
            }
        }
        return nil
    }

    /// The host of a URL-like value (`https://a.example.com:443/x` → `a.example.com`), if it has a plain one.
    static func host(in value: String) -> String? {
        var rest = Substring(value.trimmingCharacters(in: .whitespaces))
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        rest = rest.prefix { $0 != "/" && $0 != ":" && $0 != "?" }
        let host = String(rest)
        return host != value && hostProblem(host) == nil ? host : nil
    }
}
