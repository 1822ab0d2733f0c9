import Foundation
import Artifacts
import Evidence

public struct ServerTrustNotEvaluatedRule: Rule {
    public init() {}
    typealias Security = ProtectedResourceCatalog.Security

    public static let description = RuleDescription(
        identifier: "server_trust_not_evaluated",
        name: "Server trust accepted without evaluation",
        summary: "A URLSession or WKWebView authentication-challenge delegate answers .useCredential with URLCredential(trust:) while nothing in it evaluates the trust (SecTrustEvaluateWithError) or hands it to code that could.",
        rationale: """
        Answering a server-trust challenge with `.useCredential` and `URLCredential(trust:)` \
        tells the system to accept the server's certificate chain as it is. Unless the code \
        has evaluated that trust first, any certificate passes — self-signed, expired, issued \
        for another host — and anyone on the network path (public Wi-Fi, a hostile proxy) can \
        read and change the traffic (OWASP MASVS-NETWORK-1, MASTG-TEST-0066 / MASTG-TEST-0283 \
        "Incorrect SSL Pinning / Trust Evaluation"; CWE-295). App Transport Security does not \
        protect a connection whose delegate accepts the trust itself.

        Reported on the `completionHandler(.useCredential, …)` call of \
        `urlSession(_:didReceive:completionHandler:)`, `urlSession(_:task:didReceive:completionHandler:)` \
        or `webView(_:didReceive:completionHandler:)` when the method creates a \
        `URLCredential(trust:)`, calls no `SecTrustEvaluate…` function, and passes neither the \
        challenge nor the trust (nor a value made from them) to any other call — a pinning or \
        validation helper of the app's own is taken as evaluating it. A `.useCredential` with a \
        user/password credential (HTTP authentication) is not a trust decision. Swift sources only.

        Severity: an **error** in the app's own shipping code (every connection through the \
        delegate is open to interception); a **warning** in a package or pod; debug-only code \
        is not reported.

        Fix: evaluate before accepting — `SecTrustEvaluateWithError(trust, nil)` (after \
        `SecTrustSetPolicies` for the host, and pinning if you need it) — and answer \
        `.cancelAuthenticationChallenge` when it fails; or answer `.performDefaultHandling` and \
        let the system decide.
        """,
        area: .network, severity: .error, tags: ["security", "masvs-network-1", "CWE-295"],
        references: ["https://mas.owasp.org/MASVS/controls/MASVS-NETWORK-1/",
                     "https://developer.apple.com/documentation/foundation/url_loading_system/handling_an_authentication_challenge/performing_manual_server_trust_authentication",
                     "https://developer.apple.com/documentation/security/2980705-sectrustevaluatewitherror",
                     "https://cwe.mitre.org/data/definitions/295.html"],
        triggering: [
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Loader.swift": """
                         import Foundation

                         final class Loader: NSObject, URLSessionDelegate {
                             func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
                                             completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
                                 guard let trust = challenge.protectionSpace.serverTrust else {
                                     completionHandler(.performDefaultHandling, nil)
                                     return
                                 }
                                 ↓completionHandler(.useCredential, URLCredential(trust: trust))
                             }
                         }
                         """],
                        note: "Any certificate accepted for every host."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/WebController.swift": """
                         import WebKit

                         final class WebController: NSObject, WKNavigationDelegate {
                             func webView(_ webView: WKWebView, didReceive challenge: URLAuthenticationChallenge,
                                          completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
                                 if challenge.protectionSpace.host == "staging.example.com", let trust = challenge.protectionSpace.serverTrust {
                                     let credential = URLCredential(trust: trust)
                                     ↓completionHandler(.useCredential, credential)
                                 } else {
                                     completionHandler(.performDefaultHandling, nil)
                                 }
                             }
                         }
                         """],
                        note: "A web view that accepts any certificate for one host (a host check is not a trust check)."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Loader.swift": """
                         import Foundation

                         final class Loader: NSObject, URLSessionDelegate {
                             func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
                                             completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
                                 guard let trust = challenge.protectionSpace.serverTrust else {
                                     completionHandler(.performDefaultHandling, nil)
                                     return
                                 }
                                 var error: CFError?
                                 if SecTrustEvaluateWithError(trust, &error) {
                                     completionHandler(.useCredential, URLCredential(trust: trust))
                                 } else {
                                     completionHandler(.cancelAuthenticationChallenge, nil)
                                 }
                             }
                         }
                         """],
                        note: "The trust evaluated before it is accepted."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Pinned.swift": """
                         import Foundation

                         final class PinnedDelegate: NSObject, URLSessionTaskDelegate {
                             let pinner = CertificatePinner()

                             func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                                             completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
                                 if challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodHTTPBasic {
                                     completionHandler(.useCredential, URLCredential(user: "app", password: storedSecret(), persistence: .forSession))
                                 } else if let trust = challenge.protectionSpace.serverTrust, pinner.validate(trust, host: challenge.protectionSpace.host) {
                                     completionHandler(.useCredential, URLCredential(trust: trust))
                                 } else {
                                     completionHandler(.cancelAuthenticationChallenge, nil)
                                 }
                             }
                         }
                         """],
                        note: "HTTP basic authentication, and a trust handed to the app's pinning helper."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        FlowFacts.findings(self, context, Security.trustNotEvaluated, lowered: .warning,
                           fix: "Call SecTrustEvaluateWithError(trust, &error) (with the host's policy, and pinning if needed) before answering .useCredential, and cancel the challenge when it fails; or answer .performDefaultHandling.") { host, u in
            "\(host.name) accepts a server's certificate without evaluating it, so any certificate passes and the connection can be intercepted: \(UsageReading.describe(u))"
        }
    }
}
