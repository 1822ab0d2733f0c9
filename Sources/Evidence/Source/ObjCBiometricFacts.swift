/// What an Objective-C `evaluatePolicy:localizedReason:reply:` send asks, as the Swift scanner
/// reads `LAContext.evaluatePolicy` (`ProtectedResourceCatalog.Security`): the policy from its
/// `LAPolicy…` constant, and, for biometrics only, whether a reply block written in place
/// (`reply:^(BOOL success, NSError *error) { … }`) reads its error. A reply passed as a
/// variable, a policy held in a variable, or a block without its parameter list says nothing.
enum ObjCBiometricFacts {
    typealias Security = ProtectedResourceCatalog.Security

    static let triggers = [Array("evaluatePolicy".utf8)]
    static let policyPrefix = "LAPolicyDeviceOwnerAuthentication"
    /// `LAPolicyDeviceOwnerAuthenticationWithBiometrics`, as Swift spells it.
    static let biometricsOnly = "deviceOwnerAuthenticationWithBiometrics"

    static func scan(_ t: ObjCFactTokens, positions: inout ObjCSourcePositions) -> [SourceUsage] {
        var out: [SourceUsage] = []
        for i in 0..<t.count where t.kind(i) == .identifier && t.texts[i] == "evaluatePolicy" {
            guard i + 1 < t.count, t.kind(i + 1) == .colon, let p = t.next(i + 1), t.kind(p) == .identifier,
                  t.texts[p].hasPrefix(policyPrefix), let open = t.messageStart(of: i) else { continue }
            let policy = "d" + t.texts[p].dropFirst("LAPolicyD".count)
            let (line, column) = positions.lineAndColumn(t.tokens[i].start)
            out.append(SourceUsage(capability: Security.biometricPolicy, key: policy,
                                   api: "-[LAContext evaluatePolicy:\(t.texts[p]) localizedReason:reply:]",
                                   line: line, column: column, strength: .definite, ships: t.tokens[i].ships))
            guard policy == biometricsOnly, let caret = replyBlock(t, after: p, end: t.messageEnd(of: open)),
                  let error = errorParameter(t, caret: caret), let body = blockBody(t, caret: caret),
                  !body.contains(where: { t.kind($0) == .identifier && t.texts[$0] == error }) else { continue }
            let (replyLine, replyColumn) = positions.lineAndColumn(t.tokens[caret].start)
            out.append(SourceUsage(capability: Security.biometricErrorIgnored, key: policy,
                                   api: "-[LAContext evaluatePolicy:\(t.texts[p]) localizedReason:reply:] reply",
                                   line: replyLine, column: replyColumn, strength: .definite, ships: t.tokens[i].ships))
        }
        return out
    }

    /// The `^` of a block literal given as the `reply:` argument of the send (tokens up to `end`).
    static func replyBlock(_ t: ObjCFactTokens, after p: Int, end: Int) -> Int? {
        var depth = 0
        var j = p + 1
        while j + 2 < end {
            switch t.kind(j) {
            case .leftBracket, .leftParen, .leftBrace: depth += 1
            case .rightBracket, .rightParen, .rightBrace: depth -= 1
            case .identifier where depth == 0 && t.texts[j] == "reply" && t.kind(j + 1) == .colon:
                return t.kind(j + 2) == .otherOperator && t.texts[j + 2] == "^" ? j + 2 : nil
            default: break
            }
            j += 1
        }
        return nil
    }

    /// The name of the block's second parameter: `^(BOOL success, NSError * _Nullable error)`,
    /// also after a return type (`^void (…)`). Nil without a parameter list or without a name.
    static func errorParameter(_ t: ObjCFactTokens, caret: Int) -> String? {
        var j = caret + 1
        while j < t.count, j - caret < 4, t.kind(j) == .identifier { j += 1 }  // a return type
        guard j < t.count, t.kind(j) == .leftParen else { return nil }
        var depth = 0, commas = 0, words = 0
        var last: String? = nil
        while j < t.count {
            switch t.kind(j) {
            case .leftParen: depth += 1
            case .rightParen:
                depth -= 1
                // `NSError *` alone names no parameter.
                if depth == 0 { return commas == 1 && words >= 2 ? last : nil }
            case .comma where depth == 1: commas += 1; last = nil
            case .identifier where depth == 1 && commas == 1: last = t.texts[j]; words += 1
            case .leftBrace, .semicolon: return nil
            default: break
            }
            j += 1
        }
        return nil
    }

    /// The token indices of the block's body, between its braces.
    static func blockBody(_ t: ObjCFactTokens, caret: Int) -> Range<Int>? {
        var j = caret + 1
        while j < t.count, t.kind(j) != .leftBrace {
            if t.kind(j) == .semicolon || t.kind(j) == .rightBracket || j - caret > 64 { return nil }
            j += 1
        }
        guard j < t.count else { return nil }
        guard let end = t.closer(of: j), t.kind(end) == .rightBrace else { return nil }
        return (j + 1)..<end
    }
}
