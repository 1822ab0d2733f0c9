import Foundation
import Artifacts
import Formats

public struct ATSExceptionDomainRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "ats_exception_domain",
        name: "Weak or invalid ATS exception domain",
        summary: "An NSExceptionDomains entry allows plain HTTP, TLS below 1.2 or no forward secrecy, or names its domain in a way ATS never matches.",
        rationale: """
        Each entry of `NSExceptionDomains` replaces ATS's rules for its domain — and, with \
        `NSIncludesSubdomains`, for subdomains one label down (Apple: `math.example.com`, not \
        `advanced.math.example.com`). Reported (OWASP MASVS-NETWORK-1):

        - `NSExceptionAllowsInsecureHTTPLoads` YES (or an old `NSTemporaryException…` / \
        `NSThirdPartyException…` spelling): traffic to the domain can be read and changed by \
        anyone on the path; App Review asks for a justification. Fix: serve it over HTTPS.
        - `NSExceptionMinimumTLSVersion` below TLSv1.2: App Review asks for a justification. \
        Fix: upgrade the server to TLS 1.2 or later and remove the key.
        - `NSExceptionRequiresForwardSecrecy` NO (a note): non-ECDHE ciphers and short keys are \
        accepted, so a leaked server key decrypts recorded traffic. Fix: enable ECDHE suites.
        - A domain string ATS never matches — a scheme, path, port, wildcard or white space — or \
        one Apple says not to write: upper case, a trailing dot (then only the dotted form \
        matches). Two entries that differ only in case are reported too. An IP address or CIDR \
        range (`10.0.0.0/8`, `2001:db8:12::/48`) is a valid key from iOS 17; a bundle that \
        supports earlier versions gets a note that the entry is not honoured there (iOS 10–16 \
        apply no ATS to IP addresses, iOS 9 accepts no address exception). A range with an \
        impossible prefix (`/33` for IPv4) is a path ATS never matches.
        - `NSIncludesSubdomains` on a public suffix (`com`, `co.uk`, `github.io`…): the entry \
        covers every site directly under it. Preflight knows a small list of the most common \
        suffixes, not the whole Public Suffix List.
        - An empty dictionary while a global key (`NSAllowsArbitraryLoads`, `…InWebContent`, \
        `…ForMedia`) is in force (a note): iOS ignores every global key for a listed domain, \
        even an empty one, so ATS stays fully on there. That is Apple's own pattern for keeping \
        your servers protected in an otherwise open app; if you meant to relax the domain, its \
        plain-HTTP loads fail.

        Unqualified names and `.local` names are not reported when the bundle needs iOS 10 or \
        later: ATS does not apply to them there.
        """,
        area: .network, severity: .warning, tags: ["security", "app-review", "masvs-network-1"],
        references: [
            "https://developer.apple.com/documentation/bundleresources/information-property-list/nsapptransportsecurity/nsexceptiondomains",
            "https://developer.apple.com/documentation/bundleresources/information-property-list/nsexceptionallowsinsecurehttploads",
            "https://developer.apple.com/documentation/bundleresources/information-property-list/nsexceptionminimumtlsversion",
        ],
        triggering: [
            RuleExample(["App/Info.plist": ATSRuleSupport.plist(ATSRuleSupport.domains([
                ("images.example.com", "<key>NSExceptionAllowsInsecureHTTPLoads</key>↓<true/>"),
                ("legacy.example.com", "<key>NSExceptionMinimumTLSVersion</key>↓<string>TLSv1.0</string><key>NSExceptionRequiresForwardSecrecy</key>↓<false/>"),
            ]))],
                        note: "Plain HTTP to one host; TLS 1.0 and no forward secrecy for another."),
            RuleExample(["App/Info.plist": ATSRuleSupport.plist("""
                         \t<key>NSExceptionDomains</key>
                         \t<dict>
                         \t\t↓<key>https://api.example.com</key>
                         \t\t<dict>
                         \t\t\t<key>NSExceptionAllowsInsecureHTTPLoads</key>
                         \t\t\t<true/>
                         \t\t</dict>
                         \t\t↓<key>*.cdn.example.com</key>
                         \t\t<dict/>
                         \t\t↓<key>Media.Example.com</key>
                         \t\t<dict/>
                         \t\t<key>media.example.com</key>
                         \t\t<dict/>
                         \t\t↓<key>10.0.0.1</key>
                         \t\t<dict/>
                         \t\t↓<key>10.0.0.0/33</key>
                         \t\t<dict/>
                         \t</dict>
                         """, before: "<key>MinimumOSVersion</key>\n<string>15.0</string>\n")],
                        note: "Domain strings ATS never matches or Apple says not to write; two entries differing only in case; an IP address in an app that supports iOS 15 and 16, where it is not honoured (a note); a range with an impossible prefix length."),
            RuleExample(["Info.plist": ATSRuleSupport.plist("""
                         \t<key>NSAllowsArbitraryLoads</key>
                         \t<true/>
                         \t<key>NSExceptionDomains</key>
                         \t<dict>
                         \t\t<key>co.uk</key>
                         \t\t<dict>
                         \t\t\t<key>NSIncludesSubdomains</key>
                         \t\t\t↓<true/>
                         \t\t\t<key>NSThirdPartyExceptionAllowsInsecureHTTPLoads</key>
                         \t\t\t↓<true/>
                         \t\t</dict>
                         \t\t↓<key>api.example.com</key>
                         \t\t<dict/>
                         \t</dict>
                         """, before: "<key>CFBundleExecutable</key>\n<string>Example</string>\n"), "Example": "binary"], kind: .app,
                        note: "A built app: a public suffix with subdomains and a legacy spelling; an empty entry that keeps ATS on for one host of an open app."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": ATSRuleSupport.plist(ATSRuleSupport.domains([
                ("example.com", "<key>NSIncludesSubdomains</key><true/><key>NSRequiresCertificateTransparency</key><true/>"),
                ("secure.example.com", "<key>NSExceptionMinimumTLSVersion</key><string>TLSv1.3</string>"),
            ]))],
                        note: "Exceptions that tighten ATS: certificate transparency, TLS 1.3."),
            RuleExample(["App/Info.plist": ATSRuleSupport.plist(ATSRuleSupport.domains([
                ("printer.local", "<key>NSExceptionAllowsInsecureHTTPLoads</key><true/>"),
                ("localhost", "<key>NSExceptionAllowsInsecureHTTPLoads</key><true/>"),
            ]))],
                        note: "iOS 10 and later apply no ATS to .local and unqualified names; the entries change nothing."),
            RuleExample(["App/Info.plist": ATSRuleSupport.plist(ATSRuleSupport.domains([
                ("10.0.0.0/8", "<key>NSExceptionAllowsInsecureHTTPLoads</key><true/>"),
                ("2001:db8:12::/48", "<key>NSExceptionAllowsInsecureHTTPLoads</key><true/>"),
                ("192.168.42.63", ""),
            ]), before: "<key>MinimumOSVersion</key>\n<string>17.0</string>\n")],
                        note: "From iOS 17 an IP address or CIDR range is a valid key."),
        ])

    /// Common public suffixes — a small list, not the Public Suffix List.
    static let publicSuffixes: Set<String> = [
        "com", "net", "org", "edu", "gov", "mil", "int", "io", "co", "app", "dev", "ai", "me", "info", "biz", "tv", "cloud", "online",
        "uk", "co.uk", "org.uk", "ac.uk", "gov.uk", "de", "fr", "it", "es", "nl", "be", "ch", "at", "se", "no", "dk", "fi", "pl", "ru",
        "eu", "us", "ca", "mx", "br", "com.br", "ar", "com.ar", "au", "com.au", "nz", "co.nz", "jp", "co.jp", "ne.jp", "kr", "co.kr",
        "cn", "com.cn", "hk", "com.hk", "tw", "com.tw", "in", "co.in", "sg", "com.sg", "za", "co.za", "tr", "com.tr",
        "github.io", "herokuapp.com", "appspot.com", "firebaseapp.com", "web.app", "azurewebsites.net", "cloudfront.net",
        "s3.amazonaws.com", "blogspot.com", "netlify.app", "vercel.app", "pages.dev", "workers.dev",
    ]

    /// What is wrong with a domain string, and whether ATS can still match it.
    enum NameProblem: Equatable {
        case empty, scheme, path, port, wildcard, whitespace, ipAddress, upperCase, trailingDot

        /// The entry can apply to no connection (on iOS 10+ at least): don't judge its values.
        /// An address or range applies from iOS 17.
        var blocks: Bool { self != .upperCase && self != .trailingDot && self != .ipAddress }
    }

    /// What is wrong with a domain string for a bundle whose deployment target is
    /// `deploymentTarget` (major version): an IP address or CIDR range is a valid key from
    /// iOS 17, so it is a problem only for a bundle that supports earlier versions.
    static func problem(_ name: String, deploymentTarget: Int?) -> NameProblem? {
        let p = problem(name)
        if p == .ipAddress, (deploymentTarget ?? ATSAddressRange.firstHonouringMajorVersion) >= ATSAddressRange.firstHonouringMajorVersion { return nil }
        return p
    }

    static func problem(_ name: String) -> NameProblem? {
        if name.isEmpty { return .empty }
        if ATSAddressRange(name) != nil { return .ipAddress }
        if name.contains("://") { return .scheme }
        if name.contains("/") { return .path }
        if name.contains("*") { return .wildcard }
        if name.contains(where: \.isWhitespace) { return .whitespace }
        if ATSPolicy.isIPAddress(name) { return .ipAddress }
        if name.contains(":") { return .port }
        if name != name.lowercased() { return .upperCase }
        if name.hasSuffix(".") { return .trailingDot }
        return nil
    }

    /// The host a malformed domain string was probably meant to name.
    static func host(of name: String) -> String {
        var s = name.trimmingCharacters(in: .whitespaces)
        if let r = s.range(of: "://") { s = String(s[r.upperBound...]) }
        if let slash = s.firstIndex(of: "/") { s = String(s[..<slash]) }
        if let colon = s.lastIndex(of: ":"), s[s.index(after: colon)...].allSatisfy(\.isNumber) { s = String(s[..<colon]) }
        if s.hasPrefix("*.") { s = String(s.dropFirst(2)) }
        if s.hasSuffix(".") { s = String(s.dropLast()) }
        return s.lowercased()
    }

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for (b, c, policy) in ATSRuleSupport.configured(context) {
            let open = policy.generations.flatMap { policy.globallyOpen(on: $0).map(\.key) }
            var seen: [String: String] = [:]
            for d in c.exceptionDomains {
                func report(_ message: String, at position: SourcePosition?, key: String, fix: String, severity: Severity = .warning) {
                    var f = finding("\(b.name): \(message)", bundle: b.name, at: ATSRuleSupport.location(c, position), key: key, fix: fix)
                    f.severity = severity
                    out.append(f)
                }
                if let first = seen[d.name.lowercased()] {
                    report("exception domains '\(first)' and '\(d.name)' differ only in case; ATS matches each literally, so they are two entries",
                           at: d.keyPosition, key: d.keyPath, fix: "Merge them into one entry named '\(d.name.lowercased())'.")
                } else {
                    seen[d.name.lowercased()] = d.name
                }
                let problem = Self.problem(d.name, deploymentTarget: policy.deploymentTarget)
                if let problem {
                    report(Self.message(problem, d.name, deploymentTarget: policy.deploymentTarget), at: d.keyPosition, key: d.keyPath,
                           fix: Self.fix(problem, d.name), severity: problem == .ipAddress ? .note : .warning)
                }
                if problem?.blocks == true { continue }
                let isPublicSuffix = Self.publicSuffixes.contains(Self.host(of: d.name))
                // Addresses and ranges (iOS 17+) are local networking more often than not: their values are not judged.
                if ATSAddressRange(d.name) != nil { continue }
                if ATSPolicy.isLocal(d.name), !isPublicSuffix, !policy.generations.contains(.iOS9) { continue }
                if let inc = d.includesSubdomains, inc.value == true, isPublicSuffix {
                    report("NSIncludesSubdomains on '\(d.name)', a public suffix, applies this exception to every site directly under it",
                           at: inc.valuePosition, key: inc.keyPath, fix: "Name the exact domains you need instead of '\(d.name)'.")
                }
                let scope = d.includesSubdomains?.value == true ? "\(d.name) and its subdomains" : d.name
                if let s = d.allowsInsecureHTTPLoads, s.value == true {
                    report("\(s.key) lets the bundle load \(scope) over plain HTTP: anyone on the network path can read and change that traffic; App Review asks for a justification",
                           at: s.valuePosition, key: s.keyPath,
                           fix: "Serve \(d.name) over HTTPS and remove \(s.key); if the server is not yours, justify the exception to App Review and keep it to that host.")
                }
                if let s = d.minimumTLSVersion, let v = s.value, v < .tls12 {
                    report("\(s.key) lets \(scope) use \(v.rawValue), below the TLS 1.2 ATS requires; App Review asks for a justification",
                           at: s.valuePosition, key: s.keyPath, fix: "Enable TLS 1.2 or later on \(d.name) and remove \(s.key).")
                }
                if let s = d.requiresForwardSecrecy, s.value == false {
                    report("\(s.key) NO accepts ciphers without forward secrecy (and drops the key-length check) for \(scope): a leaked server key decrypts recorded traffic",
                           at: s.valuePosition, key: s.keyPath, fix: "Enable ECDHE cipher suites on \(d.name) and remove \(s.key).", severity: .note)
                }
                if d.isEmpty, let key = open.first {
                    report("exception domain '\(d.name)' has an empty dictionary, so iOS ignores \(key) for it and applies every ATS requirement: plain HTTP to \(scope) fails",
                           at: d.keyPosition, key: d.keyPath,
                           fix: "Keep it if \(d.name) is your HTTPS server (Apple's pattern for protecting your own hosts); to relax it, add NSExceptionAllowsInsecureHTTPLoads or remove the entry.",
                           severity: .note)
                }
            }
        }
        return out
    }

    static func message(_ problem: NameProblem, _ name: String, deploymentTarget: Int? = nil) -> String {
        let never = "ATS matches host names literally, so this entry applies to no connection"
        switch problem {
        case .empty: return "an exception domain has an empty name; \(never)"
        case .scheme: return "exception domain '\(name)' is a URL, not a domain name; \(never)"
        case .path: return "exception domain '\(name)' has a path; \(never)"
        case .port: return "exception domain '\(name)' has a port; \(never)"
        case .wildcard: return "exception domain '\(name)' is a wildcard; \(never)"
        case .whitespace: return "exception domain '\(name)' contains white space; \(never)"
        case .ipAddress:
            let what = ATSAddressRange(name)?.isRange == true ? "an IP address range" : "an IP address"
            let from = deploymentTarget.map { "iOS \($0)" } ?? "the iOS versions"
            return "exception domain '\(name)' is \(what), a key iOS honours only from iOS 17: on \(from) to 16 the bundle supports, ATS ignores this entry (iOS 10–16 do not apply ATS to IP addresses at all, iOS 9 accepts no address exception)"
        case .upperCase: return "exception domain '\(name)' has upper-case letters; Apple requires lower case (example.com, not EXAMPLE.COM)"
        case .trailingDot: return "exception domain '\(name)' ends with a dot, so it matches only hosts written with that dot, not '\(host(of: name))'"
        }
    }

    static func fix(_ problem: NameProblem, _ name: String) -> String {
        switch problem {
        case .empty: return "Remove the entry or name its domain."
        case .wildcard: return "Name '\(host(of: name))' and set NSIncludesSubdomains to YES."
        case .ipAddress: return "Keep the entry for iOS 17 and later; before iOS 17 connections to IP addresses need no exception on iOS 10–16 (set NSAllowsLocalNetworking for local addresses)."
        default: return "Name the domain as '\(host(of: name))'."
        }
    }
}
