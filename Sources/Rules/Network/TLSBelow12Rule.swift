import Foundation
import Artifacts
import Evidence

public struct TLSBelow12Rule: Rule {
    public init() {}
    typealias Security = ProtectedResourceCatalog.Security

    public static let description = RuleDescription(
        identifier: "tls_below_1_2",
        name: "TLS below 1.2 allowed in code",
        summary: "Code sets TLS 1.0 or 1.1 (or SSL 3) as a connection's minimum or maximum protocol version: URLSessionConfiguration's tlsMinimumSupportedProtocolVersion / tlsMinimumSupportedProtocol, or sec_protocol_options_set_min_tls_protocol_version.",
        rationale: """
        TLS 1.0 and 1.1 were deprecated by RFC 8996 (2021): they rely on SHA-1 and MD5 in the \
        handshake and lack modern cipher suites, and a downgrade to them is what BEAST-style \
        and POODLE-style attacks need. Apple's App Transport Security requires TLS 1.2 by \
        default, but a session configuration or a Network.framework connection that sets its \
        own minimum lowers it for that connection, whatever the Info.plist says (OWASP \
        MASVS-NETWORK-1, MASTG-TEST-0065; CWE-326, CWE-757). Setting the *maximum* to 1.0 or \
        1.1 forces the old version.

        Reported where one of these is assigned or passed a version below 1.2 (`.TLSv10`, \
        `.TLSv11`, `tls_protocol_version_t.TLSv11`, `.tlsProtocol1`, `.tlsProtocol11`, \
        `.sslProtocol3`, `kTLSProtocol1`…), directly or through a `let`: \
        `tlsMinimumSupportedProtocolVersion`, `tlsMaximumSupportedProtocolVersion`, \
        `tlsMinimumSupportedProtocol`, `tlsMaximumSupportedProtocol`, \
        `sec_protocol_options_set_min_tls_protocol_version` and \
        `…_set_max_tls_protocol_version` (Network.framework's `NWProtocolTLS.Options`). The \
        Info.plist's `NSExceptionMinimumTLSVersion` is judged by the ATS rules. Swift sources only.

        Severity: a **warning** (a **note** in a package or pod); debug-only code is not reported.

        Fix: remove the setting (the system default is TLS 1.2 or later) or set `.TLSv12`/`.TLSv13`; \
        a server that only speaks TLS 1.0 needs upgrading, not the app lowering its guard.
        """,
        area: .network, severity: .warning, tags: ["security", "masvs-network-1", "CWE-326"],
        references: ["https://mas.owasp.org/MASVS/controls/MASVS-NETWORK-1/",
                     "https://www.rfc-editor.org/rfc/rfc8996",
                     "https://developer.apple.com/documentation/foundation/urlsessionconfiguration/3042935-tlsminimumsupportedprotocolversi",
                     "https://developer.apple.com/documentation/security/sec_protocol_options_set_min_tls_protocol_version(_:_:)"],
        triggering: [
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Client.swift": """
                         import Foundation
                         import Network

                         func makeSession() -> URLSession {
                             let config = URLSessionConfiguration.default
                             config.tlsMinimumSupportedProtocolVersion = ↓.TLSv10
                             return URLSession(configuration: config)
                         }

                         func makeConnection(host: String) -> NWConnection {
                             let tls = NWProtocolTLS.Options()
                             sec_protocol_options_set_min_tls_protocol_version(tls.securityProtocolOptions, ↓.TLSv11)
                             return NWConnection(host: NWEndpoint.Host(host), port: 443, using: NWParameters(tls: tls))
                         }
                         """],
                        note: "URLSession's minimum, and Network.framework's TLS options."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Legacy.swift": """
                         import Foundation

                         final class LegacyClient {
                             func configuration() -> URLSessionConfiguration {
                                 let oldest = tls_protocol_version_t.TLSv11
                                 let config = URLSessionConfiguration.ephemeral
                                 config.tlsMinimumSupportedProtocolVersion = ↓oldest
                                 config.tlsMinimumSupportedProtocol = ↓.tlsProtocol1
                                 return config
                             }
                         }
                         """],
                        note: "A version held in a let, and the older SSLProtocol property."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Client.m": """
                         #import <Foundation/Foundation.h>

                         NSURLSession *MakeSession(void) {
                             NSURLSessionConfiguration *config = [NSURLSessionConfiguration defaultSessionConfiguration];
                             config.TLSMinimumSupportedProtocol = ↓kTLSProtocol1;
                             [config setTLSMinimumSupportedProtocolVersion:↓tls_protocol_version_TLSv11];
                             return [NSURLSession sessionWithConfiguration:config];
                         }
                         """],
                        note: "Objective-C: the property and the setter."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Client.swift": """
                         import Foundation
                         import Network

                         func makeSession() -> URLSession {
                             let config = URLSessionConfiguration.default
                             config.tlsMinimumSupportedProtocolVersion = .TLSv12
                             return URLSession(configuration: config)
                         }

                         func options() -> NWProtocolTLS.Options {
                             let tls = NWProtocolTLS.Options()
                             sec_protocol_options_set_min_tls_protocol_version(tls.securityProtocolOptions, .TLSv13)
                             return tls
                         }
                         """],
                        note: "TLS 1.2 and 1.3 minimums."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Debug.swift": """
                         import Foundation

                         func supported(_ version: tls_protocol_version_t) -> Bool {
                             version != .TLSv10 && version != .TLSv11
                         }

                         #if DEBUG
                         func legacyTestServer(_ config: URLSessionConfiguration) {
                             config.tlsMinimumSupportedProtocolVersion = .TLSv10
                         }
                         #endif
                         """],
                        note: "Comparisons that reject old versions, and a debug-only test-server setting."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        FlowFacts.findings(self, context, Security.tlsBelow12, lowered: .note,
                           fix: "Remove the setting (the system default is TLS 1.2 or later) or set .TLSv12 / .TLSv13; upgrade a server that needs TLS 1.0 or 1.1.") { host, u in
            "\(host.name) lets a connection use \(u.key), below TLS 1.2 (deprecated by RFC 8996): \(UsageReading.describe(u))"
        }
    }
}
