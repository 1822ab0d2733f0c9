import Foundation

/// A small bounded JSON parser (RFC 8259) producing `PlistNode`s with line and column.
///
/// Objects become ordered dictionaries (duplicate keys kept), integers without fraction or
/// exponent that fit in `Int64` become `.integer`, other numbers `.real`, `true`/`false`
/// `.bool`. `null` has no property-list equivalent and is reported as unsupported, unless the
/// caller passes `nullValue` (formats such as SwiftPM's `Package.resolved` v1 write `null`).
/// Depth and value count are capped by `maxNestingDepth` and `maxPlistObjects`.
/// Used instead of `JSONSerialization` for untrusted input.
public enum JSONReader {
    public static let formatName = "JSON"

    public static func parse(_ data: Data, limits: ReaderLimits = .default, nullValue: PlistValue? = nil) throws -> PlistNode {
        try limits.checkInputSize(data.count, format: formatName)
        var b = [UInt8](data)
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { b.removeFirst(3) }
        if let bad = firstInvalidUTF8(b) {
            throw FormatError.malformed(formatName, "invalid UTF-8", offset: bad)
        }
        var p = JSONTokenizer(b, limits: limits)
        p.nullValue = nullValue
        return try p.document()
    }

    private static func firstInvalidUTF8(_ b: [UInt8]) -> Int? {
        if String(validating: b, as: UTF8.self) != nil { return nil }
        var it = b.makeIterator()
        var decoder = UTF8()
        var consumed = 0
        while case .scalarValue(let v) = decoder.decode(&it) { consumed += UTF8.width(v) }
        return consumed
    }
}

struct JSONTokenizer {
    private let b: [UInt8]
    private var i = 0
    private var line = 1
    private var lineStart = 0
    private var objects = 0
    private let limits: ReaderLimits
    /// What `null` reads as; nil refuses it.
    var nullValue: PlistValue?
    private let format = JSONReader.formatName

    init(_ b: [UInt8], limits: ReaderLimits) {
        self.b = b
        self.limits = limits
    }

    private var colIndex = 0
    private var colValue = 1
    private var colLineStart = 0

    /// Column counts Unicode scalars since the start of the line; amortised O(1) for
    /// increasing indices on the current line.
    private mutating func position(_ index: Int) -> SourcePosition {
        if colLineStart != lineStart || index < colIndex {
            colLineStart = lineStart; colIndex = lineStart; colValue = 1
        }
        while colIndex < index { if b[colIndex] & 0xC0 != 0x80 { colValue += 1 }; colIndex += 1 }
        return SourcePosition(line: line, column: colValue)
    }

    private mutating func error(_ reason: String, at index: Int? = nil) -> FormatError {
        let p = position(index ?? i)
        return FormatError(.malformed, format: format, reason: reason, line: p.line, column: p.column)
    }

    private func error(_ reason: String, pos p: SourcePosition) -> FormatError {
        FormatError(.malformed, format: format, reason: reason, line: p.line, column: p.column)
    }

    private func describe(_ k: Int) -> String {
        guard k < b.count else { return "end of data" }
        let c = b[k]
        if c >= 0x20 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        return "byte 0x" + String(c, radix: 16)
    }

    private mutating func skipSpace() {
        while i < b.count {
            switch b[i] {
            case 0x20, 0x09, 0x0D: i += 1
            case 0x0A: i += 1; line += 1; lineStart = i
            default: return
            }
        }
    }

    mutating func document() throws -> PlistNode {
        skipSpace()
        guard i < b.count else { throw error("empty document") }
        let v = try value(depth: 0)
        skipSpace()
        guard i >= b.count else { throw error("unexpected \(describe(i)) after the top-level value") }
        return v
    }

    /// One open object or array; parsing is iterative so nesting never uses the call stack.
    private struct Frame {
        var isObject: Bool
        var position: SourcePosition
        var items: [PlistNode] = []
        var entries: [PlistEntry] = []
        var key = ""
        var keyPosition = SourcePosition(line: 1, column: 1)
    }

    private mutating func value(depth baseDepth: Int) throws -> PlistNode {
        var stack: [Frame] = []
        var pending = try begin(depth: baseDepth, stack: &stack)
        while true {
            let top = stack.count - 1
            if let node = pending {
                pending = nil
                guard top >= 0 else { return node }
                if stack[top].isObject {
                    stack[top].entries.append(PlistEntry(key: stack[top].key, keyPosition: stack[top].keyPosition, value: node))
                } else {
                    stack[top].items.append(node)
                }
                // After a member: ',' or the closing bracket.
                skipSpace()
                let isObject = stack[top].isObject
                guard i < b.count else { throw error(isObject ? "unterminated object" : "unterminated array", pos: stack[top].position) }
                if b[i] == 0x2C {
                    i += 1
                } else if b[i] == (isObject ? 0x7D : 0x5D) {
                    i += 1
                    let f = stack.removeLast()
                    pending = PlistNode(isObject ? .dictionary(PlistDictionary(f.entries)) : .array(f.items), position: f.position)
                    continue
                } else {
                    throw error(isObject ? "expected ',' or '}' in object, found \(describe(i))" : "expected ',' or ']' in array, found \(describe(i))")
                }
            }
            // Before a member.
            skipSpace()
            if stack[top].isObject {
                guard i < b.count else { throw error("unterminated object", pos: stack[top].position) }
                guard b[i] == 0x22 else { throw error("expected a string key, found \(describe(i))") }
                let keyPos = position(i)
                let key = try string()
                skipSpace()
                guard i < b.count, b[i] == 0x3A else { throw error("expected ':' after key \"\(key)\", found \(describe(i))") }
                i += 1
                skipSpace()
                stack[top].key = key
                stack[top].keyPosition = keyPos
            }
            pending = try begin(depth: baseDepth + stack.count, stack: &stack)
        }
    }

    /// Starts a value at `i`: returns scalars and empty containers, or pushes a frame.
    private mutating func begin(depth: Int, stack: inout [Frame]) throws -> PlistNode? {
        let pos = position(i)
        guard depth <= limits.maxNestingDepth else {
            throw FormatError(.limitExceeded("max-nesting-depth"), format: format,
                              reason: "nesting deeper than \(limits.maxNestingDepth)", line: pos.line, column: pos.column)
        }
        objects += 1
        if objects > limits.maxPlistObjects {
            throw FormatError(.limitExceeded("max-plist-objects"), format: format,
                              reason: "more than \(limits.maxPlistObjects) values", line: pos.line, column: pos.column)
        }
        guard i < b.count else { throw error("unexpected end of data, expected a value") }
        switch b[i] {
        case 0x7B, 0x5B: // { [
            let isObject = b[i] == 0x7B
            i += 1
            skipSpace()
            if i < b.count, b[i] == (isObject ? 0x7D : 0x5D) {
                i += 1
                return PlistNode(isObject ? .dictionary(PlistDictionary()) : .array([]), position: pos)
            }
            stack.append(Frame(isObject: isObject, position: pos))
            return nil
        case 0x22:
            return PlistNode(.string(try string()), position: pos)
        case 0x74: try literal("true"); return PlistNode(.bool(true), position: pos)
        case 0x66: try literal("false"); return PlistNode(.bool(false), position: pos)
        case 0x6E:
            try literal("null")
            if let nullValue { return PlistNode(nullValue, position: pos) }
            throw FormatError(.unsupported, format: format, reason: "null values are not supported", line: pos.line, column: pos.column)
        case 0x2D, 0x30...0x39:
            return PlistNode(try number(), position: pos)
        default:
            throw error("unexpected \(describe(i)), expected a value")
        }
    }

    private mutating func literal(_ word: String) throws {
        let w = Array(word.utf8)
        guard i + w.count <= b.count, Array(b[i..<(i + w.count)]) == w else { throw error("invalid literal, expected '\(word)'") }
        i += w.count
    }

    private mutating func number() throws -> PlistValue {
        let start = i
        var isInteger = true
        if b[i] == 0x2D { i += 1 }
        func digits() -> Int { let s = i; while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }; return i - s }
        guard i < b.count, b[i] >= 0x30, b[i] <= 0x39 else { throw error("invalid number", at: start) }
        if b[i] == 0x30 { i += 1 } else { _ = digits() }
        if i < b.count, b[i] == 0x2E {
            isInteger = false
            i += 1
            guard digits() > 0 else { throw error("invalid number", at: start) }
        }
        if i < b.count, b[i] == 0x65 || b[i] == 0x45 {
            isInteger = false
            i += 1
            if i < b.count, b[i] == 0x2B || b[i] == 0x2D { i += 1 }
            guard digits() > 0 else { throw error("invalid number", at: start) }
        }
        let text = String(decoding: b[start..<i], as: UTF8.self)
        if isInteger, let v = Int64(text) { return .integer(v) }
        guard let d = Double(text), d.isFinite else { throw error("number \(text) is out of range", at: start) }
        return .real(d)
    }

    private func hex4(_ at: Int) -> UInt32? {
        guard at + 4 <= b.count else { return nil }
        var v: UInt32 = 0
        for k in at..<(at + 4) {
            let c = b[k]
            switch c {
            case 0x30...0x39: v = v << 4 | UInt32(c - 0x30)
            case 0x61...0x66: v = v << 4 | UInt32(c - 0x57)
            case 0x41...0x46: v = v << 4 | UInt32(c - 0x37)
            default: return nil
            }
        }
        return v
    }

    private mutating func string() throws -> String {
        let startPos = position(i)
        i += 1
        let runStart = i
        while i < b.count, b[i] != 0x22, b[i] != 0x5C, b[i] >= 0x20 { i += 1 }
        if i < b.count, b[i] == 0x22 {
            i += 1
            return String(decoding: b[runStart..<(i - 1)], as: UTF8.self)
        }
        var out = Array(b[runStart..<i])
        while true {
            guard i < b.count else { throw error("unterminated string", pos: startPos) }
            let c = b[i]
            if c == 0x22 { i += 1; return String(decoding: out, as: UTF8.self) }
            if c < 0x20 { throw error("unescaped control character in string") }
            if c != 0x5C { out.append(c); i += 1; continue }
            guard i + 1 < b.count else { throw error("unterminated string", pos: startPos) }
            let e = b[i + 1]
            switch e {
            case 0x22, 0x5C, 0x2F: out.append(e)
            case 0x62: out.append(0x08)
            case 0x66: out.append(0x0C)
            case 0x6E: out.append(0x0A)
            case 0x72: out.append(0x0D)
            case 0x74: out.append(0x09)
            case 0x75:
                guard let u = hex4(i + 2) else { throw error("invalid \\u escape") }
                var scalar: UInt32 = u
                var width = 6
                if (0xD800...0xDBFF).contains(u) {
                    guard i + 7 < b.count, b[i + 6] == 0x5C, b[i + 7] == 0x75, let lo = hex4(i + 8), (0xDC00...0xDFFF).contains(lo) else {
                        throw error("unpaired surrogate in \\u escape")
                    }
                    scalar = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00)
                    width = 12
                } else if (0xDC00...0xDFFF).contains(u) {
                    throw error("unpaired surrogate in \\u escape")
                }
                out.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
                i += width
                continue
            default:
                throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'")
            }
            i += 2
        }
    }
}
