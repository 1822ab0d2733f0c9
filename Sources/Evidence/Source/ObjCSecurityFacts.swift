/// Keychain attributes an Objective-C or C file gives an item, from the tokens around a
/// constant (`ProtectedResourceCatalog.Security`): a `kSecAttrAccessible…` class or a string
/// literal counts as the value of `kSecAttrAccessible` / `kSecAttrAccessGroup` only when the
/// tokens pair them — a dictionary literal entry (`(__bridge id)kSecAttrAccessible: (__bridge
/// id)kSecAttrAccessibleAlways`), a subscript assignment (`query[key] = value`), a
/// `setObject:value forKey:key` send, `CFDictionaryAddValue(d, key, value)` — or the class is
/// the second argument of `SecAccessControlCreateWithFlags`. Anything else (a switch that maps
/// an option to a constant) stays a mere reference.
enum ObjCSecurityFacts {
    typealias Security = ProtectedResourceCatalog.Security

    /// Whether the file can hold a fact (a cheap test before the second lexing).
    static func mayFind(_ bytes: [UInt8]) -> Bool {
        let needle = Array("kSecAttr".utf8)
        guard bytes.count >= needle.count else { return false }
        var i = 0
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0], bytes[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }

    /// Tokens of a bridging cast or parenthesis, skipped between a key and its value.
    static let castWords: Set<String> = ["__bridge", "__bridge_transfer", "__bridge_retained", "id", "CFTypeRef", "NSString",
                                         "CFStringRef", "const", "void"]

    static func scan(_ file: ObjCLexedFile, positions: inout ObjCSourcePositions) -> [SourceUsage] {
        let lexer = file.lexer
        let tokens = file.tokens
        let texts = tokens.map { $0.kind == .identifier || $0.kind == .literal ? lexer.text($0) : "" }
        func isCast(_ i: Int) -> Bool {
            let t = tokens[i]
            if t.kind == .leftParen || t.kind == .rightParen { return true }
            if t.kind == .otherOperator { return lexer.text(t) == "*" }
            return t.kind == .identifier && castWords.contains(texts[i])
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
        /// Whether the token at `i` is the second argument of `SecAccessControlCreateWithFlags(`.
        func isAccessControlClass(_ i: Int) -> Bool {
            var depth = 0, commas = 0
            var j = i - 1
            while j >= 0, i - j < 24 {
                switch tokens[j].kind {
                case .rightParen: depth += 1
                case .leftParen:
                    if depth == 0 { return commas == 1 && j > 0 && texts[j - 1] == "SecAccessControlCreateWithFlags" }
                    depth -= 1
                case .comma where depth == 0: commas += 1
                case .semicolon, .leftBrace, .rightBrace: return false
                default: break
                }
                j -= 1
            }
            return false
        }
        /// The key a value at `i` is paired with, or `SecAccessControlCreateWithFlags`.
        func pairedKey(_ i: Int) -> String? {
            if let p = previous(i) {
                switch tokens[p].kind {
                case .colon, .comma:
                    if let k = previous(p), tokens[k].kind == .identifier, texts[k].hasPrefix("kSecAttr") { return texts[k] }
                    if tokens[p].kind == .comma, isAccessControlClass(i) { return "SecAccessControlCreateWithFlags" }
                case .assign:
                    if let b = previous(p), tokens[b].kind == .rightBracket, let k = previous(b), texts[k].hasPrefix("kSecAttr") {
                        return texts[k]
                    }
                default: break
                }
            }
            if let n = next(i), texts[n] == "forKey", let c = next(n), tokens[c].kind == .colon, let k = next(c),
               texts[k].hasPrefix("kSecAttr") {
                return texts[k]
            }
            return nil
        }

        var out: [SourceUsage] = []
        for i in tokens.indices {
            let t = tokens[i]
            if t.kind == .identifier, Security.accessibilityConstants.contains(texts[i]), let key = pairedKey(i),
               key == "kSecAttrAccessible" || key == "SecAccessControlCreateWithFlags" {
                let (line, column) = positions.lineAndColumn(t.start)
                let api = key == "kSecAttrAccessible" ? "kSecAttrAccessible: \(texts[i])" : "SecAccessControlCreateWithFlags(\(texts[i]))"
                out.append(SourceUsage(capability: Security.keychainAccessible, key: texts[i], api: api, line: line, column: column,
                                       strength: .definite, ships: t.ships))
            } else if t.kind == .literal, let found = ObjCAppGroupFacts.fact(at: i, texts: texts, tokens: tokens, previous: previous) {
                let (line, column) = positions.lineAndColumn(t.start)
                out.append(SourceUsage(capability: Security.appGroup, key: found.group, api: "\(found.api) @\"\(found.group)\"",
                                       line: line, column: column, strength: .definite, ships: t.ships))
            } else if t.kind == .literal, let group = objcString(texts[i]), pairedKey(i) == "kSecAttrAccessGroup" {
                let (line, column) = positions.lineAndColumn(t.start)
                out.append(SourceUsage(capability: Security.keychainAccessGroup, key: group, api: "kSecAttrAccessGroup: @\"\(group)\"",
                                       line: line, column: column, strength: .definite, ships: t.ships))
            }
        }
        return out
    }

    /// The text of `@"…"` or `CFSTR("…")`'s literal without escapes.
    static func objcString(_ text: String) -> String? {
        var s = Substring(text)
        if s.hasPrefix("@") { s = s.dropFirst() }
        guard s.count >= 2, s.hasPrefix("\""), s.hasSuffix("\""), !s.contains("\\") else { return nil }
        let inner = s.dropFirst().dropLast()
        return inner.isEmpty ? nil : String(inner)
    }
}
