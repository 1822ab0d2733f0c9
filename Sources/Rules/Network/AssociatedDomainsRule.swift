import Foundation
import Artifacts
import Formats

public struct AssociatedDomainsRule: Rule {
    public init() {}

    static let key = "com.apple.developer.associated-domains"
    /// The services Apple documents for the entitlement (facts/entitlements.json; Apple's
    /// "Associated Domains Entitlement" page).
    static let services = ["applinks", "webcredentials", "activitycontinuation", "appclips"]
    static let modes = ["developer", "managed", "developer+managed"]

    public static let description = RuleDescription(
        identifier: "associated_domains_format",
        name: "Malformed associated domain",
        summary: "An entry of com.apple.developer.associated-domains is not service:domain[?mode=…] with a known service and a plain host name.",
        rationale: """
        Each entry of the associated domains entitlement has the form \
        `<service>:<fully qualified domain>`, optionally `?mode=developer`, `managed` or \
        `developer+managed`; the services are `applinks` (universal links), `webcredentials` \
        (shared web credentials, password autofill), `activitycontinuation` (Handoff) and \
        `appclips`. To cover the subdomains of a domain, the domain starts with `*.` (the dot \
        is required). iOS fetches `https://<domain>/.well-known/apple-app-site-association` \
        for each entry (through Apple's CDN since iOS 14): an entry it cannot read as a host \
        name associates nothing, so universal links open Safari, password autofill offers no \
        credentials, and the App Clip card does not appear — with no error anywhere.

        - **error**: a lone `*` as the domain (App Store Connect rejects it, ITMS-90046), or an \
        entry that is not `service:domain` at all;
        - **warning**: an unknown or misspelled service (`applink:`, `webcredential:`); a scheme \
        (`applinks:https://example.com`), a path, a query other than `?mode=`, spaces, or a \
        wildcard anywhere but a leading `*.`; a mode other than the three documented; an \
        entitlement value that is not an array of strings.

        Entries that use build-setting references (`applinks:$(APP_DOMAIN)`) are filled in at \
        signing and are not checked. A port after the host (`example.com:8443`) is accepted.
        """,
        area: .entitlements, severity: .warning, tags: ["universal-links", "app-review"],
        references: [
            "https://developer.apple.com/documentation/bundleresources/entitlements/com.apple.developer.associated-domains",
            "https://developer.apple.com/documentation/xcode/supporting-associated-domains",
        ],
        itms: ["ITMS-90046"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("""
                         <key>com.apple.developer.associated-domains</key>
                         <array>
                         \t<string>applinks:www.example.com</string>
                         \t↓<string>applink:example.com</string>
                         \t↓<string>webcredentials:https://login.example.com/</string>
                         \t↓<string>applinks:example.*.com</string>
                         </array>
                         """)],
                        note: "A misspelled service, a scheme and path, a wildcard in the middle: iOS associates none of the three."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("""
                         <key>com.apple.developer.associated-domains</key>
                         <array>
                         \t↓<string>applinks:*</string>
                         \t↓<string>www.example.com</string>
                         \t↓<string>appclips:clip.example.com?mode=production</string>
                         </array>
                         """)],
                        note: "A lone wildcard (rejected at upload), an entry without a service, and an undocumented mode."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("""
                         <key>com.apple.developer.associated-domains</key>
                         <array>
                         \t<string>applinks:example.com</string>
                         \t<string>applinks:*.example.com</string>
                         \t<string>webcredentials:login.example.com?mode=developer</string>
                         \t<string>activitycontinuation:example.com</string>
                         \t<string>appclips:clip.example.com?mode=developer+managed</string>
                         \t<string>applinks:staging.example.com:8443</string>
                         </array>
                         """)],
                        note: "Every documented service, a leading `*.` wildcard, the documented modes, a port."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("""
                         <key>com.apple.developer.associated-domains</key>
                         <array>
                         \t<string>applinks:$(APP_LINK_DOMAIN)</string>
                         \t<string>webcredentials:${WEB_DOMAIN}?mode=developer</string>
                         </array>
                         """)],
                        note: "Build-setting references are filled in at signing."),
        ])

    /// What is wrong with one entry, and how bad it is; nil when it is well formed.
    static func problem(_ entry: String) -> (severity: Severity, reason: String)? {
        if entry.contains("$(") || entry.contains("${") { return nil }
        guard let colon = entry.firstIndex(of: ":") else {
            return (.error, "it has no `service:` prefix (write `applinks:\(entry)` for universal links)")
        }
        let service = String(entry[..<colon])
        var rest = String(entry[entry.index(after: colon)...])
        guard services.contains(service) else {
            if service.lowercased() == "http" || service.lowercased() == "https" {
                return (.error, "it is a URL, not `service:domain` (write `applinks:\(hostPart(rest))`)")
            }
            let close = services.first { ATSKeys.editDistance($0, service.lowercased()) <= 2 }
            return (.warning, "'\(service)' is not a service iOS knows (\(services.joined(separator: ", ")))" + (close.map { "; did you mean '\($0)'?" } ?? ""))
        }
        if rest.hasPrefix("//") || rest.lowercased().hasPrefix("https://") || rest.lowercased().hasPrefix("http://") {
            return (.warning, "the domain has a scheme: write the host name only (`\(service):\(hostPart(rest))`)")
        }
        if let q = rest.firstIndex(of: "?") {
            let query = String(rest[rest.index(after: q)...])
            rest = String(rest[..<q])
            guard query.hasPrefix("mode=") else {
                return (.warning, "the query '?\(query)' is not `?mode=…`")
            }
            let mode = String(query.dropFirst(5))
            guard modes.contains(mode) else {
                return (.warning, "the mode '\(mode)' is not one iOS knows (\(modes.joined(separator: ", ")))")
            }
        }
        if rest.contains("/") { return (.warning, "the domain has a path: iOS reads the association file at the host's `/.well-known/` only") }
        if rest.contains(where: \.isWhitespace) || rest.isEmpty { return (.warning, "the domain is empty or has spaces") }
        var host = rest
        if let portColon = host.lastIndex(of: ":") {
            let port = host[host.index(after: portColon)...]
            guard let n = Int(port), (1...65_535).contains(n) else { return (.warning, "'\(port)' after the host is not a port") }
            host = String(host[..<portColon])
        }
        if host == "*" { return (.error, "a lone `*` matches no domain and App Store Connect rejects it (ITMS-90046)") }
        var labels = host.split(separator: ".", omittingEmptySubsequences: false)
        if labels.first == "*" { labels.removeFirst() }
        if labels.contains(where: { $0.contains("*") }) {
            return (.warning, "a wildcard may only start the domain, as `*.` (here '\(host)')")
        }
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" } }) else {
            return (.warning, "'\(host)' is not a fully qualified host name")
        }
        return nil
    }

    /// The host of a URL-like string, for a suggested fix.
    static func hostPart(_ s: String) -> String {
        var t = Substring(s)
        if let r = t.range(of: "://") { t = t[r.upperBound...] }
        while t.hasPrefix("/") { t = t.dropFirst() }
        return String(t.prefix { $0 != "/" && $0 != "?" })
    }

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for b in context.product.bundles {
            guard let file = b.entitlements, let entry = file.root?.dictionary?.entry(Self.key) else { continue }
            let fix = "Write each entry as <service>:<host>[?mode=developer|managed|developer+managed], e.g. applinks:www.example.com or applinks:*.example.com."
            guard let items = entry.value.array else {
                out.append(finding("\(b.name): \(Self.key) is a \(entry.value.value.typeName), not an array of strings: iOS associates no domain",
                                   bundle: b.name, at: FileLocation(path: file.path, position: entry.value.position ?? entry.keyPosition),
                                   key: Self.key, fix: fix))
                continue
            }
            for item in items.prefix(1_000) {
                let place = FileLocation(path: file.path, position: item.position ?? entry.keyPosition)
                guard let value = item.string else {
                    out.append(finding("\(b.name): an entry of \(Self.key) is a \(item.value.typeName), not a string", bundle: b.name, at: place,
                                       key: Self.key, fix: fix))
                    continue
                }
                guard let (severity, reason) = Self.problem(value) else { continue }
                var f = finding("\(b.name): the associated domain '\(value)' is malformed: \(reason); iOS associates nothing for it",
                                bundle: b.name, at: place, key: Self.key, fix: fix, fingerprint: [value])
                f.severity = severity
                out.append(f)
            }
        }
        return out
    }
}
