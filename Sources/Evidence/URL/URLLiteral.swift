import Foundation

/// What the code does with a URL literal, as far as the text around it tells: the call it is
/// an argument of (directly or through `URL(string:)`/`[NSURL URLWithString:]`).
public enum URLUse: String, Sendable, Hashable {
    /// The URL Loading System: `URLSession` tasks, `Data(contentsOf:)`, `NSURLConnection`,
    /// `AsyncImage`, Alamofire's `AF.request`.
    case urlSession
    /// A `URLRequest`/`NSURLRequest`: loaded by `URLSession` or by a web view.
    case request
    /// A web view load (`webView.load(…)`, `loadRequest:`).
    case webView
    /// AVFoundation media (`AVPlayer(url:)`, `AVURLAsset`, `playerWithURL:`).
    case media
    /// Opened outside the app — Safari, `SFSafariViewController`, SwiftUI `Link` — where the
    /// app's ATS policy does not apply.
    case external
    /// Named but not loaded: the base URL of HTML a web view is handed (`loadHTMLString(_:baseURL:)`).
    case reference
    /// Not seen: a bare literal, a binary string, a resource.
    case unknown
}

/// An `http://` or `https://` URL written in a bundle's code: a Swift or Objective-C string
/// literal, or a C string of a binary. Only URLs that name a public host are kept (see
/// `URLHosts.isNetworkHost`).
public struct URLLiteral: Sendable, Hashable {
    /// The URL as written, up to `URLLiteralScanner.maxURLLength` characters.
    public var url: String
    /// `http` or `https`, lower case.
    public var scheme: String
    /// The host, lower case, without user info or port.
    public var host: String
    public var location: UsageLocation
    /// The bundle whose code holds it, by name.
    public var bundle: String
    public var origin: UsageOrigin
    /// False for code that does not ship (test targets).
    public var ships: Bool
    public var use: URLUse
    /// The call seen around the literal (`URLRequest`, `webView.load`, `NSURL URLWithString:`), if any.
    public var api: String?

    public init(url: String, scheme: String, host: String, location: UsageLocation, bundle: String, origin: UsageOrigin = .app,
                ships: Bool = true, use: URLUse = .unknown, api: String? = nil) {
        self.url = url
        self.scheme = scheme
        self.host = host
        self.location = location
        self.bundle = bundle
        self.origin = origin
        self.ships = ships
        self.use = use
        self.api = api
    }

    public var isCleartext: Bool { scheme == "http" }
}

/// Which hosts are network traffic. A URL names no traffic ATS could block when its host is:
/// - not a fully qualified public name: no dot (`localhost`, `printer`), a `.local` (Bonjour)
///   name, an IPv4 or IPv6 literal — iOS 10 and later apply no ATS to them;
/// - under a reserved name that never resolves on the internet: `localhost`, `test`,
///   `example`, `invalid` (RFC 6761), `home.arpa` (RFC 8375); or under `example.com`,
///   `example.net`, `example.org`, reserved for documentation (RFC 2606): placeholders and
///   test fixtures, not a server anyone runs;
/// - not a real name: an empty label, a last label that is not letters (`1.2.3`, `v1.0`);
/// - an identifier, not an address: XML, XSD, XMPP and schema namespace URIs, a path that is
///   only `/ns`, DTDs and license texts (`nonTraffic`), which parsers and license banners
///   carry but nobody loads.
public enum URLHosts {
    /// Reserved top-level names that never reach the internet.
    public static let reservedSuffixes = ["local", "localhost", "test", "example", "invalid", "home.arpa",
                                          "example.com", "example.net", "example.org"]

    /// Namespace, schema, DTD and license URIs: a host with an optional path prefix. A host
    /// entry also covers its subdomains; any host whose first label is `schemas` is one too.
    public static let nonTraffic: [(host: String, path: String)] = [
        ("w3.org", ""),                       // XML, XHTML, SVG, XLink, XML Schema namespaces
        ("www.apple.com", "/DTDs/"),          // property-list DOCTYPE
        ("apple.com", "/DTDs/"),
        ("purl.org", ""),                     // Dublin Core, RSS 1.0 modules
        ("ns.adobe.com", ""),                 // XMP
        ("xmlns.com", ""),                    // FOAF
        ("json-schema.org", ""),              // JSON Schema `$schema`
        ("schema.org", ""),                   // structured-data vocabulary
        ("relaxng.org", ""),
        ("docs.oasis-open.org", ""),
        ("www.opengis.net", ""),              // GML, KML 2.2
        ("earth.google.com", "/kml"),         // KML 2.1
        ("www.topografix.com", "/GPX"),       // GPX
        ("www.idpf.org", ""),                 // EPUB
        ("ogp.me", "/ns"),                    // Open Graph
        ("search.yahoo.com", "/mrss"),        // Media RSS
        ("www.itunes.com", "/dtds"),          // podcast RSS
        ("creativecommons.org", ""),          // license URIs
        ("www.apache.org", "/licenses"),
        ("www.gnu.org", "/licenses"),
        ("www.gnu.org", "/copyleft"),
        ("opensource.org", "/licenses"),
        ("jabber.org", "/protocol/"),         // XMPP namespaces (XEPs)
        ("xmpp.org", "/extensions/"),
    ]

    /// Whether `host` (lower case) is a public host name ATS would govern.
    public static func isNetworkHost(_ host: String) -> Bool {
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty }), let last = labels.last else { return false }
        guard (last.count >= 2 && last.allSatisfy { $0.isASCII && $0.isLetter }) || last.hasPrefix("xn--") else { return false }
        return !reservedSuffixes.contains { host == $0 || host.hasSuffix("." + $0) }
    }

    /// Whether a URL of `host` with `path` is a namespace, schema, DTD or license identifier.
    public static func isNonTraffic(host: String, path: String) -> Bool {
        if host.hasPrefix("schemas.") { return true }
        // `http://owncloud.org/ns`, `http://nextcloud.org/ns`: a vocabulary's namespace (WebDAV
        // properties, Open Graph), named by a path that is only `/ns`.
        let p = path.lowercased()
        if p == "/ns" || p == "/ns/" || p.hasPrefix("/ns#") { return true }
        return nonTraffic.contains { e in
            (host == e.host || host.hasSuffix("." + e.host)) && (e.path.isEmpty || path.lowercased().hasPrefix(e.path.lowercased()))
        }
    }
}
