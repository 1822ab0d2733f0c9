/// Credentials an Objective-C or C file writes to a log (`Security.credentialSystemLog`,
/// `Security.credentialStandardOutput`): an argument that is a name `SecretNames` calls a
/// secret (`password`, `self.password`, `_authToken`, `[session accessToken]`,
/// `token.UTF8String`) passed to `NSLog`, to `os_log` where its format shows it
/// (`%{public}@`), or to `printf` / `fprintf(stderr, …)`.
///
/// The lexer runs the file's conditionals: a call under `#ifdef DEBUG` has `ships == false`.
/// A macro is not expanded: `DLog(@"%@", password)` is the project's own call, whatever its
/// `#define` (often `NSLog` in debug builds and nothing in release) makes of it, and the
/// `NSLog(__VA_ARGS__)` of such a definition logs no name.
enum ObjCLoggingFacts {
    typealias Security = ProtectedResourceCatalog.Security

    static let calls = LoggingPrefilter.table(["NSLog", "os_log", "printf"])

    /// Whether the file names a logging call and a word credentials are named with.
    static func mayFind(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { LoggingPrefilter.mayFind($0, calls: calls) }
    }

    static let osLogFunctions: Set<String> = ["os_log", "os_log_info", "os_log_debug", "os_log_error", "os_log_fault", "os_log_with_type"]
    /// Accessors that give the value itself as text: `password.UTF8String`, `[token description]`.
    static let transparent: Set<String> = ["UTF8String", "description", "debugDescription", "copy"]
    static let keyedAccessors: Set<String> = ["objectForKey", "valueForKey", "stringForKey"]

    static func scan(_ file: ObjCLexedFile, positions: inout ObjCSourcePositions) -> [SourceUsage] {
        let lexer = file.lexer
        // A `#define` body is no call; its uses are the project's own macro.
        let tokens = file.codeTokens
        let texts = tokens.map { $0.kind == .identifier || $0.kind == .literal ? lexer.text($0) : "" }
        var out: [SourceUsage] = []
        func report(_ argument: Range<Int>, _ capability: String, api: String) {
            guard let (name, _) = secretName(argument, tokens: tokens, texts: texts) else { return }
            let start = tokens[argument.lowerBound]
            let (line, column) = positions.lineAndColumn(start.start)
            out.append(SourceUsage(capability: capability, key: name, api: api, line: line, column: column,
                                   strength: .definite, ships: start.ships))
        }
        // Argument scans share one budget: nested unclosed calls (`NSLog(NSLog(…`) cannot make the pass quadratic.
        var budget = 4 * tokens.count + 65_536
        for i in tokens.indices where tokens[i].kind == .identifier && i + 1 < tokens.count && tokens[i + 1].kind == .leftParen {
            let function = texts[i]
            guard function == "NSLog" || function == "printf" || function == "fprintf" || osLogFunctions.contains(function),
                  i == 0 || (tokens[i - 1].kind != .dot && tokens[i - 1].kind != .arrow) else { continue }
            guard budget > 0 else { break }
            let arguments = self.arguments(from: i + 1, tokens: tokens, budget: &budget)
            switch function {
            case "NSLog":
                for a in arguments.dropFirst() { report(a, Security.credentialSystemLog, api: "NSLog") }
            case "printf":
                for a in arguments.dropFirst() { report(a, Security.credentialStandardOutput, api: "printf") }
            case "fprintf":
                guard let stream = arguments.first, stream.count == 1, ["stderr", "stdout"].contains(texts[stream.lowerBound]) else { break }
                for a in arguments.dropFirst(2) { report(a, Security.credentialStandardOutput, api: "fprintf(\(texts[stream.lowerBound]))") }
            default:
                // os_log(log, "format", …): the arguments the format shows.
                let isString = { (a: Range<Int>) in a.allSatisfy { tokens[$0].kind == .literal } && texts[a.lowerBound].hasSuffix("\"") }
                guard let f = arguments.firstIndex(where: isString) else { break }
                let format = arguments[f].map { literalText(texts[$0]) }.joined()
                for (a, shown) in zip(arguments[(f + 1)...], LogFormat.shownArguments(format)) where shown {
                    report(a, Security.credentialSystemLog, api: "\(function) public format")
                }
            }
        }
        return out
    }

    /// The token ranges of a call's arguments, from its `(`; empty when it does not close.
    static func arguments(from open: Int, tokens: [ObjCToken], budget: inout Int) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var depth = 0
        var start = open + 1
        var j = open
        defer { budget -= j - open + 1 }
        while j < tokens.count, j - open < 4096 {
            switch tokens[j].kind {
            case .leftParen, .leftBracket, .leftBrace: depth += 1
            case .rightParen, .rightBracket, .rightBrace:
                depth -= 1
                if depth == 0 {
                    if j > start { out.append(start..<j) }
                    return out
                }
            case .comma where depth == 1:
                out.append(start..<j)
                start = j + 1
            case .semicolon: return []
            default: break
            }
            j += 1
        }
        return []
    }

    /// The name an argument stands for, and the token to report, when it is a secret:
    /// `password`, `self.password`, `self->_password`, `[self password]`, `token.UTF8String`,
    /// `(id)token`. Not a class name, not a literal, not an expression.
    static func secretName(_ range: Range<Int>, tokens: [ObjCToken], texts: [String], depth: Int = 0) -> (String, Int)? {
        guard depth < 8, !range.isEmpty else { return nil }
        var r = range
        // A leading cast `(NSString *)`, `(__bridge id)`.
        if tokens[r.lowerBound].kind == .leftParen, let close = r.dropFirst().first(where: { tokens[$0].kind == .rightParen }),
           close + 1 < r.upperBound,
           r[(r.lowerBound + 1)..<close].allSatisfy({ tokens[$0].kind == .identifier || tokens[$0].kind == .otherOperator }) {
            r = (close + 1)..<r.upperBound
        }
        // Parentheses around the whole argument.
        if tokens[r.lowerBound].kind == .leftParen, tokens[r.upperBound - 1].kind == .rightParen, r.count > 2 {
            return secretName((r.lowerBound + 1)..<(r.upperBound - 1), tokens: tokens, texts: texts, depth: depth + 1)
        }
        let last = r.upperBound - 1
        // `json[@"access_token"]`, `[json objectForKey:@"access_token"]`: a value by a key that says it is a secret.
        if tokens[last].kind == .rightBracket, r.count >= 4, tokens[last - 1].kind == .literal, let key = ObjCSecurityFacts.objcString(texts[last - 1]),
           (tokens[last - 2].kind == .leftBracket && last - 2 > r.lowerBound)
            || (tokens[last - 2].kind == .colon && keyedAccessors.contains(texts[last - 3]) && tokens[r.lowerBound].kind == .leftBracket) {
            return accepted(key, at: last - 1)
        }
        // `[receiver name]`: a unary message.
        if tokens[r.lowerBound].kind == .leftBracket, tokens[last].kind == .rightBracket, r.count >= 4 {
            let selector = last - 1
            guard tokens[selector].kind == .identifier, [.identifier, .rightBracket, .rightParen].contains(tokens[selector - 1].kind)
            else { return nil }
            let receiver = (r.lowerBound + 1)..<selector
            if transparent.contains(texts[selector]) { return secretName(receiver, tokens: tokens, texts: texts, depth: depth + 1) }
            return accepted(texts[selector], at: selector)
        }
        // `a.b->c`: a chain of names.
        for (k, j) in r.enumerated() {
            let kind = tokens[j].kind
            if k % 2 == 0 ? kind != .identifier : (kind != .dot && kind != .arrow) { return nil }
        }
        guard r.count % 2 == 1 else { return nil }
        if transparent.contains(texts[last]), r.count >= 3 {
            return secretName(r.lowerBound..<(last - 1), tokens: tokens, texts: texts, depth: depth + 1)
        }
        return accepted(texts[last], at: last)
    }

    private static func accepted(_ name: String, at index: Int) -> (String, Int)? {
        let name = String(name.drop { $0 == "_" })  // an instance variable `_authToken` is the property `authToken`
        guard let first = name.unicodeScalars.first, !first.properties.isUppercase, LoggedCredential.isCredential(name) else { return nil }
        return (name, index)
    }

    /// `@"…"` or `"…"` without the quotes.
    static func literalText(_ text: String) -> String {
        var s = Substring(text)
        if s.hasPrefix("@") { s = s.dropFirst() }
        guard s.count >= 2, s.hasPrefix("\""), s.hasSuffix("\"") else { return "" }
        return String(s.dropFirst().dropLast())
    }
}
