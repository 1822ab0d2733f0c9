import Foundation
import Artifacts

/// How a connection is made: ATS has a global key for each besides the URL Loading System.
public enum ATSConnectionKind: String, Sendable, CaseIterable {
    /// `URLSession` and the rest of the URL Loading System (`NSURLConnection` too).
    case urlLoading = "URL loading"
    /// `WKWebView` (and the legacy `UIWebView`).
    case webView = "web view"
    /// Media loaded through AVFoundation.
    case media = "AVFoundation media"
}

/// The iOS generations whose ATS behaviour differs.
public enum ATSOSGeneration: String, Sendable, CaseIterable {
    /// iOS 9: reads `NSAllowsArbitraryLoads` and `NSExceptionDomains` only; blocks local hosts.
    case iOS9 = "iOS 9"
    /// iOS 10 and later: the narrower global keys, local hosts allowed.
    case iOS10AndLater = "iOS 10 and later"
}

/// What ATS does for one connection.
public struct ATSDecision: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        /// No key applies: ATS defaults.
        case defaults
        /// An unqualified host name, a `.local` name or an IP address on iOS 10 and later.
        case localNetwork
        /// A global key turns ATS off for this connection kind.
        case globalKey(String)
        /// The named `NSExceptionDomains` entry governs the host.
        case exceptionDomain(String)
    }

    /// False when ATS imposes nothing on the connection.
    public var enforced: Bool
    public var allowsInsecureHTTP: Bool
    /// The lowest TLS version ATS accepts; nil when ATS is not enforced.
    public var minimumTLS: TLSVersion?
    public var requiresForwardSecrecy: Bool
    public var requiresCertificateTransparency: Bool
    public var source: Source

    static func off(_ source: Source) -> ATSDecision {
        ATSDecision(enforced: false, allowsInsecureHTTP: true, minimumTLS: nil, requiresForwardSecrecy: false,
                    requiresCertificateTransparency: false, source: source)
    }

    static let defaults = ATSDecision(enforced: true, allowsInsecureHTTP: false, minimumTLS: .tls12, requiresForwardSecrecy: true,
                                      requiresCertificateTransparency: false, source: .defaults)
}

/// The effective App Transport Security policy of one bundle: what iOS does with its
/// `NSAppTransportSecurity`, per host, per connection kind and per iOS generation.
///
/// Sources (cited as [ATS] = Apple's `NSAppTransportSecurity` reference and its key pages, as
/// transcribed in github:dodorare/apple-bundle-rs `src/info_plist/data_and_storage.rs`;
/// [facts] = `../shared/reference/facts/ats.json`; [seed] = `seeds/004_3ec4428603580143.txt`,
/// a translation of Apple's iOS 10 ATS text):
/// 1. An exception domain's dictionary governs its hosts for every connection kind and iOS
///    ignores every global key for them, even when the dictionary is empty ([ATS]
///    `NSExceptionDomains` note; [facts] precedence 1; [seed]: with the media key YES, an
///    exception domain still cannot load insecure media). Its defaults are ATS's: no HTTP,
///    TLS 1.2, forward secrecy on, CT off ([facts] key defaults).
/// 2. Domain names match literally and case-sensitively: `example.com` does not match
///    `example.com.` ([ATS] domain-name rules); with `NSIncludesSubdomains` the entry also
///    covers subdomains with *one* additional label (`math.example.com`, not
///    `advanced.math.example.com`; [ATS] `NSIncludesSubdomains`). An exact entry wins over
///    the parent's.
/// 3. On iOS 10+, `NSAllowsArbitraryLoads` is ignored (treated as NO) when any of
///    `NSAllowsArbitraryLoadsForMedia`, `NSAllowsArbitraryLoadsInWebContent` or
///    `NSAllowsLocalNetworking` is present, whatever its value ([ATS]
///    `NSAllowsArbitraryLoads`; [facts] precedence 2).
/// 4. iOS 9 reads `NSAllowsArbitraryLoads` and ignores those iOS 10 keys ([ATS] Versioning;
///    [facts] precedence 3).
/// 5. `NSAllowsArbitraryLoads` in force turns ATS off for every connection to a host not in
///    `NSExceptionDomains`: HTTP allowed, no TLS minimum ([ATS] `NSAllowsArbitraryLoads`).
///    `…InWebContent` does so for web views only, `…ForMedia` for AVFoundation only.
/// 6. iOS 10+ allows unqualified host names, `.local` names and IP addresses by default; iOS 9
///    applies ATS to them ([ATS] `NSAllowsLocalNetworking`; [facts] precedence 4 in
///    apple-rules.md; [seed]: "ATS applies only to public domain names").
/// 7. `NSExceptionAllowsInsecureHTTPLoads` leaves the TLS and forward-secrecy requirements of
///    HTTPS connections to the domain unchanged ([ATS] key page).
///
/// Assumptions where no source decides (documented so a reader can challenge them):
/// legacy `NSTemporaryException…`/`NSThirdPartyException…` spellings act as the current key
/// ([facts]: "treat as"), a documented spelling in the same dictionary winning; the
/// deprecated `NSAllowsArbitraryLoadsInMedia` is assumed to open media like `…ForMedia` but
/// not to silence `NSAllowsArbitraryLoads` — the worse reading of both; a value of the wrong
/// type counts as absent, except that its key is present for rule 3 ("any value").
public struct ATSPolicy: Sendable {
    /// Nil when the bundle has no `NSAppTransportSecurity`: ATS defaults everywhere.
    public let configuration: ATSConfiguration?
    /// The bundle's deployment target, major version; nil when unknown.
    public let deploymentTarget: Int?

    public init(configuration: ATSConfiguration?, deploymentTarget: Int?) {
        self.configuration = configuration
        self.deploymentTarget = deploymentTarget
    }

    public init(bundle: AppBundle) {
        self.init(configuration: ATSConfiguration(bundle: bundle), deploymentTarget: Self.majorVersion(bundle.minimumOSVersion))
    }

    static func majorVersion(_ version: String?) -> Int? {
        guard let version, let major = version.split(separator: ".").first.flatMap({ Int($0) }) else { return nil }
        return major
    }

    /// The generations the bundle runs on: iOS 9 too when its deployment target reaches it.
    /// An unknown target counts as iOS 10+ (Xcode cannot target iOS 9 any more).
    public var generations: [ATSOSGeneration] {
        if let deploymentTarget, deploymentTarget < 10 { return [.iOS9, .iOS10AndLater] }
        return [.iOS10AndLater]
    }

    // MARK: Global keys

    /// Whether one of the keys that silence `NSAllowsArbitraryLoads` on iOS 10+ is present.
    public var hasNarrowerGlobalKey: Bool {
        guard let c = configuration else { return false }
        return c.allowsArbitraryLoadsForMedia != nil || c.allowsArbitraryLoadsInWebContent != nil || c.allowsLocalNetworking != nil
    }

    /// The keys that silence `NSAllowsArbitraryLoads` on iOS 10+, as written.
    public var narrowerGlobalKeys: [String] {
        guard let c = configuration else { return [] }
        return [c.allowsArbitraryLoadsForMedia, c.allowsArbitraryLoadsInWebContent, c.allowsLocalNetworking].compactMap { $0?.key }
    }

    /// Whether `NSAllowsArbitraryLoads` = YES takes effect on `generation` (rules 3, 4).
    public func arbitraryLoadsInForce(on generation: ATSOSGeneration) -> Bool {
        guard configuration?.allowsArbitraryLoads?.value == true else { return false }
        return generation == .iOS9 || !hasNarrowerGlobalKey
    }

    // MARK: Hosts

    /// The exception domain that governs `host` (rule 2): the exact entry, else the entry one
    /// label up with `NSIncludesSubdomains` = YES.
    public func exceptionDomain(for host: String) -> ATSExceptionDomain? {
        guard let domains = configuration?.exceptionDomains, !domains.isEmpty else { return nil }
        if let exact = domains.first(where: { $0.name == host }) { return exact }
        if Self.isIPAddress(host) {
            // iOS 17+: the narrowest address or CIDR range that holds the address. An older
            // deployment target still runs on iOS 17, where the entry governs the host.
            return domains.compactMap { d in ATSAddressRange(d.name).flatMap { $0.contains(host) ? (d, $0.prefixLength) : nil } }
                .max { $0.1 < $1.1 }?.0
        }
        guard let dot = host.firstIndex(of: ".") else { return nil }
        let parent = String(host[host.index(after: dot)...])
        return domains.first { $0.name == parent && $0.includesSubdomains?.value == true }
    }

    /// What ATS does for a connection to `host` (rules 1–7).
    public func decision(for host: String, via kind: ATSConnectionKind = .urlLoading, on generation: ATSOSGeneration = .iOS10AndLater) -> ATSDecision {
        if generation == .iOS10AndLater, Self.isLocal(host) { return .off(.localNetwork) }
        if let domain = exceptionDomain(for: host) {
            // iOS 9 cannot make an exception for an IP address (rule 6); the entry is inert there.
            if !(generation == .iOS9 && Self.isIPAddress(host)) { return Self.decision(of: domain) }
        }
        guard let c = configuration else { return .defaults }
        if arbitraryLoadsInForce(on: generation) { return .off(.globalKey(ATSKeys.allowsArbitraryLoads)) }
        guard generation == .iOS10AndLater else { return .defaults }
        switch kind {
        case .urlLoading: break
        case .webView:
            if c.allowsArbitraryLoadsInWebContent?.value == true { return .off(.globalKey(ATSKeys.allowsArbitraryLoadsInWebContent)) }
        case .media:
            if c.allowsArbitraryLoadsForMedia?.value == true { return .off(.globalKey(ATSKeys.allowsArbitraryLoadsForMedia)) }
            if c.allowsArbitraryLoadsForMedia == nil, c.allowsArbitraryLoadsInMedia?.value == true {
                return .off(.globalKey(ATSKeys.allowsArbitraryLoadsInMedia))
            }
        }
        return .defaults
    }

    /// What an exception domain's dictionary requires of the hosts it governs (rules 1, 7).
    public static func decision(of domain: ATSExceptionDomain) -> ATSDecision {
        ATSDecision(enforced: true, allowsInsecureHTTP: domain.allowsInsecureHTTPLoads?.value ?? false,
                    minimumTLS: domain.minimumTLSVersion?.value ?? .tls12,
                    requiresForwardSecrecy: domain.requiresForwardSecrecy?.value ?? true,
                    requiresCertificateTransparency: domain.requiresCertificateTransparency?.value ?? false,
                    source: .exceptionDomain(domain.name))
    }

    /// Whether a plain `http://` load of `host` goes through.
    public func allowsInsecureHTTP(to host: String, via kind: ATSConnectionKind = .urlLoading, on generation: ATSOSGeneration = .iOS10AndLater) -> Bool {
        decision(for: host, via: kind, on: generation).allowsInsecureHTTP
    }

    /// The lowest TLS version ATS accepts for `host`; nil when ATS does not apply.
    public func minimumTLS(for host: String, via kind: ATSConnectionKind = .urlLoading, on generation: ATSOSGeneration = .iOS10AndLater) -> TLSVersion? {
        decision(for: host, via: kind, on: generation).minimumTLS
    }

    /// Connection kinds for which ATS is off for every host outside `NSExceptionDomains`, with
    /// the key that turns it off, on `generation`.
    public func globallyOpen(on generation: ATSOSGeneration) -> [(kind: ATSConnectionKind, key: String)] {
        ATSConnectionKind.allCases.compactMap { kind in
            let d = decision(for: "preflight-unlisted.invalid", via: kind, on: generation)
            if case .globalKey(let key) = d.source { return (kind, key) }
            return nil
        }
    }

    /// An unqualified name, a `.local` name or an IP address (rule 6).
    public static func isLocal(_ host: String) -> Bool {
        !host.contains(".") || host.lowercased().hasSuffix(".local") || host.lowercased().hasSuffix(".local.") || isIPAddress(host)
    }

    /// A dotted-quad IPv4 address or an IPv6 address (with or without brackets).
    public static func isIPAddress(_ host: String) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 4, parts.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isNumber) && Int($0).map { $0 <= 255 } == true }) {
            return true
        }
        let trimmed = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return trimmed.filter { $0 == ":" }.count >= 2 && trimmed.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }
}
