/// Reading a token array as C and Objective-C expressions, for `ObjCCryptoFacts`.
struct ObjCTokenReader {
    typealias Security = ProtectedResourceCatalog.Security
    let tokens: [ObjCToken]
    let texts: [String]

    func isBoundary(_ i: Int) -> Bool {
        switch tokens[i].kind {
        case .semicolon, .leftBrace, .rightBrace, .macroStart, .macroEnd: true
        default: false
        }
    }

    /// The token ranges of a call's arguments, split at top-level commas; `open` is its `(`.
    func arguments(from open: Int) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var depth = 0
        var start = open + 1
        var j = open + 1
        while j < tokens.count, j - open < 4_000 {
            switch tokens[j].kind {
            case .leftParen, .leftBracket, .leftBrace: depth += 1
            case .rightParen, .rightBracket, .rightBrace:
                if depth == 0 {
                    if j > start || !out.isEmpty { out.append(start..<j) }
                    return out
                }
                depth -= 1
            case .comma where depth == 0:
                out.append(start..<j)
                start = j + 1
            case .semicolon, .macroEnd: return out
            default: break
            }
            j += 1
        }
        return out
    }

    /// The tokens of an argument that are not casts or parentheses.
    func values(_ range: Range<Int>) -> [Int] {
        range.filter { j in
            switch tokens[j].kind {
            case .leftParen, .rightParen: false
            case .identifier: !ObjCCryptoFacts.castWords.contains(texts[j])
            case .otherOperator: texts[j] != "*"
            default: true
            }
        }
    }

    /// Weak algorithms an algorithm argument names: constants (both branches of `?:`), a lone
    /// integer literal, or a local variable assigned one constant earlier in the function.
    func weakAlgorithms(_ range: Range<Int>, before call: Int) -> [(name: String, at: Int)] {
        let value = values(range)
        if value.count == 1, tokens[value[0]].kind == .literal {
            return integer(texts[value[0]]).flatMap(Security.weakCipherConstant(value:)).map { [($0, value[0])] } ?? []
        }
        let named = value.filter { tokens[$0].kind == .identifier && Security.weakCipherConstants[texts[$0]] != nil }
        if !named.isEmpty { return named.map { (texts[$0], $0) } }
        if value.count == 1, tokens[value[0]].kind == .identifier, let assigned = localValue(of: texts[value[0]], before: call) {
            return weakAlgorithms(assigned, before: call).map { ($0.name, value[0]) }
        }
        return []
    }

    /// Where an options argument sets `kCCOptionECBMode` (not under `~`), or is a literal with its bit.
    func ecbOption(_ range: Range<Int>) -> Int? {
        let value = values(range)
        if value.count == 1, tokens[value[0]].kind == .literal, let v = integer(texts[value[0]]) {
            return v & Security.ecbOptionBit != 0 ? value[0] : nil
        }
        return range.first { j in texts[j] == Security.ecbOption && !isComplemented(j, from: range.lowerBound) }
    }

    /// `~kCCOptionECBMode`, `~(CCOptions)kCCOptionECBMode`: the bit cleared.
    func isComplemented(_ i: Int, from start: Int) -> Bool {
        var j = i - 1
        while j >= start {
            switch tokens[j].kind {
            case .leftParen, .rightParen: j -= 1
            case .identifier where ObjCCryptoFacts.castWords.contains(texts[j]): j -= 1
            case .otherOperator where texts[j] == "*": j -= 1
            default: return tokens[j].kind == .otherOperator && texts[j] == "~"
            }
        }
        return false
    }

    func ecbModeArgument(_ range: Range<Int>) -> Int? {
        let value = values(range)
        guard value.count == 1 else { return nil }
        if texts[value[0]] == Security.ecbModeConstant { return value[0] }
        if tokens[value[0]].kind == .literal, integer(texts[value[0]]) == Security.ecbModeValue { return value[0] }
        return nil
    }

    /// The right side of the one assignment to `name` in the function before `call`
    /// (`CCAlgorithm alg = kCCAlgorithmDES;`), else of the file's one top-level assignment
    /// (`static const CCAlgorithm kAlgorithm = kCCAlgorithmDES;`); nil when there are none or several.
    func localValue(of name: String, before call: Int) -> Range<Int>? {
        var found: Range<Int>?
        var depth = 0
        var j = call - 1
        while j >= 0, call - j < 20_000 {
            switch tokens[j].kind {
            case .rightBrace: depth += 1
            case .leftBrace:
                if depth == 0 && isFunctionBody(j) { return found ?? topLevelValue(of: name) }
                depth = max(0, depth - 1)
            case .assign where j > 0 && texts[j - 1] == name:
                guard found == nil else { return nil }
                var end = j + 1
                while end < tokens.count, tokens[end].kind != .semicolon, !isBoundary(end) { end += 1 }
                found = (j + 1)..<end
            default: break
            }
            j -= 1
        }
        return found
    }

    /// The right side of the one assignment to `name` outside every brace.
    func topLevelValue(of name: String) -> Range<Int>? {
        var found: Range<Int>?
        var depth = 0
        for j in tokens.indices {
            switch tokens[j].kind {
            case .leftBrace: depth += 1
            case .rightBrace: depth = max(0, depth - 1)
            case .assign where depth == 0 && j > 0 && texts[j - 1] == name:
                guard found == nil else { return nil }
                var end = j + 1
                while end < tokens.count, !isBoundary(end) { end += 1 }
                found = (j + 1)..<end
            default: break
            }
        }
        return found
    }

    /// Whether the `{` at `i` opens a function or method body (its header ends with `)` or a name).
    func isFunctionBody(_ i: Int) -> Bool {
        guard i > 0 else { return true }
        return tokens[i - 1].kind == .rightParen || tokens[i - 1].kind == .identifier
    }

    func integer(_ text: String) -> UInt64? {
        var t = Substring(text.lowercased())
        while let last = t.last, last == "u" || last == "l" { t = t.dropLast() }
        if t.hasPrefix("0x") { return UInt64(t.dropFirst(2), radix: 16) }
        return UInt64(t)
    }

    // MARK: Randomness

    /// `rand(`, `random(` … written as a call (not a declaration, method or member), or
    /// `[GKARC4RandomSource alloc]` / `new`: the generator's text, or nil.
    func randomProducer(at i: Int) -> String? {
        let name = texts[i]
        if Security.insecureRandomSources.contains(name) {
            guard i > 0, tokens[i - 1].kind == .leftBracket, i + 1 < tokens.count,
                  texts[i + 1] == "alloc" || texts[i + 1] == "new" else { return nil }
            return name
        }
        guard Security.insecureRandomFunctions.contains(name), i + 1 < tokens.count, tokens[i + 1].kind == .leftParen else { return nil }
        if i > 0 {
            switch tokens[i - 1].kind {
            case .dot, .arrow, .at, .atKeyword: return nil
            case .identifier where !ObjCCryptoFacts.statementWords.contains(texts[i - 1]): return nil
            case .scope where i < 2 || texts[i - 2] != "std": return nil
            default: break
            }
        }
        return name + "()"
    }

    /// Where the value of the producer at `i` goes, when that is a secret: `into 'password'`,
    /// `in generatePassword`; nil otherwise.
    func secretSink(of i: Int, function: String?) -> String? {
        var start = i
        while start > 0, !isBoundary(start - 1) { start -= 1 }
        // Open `[` sends before the producer: receiver and last keyword at that level.
        var sends: [(receiver: String?, firstKeyword: String?, keyword: String?)] = []
        var parens = 0
        var assignment: Int?
        var j = start
        while j < i {
            let t = tokens[j]
            switch t.kind {
            case .leftBracket:
                let receiver = j + 2 < i && tokens[j + 1].kind == .identifier && tokens[j + 2].kind == .identifier ? texts[j + 1] : nil
                sends.append((receiver, receiver != nil ? texts[j + 2] : nil, nil))
            case .rightBracket: if !sends.isEmpty { sends.removeLast() }
            case .leftParen: parens += 1
            case .rightParen: parens = max(0, parens - 1)
            case .colon where j > start && tokens[j - 1].kind == .identifier && !sends.isEmpty:
                sends[sends.count - 1].keyword = texts[j - 1]
            case .assign where sends.isEmpty && parens == 0: assignment = j
            case .otherOperator where sends.isEmpty && parens == 0 && ["+=", "|=", "^="].contains(texts[j]): assignment = j
            default: break
            }
            j += 1
        }
        for send in sends.reversed() {
            if let keyword = send.keyword, SecretNames.isUnpredictable(Self.withoutSetter(keyword)) { return "into '\(keyword):'" }
            if let receiver = send.receiver, let first = send.firstKeyword, first.hasPrefix("append") || first.hasPrefix("insert"),
               SecretNames.isUnpredictable(receiver) {
                return "into '\(receiver)'"
            }
        }
        if let a = assignment, let target = assignedName(before: a, from: start), SecretNames.isUnpredictable(target) {
            return "into '\(target)'"
        }
        if let function, SecretNames.isUnpredictable(function) { return "in \(function)" }
        return nil
    }

    /// `setPassword` → `Password`: a setter's keyword names the property.
    static func withoutSetter(_ keyword: String) -> String {
        guard keyword.hasPrefix("set"), keyword.count > 3, keyword.dropFirst(3).first?.isUppercase == true else { return keyword }
        return String(keyword.dropFirst(3))
    }

    /// The variable an assignment at `a` writes: `password = `, `self.pin = `, `key[i] = `.
    func assignedName(before a: Int, from start: Int) -> String? {
        var j = a - 1
        if j >= start, tokens[j].kind == .rightBracket {
            var depth = 0
            while j >= start {
                if tokens[j].kind == .rightBracket { depth += 1 }
                if tokens[j].kind == .leftBracket { depth -= 1; if depth == 0 { break } }
                j -= 1
            }
            j -= 1
        }
        guard j >= start, tokens[j].kind == .identifier else { return nil }
        return texts[j]
    }

    /// For each token, the name of the function or method whose body holds it (selector
    /// keywords joined for a method), or nil outside one.
    func enclosingFunctions() -> [String?] {
        var out = [String?](repeating: nil, count: tokens.count)
        var depth = 0
        var current: String?
        var headerStart = 0
        for i in tokens.indices {
            switch tokens[i].kind {
            case .leftBrace:
                if depth == 0 { current = functionName(headerStart..<i) }
                depth += 1
            case .rightBrace:
                depth = max(0, depth - 1)
                if depth == 0 { current = nil; headerStart = i + 1 }
            case .semicolon, .atKeyword, .macroEnd:
                if depth == 0 { headerStart = i + 1 }
            default: break
            }
            out[i] = depth > 0 ? current : nil
        }
        return out
    }

    /// `- (NSString *)passwordWithLength:(NSUInteger)n` → `passwordWithLength`;
    /// `static NSString *GenerateToken(void)` → `GenerateToken`.
    func functionName(_ header: Range<Int>) -> String? {
        guard !header.isEmpty else { return nil }
        if let sign = header.last(where: { tokens[$0].kind == .otherOperator && (texts[$0] == "-" || texts[$0] == "+") }),
           sign + 1 < header.upperBound, tokens[sign + 1].kind == .leftParen {
            var j = sign + 1
            var depth = 0
            repeat {
                if tokens[j].kind == .leftParen { depth += 1 }
                if tokens[j].kind == .rightParen { depth -= 1 }
                j += 1
            } while j < header.upperBound && depth > 0
            guard j < header.upperBound, tokens[j].kind == .identifier else { return nil }
            return texts[j]
        }
        guard let open = header.first(where: { tokens[$0].kind == .leftParen }), open > header.lowerBound,
              tokens[open - 1].kind == .identifier else { return nil }
        return texts[open - 1]
    }
}
