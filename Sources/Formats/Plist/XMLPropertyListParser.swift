import Foundation

/// A hand-written, bounded parser for XML property lists (Apple's `plist` DTD).
///
/// - Every value and every dictionary key keeps its line and column (1-based; columns count
///   Unicode scalars; the column is that of the `<` of the value element or of `<key>`).
/// - Accepts an `<?xml …?>` declaration, comments, processing instructions and the standard
///   `<!DOCTYPE plist PUBLIC …>`. A DOCTYPE with an internal subset (`[ … ]`) or any
///   `<!ENTITY` declaration is rejected, so entity-expansion attacks cannot start.
/// - Decodes the five predefined entities and numeric character references; CDATA sections.
/// - `<integer>` accepts decimal, negative and `0x` hexadecimal values that fit in `Int64`.
///   Values above `Int64.max` (which CoreFoundation would keep as unsigned) are rejected with
///   an error naming the value, because `PlistValue.integer` is signed.
/// - `<date>` must be `YYYY-MM-DDTHH:MM:SSZ` (what Apple's tools write).
/// - The root may be `<plist>` wrapping one value, or a bare value element.
/// - Nesting depth and the number of objects are capped by `ReaderLimits`.
public enum XMLPropertyListParser {
    public static let formatName = "property list"

    public static func parse(_ data: Data, limits: ReaderLimits = .default) throws -> PlistNode {
        try limits.checkInputSize(data.count, format: formatName)
        let (text, _) = try TextDecoding.decode(data, format: formatName)
        var p = XMLPlistTokenizer(Array(text.utf8), limits: limits)
        return try p.document()
    }
}

struct XMLPlistTokenizer {
    private let b: [UInt8]
    private var i = 0
    private let limits: ReaderLimits
    private var objects = 0
    private let format = XMLPropertyListParser.formatName
    // Monotonic position cache: line/column of `locIndex`.
    private var locIndex = 0
    private var locLine = 1
    private var locColumn = 1

    init(_ bytes: [UInt8], limits: ReaderLimits) {
        self.b = bytes
        self.limits = limits
    }

    // MARK: positions and errors

    /// Line and column of byte `index`. Amortised O(1) when called with increasing indices.
    private mutating func position(_ index: Int) -> SourcePosition {
        if index < locIndex { locIndex = 0; locLine = 1; locColumn = 1 }
        var k = locIndex
        let end = min(index, b.count)
        while k < end {
            let c = b[k]
            if c == 0x0A {
                locLine += 1; locColumn = 1
            } else if c == 0x0D {
                if k + 1 < b.count, b[k + 1] == 0x0A {
                    // CRLF: the LF ends the line.
                } else {
                    locLine += 1; locColumn = 1
                }
            } else if c & 0xC0 != 0x80 {
                locColumn += 1
            }
            k += 1
        }
        locIndex = end
        return SourcePosition(line: locLine, column: locColumn)
    }

    private mutating func error(_ reason: String, at index: Int? = nil) -> FormatError {
        let p = position(index ?? i)
        return FormatError(.malformed, format: format, reason: reason, line: p.line, column: p.column)
    }

    private func error(_ reason: String, pos p: SourcePosition) -> FormatError {
        FormatError(.malformed, format: format, reason: reason, line: p.line, column: p.column)
    }

    // MARK: low-level scanning

    @inline(__always) private func peek(_ s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard i + n <= b.count else { return false }
        return s.withUTF8Buffer { buf in
            for k in 0..<n where b[i + k] != buf[k] { return false }
            return true
        }
    }

    @inline(__always) private static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09
    }

    private mutating func skipSpace() {
        while i < b.count, Self.isSpace(b[i]) { i += 1 }
    }

    /// Index of the first occurrence of `s` at or after `from`, or nil.
    private func find(_ s: StaticString, from: Int) -> Int? {
        let n = s.utf8CodeUnitCount
        return s.withUTF8Buffer { buf -> Int? in
            let first = buf[0]
            var k = from
            while k + n <= b.count {
                if b[k] == first {
                    var match = true
                    for m in 1..<n where b[k + m] != buf[m] { match = false; break }
                    if match { return k }
                }
                k += 1
            }
            return nil
        }
    }

    private mutating func skipComment() throws {
        let start = i
        guard let end = find("-->", from: i + 4) else { throw error("unterminated comment", at: start) }
        i = end + 3
    }

    private mutating func skipProcessingInstruction() throws {
        let start = i
        guard let end = find("?>", from: i + 2) else { throw error("unterminated processing instruction", at: start) }
        i = end + 2
    }

    private mutating func skipDoctype() throws {
        let start = i
        i += 9 // "<!DOCTYPE"
        var quote: UInt8 = 0
        while i < b.count {
            let c = b[i]
            if quote != 0 {
                if c == quote { quote = 0 }
            } else if c == 0x22 || c == 0x27 {
                quote = c
            } else if c == 0x5B { // [
                throw error("DOCTYPE with an internal subset is not allowed (entity declarations are rejected)", at: i)
            } else if c == 0x3E { // >
                i += 1
                return
            }
            i += 1
        }
        throw error("unterminated DOCTYPE", at: start)
    }

    /// Skips whitespace, comments and processing instructions between elements.
    private mutating func skipMisc() throws {
        while true {
            skipSpace()
            if peek("<!--") { try skipComment() }
            else if peek("<?") { try skipProcessingInstruction() }
            else { return }
        }
    }

    // MARK: document

    mutating func document() throws -> PlistNode {
        var sawDoctype = false
        while true {
            try skipMisc()
            if peek("<!DOCTYPE") {
                if sawDoctype { throw error("more than one DOCTYPE") }
                sawDoctype = true
                try skipDoctype()
            } else if peek("<!ENTITY") {
                throw error("entity declarations are not allowed")
            } else {
                break
            }
        }
        guard i < b.count else { throw error("no root element") }
        guard b[i] == 0x3C else { throw error("unexpected text before the root element") }
        let rootStart = i
        let tag = try openTag()
        let root: PlistNode
        if tag.name == "plist" {
            if tag.selfClosing { throw error("empty plist element", at: rootStart) }
            try skipMisc()
            if peek("</") {
                throw error("empty plist element", at: rootStart)
            }
            guard i < b.count else { throw error("unclosed <plist> element", at: rootStart) }
            guard b[i] == 0x3C else { throw error("unexpected text in <plist>") }
            root = try value(depth: 0)
            try skipMisc()
            guard i < b.count else { throw error("unclosed <plist> element", at: rootStart) }
            if !peek("</") {
                if b[i] == 0x3C { throw error("more than one value in the plist element") }
                throw error("unexpected text in <plist>")
            }
            try closeTag("plist")
        } else {
            root = try value(depth: 0, tag: tag, start: rootStart)
        }
        try skipMisc()
        if i < b.count {
            if peek("<!DOCTYPE") || peek("<!ENTITY") { throw error("entity declarations are not allowed") }
            throw error("unexpected content after the root element")
        }
        return root
    }

    // MARK: tags

    struct Tag { var name: String; var selfClosing: Bool }

    @inline(__always) private static func isNameByte(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39)
            || c == 0x5F || c == 0x3A || c == 0x2E || c == 0x2D || c >= 0x80
    }

    /// Reads `<name attr="…" …>` or `<name …/>` at `i` (which is `<`).
    private mutating func openTag() throws -> Tag {
        let start = i
        i += 1
        let nameStart = i
        while i < b.count, Self.isNameByte(b[i]) { i += 1 }
        guard i > nameStart else {
            if i < b.count, b[i] == 0x21 { // <!
                if peek("!DOCTYPE") || peek("!ENTITY") { throw error("entity declarations are not allowed", at: start) }
            }
            throw error("invalid tag", at: start)
        }
        let name = String(decoding: b[nameStart..<i], as: UTF8.self)
        var quote: UInt8 = 0
        while i < b.count {
            let c = b[i]
            if quote != 0 {
                if c == quote { quote = 0 }
                i += 1
                continue
            }
            if c == 0x22 || c == 0x27 { quote = c; i += 1; continue }
            if c == 0x3E { i += 1; return Tag(name: name, selfClosing: false) }
            if c == 0x2F, i + 1 < b.count, b[i + 1] == 0x3E { i += 2; return Tag(name: name, selfClosing: true) }
            if c == 0x3C { throw error("unterminated tag <\(name)>", at: start) }
            i += 1
        }
        throw error("unterminated tag <\(name)>", at: start)
    }

    /// Reads `</name>` at `i`, which must be `</`.
    private mutating func closeTag(_ expected: String) throws {
        let start = i
        i += 2
        let nameStart = i
        while i < b.count, Self.isNameByte(b[i]) { i += 1 }
        let name = String(decoding: b[nameStart..<i], as: UTF8.self)
        skipSpace()
        guard i < b.count, b[i] == 0x3E else { throw error("unterminated closing tag </\(name)>", at: start) }
        i += 1
        guard name == expected else {
            throw error("mismatched closing tag </\(name)>, expected </\(expected)>", at: start)
        }
    }

    // MARK: values

    private mutating func countObject(at index: Int) throws {
        objects += 1
        if objects > limits.maxPlistObjects {
            let p = position(index)
            throw FormatError(.limitExceeded("max-plist-objects"), format: format,
                              reason: "more than \(limits.maxPlistObjects) objects", line: p.line, column: p.column)
        }
    }

    /// One open `<array>` or `<dict>` while parsing iteratively (no recursion, so hostile
    /// nesting can never exhaust a thread's stack, whatever the limits).
    private struct Frame {
        var isDict: Bool
        var position: SourcePosition
        var items: [PlistNode] = []
        var entries: [PlistEntry] = []
        var key = ""
        var keyPosition: SourcePosition?
    }

    private mutating func value(depth: Int) throws -> PlistNode {
        let start = i
        let tag = try openTag()
        return try value(depth: depth, tag: tag, start: start)
    }

    /// Parses the value whose open tag was just read, including everything nested in it.
    private mutating func value(depth baseDepth: Int, tag: Tag, start: Int) throws -> PlistNode {
        var stack: [Frame] = []
        var pending = try begin(tag: tag, start: start, depth: baseDepth, stack: &stack)
        while true {
            if let node = pending {
                pending = nil
                guard !stack.isEmpty else { return node }
                let top = stack.count - 1
                if stack[top].isDict {
                    stack[top].entries.append(PlistEntry(key: stack[top].key, keyPosition: stack[top].keyPosition, value: node))
                } else {
                    stack[top].items.append(node)
                }
            }
            let top = stack.count - 1
            let isDict = stack[top].isDict
            let name = isDict ? "dict" : "array"
            try skipContainerMisc(name)
            guard i < b.count else { throw error("unclosed <\(name)> element", pos: stack[top].position) }
            if peek("</") {
                try closeTag(name)
                let f = stack.removeLast()
                pending = PlistNode(isDict ? .dictionary(PlistDictionary(f.entries)) : .array(f.items), position: f.position)
                continue
            }
            if isDict {
                let keyStart = i
                let keyTag = try openTag()
                let keyPos = position(keyStart)
                guard keyTag.name == "key" else {
                    throw error("value without a key (<\(keyTag.name)> in <dict>)", pos: keyPos)
                }
                let key = keyTag.selfClosing ? "" : try text("key", open: keyPos)
                try skipContainerMisc("dict")
                guard i < b.count else { throw error("unclosed <dict> element", pos: stack[top].position) }
                if peek("</") || peek("<key>") || peek("<key/>") || peek("<key ") {
                    throw error("dictionary key without a value (key \"\(key)\")", pos: keyPos)
                }
                stack[top].key = key
                stack[top].keyPosition = keyPos
            }
            let valueStart = i
            let valueTag = try openTag()
            pending = try begin(tag: valueTag, start: valueStart, depth: baseDepth + stack.count, stack: &stack)
        }
    }

    /// Starts a value: returns scalars and empty containers, or pushes a frame and returns nil.
    private mutating func begin(tag: Tag, start: Int, depth: Int, stack: inout [Frame]) throws -> PlistNode? {
        let pos = position(start)
        if depth > limits.maxNestingDepth {
            throw FormatError(.limitExceeded("max-nesting-depth"), format: format,
                              reason: "nesting deeper than \(limits.maxNestingDepth)", line: pos.line, column: pos.column)
        }
        try countObject(at: start)
        switch tag.name {
        case "dict":
            if tag.selfClosing { return PlistNode(.dictionary(PlistDictionary()), position: pos) }
            stack.append(Frame(isDict: true, position: pos))
            return nil
        case "array":
            if tag.selfClosing { return PlistNode(.array([]), position: pos) }
            stack.append(Frame(isDict: false, position: pos))
            return nil
        default:
            return try scalar(tag: tag, pos: pos)
        }
    }

    private mutating func scalar(tag: Tag, pos: SourcePosition) throws -> PlistNode {
        switch tag.name {
        case "string":
            if tag.selfClosing { return PlistNode(.string(""), position: pos) }
            return PlistNode(.string(try text("string", open: pos)), position: pos)
        case "true", "false":
            if !tag.selfClosing {
                let t = try text(tag.name, open: pos)
                guard t.isEmpty else { throw error("<\(tag.name)> must be empty", pos: pos) }
            }
            return PlistNode(.bool(tag.name == "true"), position: pos)
        case "integer":
            let t = tag.selfClosing ? "" : try text("integer", open: pos)
            return PlistNode(.integer(try Self.integer(t, pos: pos)), position: pos)
        case "real":
            let t = tag.selfClosing ? "" : try text("real", open: pos)
            return PlistNode(.real(try Self.real(t, pos: pos)), position: pos)
        case "date":
            let t = tag.selfClosing ? "" : try text("date", open: pos)
            return PlistNode(.date(try Self.date(t, pos: pos)), position: pos)
        case "data":
            let t = tag.selfClosing ? "" : try text("data", open: pos)
            return PlistNode(.data(try Self.base64(t, pos: pos)), position: pos)
        case "key":
            // CoreFoundation reads a <key> outside a dictionary as a string.
            if tag.selfClosing { return PlistNode(.string(""), position: pos) }
            return PlistNode(.string(try text("key", open: pos)), position: pos)
        case "plist":
            throw error("nested <plist> element", pos: pos)
        default:
            throw error("unknown element <\(tag.name)>", pos: pos)
        }
    }

    /// Skips whitespace and comments inside a container; other text is an error.
    private mutating func skipContainerMisc(_ container: String) throws {
        try skipMisc()
        if i < b.count, b[i] != 0x3C {
            if b[i] == 0x23 { // `#ifdef` in an Info.plist that Xcode preprocesses (INFOPLIST_PREPROCESS)
                throw error("C preprocessor directive in <\(container)> (the file must be preprocessed before it is a property list)")
            }
            throw error("unexpected text in <\(container)>")
        }
    }

    /// Character content of a simple element up to its closing tag: entities, character
    /// references, CDATA sections and comments are handled; child elements are errors.
    private mutating func text(_ element: String, open: SourcePosition) throws -> String {
        // Fast path: plain text straight to the closing tag.
        let start = i
        while i < b.count, b[i] != 0x3C, b[i] != 0x26 { i += 1 }
        if i < b.count, b[i] == 0x3C, i + 1 < b.count, b[i + 1] == 0x2F {
            let s = String(decoding: b[start..<i], as: UTF8.self)
            try closeTag(element)
            return s
        }
        var out: [UInt8] = Array(b[start..<i])
        while true {
            guard i < b.count else { throw error("unclosed <\(element)> element", pos: open) }
            let c = b[i]
            if c == 0x26 { // &
                try entity(into: &out)
            } else if c == 0x3C {
                if peek("</") {
                    try closeTag(element)
                    return String(decoding: out, as: UTF8.self)
                } else if peek("<![CDATA[") {
                    let cstart = i
                    guard let end = find("]]>", from: i + 9) else { throw error("unterminated CDATA section", at: cstart) }
                    out.append(contentsOf: b[(i + 9)..<end])
                    i = end + 3
                } else if peek("<!--") {
                    // CoreFoundation ends the text at any markup but CDATA, so iOS fails here.
                    throw error("comment inside <\(element)>")
                } else if peek("<?") {
                    throw error("processing instruction inside <\(element)>")
                } else {
                    let at = i
                    let tag = try openTag()
                    throw error("unexpected element <\(tag.name)> inside <\(element)>", at: at)
                }
            } else {
                let runStart = i
                while i < b.count, b[i] != 0x3C, b[i] != 0x26 { i += 1 }
                out.append(contentsOf: b[runStart..<i])
            }
        }
    }

    private mutating func entity(into out: inout [UInt8]) throws {
        let start = i
        var k = i + 1
        while k < b.count, k - start <= 12, b[k] != 0x3B { k += 1 }
        guard k < b.count, b[k] == 0x3B else { throw error("unterminated entity reference", at: start) }
        let name = String(decoding: b[(start + 1)..<k], as: UTF8.self)
        i = k + 1
        switch name {
        case "lt": out.append(0x3C)
        case "gt": out.append(0x3E)
        case "amp": out.append(0x26)
        case "quot": out.append(0x22)
        case "apos": out.append(0x27)
        default:
            guard name.hasPrefix("#") else { throw error("unknown entity &\(name);", at: start) }
            var digits = name.dropFirst()
            var radix = 10
            if digits.hasPrefix("x") || digits.hasPrefix("X") { radix = 16; digits = digits.dropFirst() }
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isHexDigit }),
                  let v = UInt32(digits, radix: radix), v != 0, let scalar = Unicode.Scalar(v) else {
                throw error("invalid character reference &\(name);", at: start)
            }
            out.append(contentsOf: String(Character(scalar)).utf8)
        }
    }
}
