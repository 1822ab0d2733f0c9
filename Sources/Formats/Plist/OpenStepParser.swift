import Foundation

/// Parser for OpenStep ("old-style ASCII") property lists: `project.pbxproj`, old-style
/// `.strings` files (a dictionary without braces) and OpenStep plists. Every node keeps its
/// line and column. Nesting depth and object count are capped by `ReaderLimits`.
public struct OpenStepParser {
    public static let formatName = "OpenStep property list"

    /// Parses a whole document. With `bracelessDictionary` (`.strings` files) the top level is
    /// a sequence of `key = value;` pairs; an empty document is then an empty dictionary.
    public static func parse(_ data: Data, limits: ReaderLimits = .default,
                             bracelessDictionary: Bool = false,
                             format: String = formatName) throws -> PlistNode {
        let (text, _) = try TextDecoding.decode(data, format: format)
        return try parse(text: text, limits: limits, bracelessDictionary: bracelessDictionary, format: format)
    }

    public static func parse(text: String, limits: ReaderLimits = .default,
                             bracelessDictionary: Bool = false,
                             format: String = formatName) throws -> PlistNode {
        var p = OpenStepParser(Array(text.unicodeScalars), limits: limits, format: format)
        return try p.document(bracelessDictionary: bracelessDictionary)
    }

    private let s: [Unicode.Scalar]
    private var i = 0
    private var line = 1
    private var lineStart = 0
    private var objects = 0
    private let limits: ReaderLimits
    private let format: String

    private init(_ scalars: [Unicode.Scalar], limits: ReaderLimits, format: String) {
        self.s = scalars
        self.limits = limits
        self.format = format
    }

    private var position: SourcePosition { SourcePosition(line: line, column: i - lineStart + 1) }

    private func error(_ reason: String, at pos: SourcePosition? = nil) -> FormatError {
        let p = pos ?? position
        return FormatError(.malformed, format: format, reason: reason, line: p.line, column: p.column)
    }

    private mutating func document(bracelessDictionary: Bool) throws -> PlistNode {
        try skipTrivia()
        if bracelessDictionary {
            if i < s.count, s[i] == "{" {
                let node = try value(depth: 0)
                try skipTrivia()
                guard i >= s.count else { throw error("unexpected text after the top-level dictionary") }
                return node
            }
            var stack = [Frame(isDict: true, closing: nil, position: SourcePosition(line: 1, column: 1))]
            return try run(&stack, pending: nil, baseDepth: 0)
        }
        guard i < s.count else { throw error("empty document") }
        let node = try value(depth: 0)
        try skipTrivia()
        guard i >= s.count else { throw error("unexpected text after the top-level value") }
        return node
    }

    private mutating func advance() {
        if s[i] == "\n" {
            line += 1
            lineStart = i + 1
        }
        i += 1
    }

    private mutating func skipTrivia() throws {
        while i < s.count {
            let c = s[i]
            if c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{feff}" || c == "\u{0c}" || c == "\u{0b}" {
                advance()
            } else if c == "/", i + 1 < s.count, s[i + 1] == "/" {
                while i < s.count, s[i] != "\n" { advance() }
            } else if c == "/", i + 1 < s.count, s[i + 1] == "*" {
                let start = position
                advance(); advance()
                var closed = false
                while i < s.count {
                    if s[i] == "*", i + 1 < s.count, s[i + 1] == "/" {
                        advance(); advance()
                        closed = true
                        break
                    }
                    advance()
                }
                if !closed { throw error("unterminated comment", at: start) }
            } else {
                return
            }
        }
    }

    private mutating func countObject() throws {
        objects += 1
        if objects > limits.maxPlistObjects {
            throw FormatError(.limitExceeded("max-plist-objects"), format: format,
                              reason: "more than \(limits.maxPlistObjects) objects", line: line, column: i - lineStart + 1)
        }
    }

    /// An open dictionary or array. Nesting is parsed with this explicit stack instead of
    /// recursion, so the deepest input the limits allow cannot exhaust a thread's stack.
    private struct Frame {
        var isDict: Bool
        /// `}` for a dictionary in braces, nil for the braceless top level of a `.strings` file.
        var closing: Unicode.Scalar?
        var position: SourcePosition
        var items: [PlistNode] = []
        var entries: [PlistEntry] = []
        var key = ""
        var keyPosition: SourcePosition?
    }

    private mutating func value(depth: Int) throws -> PlistNode {
        var stack: [Frame] = []
        let first = try begin(depth: depth, stack: &stack)
        return try run(&stack, pending: first, baseDepth: depth)
    }

    /// Reads until every frame on `stack` is closed; returns the outermost value.
    private mutating func run(_ stack: inout [Frame], pending initial: PlistNode?, baseDepth: Int) throws -> PlistNode {
        var pending = initial
        while true {
            if let node = pending {
                pending = nil
                guard !stack.isEmpty else { return node }
                let top = stack.count - 1
                if stack[top].isDict {
                    try skipTrivia()
                    guard i < s.count, s[i] == ";" else {
                        throw error("expected ';' after the value of key \"\(stack[top].key)\"")
                    }
                    advance()
                    stack[top].entries.append(PlistEntry(key: stack[top].key, keyPosition: stack[top].keyPosition, value: node))
                } else {
                    stack[top].items.append(node)
                    try skipTrivia()
                    let open = stack[top].position
                    guard i < s.count else { throw error("unterminated array opened at line \(open.line)", at: open) }
                    if s[i] == "," {
                        advance()
                    } else if s[i] == ")" {
                        advance()
                        let f = stack.removeLast()
                        pending = PlistNode(.array(f.items), position: f.position)
                        continue
                    } else {
                        throw error("expected ',' or ')' in array, found '\(s[i].escaped(asASCII: true))'")
                    }
                }
            }
            let top = stack.count - 1
            let open = stack[top].position
            try skipTrivia()
            if !stack[top].isDict {
                guard i < s.count else { throw error("unterminated array opened at line \(open.line)", at: open) }
                if s[i] == ")" {
                    advance()
                    let f = stack.removeLast()
                    pending = PlistNode(.array(f.items), position: f.position)
                    continue
                }
                pending = try begin(depth: baseDepth + stack.count, stack: &stack)
                continue
            }
            let closing = stack[top].closing
            guard i < s.count else {
                if closing == nil {
                    let f = stack.removeLast()
                    pending = PlistNode(.dictionary(PlistDictionary(f.entries)), position: f.position)
                    continue
                }
                throw error("unterminated dictionary opened at line \(open.line)", at: open)
            }
            if let closing, s[i] == closing {
                advance()
                let f = stack.removeLast()
                pending = PlistNode(.dictionary(PlistDictionary(f.entries)), position: f.position)
                continue
            }
            if s[i] == "\0", closing == nil {
                // Some tools end `.strings` files with NUL characters; CoreFoundation stops
                // reading at the first one. Trailing NULs are harmless, anything after is lost.
                var k = i
                while k < s.count, s[k] == "\0" || s[k] == " " || s[k] == "\n" || s[k] == "\r" || s[k] == "\t" { k += 1 }
                guard k == s.count else {
                    throw error("NUL character where a key was expected (CoreFoundation stops reading the file here and ignores every later entry)")
                }
                while i < s.count { advance() }
                let f = stack.removeLast()
                pending = PlistNode(.dictionary(PlistDictionary(f.entries)), position: f.position)
                continue
            }
            let keyPos = position
            let key: String
            if s[i] == "\"" || s[i] == "'" {
                key = try quoted()
            } else if isUnquoted(s[i]) {
                key = unquoted()
            } else if s[i] == ";", closing == nil {
                // `"a" = "b";;` — CoreFoundation stops reading a `.strings` file at the stray
                // semicolon and silently drops every later entry; say so rather than guess.
                throw error("stray ';' where a key was expected (CoreFoundation stops reading the file here and ignores every later entry)")
            } else {
                throw error("expected a key, found '\(s[i].escaped(asASCII: true))'")
            }
            try countObject()
            try skipTrivia()
            guard i < s.count else { throw error("unexpected end of data after key \"\(key)\"") }
            if s[i] == ";", closing == nil {
                // `.strings` shorthand: "key"; means "key" = "key";
                advance()
                stack[top].entries.append(PlistEntry(key: key, keyPosition: keyPos, value: PlistNode(.string(key), position: keyPos)))
                continue
            }
            guard s[i] == "=" else { throw error("expected '=' after key \"\(key)\"") }
            advance()
            try skipTrivia()
            stack[top].key = key
            stack[top].keyPosition = keyPos
            pending = try begin(depth: baseDepth + stack.count, stack: &stack)
        }
    }

    /// Starts a value at `i`: returns scalars, or pushes a frame for `{` and `(`.
    /// A container at depth d holds values at depth d + 1, for dictionaries and arrays alike.
    private mutating func begin(depth: Int, stack: inout [Frame]) throws -> PlistNode? {
        guard depth <= limits.maxNestingDepth else {
            throw FormatError(.limitExceeded("max-nesting-depth"), format: format,
                              reason: "nesting deeper than \(limits.maxNestingDepth)", line: line, column: i - lineStart + 1)
        }
        guard i < s.count else { throw error("unexpected end of data, expected a value") }
        try countObject()
        let start = position
        switch s[i] {
        case "{":
            advance()
            stack.append(Frame(isDict: true, closing: "}", position: start))
            return nil
        case "(":
            advance()
            stack.append(Frame(isDict: false, closing: nil, position: start))
            return nil
        case "<":
            advance()
            var bytes: [UInt8] = []
            var high: UInt8?
            while true {
                guard i < s.count else { throw error("unterminated data opened at line \(start.line)", at: start) }
                let c = s[i]
                if c == ">" { advance(); break }
                if c == " " || c == "\n" || c == "\t" || c == "\r" { advance(); continue }
                guard let nibble = hexValue(c) else { throw error("invalid character '\(c.escaped(asASCII: true))' in data") }
                if let h = high { bytes.append(h << 4 | nibble); high = nil } else { high = nibble }
                advance()
            }
            guard high == nil else { throw error("data has an odd number of hex digits", at: start) }
            return PlistNode(.data(Data(bytes)), position: start)
        case "\"", "'":
            return PlistNode(.string(try quoted()), position: start)
        default:
            guard isUnquoted(s[i]) else { throw error("unexpected character '\(s[i].escaped(asASCII: true))'") }
            return PlistNode(.string(unquoted()), position: start)
        }
    }

    private func isUnquoted(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "$", "+", "/", ":", ".", "-": return true
        default: return false
        }
    }

    private mutating func unquoted() -> String {
        let start = i
        // No newline is an unquoted character: the run leaves the line count as it is.
        while i < s.count, isUnquoted(s[i]) {
            // `//` starts a comment even inside an unquoted run.
            if s[i] == "/", i + 1 < s.count, s[i + 1] == "/" || s[i + 1] == "*" { break }
            i += 1
        }
        var out = UTF8Buffer()
        for k in start..<i { out.append(s[k]) }
        return out.string
    }

    private func hexValue(_ c: Unicode.Scalar) -> UInt8? {
        switch c {
        case "0"..."9": return UInt8(c.value - 48)
        case "a"..."f": return UInt8(c.value - 87)
        case "A"..."F": return UInt8(c.value - 55)
        default: return nil
        }
    }

    private mutating func quoted() throws -> String {
        let quote = s[i]
        let start = position
        advance()
        // UTF-8 bytes, decoded once at the end: appending scalars to a String one by one
        // dominated the scan of projects with many translated .strings tables.
        var out = UTF8Buffer()
        while true {
            guard i < s.count else { throw error("unterminated string", at: start) }
            let c = s[i]
            if c == quote { advance(); return out.string }
            if c != "\\" {
                // The run up to the next quote or escape in one append.
                let run = i
                while i < s.count, s[i] != quote, s[i] != "\\" { advance() }
                for k in run..<i { out.append(s[k]) }
                continue
            }
            advance()
            guard i < s.count else { throw error("unterminated string", at: start) }
            let e = s[i]
            advance()
            switch e {
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "r": out.append("\r")
            case "a": out.append("\u{07}")
            case "b": out.append("\u{08}")
            case "f": out.append("\u{0c}")
            case "v": out.append("\u{0b}")
            case "U":
                // Only uppercase: CoreFoundation reads `\u203A` as the letters "u203A", and so
                // does iOS when it shows the string; report what the device shows.
                var v: UInt32 = 0
                var n = 0
                while n < 4, i < s.count, let h = hexValue(s[i]) { v = v << 4 | UInt32(h); n += 1; advance() }
                // Without hex digits CoreFoundation reads the value 0 and goes on (Rocket.Chat's
                // Polish table has `\U` before a space and loads on devices): a NUL, not an error.
                // A UTF-16 surrogate pair written as two escapes (`\UD83D\UDE00`) is one
                // character, as CoreFoundation decodes it.
                if (0xD800...0xDBFF).contains(v), i + 1 < s.count, s[i] == "\\", s[i + 1] == "U" {
                    var lo: UInt32 = 0
                    var m = 0
                    while m < 4, i + 2 + m < s.count, let h = hexValue(s[i + 2 + m]) { lo = lo << 4 | UInt32(h); m += 1 }
                    if m == 4, (0xDC00...0xDFFF).contains(lo) {
                        for _ in 0..<6 { advance() }
                        v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00)
                    }
                }
                // A lone surrogate cannot be represented; keep the replacement character.
                out.append(Unicode.Scalar(v) ?? "\u{fffd}")
            case "0"..."7":
                var v = e.value - 48
                var n = 1
                while n < 3, i < s.count, ("0"..."7").contains(s[i]) { v = v * 8 + (s[i].value - 48); n += 1; advance() }
                out.append(Unicode.Scalar(v) ?? "\u{fffd}")
            default:
                out.append(e)
            }
        }
    }
}

/// A growing UTF-8 byte buffer of scalars.
struct UTF8Buffer {
    private(set) var bytes: [UInt8] = []

    mutating func append(_ c: Unicode.Scalar) {
        let v = c.value
        switch v {
        case 0..<0x80:
            bytes.append(UInt8(v))
        case 0x80..<0x800:
            bytes.append(UInt8(0xC0 | v >> 6))
            bytes.append(UInt8(0x80 | v & 0x3F))
        case 0x800..<0x10000:
            bytes.append(UInt8(0xE0 | v >> 12))
            bytes.append(UInt8(0x80 | v >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | v & 0x3F))
        default:
            bytes.append(UInt8(0xF0 | v >> 18))
            bytes.append(UInt8(0x80 | v >> 12 & 0x3F))
            bytes.append(UInt8(0x80 | v >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | v & 0x3F))
        }
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }
}
