import Foundation
import Artifacts
import Evidence
import Formats

public struct ATSCleartextURLRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "ats_cleartext_url",
        name: "Plain-HTTP URL that ATS blocks",
        summary: "The code names an http:// URL whose host the bundle's App Transport Security policy blocks, or allows only through an exception domain.",
        rationale: """
        With ATS on, iOS refuses plain-HTTP loads through the URL Loading System, web views and \
        AVFoundation unless a key of `NSAppTransportSecurity` allows them for the host. An \
        `http://` URL in the code is then a request that fails at run time (OWASP \
        MASVS-NETWORK-1). Preflight reads string literals of the Swift and Objective-C sources \
        (not comments) and C strings of built binaries, and asks the bundle's effective ATS \
        policy — its exception domains, global keys and deployment target — about each host. \
        Severity follows what the code shows:

        - **error**: the literal is an argument, directly or through `URL(string:)` / \
        `[NSURL URLWithString:]`, of a call that loads it — a `URLSession` task, \
        `Data(contentsOf:)`, `URLRequest`/`NSURLRequest`, a web view's `load`/`loadRequest:`, \
        `AVPlayer`/`AVURLAsset` — and ATS blocks plain HTTP to the host for that kind of \
        connection: this request will fail.
        - **warning**: a `URLRequest` blocked for `URLSession` but allowed in web views.
        - **note**: a literal whose use the text does not show, blocked for every kind of \
        connection: it may be dead, a preview's sample, text shown to the user, an identifier, \
        or handed to the Network framework or a socket, which ATS does not cover (on 27 \
        open-source apps most such literals were namespaces and display strings); the same in \
        code the team does not write (an SDK's binary, a pod or a package); and, on the \
        exception domain's entry, the plain-HTTP URLs that load only \
        because of that exception — the list App Review's question about it is answered from.

        Never reported: what iOS does not block — hosts under `NSAllowsArbitraryLoads` (see \
        `ats_arbitrary_loads`) or a global key for the connection kind; URLs opened outside the \
        app (`UIApplication.open`, `SFSafariViewController`, SwiftUI `Link`), which Safari \
        loads; the base URL of HTML handed to a web view (`loadHTMLString(_:baseURL:)`); hosts that are not internet traffic: `localhost`, unqualified names, `.local`, \
        IP literals, reserved names (`.test`, `.example`, `.invalid`, `home.arpa`, and `example.com`/`.net`/`.org`, kept for documentation and placeholders), XML/XSD \
        namespace, DTD and license URIs (`http://www.w3.org/…`, `http://www.apple.com/DTDs/…`, \
        `http://schemas.…`, `http://purl.org/…`, `http://ns.adobe.com/…`…); URL prefixes \
        without a complete host (`"http://"`, `"http://%@"`, `"http://\\(host)"`); code of test \
        targets and of `#if DEBUG` / `#ifdef DEBUG` branches.

        Fix: use `https://`. If the server cannot serve HTTPS, add an `NSExceptionDomains` entry \
        for the host with `NSExceptionAllowsInsecureHTTPLoads` and be ready to justify it to \
        App Review.
        """,
        area: .network, severity: .error, tags: ["security", "app-review", "masvs-network-1"],
        references: [
            "https://developer.apple.com/documentation/bundleresources/information-property-list/nsapptransportsecurity",
            "https://developer.apple.com/documentation/security/preventing-insecure-network-connections",
        ],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Feed.swift": """
                         import Foundation

                         func loadFeed() {
                             let request = URLRequest(url: URL(string: "↓http://feed.acme.com/latest.json")!)
                             URLSession.shared.dataTask(with: request).resume()
                         }
                         let mirror = "↓http://mirror.acme.net/feed"
                         """],
                        note: "No ATS keys: a URLRequest to a plain-HTTP host is an error (the request will fail); a bare literal a note."),
            RuleExample(["App/Info.plist": ATSRuleSupport.plist("""
                         \t<key>NSExceptionDomains</key>
                         \t<dict>
                         \t\t<key>secure.acme.com</key>
                         \t\t<dict>
                         \t\t\t<key>NSExceptionMinimumTLSVersion</key>
                         \t\t\t<string>TLSv1.1</string>
                         \t\t</dict>
                         \t\t↓<key>acme.org</key>
                         \t\t<dict>
                         \t\t\t<key>NSIncludesSubdomains</key>
                         \t\t\t<true/>
                         \t\t\t<key>NSExceptionAllowsInsecureHTTPLoads</key>
                         \t\t\t<true/>
                         \t\t</dict>
                         \t</dict>
                         """),
                         "App/Player.m": """
                         #import <AVFoundation/AVFoundation.h>

                         AVPlayer *makePlayer(void) {
                             return [AVPlayer playerWithURL:[NSURL URLWithString:@"↓http://secure.acme.com/live.m3u8"]];
                         }
                         NSString *const kImages = @"http://img.acme.org/thumbs";
                         """],
                        note: "The entry for secure.acme.com relaxes TLS but not plain HTTP: the media load fails. img.acme.org loads only through the exception for acme.org: a note on that entry lists where."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Links.swift": #"""
                         import UIKit

                         // Old endpoint: http://api.acme.com/v1
                         func openSite() { UIApplication.shared.open(URL(string: "http://www.acme.com/help")!) }
                         let local = URL(string: "http://printer.local/status")
                         let device = "http://192.168.1.1/config"
                         let svg = "http://www.w3.org/2000/svg"
                         func endpoint(_ host: String) -> String { "http://\(host)/api" }
                         let secure = URL(string: "https://api.acme.com/v1")
                         """#],
                        note: "A comment, a URL Safari opens, local and IP hosts, a namespace URI, a prefix without a host, HTTPS."),
            RuleExample(["App/Info.plist": ATSRuleSupport.plist("\t<key>NSAllowsArbitraryLoads</key>\n\t<true/>"),
                         "App/Feed.swift": "let feed = URLRequest(url: URL(string: \"http://feed.acme.com/latest.json\")!)\n"],
                        note: "NSAllowsArbitraryLoads turns ATS off (ats_arbitrary_loads reports that): nothing is blocked."),
        ])

    /// The connection kinds a use can go through.
    static func kinds(_ use: URLUse) -> [ATSConnectionKind] {
        switch use {
        case .urlSession: return [.urlLoading]
        case .request: return [.urlLoading, .webView]
        case .webView: return [.webView]
        case .media: return [.media]
        case .external, .reference, .unknown: return ATSConnectionKind.allCases
        }
    }

    /// How a message names what loads the URL.
    static func loader(_ u: URLLiteral) -> String {
        let call = u.api.map { " (\($0))" } ?? ""
        switch u.use {
        case .urlSession: return "the URL Loading System\(call)"
        case .request: return "a URL request\(call)"
        case .webView: return "a web view\(call)"
        case .media: return "AVFoundation\(call)"
        case .external, .reference, .unknown: return "the code"
        }
    }

    /// Code the team does not write: an SDK's binary, a pod or a package.
    static func isThirdParty(_ origin: UsageOrigin) -> Bool {
        switch origin {
        case .app: return false
        case .sdk: return true
        case .linked(let kind, _, _): return kind != .target
        }
    }

    static func place(_ u: URLLiteral) -> String {
        switch u.location {
        case .source(let path, let line, _): return "\(path):\(line)"
        case .binary(let path, _): return "\(path) (string)"
        }
    }

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        var viaException: [String: (bundle: AppBundle, domain: ATSExceptionDomain, config: ATSConfiguration, urls: [URLLiteral])] = [:]
        var policies: [String: ATSPolicy] = [:]
        for u in context.evidence.urls where u.isCleartext && u.ships && u.use != .external && u.use != .reference {
            guard let b = ATSRuleSupport.process(of: u, in: context.product) else { continue }
            let policy = policies[b.id] ?? ATSPolicy(bundle: b)
            policies[b.id] = policy
            let decisions = Self.kinds(u.use).map { policy.decision(for: u.host, via: $0) }
            let blocked = decisions.filter { !$0.allowsInsecureHTTP }
            if blocked.isEmpty {
                // Allowed: report only what an exception domain alone allows.
                if let d = policy.exceptionDomain(for: u.host), let c = policy.configuration,
                   decisions.allSatisfy({ $0.source == .exceptionDomain(d.name) }) {
                    viaException[b.id + "\u{1f}" + d.name, default: (b, d, c, [])].urls.append(u)
                }
                continue
            }
            let all = blocked.count == decisions.count
            var severity: Severity
            switch u.use {
            case .urlSession, .webView, .media: severity = .error
            case .request: severity = all ? .error : .warning
            case .external, .reference, .unknown:
                guard all else { continue }  // it may go where ATS is open
                severity = .note
            }
            if Self.isThirdParty(u.origin) { severity = .note }
            var why = "ATS blocks plain HTTP to \(u.host) for this bundle"
            if case .exceptionDomain(let name) = blocked[0].source {
                why += " (its NSExceptionDomains entry '\(name)' does not allow insecure HTTP loads)"
            }
            let message: String
            if u.use == .unknown {
                message = "\(b.name): \(u.url) is a plain-HTTP URL, and \(why): loading it through URLSession, a web view or AVFoundation fails"
            } else {
                message = "\(b.name): \(Self.loader(u)) loads \(u.url), but \(why)\(all ? "" : " outside web views"): this request will fail"
            }
            let origin = u.origin == .app ? "" : " [\(u.origin.label)]"
            var f: Finding
            switch u.location {
            case .source(let path, let line, let column):
                f = finding(message + origin, bundle: b.name, at: FileLocation(path: path, position: SourcePosition(line: line, column: column)),
                            evidence: [.file(path: path, line: line)], fix: Self.fix(u.host), fingerprint: [u.url])
            case .binary(let path, let symbol):
                f = finding(message + origin, bundle: b.name, at: FileLocation(path: path), evidence: [.symbol(binary: path, symbol: symbol)],
                            fix: Self.fix(u.host), fingerprint: [u.url])
            }
            f.severity = severity
            out.append(f)
        }
        for key in viaException.keys.sorted() {
            guard let (b, d, c, urls) = viaException[key] else { continue }
            let places = Array(Set(urls.map(Self.place))).sorted()
            let listed = places.prefix(5).joined(separator: ", ") + (places.count > 5 ? " and \(places.count - 5) more" : "")
            let hosts = Array(Set(urls.map(\.host))).sorted().joined(separator: ", ")
            out.append(ATSRuleSupport.note(self, "plain HTTP to \(hosts) goes through only because of the NSExceptionDomains entry '\(d.name)'; the code names it at \(listed)",
                                           bundle: b, c, d,
                                           fix: "Keep the exception while these URLs exist and tell App Review why; better, move \(hosts) to HTTPS and remove it."))
        }
        return out
    }

    static func fix(_ host: String) -> String {
        "Use https://; if \(host) cannot serve HTTPS, add an NSExceptionDomains entry for it with NSExceptionAllowsInsecureHTTPLoads and justify it to App Review."
    }
}
