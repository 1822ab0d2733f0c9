import Foundation
import Artifacts
import Evidence

public struct CredentialInCleartextURLRule: Rule {
    public init() {}
    typealias Security = ProtectedResourceCatalog.Security

    public static let description = RuleDescription(
        identifier: "credential_in_cleartext_url",
        name: "Credential in an http:// URL",
        summary: "A password, token, API key or other credential is put into the query of an http:// URL (interpolated or concatenated), or sensitive data is sent on a Network.framework connection the code makes without TLS, so it travels in clear text.",
        rationale: """
        A value in the query of an `http://` URL crosses the network unencrypted: anyone on the \
        path (public Wi-Fi, a captive portal, a proxy) reads it, and it is written to server, \
        proxy and CDN access logs besides (OWASP MASVS-NETWORK-1, MASTG-TEST-0236 / \
        "Cleartext Traffic"; CWE-319, CWE-598). App Transport Security blocks such a request \
        only if the Info.plist does not open an exception for the host (`ats_cleartext_url` \
        and the ATS rules judge those exceptions).

        Reported where a string literal starting `http://` (not `localhost`, `127.0.0.1`) \
        interpolates, after its `?`, a value whose origin is sensitive — a credential by name \
        (`password`, `authToken`, `apiKey`; not `deviceToken`, `tokenType`), a keychain read, \
        a secure field's text — directly or through the function's bindings; or a `+` \
        concatenation that starts with such a literal. And where such a value (or a card \
        number, a PIN) is given to `send(content:)` in a file whose every \
        `NWConnection(…, using:)` is plain TCP or UDP (`.tcp`, `.udp`, `NWParameters(tls: nil)`); \
        a connection the file does not make (a parameter, a property set elsewhere) may use TLS \
        and is not judged. Swift sources only.

        Severity: a **warning** (a **note** in a package or pod); debug-only code is not reported.

        Fix: use `https://`, and send credentials in a header (`Authorization`) or the body of \
        a POST, never in the URL; make a Network.framework connection with `.tls`.
        """,
        area: .network, severity: .warning, tags: ["security", "masvs-network-1", "CWE-319"],
        references: ["https://mas.owasp.org/MASVS/controls/MASVS-NETWORK-1/",
                     "https://cwe.mitre.org/data/definitions/319.html",
                     "https://cwe.mitre.org/data/definitions/598.html",
                     "https://developer.apple.com/documentation/security/preventing-insecure-network-connections"],
        triggering: [
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Login.swift": """
                         import Foundation

                         func loginURL(user: String, password: String) -> URL? {
                             URL(string: "http://api.example.com/login?user=\\(user)&password=\\(↓password)")
                         }
                         """],
                        note: "A password interpolated into an http:// query."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Feed.swift": """
                         import Foundation

                         struct Session { var authToken: String }

                         func feedURL(_ session: Session) -> URL? {
                             let token = session.authToken
                             return URL(string: "http://feeds.example.com/v1/items?access_token=" + ↓token)
                         }
                         """],
                        note: "A token, through a binding, concatenated after the query's start."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Terminal.swift": """
                         import Network

                         final class Terminal {
                             let connection = NWConnection(host: "pos.example.com", port: 9100, using: .tcp)

                             func pay(cardNumber: String, amount: Int) {
                                 connection.start(queue: .main)
                                 connection.send(content: ↓cardNumber.data(using: .utf8), completion: .idempotent)
                             }
                         }
                         """],
                        note: "A card number sent on a Network.framework connection the file makes over plain TCP."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Login.swift": """
                         import Foundation

                         func loginURL(password: String, authToken: String) -> [URL?] {
                             [URL(string: "https://api.example.com/login?password=\\(password)"),
                              URL(string: "http://localhost:8080/debug?token=\\(authToken)")]
                         }
                         """],
                        note: "https, and the device's own loopback."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Feed.swift": """
                         import Foundation

                         func pageURL(page: Int, deviceToken: String, tokenType: String) -> URL? {
                             URL(string: "http://feeds.example.com/items?page=\\(page)&device=\\(deviceToken)&type=\\(tokenType)")
                         }
                         """],
                        note: "A page number, a push token and a token's type are not credentials."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Terminal.swift": """
                         import CryptoKit
                         import Network

                         final class Terminal {
                             let connection = NWConnection(host: "pos.example.com", port: 9100, using: .tls)

                             func pay(cardNumber: String, key: SymmetricKey, plain: NWConnection) throws {
                                 connection.send(content: cardNumber.data(using: .utf8), completion: .idempotent)
                                 let sealed = try AES.GCM.seal(Data(cardNumber.utf8), using: key).combined
                                 plain.send(content: sealed, completion: .idempotent)
                             }
                         }
                         """],
                        note: "A connection with TLS; an encrypted value on a connection the file does not make (its parameters are not known here)."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        FlowFacts.findings(self, context, Security.cleartextCredential, lowered: .note,
                           fix: "Use https:// (or a Network.framework connection with .tls), and send credentials in an Authorization header or a POST body, never in the URL.") { host, u in
            u.api.contains("NWConnection.send")
                ? "\(host.name) sends sensitive data ('\(u.key)') on a connection without TLS, where anyone on the network reads it: \(UsageReading.describe(u))"
                : "\(host.name) puts a credential ('\(u.key)') into an http:// URL, where anyone on the network reads it: \(UsageReading.describe(u))"
        }
    }
}
