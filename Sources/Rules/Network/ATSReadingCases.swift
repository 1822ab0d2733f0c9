import Foundation
import Artifacts
import Formats

/// One question asked of a bundle's ATS reading, with the answer Preflight gives.
public enum ATSReadingCheck: Sendable, Equatable {
    /// Whether a plain `http://` load of the host goes through.
    case http(String, ATSConnectionKind, ATSOSGeneration, allowed: Bool)
    /// The lowest TLS version ATS accepts for the host (nil: ATS imposes none).
    case minimumTLS(String, TLSVersion?)
    /// Whether ATS requires forward secrecy of the host.
    case forwardSecrecy(String, Bool)
    /// Whether ATS requires certificate transparency of the host.
    case certificateTransparency(String, Bool)
    /// Whether `NSAllowsArbitraryLoads` = YES takes effect on the generation.
    case arbitraryLoadsInForce(ATSOSGeneration, Bool)
    /// A pinned domain read with this many CA and leaf identities and this subdomain flag.
    case pinned(String, ca: Int, leaf: Int, includesSubdomains: Bool)
    /// The parse reports an issue of this kind on the key.
    case issue(String, ATSIssue.Kind)
    /// The parse reports nothing.
    case noIssue

    /// The question and its answer, as the table shows them.
    public var text: String {
        func yes(_ b: Bool) -> String { b ? "yes" : "no" }
        switch self {
        case .http(let host, let kind, let generation, let allowed):
            return "plain HTTP to `\(host)` (\(kind.rawValue), \(generation.rawValue)): **\(allowed ? "allowed" : "blocked")**"
        case .minimumTLS(let host, let version):
            return "minimum TLS for `\(host)`: **\(version?.rawValue ?? "none (ATS off)")**"
        case .forwardSecrecy(let host, let b): return "forward secrecy required for `\(host)`: **\(yes(b))**"
        case .certificateTransparency(let host, let b): return "certificate transparency required for `\(host)`: **\(yes(b))**"
        case .arbitraryLoadsInForce(let generation, let b): return "`NSAllowsArbitraryLoads` in force on \(generation.rawValue): **\(yes(b))**"
        case .pinned(let domain, let ca, let leaf, let sub):
            return "`\(domain)` pinned: **\(ca) CA, \(leaf) leaf identities, subdomains \(yes(sub))**"
        case .issue(let key, let kind): return "`\(key)`: **\(Self.describe(kind))**"
        case .noIssue: return "**no parse issue**"
        }
    }

    static func describe(_ kind: ATSIssue.Kind) -> String {
        switch kind {
        case .unknownKey(let s): return "unknown key" + (s.map { ", did you mean \($0)?" } ?? "")
        case .misplacedKey(let level): return "misplaced, belongs in \(level.rawValue)"
        case .wrongType(let expected, let found): return "wrong type: \(expected.rawValue) expected, \(found) found"
        case .invalidValue(let expected): return "invalid value, one of \(expected.joined(separator: ", "))"
        case .legacyKey(let current): return "legacy spelling, read as \(current)"
        case .deprecatedKey(let current): return "deprecated, use \(current)"
        }
    }

    /// Whether `policy` gives the answer this check states.
    public func holds(in policy: ATSPolicy) -> Bool {
        switch self {
        case .http(let host, let kind, let generation, let allowed):
            return policy.allowsInsecureHTTP(to: host, via: kind, on: generation) == allowed
        case .minimumTLS(let host, let version): return policy.minimumTLS(for: host) == version
        case .forwardSecrecy(let host, let b): return policy.decision(for: host).requiresForwardSecrecy == b
        case .certificateTransparency(let host, let b): return policy.decision(for: host).requiresCertificateTransparency == b
        case .arbitraryLoadsInForce(let generation, let b): return policy.arbitraryLoadsInForce(on: generation) == b
        case .pinned(let domain, let ca, let leaf, let sub):
            guard let d = policy.configuration?.pinnedDomains.first(where: { $0.name == domain }) else { return false }
            return (d.caIdentities?.count ?? 0) == ca && (d.leafIdentities?.count ?? 0) == leaf
                && (d.includesSubdomains?.value ?? false) == sub
        case .issue(let key, let kind):
            return policy.configuration?.issues.contains { $0.key == key && $0.kind == kind } ?? false
        case .noIssue: return policy.configuration?.issues.isEmpty ?? true
        }
    }
}

/// One row of the ATS reading table: an `NSAppTransportSecurity` dictionary, a deployment
/// target, and what Preflight reads from it. `ATSReadingTableTests` asserts every check against
/// `ATSPolicy`; `RuleDocsTests` renders `docs/rules/ats-reading.md` from the same rows, so the
/// table cannot say what the code does not do.
public struct ATSReadingCase: Sendable {
    public enum Group: String, Sendable, CaseIterable {
        case key = "Keys"
        case precedence = "Precedence"
    }

    public var group: Group
    /// The key (for `.key`) or a short name of the precedence rule.
    public var title: String
    /// The XML entries of `NSAppTransportSecurity`.
    public var dictionary: String
    public var deploymentTarget: Int
    public var checks: [ATSReadingCheck]
    /// Where the reading comes from: [ATS] Apple's `NSAppTransportSecurity` reference and key
    /// pages, [facts] `facts/ats.json`, [seed] `seeds/004_3ec4428603580143.txt`, [assumption]
    /// where no source decides (see `ATSPolicy`).
    public var source: String

    /// The policy Preflight computes from the row's dictionary.
    public func policy() throws -> ATSPolicy {
        let xml = "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict>\(dictionary)</dict></plist>"
        let root = try PropertyListReader.read(Data(xml.utf8)).root
        return ATSPolicy(configuration: ATSConfiguration(node: root, location: FileLocation(path: "Info.plist")),
                         deploymentTarget: deploymentTarget)
    }
}

public enum ATSReadingTable {
    static func b(_ key: String, _ value: Bool) -> String { "<key>\(key)</key>\(value ? "<true/>" : "<false/>")" }
    static func domains(_ entries: [(String, String)]) -> String {
        "<key>NSExceptionDomains</key><dict>" + entries.map { "<key>\($0.0)</key><dict>\($0.1)</dict>" }.joined() + "</dict>"
    }
    static func pins(_ domain: String, _ body: String) -> String {
        "<key>NSPinnedDomains</key><dict><key>\(domain)</key><dict>\(body)</dict></dict>"
    }
    static let spki = "<dict><key>SPKI-SHA256-BASE64</key><string>r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E=</string></dict>"
    static let insecure = b("NSExceptionAllowsInsecureHTTPLoads", true)

    static func key(_ title: String, _ dictionary: String, target: Int = 15, _ checks: [ATSReadingCheck], _ source: String) -> ATSReadingCase {
        ATSReadingCase(group: .key, title: title, dictionary: dictionary, deploymentTarget: target, checks: checks, source: source)
    }

    static func rule(_ title: String, _ dictionary: String, target: Int = 15, _ checks: [ATSReadingCheck], _ source: String) -> ATSReadingCase {
        ATSReadingCase(group: .precedence, title: title, dictionary: dictionary, deploymentTarget: target, checks: checks, source: source)
    }

    /// Every ATS key (current, deprecated and legacy spellings) and every precedence rule of
    /// `ATSPolicy`, each with the example that shows Preflight's reading.
    public static let cases: [ATSReadingCase] = keys + precedence

    static let api = "api.example.com"

    static let keys: [ATSReadingCase] = [
        key("NSAppTransportSecurity (absent)", "", [
            .http(api, .urlLoading, .iOS10AndLater, allowed: false), .minimumTLS(api, .tls12), .forwardSecrecy(api, true),
            .certificateTransparency(api, false),
        ], "[facts] default \"absent (ATS fully on)\"; [ATS] TLS 1.2, forward secrecy"),
        key("NSAllowsArbitraryLoads", b("NSAllowsArbitraryLoads", true), [
            .http(api, .urlLoading, .iOS10AndLater, allowed: true), .http(api, .webView, .iOS10AndLater, allowed: true),
            .http(api, .media, .iOS10AndLater, allowed: true), .minimumTLS(api, nil),
        ], "[ATS] NSAllowsArbitraryLoads: ATS off for domains not in NSExceptionDomains"),
        key("NSAllowsArbitraryLoadsForMedia", b("NSAllowsArbitraryLoadsForMedia", true), [
            .http("video.example.com", .media, .iOS10AndLater, allowed: true),
            .http("video.example.com", .urlLoading, .iOS10AndLater, allowed: false),
            .http("video.example.com", .webView, .iOS10AndLater, allowed: false),
        ], "[ATS] NSAllowsArbitraryLoadsForMedia: AVFoundation only, iOS 10+"),
        key("NSAllowsArbitraryLoadsInWebContent", b("NSAllowsArbitraryLoadsInWebContent", true), [
            .http("news.example.com", .webView, .iOS10AndLater, allowed: true),
            .http("news.example.com", .urlLoading, .iOS10AndLater, allowed: false),
            .http("news.example.com", .media, .iOS10AndLater, allowed: false),
        ], "[ATS] NSAllowsArbitraryLoadsInWebContent: web views only, URLSession unaffected"),
        key("NSAllowsLocalNetworking", b("NSAllowsLocalNetworking", true), [
            .http("printer.local", .urlLoading, .iOS10AndLater, allowed: true), .http(api, .urlLoading, .iOS10AndLater, allowed: false),
        ], "[ATS] NSAllowsLocalNetworking: local hosts, iOS 10+ (allowed there by default)"),
        key("NSExceptionDomains", domains([(api, insecure)]), [
            .http(api, .urlLoading, .iOS10AndLater, allowed: true), .http("cdn.example.com", .urlLoading, .iOS10AndLater, allowed: false),
        ], "[ATS] NSExceptionDomains: per-domain dictionaries"),
        key("NSIncludesSubdomains (exception domain)", domains([("example.com", b("NSIncludesSubdomains", true) + insecure)]), [
            .http("example.com", .urlLoading, .iOS10AndLater, allowed: true),
            .http("math.example.com", .urlLoading, .iOS10AndLater, allowed: true),
        ], "[ATS] NSIncludesSubdomains (default NO)"),
        key("NSExceptionAllowsInsecureHTTPLoads", domains([(api, insecure)]), [
            .http(api, .urlLoading, .iOS10AndLater, allowed: true), .minimumTLS(api, .tls12),
        ], "[ATS] key page: HTTP allowed, HTTPS still requires TLS 1.2"),
        key("NSExceptionMinimumTLSVersion", domains([(api, "<key>NSExceptionMinimumTLSVersion</key><string>TLSv1.0</string>")]), [
            .minimumTLS(api, .tls10), .http(api, .urlLoading, .iOS10AndLater, allowed: false),
        ], "[ATS] key page; [facts] allowed TLSv1.0–TLSv1.3, default TLSv1.2"),
        key("NSExceptionRequiresForwardSecrecy", domains([(api, b("NSExceptionRequiresForwardSecrecy", false))]), [
            .forwardSecrecy(api, false), .minimumTLS(api, .tls12),
        ], "[ATS] key page (default YES)"),
        key("NSRequiresCertificateTransparency", domains([(api, b("NSRequiresCertificateTransparency", true))]), [
            .certificateTransparency(api, true), .noIssue,
        ], "[ATS] key page (default NO)"),
        key("NSPinnedDomains", pins(api, "<key>NSPinnedCAIdentities</key><array>\(spki)</array>"), [
            .pinned(api, ca: 1, leaf: 0, includesSubdomains: false), .noIssue,
        ], "[ATS] NSPinnedDomains, iOS 14+"),
        key("NSIncludesSubdomains (pinned domain)", pins(api, b("NSIncludesSubdomains", true) + "<key>NSPinnedLeafIdentities</key><array>\(spki)</array>"), [
            .pinned(api, ca: 0, leaf: 1, includesSubdomains: true),
        ], "[ATS] NSPinnedDomains"),
        key("NSPinnedCAIdentities", pins(api, "<key>NSPinnedCAIdentities</key><array>\(spki)\(spki)</array>"), [
            .pinned(api, ca: 2, leaf: 0, includesSubdomains: false),
        ], "[ATS] NSPinnedCAIdentities"),
        key("NSPinnedLeafIdentities", pins(api, "<key>NSPinnedLeafIdentities</key><array>\(spki)</array>"), [
            .pinned(api, ca: 0, leaf: 1, includesSubdomains: false),
        ], "[ATS] NSPinnedLeafIdentities"),
        key("SPKI-SHA256-BASE64", pins(api, "<key>NSPinnedCAIdentities</key><array><dict><key>SPKI-SHA256</key><string>x</string></dict></array>"), [
            .issue("SPKI-SHA256", .unknownKey(suggestion: "SPKI-SHA256-BASE64")),
        ], "[ATS] pinned identity dictionaries hold SPKI-SHA256-BASE64"),
        key("NSAllowsArbitraryLoadsInMedia (deprecated)", b("NSAllowsArbitraryLoadsInMedia", true), [
            .issue("NSAllowsArbitraryLoadsInMedia", .deprecatedKey(current: "NSAllowsArbitraryLoadsForMedia")),
            .http("video.example.com", .media, .iOS10AndLater, allowed: true),
            .http("video.example.com", .urlLoading, .iOS10AndLater, allowed: false),
        ], "[seed] iOS 10 name; [assumption] read as …ForMedia"),
    ] + legacyRows("NSTemporaryException") + legacyRows("NSThirdPartyException")

    /// The three legacy spellings with one prefix.
    static func legacyRows(_ prefix: String) -> [ATSReadingCase] {
        let insecureKey: String = prefix + "AllowsInsecureHTTPLoads"
        let tlsKey: String = prefix + "MinimumTLSVersion"
        let secrecyKey: String = prefix + "RequiresForwardSecrecy"
        let source = "[facts] legacy, \"treat as\" the current key"
        let tlsBody: String = "<key>" + tlsKey + "</key><string>TLSv1.1</string>"
        let insecureChecks: [ATSReadingCheck] = [
            .issue(insecureKey, .legacyKey(current: "NSExceptionAllowsInsecureHTTPLoads")), .http(api, .urlLoading, .iOS10AndLater, allowed: true),
        ]
        let tlsChecks: [ATSReadingCheck] = [.issue(tlsKey, .legacyKey(current: "NSExceptionMinimumTLSVersion")), .minimumTLS(api, .tls11)]
        let secrecyChecks: [ATSReadingCheck] = [
            .issue(secrecyKey, .legacyKey(current: "NSExceptionRequiresForwardSecrecy")), .forwardSecrecy(api, false),
        ]
        return [
            key(insecureKey + " (legacy)", domains([(api, b(insecureKey, true))]), insecureChecks, source),
            key(tlsKey + " (legacy)", domains([(api, tlsBody)]), tlsChecks, source),
            key(secrecyKey + " (legacy)", domains([(api, b(secrecyKey, false))]), secrecyChecks, source),
        ]
    }

    static let precedence: [ATSReadingCase] = [
        rule("1. An exception domain ignores the global keys", b("NSAllowsArbitraryLoads", true) + domains([(api, "")]), [
            .http(api, .urlLoading, .iOS10AndLater, allowed: false), .minimumTLS(api, .tls12),
            .http("cdn.example.com", .urlLoading, .iOS10AndLater, allowed: true),
        ], "[ATS] NSExceptionDomains; [facts] precedence 1"),
        rule("1. … for media too", b("NSAllowsArbitraryLoadsForMedia", true) + domains([("video.example.com", "")]), [
            .http("video.example.com", .media, .iOS10AndLater, allowed: false),
            .http("other.example.org", .media, .iOS10AndLater, allowed: true),
        ], "[seed] media key does not reach an exception domain"),
        rule("2. Names match case-sensitively", domains([("API.Example.com", insecure)]), [
            .http(api, .urlLoading, .iOS10AndLater, allowed: false), .http("API.Example.com", .urlLoading, .iOS10AndLater, allowed: true),
        ], "[ATS] domain names: lowercase"),
        rule("2. A trailing dot matches only the dotted name", domains([("dotted.example.com.", insecure)]), [
            .http("dotted.example.com", .urlLoading, .iOS10AndLater, allowed: false),
            .http("dotted.example.com.", .urlLoading, .iOS10AndLater, allowed: true),
        ], "[ATS] domain names: trailing dot"),
        rule("2. No wildcards", domains([("*.example.com", insecure)]), [
            .http("a.example.com", .urlLoading, .iOS10AndLater, allowed: false),
        ], "[ATS] domain names: no wildcard, use NSIncludesSubdomains"),
        rule("2. NSIncludesSubdomains reaches one more label", domains([("example.com", b("NSIncludesSubdomains", true) + insecure)]), [
            .http("math.example.com", .urlLoading, .iOS10AndLater, allowed: true),
            .http("advanced.math.example.com", .urlLoading, .iOS10AndLater, allowed: false),
            .http("notexample.com", .urlLoading, .iOS10AndLater, allowed: false),
        ], "[ATS] NSIncludesSubdomains; [facts] \"one additional component\""),
        rule("2. Without NSIncludesSubdomains only the name itself", domains([("example.com", insecure)]), [
            .http("math.example.com", .urlLoading, .iOS10AndLater, allowed: false),
        ], "[ATS] NSIncludesSubdomains default NO"),
        rule("2. An exact entry wins over its parent", domains([("example.com", b("NSIncludesSubdomains", true) + insecure), ("secure.example.com", "")]), [
            .http("secure.example.com", .urlLoading, .iOS10AndLater, allowed: false),
            .http("www.example.com", .urlLoading, .iOS10AndLater, allowed: true),
        ], "[ATS] NSExceptionDomains (each entry is its own policy)"),
    ] + ["NSAllowsArbitraryLoadsForMedia", "NSAllowsArbitraryLoadsInWebContent", "NSAllowsLocalNetworking"].map { narrower in
        rule("3. \(narrower) = NO silences NSAllowsArbitraryLoads on iOS 10+", b("NSAllowsArbitraryLoads", true) + b(narrower, false), [
            .arbitraryLoadsInForce(.iOS10AndLater, false), .http(api, .urlLoading, .iOS10AndLater, allowed: false),
        ], "[ATS] NSAllowsArbitraryLoads; [facts] precedence 2 (\"any value\")")
    } + [
        rule("3. … and a value of the wrong type too", b("NSAllowsArbitraryLoads", true) + "<key>NSAllowsLocalNetworking</key><string>YES</string>", [
            .arbitraryLoadsInForce(.iOS10AndLater, false), .issue("NSAllowsLocalNetworking", .wrongType(expected: .boolean, found: "string")),
        ], "[facts] precedence 2 (\"present\"); [assumption] a mistyped key is present"),
        rule("3. The narrower key still opens its own kind", b("NSAllowsArbitraryLoads", true) + b("NSAllowsArbitraryLoadsInWebContent", true), [
            .http("news.example.com", .webView, .iOS10AndLater, allowed: true),
            .http("news.example.com", .urlLoading, .iOS10AndLater, allowed: false),
            .http("news.example.com", .media, .iOS10AndLater, allowed: false),
        ], "[ATS] NSAllowsArbitraryLoadsInWebContent"),
        rule("4. iOS 9 reads NSAllowsArbitraryLoads and ignores the iOS 10 keys",
             b("NSAllowsArbitraryLoads", true) + b("NSAllowsLocalNetworking", true), target: 9, [
            .arbitraryLoadsInForce(.iOS9, true), .arbitraryLoadsInForce(.iOS10AndLater, false),
            .http(api, .urlLoading, .iOS9, allowed: true), .http(api, .urlLoading, .iOS10AndLater, allowed: false),
        ], "[ATS] Versioning; [facts] precedence 3"),
        rule("4. iOS 9 does not read the web content key", b("NSAllowsArbitraryLoadsInWebContent", true), target: 9, [
            .http("news.example.com", .webView, .iOS9, allowed: false), .http("news.example.com", .webView, .iOS10AndLater, allowed: true),
        ], "[ATS] NSAllowsArbitraryLoadsInWebContent: iOS 10+"),
        rule("6. Local hosts: allowed on iOS 10+, blocked on iOS 9", "", target: 9, [
            .http("printer", .urlLoading, .iOS10AndLater, allowed: true), .http("printer.local", .urlLoading, .iOS10AndLater, allowed: true),
            .http("192.168.1.10", .urlLoading, .iOS10AndLater, allowed: true), .http("printer.local", .urlLoading, .iOS9, allowed: false),
        ], "[ATS] NSAllowsLocalNetworking; [seed] \"ATS applies only to public domain names\""),
        rule("6. iOS 9 takes no IP address exception", domains([("10.0.0.1", insecure), ("printer.local", insecure)]), target: 9, [
            .http("10.0.0.1", .urlLoading, .iOS9, allowed: false), .http("printer.local", .urlLoading, .iOS9, allowed: true),
        ], "[ATS] NSExceptionDomains: no numeric IP addresses"),
        rule("7. Insecure HTTP leaves HTTPS requirements alone", domains([(api, insecure)]), [
            .http(api, .urlLoading, .iOS10AndLater, allowed: true), .minimumTLS(api, .tls12), .forwardSecrecy(api, true),
        ], "[ATS] NSExceptionAllowsInsecureHTTPLoads"),
        rule("A documented spelling wins over a legacy one",
             domains([(api, b("NSThirdPartyExceptionAllowsInsecureHTTPLoads", true) + b("NSExceptionAllowsInsecureHTTPLoads", false))]), [
            .http(api, .urlLoading, .iOS10AndLater, allowed: false),
        ], "[assumption] documented key first"),
        rule("The deprecated InMedia key does not silence NSAllowsArbitraryLoads",
             b("NSAllowsArbitraryLoads", true) + b("NSAllowsArbitraryLoadsInMedia", true), [
            .arbitraryLoadsInForce(.iOS10AndLater, true), .http(api, .urlLoading, .iOS10AndLater, allowed: true),
        ], "[assumption] the worse reading of an undocumented key"),
    ]

    /// `docs/rules/ats-reading.md`.
    public static func markdown() -> String {
        var out = """
        # How Preflight reads App Transport Security

        Generated from `ATSReadingTable.cases` (`Sources/Rules/Network/ATSReadingCases.swift`); \
        `ATSReadingTableTests` asserts every answer below against Preflight's effective policy \
        (`ATSPolicy`), so this page cannot say what the code does not do. The ATS rules \
        (`ats_*`) ask that policy. Sources: [ATS] Apple's `NSAppTransportSecurity` reference \
        and its key pages; [facts] `facts/ats.json`; [seed] Apple's iOS 10 ATS text; \
        [assumption] where no source decides (documented in `ATSPolicy`). Deployment target \
        iOS 15 unless the row says otherwise.

        """
        for group in ATSReadingCase.Group.allCases {
            out += "\n## \(group.rawValue)\n\n| \(group == .key ? "key" : "case") | `NSAppTransportSecurity` | Preflight reads | source |\n|---|---|---|---|\n"
            for c in cases where c.group == group {
                let dict = c.dictionary.isEmpty ? "(none)" : "`" + c.dictionary.replacingOccurrences(of: "|", with: "\\|") + "`"
                let target = c.deploymentTarget == 15 ? "" : "<br>deployment target iOS \(c.deploymentTarget)"
                out += "| \(c.title) | \(dict)\(target) | \(c.checks.map(\.text).joined(separator: "<br>")) | \(c.source) |\n"
            }
        }
        return out
    }
}
