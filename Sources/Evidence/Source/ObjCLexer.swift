/// A lexer for Objective-C, C and C++ that runs the preprocessor's conditionals as it goes.
///
/// It skips comments, string and character literals (`"…"`, `@"…"`, `'c'`, prefixed and
/// C++ raw strings), `#include` / `#import` and other directive lines, and code in
/// branches no build compiles (`#if 0`). Code only non-release builds compile (`#if DEBUG`,
/// simulator-only) comes out with `ships == false`. `#define` bodies come out between
/// `macroStart` and `macroEnd`. One pass, linear in the input; unterminated comments and
/// literals end at the end of the input (or line, for ordinary literals).
struct ObjCLexer {
    /// The input with every backslash-newline removed.
    let bytes: [UInt8]
    private var i = 0
    private var atLineStart = true
    private var inMacroBody = false
    private var macroName = ""
    private var macroBodyTokens = 0
    private var macroBodyValue: Int? = nil
    var conditionals: ObjCConditionals

    init(bytes: [UInt8], definitions: [String: String], maxConditionalDepth: Int) {
        self.bytes = bytes
        self.conditionals = ObjCConditionals(definitions: definitions, maxDepth: maxConditionalDepth)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }  // UTF-8 byte order mark
    }

    func text(_ token: ObjCToken) -> String {
        String(decoding: bytes[token.start..<token.end], as: UTF8.self)
    }

    /// For `atKeyword` tokens: the word after `@`.
    func word(_ token: ObjCToken) -> String {
        String(decoding: bytes[(token.start + 1)..<token.end], as: UTF8.self)
    }

    // MARK: character classes

    static func isIdentifierStart(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || c == 0x5F || c == 0x24 || c >= 0x80
    }

    static func isIdentifierPart(_ c: UInt8) -> Bool { isIdentifierStart(c) || isDigit(c) }

    static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    private static func isHorizontalSpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x09 || c == 0x0B || c == 0x0C || c == 0x0D
    }

    private func at(_ offset: Int) -> UInt8 {
        let j = i + offset
        return j < bytes.count ? bytes[j] : 0
    }

    // MARK: tokens

    mutating func next() -> ObjCToken? {
        let n = bytes.count
        while true {
            guard i < n else {
                if inMacroBody { return endMacroBody() }
                return nil
            }
            let c = bytes[i]
            if c == 0x0A {
                if inMacroBody { return endMacroBody() }
                i += 1
                atLineStart = true
                continue
            }
            if Self.isHorizontalSpace(c) { i += 1; continue }
            if c == UInt8(ascii: "/"), at(1) == UInt8(ascii: "/") { skipLineComment(); continue }
            if c == UInt8(ascii: "/"), at(1) == UInt8(ascii: "*") { skipBlockComment(); continue }
            if c == UInt8(ascii: "#"), atLineStart, !inMacroBody {
                directive()
                if inMacroBody { return ObjCToken(kind: .macroStart, start: i, end: i, ships: ships) }
                continue
            }
            atLineStart = false
            let start = i
            let kind = lexToken()
            if conditionals.region == .dead { continue }
            if inMacroBody {
                macroBodyTokens += 1
                macroBodyValue = kind == .literal
                    ? ObjCConditionEvaluator.integerLiteral(bytes[start..<i]) : nil
            }
            return ObjCToken(kind: kind, start: start, end: i, ships: ships)
        }
    }

    private var ships: Bool { conditionals.region == .shipping }

    private mutating func endMacroBody() -> ObjCToken {
        inMacroBody = false
        let value: ObjCMacroValue = switch macroBodyTokens {
        case 0: .defined(nil)
        case 1: .defined(macroBodyValue)
        default: .defined(nil)
        }
        if !macroName.isEmpty { conditionals.define(macroName, value) }
        return ObjCToken(kind: .macroEnd, start: i, end: i, ships: ships)
    }

    /// Lexes one token at `i` (not whitespace, not a comment); returns its kind.
    private mutating func lexToken() -> ObjCToken.Kind {
        let c = bytes[i]
        if Self.isIdentifierStart(c) {
            let start = i
            while i < bytes.count, Self.isIdentifierPart(bytes[i]) { i += 1 }
            let next = at(0)
            if next == UInt8(ascii: "\"") || next == UInt8(ascii: "'") {
                switch bytes[start..<i].count {
                case 1...3 where isLiteralPrefix(start..<i):
                    if bytes[i - 1] == UInt8(ascii: "R"), next == UInt8(ascii: "\"") {
                        skipRawString()
                    } else {
                        skipQuoted(next)
                    }
                    return .literal
                default: break
                }
            }
            return .identifier
        }
        if Self.isDigit(c) || (c == UInt8(ascii: ".") && Self.isDigit(at(1))) {
            skipNumber()
            return .literal
        }
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            skipQuoted(c)
            return .literal
        case UInt8(ascii: "@"):
            let next = at(1)
            if next == UInt8(ascii: "\"") {
                i += 1
                skipQuoted(next)
                return .literal
            }
            if Self.isIdentifierStart(next) {
                i += 1
                while i < bytes.count, Self.isIdentifierPart(bytes[i]) { i += 1 }
                return .atKeyword
            }
            i += 1
            return .at
        case UInt8(ascii: "["): i += 1; return .leftBracket
        case UInt8(ascii: "]"): i += 1; return .rightBracket
        case UInt8(ascii: "("): i += 1; return .leftParen
        case UInt8(ascii: ")"): i += 1; return .rightParen
        case UInt8(ascii: "{"): i += 1; return .leftBrace
        case UInt8(ascii: "}"): i += 1; return .rightBrace
        case UInt8(ascii: ";"): i += 1; return .semicolon
        case UInt8(ascii: ","): i += 1; return .comma
        case UInt8(ascii: "?"): i += 1; return .question
        case UInt8(ascii: ":"):
            if at(1) == UInt8(ascii: ":") { i += 2; return .scope }
            i += 1
            return .colon
        case UInt8(ascii: "."):
            if at(1) == UInt8(ascii: "."), at(2) == UInt8(ascii: ".") { i += 3; return .otherOperator }
            if at(1) == UInt8(ascii: "*") { i += 2; return .otherOperator }
            i += 1
            return .dot
        case UInt8(ascii: "-"):
            if at(1) == UInt8(ascii: ">") {
                i += at(2) == UInt8(ascii: "*") ? 3 : 2
                return .arrow
            }
            i += at(1) == UInt8(ascii: "-") || at(1) == UInt8(ascii: "=") ? 2 : 1
            return .otherOperator
        case UInt8(ascii: "="):
            if at(1) == UInt8(ascii: "=") { i += 2; return .otherOperator }
            i += 1
            return .assign
        case UInt8(ascii: "<"), UInt8(ascii: ">"):
            if at(1) == c { i += at(2) == UInt8(ascii: "=") ? 3 : 2; return .otherOperator }
            i += at(1) == UInt8(ascii: "=") ? 2 : 1
            return .otherOperator
        case UInt8(ascii: "+"), UInt8(ascii: "&"), UInt8(ascii: "|"):
            i += at(1) == c || at(1) == UInt8(ascii: "=") ? 2 : 1
            return .otherOperator
        case UInt8(ascii: "!"), UInt8(ascii: "*"), UInt8(ascii: "/"), UInt8(ascii: "%"), UInt8(ascii: "^"):
            i += at(1) == UInt8(ascii: "=") ? 2 : 1
            return .otherOperator
        default:
            i += 1
            return .otherOperator
        }
    }

    /// `L`, `u`, `U`, `u8`, `R`, `LR`, `uR`, `UR`, `u8R`.
    private func isLiteralPrefix(_ range: Range<Int>) -> Bool {
        switch String(decoding: bytes[range], as: UTF8.self) {
        case "L", "u", "U", "u8": true
        case "R", "LR", "uR", "UR", "u8R": bytes[range.upperBound] == UInt8(ascii: "\"")
        default: false
        }
    }

    private mutating func skipNumber() {
        let n = bytes.count
        i += 1
        while i < n {
            let c = bytes[i]
            if Self.isIdentifierPart(c) || c == UInt8(ascii: ".") {
                i += 1
            } else if c == UInt8(ascii: "+") || c == UInt8(ascii: "-"),
                      [UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "p"), UInt8(ascii: "P")].contains(bytes[i - 1]) {
                i += 1
            } else if c == UInt8(ascii: "'"), i + 1 < n, Self.isIdentifierPart(bytes[i + 1]) {
                i += 1  // C++14 digit separator
            } else {
                break
            }
        }
    }

    /// From the opening quote at `i`; ends after the closing quote, or at the end of the line.
    private mutating func skipQuoted(_ quote: UInt8) {
        let n = bytes.count
        i += 1
        while i < n {
            let c = bytes[i]
            if c == quote { i += 1; return }
            if c == 0x0A { return }
            i += c == UInt8(ascii: "\\") && i + 1 < n && bytes[i + 1] != 0x0A ? 2 : 1
        }
    }

    /// `R"delimiter( … )delimiter"`, from the opening quote at `i`.
    private mutating func skipRawString() {
        let n = bytes.count
        var j = i + 1
        while j < n, j - i <= 17, bytes[j] != UInt8(ascii: "("),
              bytes[j] != UInt8(ascii: ")"), bytes[j] != UInt8(ascii: "\\"),
              !Self.isHorizontalSpace(bytes[j]), bytes[j] != 0x0A { j += 1 }
        guard j < n, bytes[j] == UInt8(ascii: "(") else {
            skipQuoted(UInt8(ascii: "\""))  // not a valid raw string: read it as an ordinary one
            return
        }
        let delimiter = Array(bytes[(i + 1)..<j])
        var k = j + 1
        while k < n {
            if bytes[k] == UInt8(ascii: ")"), k + delimiter.count + 1 < n,
               bytes[(k + 1)..<(k + 1 + delimiter.count)].elementsEqual(delimiter),
               bytes[k + 1 + delimiter.count] == UInt8(ascii: "\"") {
                i = k + delimiter.count + 2
                return
            }
            k += 1
        }
        i = n
    }

    private mutating func skipLineComment() {
        while i < bytes.count, bytes[i] != 0x0A { i += 1 }
    }

    private mutating func skipBlockComment() {
        let n = bytes.count
        i += 2
        while i + 1 < n {
            if bytes[i] == UInt8(ascii: "*"), bytes[i + 1] == UInt8(ascii: "/") { i += 2; return }
            i += 1
        }
        i = n
    }

    // MARK: directives

    /// Skips horizontal space and comments on the directive line.
    private mutating func skipDirectiveSpace() {
        while i < bytes.count {
            if Self.isHorizontalSpace(bytes[i]) {
                i += 1
            } else if bytes[i] == UInt8(ascii: "/"), at(1) == UInt8(ascii: "*") {
                skipBlockComment()
            } else {
                return
            }
        }
    }

    private mutating func identifierHere() -> String? {
        guard i < bytes.count, Self.isIdentifierStart(bytes[i]) else { return nil }
        let start = i
        while i < bytes.count, Self.isIdentifierPart(bytes[i]) { i += 1 }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    /// The rest of the directive line, comments replaced by a space; stops before the newline.
    private mutating func restOfLine() -> [UInt8] {
        var line: [UInt8] = []
        let n = bytes.count
        while i < n, bytes[i] != 0x0A {
            let c = bytes[i]
            if c == UInt8(ascii: "/"), at(1) == UInt8(ascii: "/") {
                skipLineComment()
            } else if c == UInt8(ascii: "/"), at(1) == UInt8(ascii: "*") {
                skipBlockComment()
                line.append(0x20)
            } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                let start = i
                skipQuoted(c)
                line.append(contentsOf: bytes[start..<i])
            } else {
                line.append(c)
                i += 1
            }
        }
        return line
    }

    /// At `#` at the start of a line: handles the directive and leaves `i` at the newline,
    /// except for `#define` in live code, whose body is then lexed as tokens.
    private mutating func directive() {
        i += 1
        skipDirectiveSpace()
        let name = identifierHere() ?? ""
        skipDirectiveSpace()
        switch name {
        case "if":
            let expression = restOfLine()
            conditionals.pushIf { ObjCConditionEvaluator.evaluate(expression, macros: $0) }
        case "ifdef", "ifndef":
            let macro = identifierHere() ?? ""
            _ = restOfLine()
            let negate = name == "ifndef"
            conditionals.pushIf { macros in
                ObjCConditionEvaluator.isDefined(macro, in: macros).map { $0 != negate }
            }
        case "elif":
            let expression = restOfLine()
            conditionals.alternative { ObjCConditionEvaluator.evaluate(expression, macros: $0) }
        case "elifdef", "elifndef":
            let macro = identifierHere() ?? ""
            _ = restOfLine()
            let negate = name == "elifndef"
            conditionals.alternative { macros in
                ObjCConditionEvaluator.isDefined(macro, in: macros).map { $0 != negate }
            }
        case "else":
            _ = restOfLine()
            conditionals.alternative(nil)
        case "endif":
            _ = restOfLine()
            conditionals.popIf()
        case "define" where conditionals.region != .dead:
            guard let macro = identifierHere() else { _ = restOfLine(); return }
            if at(0) == UInt8(ascii: "(") {
                // Function-like: skip the parameter list.
                while i < bytes.count, bytes[i] != UInt8(ascii: ")"), bytes[i] != 0x0A { i += 1 }
                if at(0) == UInt8(ascii: ")") { i += 1 }
                conditionals.define(macro, .unknown)
                macroName = ""
            } else {
                macroName = macro
            }
            inMacroBody = true
            macroBodyTokens = 0
            macroBodyValue = nil
        case "undef" where conditionals.region != .dead:
            if let macro = identifierHere() { conditionals.define(macro, .undefined) }
            _ = restOfLine()
        default:
            // #include, #import, #pragma, #error, #warning, #line, null and unknown directives.
            _ = restOfLine()
        }
    }
}
