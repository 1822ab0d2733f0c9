import Evidence
import SwiftSyntax

/// Sensitive data sent on a Network.framework connection the file makes without TLS:
/// `connection.send(content: …)` in a file whose every `NWConnection(…, using:)` is plain TCP
/// or UDP (`.tcp`, `.udp`, `NWParameters(tls: nil)`). A connection made elsewhere (a
/// parameter, another file) may use TLS: not judged.
extension FlowVisitor {
    /// `using:` values of a connection without TLS.
    static let plainParameters: Set<String> = [".tcp", ".udp", "NWParameters.tcp", "NWParameters.udp"]

    /// Records an `NWConnection(…, using:)` or a `send(content:)`; whether the call was one.
    func transmissionCall(_ node: FunctionCallExprSyntax, _ labeled: (String) -> ExprSyntax?) -> Bool {
        if node.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "NWConnection", let using = labeled("using") {
            connectionTransports.append(Self.transport(using))
            return true
        }
        guard let member = node.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "send",
              member.base != nil, let content = labeled("content"), let o = flow.sensitive(content) else { return false }
        let location = flow.lines.location(ofUTF8Offset: content.positionAfterSkippingLeadingTrivia.utf8Offset)
        pendingSends.append(SourceUsage(capability: Security.cleartextCredential, key: o.what,
                                        api: o.path(to: "NWConnection.send(content:) without TLS", line: location.line),
                                        line: location.line, column: location.column, strength: .definite, ships: ships,
                                        container: UsageVisitor.container(of: Syntax(content))))
        return true
    }

    /// The sends, when the file makes connections and none of them with TLS.
    func judgeSends() {
        guard !connectionTransports.isEmpty, connectionTransports.allSatisfy({ $0 != nil }) else { return }
        let transport = Set(connectionTransports.compactMap { $0 }).sorted().joined(separator: "/")
        for send in pendingSends {
            var u = send
            u.api = u.api.replacingOccurrences(of: "without TLS", with: "on a \(transport) connection without TLS")
            found.append((u, false))
        }
    }

    /// `tcp`/`udp` for parameters without TLS, nil for anything else (TLS, or not known here).
    static func transport(_ using: ExprSyntax) -> String? {
        var e = E.stripped(using)
        if let reference = e.as(DeclReferenceExprSyntax.self),
           let bound = CryptoVisitor.letValue(reference.baseName.text, from: Syntax(e), membersOnly: false) {
            e = E.stripped(bound)
        }
        let text = e.sourceText.replacingOccurrences(of: " ", with: "")
        if plainParameters.contains(text) { return text.hasSuffix("udp") ? "UDP" : "TCP" }
        // `NWParameters(tls: nil)`, `NWParameters(dtls: nil, udp: …)`.
        if text.hasPrefix("NWParameters(tls:nil") || text.hasPrefix(".init(tls:nil") { return "TCP" }
        if text.hasPrefix("NWParameters(dtls:nil") || text.hasPrefix(".init(dtls:nil") { return "UDP" }
        return nil
    }
}
