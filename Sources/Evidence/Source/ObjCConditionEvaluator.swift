/// Evaluates the expression of an `#if` / `#elif` in one configuration, three-valued:
/// an integer, or nil when it depends on something one file cannot know (an unknown macro,
/// `__has_include(…)`, a function-like macro, a parse error).
///
/// Supports integer literals, `defined X`, `defined(X)`, `! ~ - +`, `* / % + - << >>`,
/// comparisons, `& ^ |`, `&& ||` (short-circuiting over unknowns) and `?:`.
struct ObjCConditionEvaluator {
    private enum Token: Equatable {
        case number(Int?)
        case identifier(String)
        case op(String)
        case leftParen, rightParen
        case end
    }

    private let tokens: [Token]
    private var index = 0
    private let macros: [String: ObjCMacroValue]
    private var depth = 0
    private var failed = false
    static let maxDepth = 64

    /// Nonzero, zero, or unknown.
    static func evaluate(_ expression: [UInt8], macros: [String: ObjCMacroValue]) -> Bool? {
        var evaluator = ObjCConditionEvaluator(tokens: tokenize(expression), macros: macros)
        let value = evaluator.expression(minimumPrecedence: 0)
        guard !evaluator.failed, evaluator.peek == .end else { return nil }
        return value.map { $0 != 0 }
    }

    /// `defined(NAME)` in one configuration.
    static func isDefined(_ name: String, in macros: [String: ObjCMacroValue]) -> Bool? {
        switch macros[name] {
        case .undefined?: false
        case .defined?: true
        case .unknown?, nil: nil
        }
    }

    private init(tokens: [Token], macros: [String: ObjCMacroValue]) {
        self.tokens = tokens
        self.macros = macros
    }

    private var peek: Token { index < tokens.count ? tokens[index] : .end }

    private mutating func advance() -> Token {
        let token = peek
        if index < tokens.count { index += 1 }
        return token
    }

    // MARK: parsing

    private static func precedence(_ op: String) -> Int? {
        switch op {
        case "?": 1
        case "||": 2
        case "&&": 3
        case "|": 4
        case "^": 5
        case "&": 6
        case "==", "!=": 7
        case "<", "<=", ">", ">=": 8
        case "<<", ">>": 9
        case "+", "-": 10
        case "*", "/", "%": 11
        default: nil
        }
    }

    private mutating func expression(minimumPrecedence: Int) -> Int? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { failed = true; return nil }
        var lhs = unary()
        while !failed, case .op(let op) = peek, let precedence = Self.precedence(op),
              precedence >= minimumPrecedence {
            _ = advance()
            if op == "?" {
                let whenTrue = expression(minimumPrecedence: 0)
                guard advance() == .op(":") else { failed = true; return nil }
                let whenFalse = expression(minimumPrecedence: precedence)
                switch lhs {
                case .some(let condition): lhs = condition != 0 ? whenTrue : whenFalse
                case nil: lhs = whenTrue == whenFalse ? whenTrue : nil
                }
                continue
            }
            let rhs = expression(minimumPrecedence: precedence + 1)
            lhs = Self.apply(op, lhs, rhs)
        }
        return lhs
    }

    private mutating func unary() -> Int? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { failed = true; return nil }
        switch advance() {
        case .number(let value):
            return value
        case .op("!"):
            return unary().map { $0 == 0 ? 1 : 0 }
        case .op("-"):
            return unary().map { 0 &- $0 }
        case .op("+"):
            return unary()
        case .op("~"):
            return unary().map { ~$0 }
        case .leftParen:
            let value = expression(minimumPrecedence: 0)
            guard advance() == .rightParen else { failed = true; return nil }
            return value
        case .identifier("defined"):
            let parenthesized = peek == .leftParen
            if parenthesized { _ = advance() }
            guard case .identifier(let name) = advance() else { failed = true; return nil }
            if parenthesized, advance() != .rightParen { failed = true; return nil }
            return Self.isDefined(name, in: macros).map { $0 ? 1 : 0 }
        case .identifier("true"):
            return 1
        case .identifier("false"):
            return 0
        case .identifier(let name):
            if peek == .leftParen {
                // `__has_include(<…>)`, `__has_feature(x)`, function-like macros: unknown.
                skipParenthesized()
                return nil
            }
            switch macros[name] {
            case .undefined?: return 0
            case .defined(let value)?: return value
            case .unknown?, nil: return nil
            }
        default:
            failed = true
            return nil
        }
    }

    private mutating func skipParenthesized() {
        var level = 0
        repeat {
            switch advance() {
            case .leftParen: level += 1
            case .rightParen: level -= 1
            case .end: failed = true; return
            default: break
            }
        } while level > 0
    }

    private static func apply(_ op: String, _ lhs: Int?, _ rhs: Int?) -> Int? {
        switch op {
        case "&&":
            if lhs == 0 || rhs == 0 { return 0 }
            return lhs != nil && rhs != nil ? 1 : nil
        case "||":
            if (lhs != nil && lhs != 0) || (rhs != nil && rhs != 0) { return 1 }
            return lhs != nil && rhs != nil ? 0 : nil
        default:
            break
        }
        guard let l = lhs, let r = rhs else { return nil }
        switch op {
        case "*": return l &* r
        case "/": return r == 0 || (l == .min && r == -1) ? nil : l / r
        case "%": return r == 0 || (l == .min && r == -1) ? nil : l % r
        case "+": return l &+ r
        case "-": return l &- r
        case "<<": return r < 0 || r > 63 ? nil : l << r
        case ">>": return r < 0 || r > 63 ? nil : l >> r
        case "<": return l < r ? 1 : 0
        case "<=": return l <= r ? 1 : 0
        case ">": return l > r ? 1 : 0
        case ">=": return l >= r ? 1 : 0
        case "==": return l == r ? 1 : 0
        case "!=": return l != r ? 1 : 0
        case "&": return l & r
        case "^": return l ^ r
        case "|": return l | r
        default: return nil
        }
    }

    // MARK: tokens

    private static func tokenize(_ bytes: [UInt8]) -> [Token] {
        var tokens: [Token] = []
        var i = 0
        let n = bytes.count
        while i < n {
            let c = bytes[i]
            if c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0B || c == 0x0C || c == 0x0A {
                i += 1
            } else if ObjCLexer.isIdentifierStart(c) {
                let start = i
                while i < n, ObjCLexer.isIdentifierPart(bytes[i]) { i += 1 }
                tokens.append(.identifier(String(decoding: bytes[start..<i], as: UTF8.self)))
            } else if ObjCLexer.isDigit(c) {
                let start = i
                while i < n, ObjCLexer.isIdentifierPart(bytes[i]) || bytes[i] == UInt8(ascii: "'")
                    || bytes[i] == UInt8(ascii: ".") { i += 1 }
                tokens.append(.number(integerLiteral(bytes[start..<i])))
            } else if c == UInt8(ascii: "(") {
                tokens.append(.leftParen); i += 1
            } else if c == UInt8(ascii: ")") {
                tokens.append(.rightParen); i += 1
            } else if c == UInt8(ascii: "'") || c == UInt8(ascii: "\"") {
                // Character literals in conditions: value not computed.
                i += 1
                while i < n, bytes[i] != c {
                    if bytes[i] == UInt8(ascii: "\\") { i += 1 }
                    i += 1
                }
                i += 1
                tokens.append(.number(nil))
            } else {
                let two = i + 1 < n ? String(decoding: bytes[i...i + 1], as: UTF8.self) : ""
                if ["&&", "||", "==", "!=", "<=", ">=", "<<", ">>"].contains(two) {
                    tokens.append(.op(two)); i += 2
                } else {
                    tokens.append(.op(String(UnicodeScalar(c)))); i += 1
                }
            }
        }
        return tokens
    }

    static func integerLiteral(_ text: String) -> Int? {
        integerLiteral(Array(text.utf8)[...])
    }

    /// Decimal, hex (`0x`), binary (`0b`) and octal literals, with `'` separators and
    /// `u`/`l` suffixes. Nil for anything else (floats, identifiers, overflow).
    static func integerLiteral(_ text: ArraySlice<UInt8>) -> Int? {
        var digits = text.filter { $0 != UInt8(ascii: "'") && $0 != 0x20 && $0 != 0x09 }[...]
        while let last = digits.last, last | 0x20 == UInt8(ascii: "u") || last | 0x20 == UInt8(ascii: "l") {
            digits = digits.dropLast()
        }
        guard let first = digits.first, isDigitByte(first) else { return nil }
        var radix = 10
        if digits.count > 1, first == UInt8(ascii: "0") {
            let second = digits[digits.startIndex + 1] | 0x20
            if second == UInt8(ascii: "x") { radix = 16; digits = digits.dropFirst(2) }
            else if second == UInt8(ascii: "b") { radix = 2; digits = digits.dropFirst(2) }
            else { radix = 8; digits = digits.dropFirst() }
        }
        guard !digits.isEmpty else { return nil }
        return Int(String(decoding: digits, as: UTF8.self), radix: radix)
    }

    private static func isDigitByte(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
}
