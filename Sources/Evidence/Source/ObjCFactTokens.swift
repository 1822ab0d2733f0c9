/// The live tokens of one Objective-C file, lexed once for the call-level security facts
/// (`ObjCBiometricFacts`, `ObjCKeychainWrapperFacts`): kinds, identifier and literal texts,
/// and the message-send structure around a token.
struct ObjCFactTokens {
    let tokens: [ObjCToken]
    /// Identifier and literal texts; "" for other tokens. `^` and `*` keep their text too.
    let texts: [String]
    /// The innermost `[`, `(` or `{` around each token (-1 at top level); for a closing token,
    /// the one around its pair.
    private let enclosing: [Int]
    /// Where each opening token closes (`count` when it never does).
    private let closing: [Int]

    static let maxTokens = 2_000_000

    init(_ file: ObjCLexedFile) {
        let lexer = file.lexer
        let tokens = file.tokens
        self.tokens = tokens
        // One pass: each token's innermost enclosing `[`, `(` or `{`, and where each of those closes.
        var enclosing = [Int](repeating: -1, count: tokens.count)
        var closing = [Int](repeating: tokens.count, count: tokens.count)
        var open: [Int] = []
        for (i, t) in tokens.enumerated() {
            enclosing[i] = open.last ?? -1
            switch t.kind {
            case .leftBracket, .leftParen, .leftBrace: open.append(i)
            case .rightBracket, .rightParen, .rightBrace:
                if let o = open.popLast() { closing[o] = i }
                enclosing[i] = open.last ?? -1
            default: break
            }
        }
        self.enclosing = enclosing
        self.closing = closing
        texts = tokens.map { t in
            switch t.kind {
            case .identifier, .literal, .otherOperator: lexer.text(t)
            default: ""
            }
        }
    }

    var count: Int { tokens.count }

    func kind(_ i: Int) -> ObjCToken.Kind { tokens[i].kind }

    /// Tokens of a bridging cast or parenthesis, skipped around an argument.
    func isCast(_ i: Int) -> Bool {
        switch tokens[i].kind {
        case .leftParen, .rightParen: return true
        case .otherOperator: return texts[i] == "*"
        case .identifier: return ObjCSecurityFacts.castWords.contains(texts[i])
        default: return false
        }
    }

    func previous(_ i: Int) -> Int? {
        var j = i - 1
        while j >= 0, isCast(j) { j -= 1 }
        return j >= 0 ? j : nil
    }

    func next(_ i: Int) -> Int? {
        var j = i + 1
        while j < tokens.count, isCast(j) { j += 1 }
        return j < tokens.count ? j : nil
    }

    /// The selector keyword an argument at `i` follows (`accessibility` in `…accessibility:X`),
    /// or the property a value at `i` is assigned to (`store.accessibility = X`).
    func keyword(before i: Int) -> (name: String, assigned: Bool)? {
        guard let p = previous(i), let k = previous(p), tokens[k].kind == .identifier else { return nil }
        switch tokens[p].kind {
        case .colon: return (texts[k], false)
        case .assign: return (texts[k], true)
        default: return nil
        }
    }

    /// The `[` that opens the message send holding token `i` directly (not inside a nested
    /// parenthesis or block), if any.
    func messageStart(of i: Int) -> Int? {
        let o = enclosing[i]
        return o >= 0 && tokens[o].kind == .leftBracket ? o : nil
    }

    /// The class a message send starting at `[` is sent to: `[SAMKeychain …]`, `[[UICKeyChainStore alloc] …]`.
    func receiverClass(ofMessageAt open: Int) -> String? {
        var j = open + 1
        while j < tokens.count, tokens[j].kind == .leftBracket { j += 1 }
        guard j < tokens.count, tokens[j].kind == .identifier else { return nil }
        return texts[j]
    }

    /// The index past the token closing the one opened at `open` (the end when it never closes).
    func messageEnd(of open: Int) -> Int {
        min(closing[open] + 1, tokens.count)
    }

    /// The token closing the one opened at `open`, if any.
    func closer(of open: Int) -> Int? {
        closing[open] < tokens.count ? closing[open] : nil
    }

    /// Whether the bytes name any of the words (a cheap test before lexing): one pass, and a
    /// word is compared only where a byte starts one.
    static func mentions(_ bytes: [UInt8], _ words: [[UInt8]]) -> Bool {
        guard let shortest = words.map(\.count).min(), shortest > 0, bytes.count >= shortest else { return false }
        var starts = [Bool](repeating: false, count: 256)
        for w in words { starts[Int(w[0])] = true }
        return bytes.withUnsafeBufferPointer { b in
            let n = b.count
            for i in 0...(n - shortest) where starts[Int(b[i])] {
                for w in words where w[0] == b[i] && i + w.count <= n {
                    var k = 1
                    while k < w.count, b[i + k] == w[k] { k += 1 }
                    if k == w.count { return true }
                }
            }
            return false
        }
    }
}

/// The call-level security facts of an Objective-C file, after the attribute facts: the
/// replies of `evaluatePolicy` and the options given to keychain wrappers.
enum ObjCCallFacts {
    static func mayFind(_ bytes: [UInt8]) -> (biometric: Bool, wrapper: Bool) {
        (ObjCFactTokens.mentions(bytes, ObjCBiometricFacts.triggers), ObjCFactTokens.mentions(bytes, ObjCKeychainWrapperFacts.triggers))
    }

    static func scan(_ file: ObjCLexedFile, biometric: Bool, wrapper: Bool, positions: inout ObjCSourcePositions) -> [SourceUsage] {
        guard biometric || wrapper else { return [] }
        let tokens = ObjCFactTokens(file)
        var out: [SourceUsage] = []
        if biometric { out += ObjCBiometricFacts.scan(tokens, positions: &positions) }
        if wrapper { out += ObjCKeychainWrapperFacts.scan(tokens, positions: &positions) }
        return out
    }
}
