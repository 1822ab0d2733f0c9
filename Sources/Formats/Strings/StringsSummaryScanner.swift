import Foundation

/// Reads the common `.strings` file at byte speed: UTF-8 text, an optional byte-order mark, and
/// `"key" = "value";` or `"key";` pairs between white space and comments, with the escapes
/// `\"`, `\\`, `\n`, `\t` and `\r`. It returns a summary only when `StringsFileParser.parse`
/// accepts the file and gives the same keys, format values and positions; anything else it
/// meets (UTF-16, property-list formats, unquoted words, other escapes, a syntax error) returns
/// nil, meaning "parse it". Megabytes of tables in dozens of languages are read several times
/// faster than by building every entry.
public enum StringsSummaryScanner {
    public static func summary(_ data: Data, limits: ReaderLimits = .default) -> StringsTableSummary? {
        guard (try? limits.checkInputSize(data.count, format: StringsFileParser.formatName)) != nil,
              PropertyListReader.detect(data) == .openStep else { return nil }
        return data.withUnsafeBytes { raw -> StringsTableSummary? in
            var scanner = Scanner(raw.bindMemory(to: UInt8.self), maxEntries: limits.maxPlistObjects / 4)
            return scanner.run()
        }
    }

    private struct Scanner {
        let b: UnsafeBufferPointer<UInt8>
        let n: Int
        let maxEntries: Int
        var i = 0
        var line = 1
        var lineStart = 0
        var keys: [String] = []
        var formats: [String: StringsTableSummary.FormatValue] = [:]
        var summary = StringsTableSummary(keys: [], formats: [:])

        init(_ b: UnsafeBufferPointer<UInt8>, maxEntries: Int) {
            self.b = b
            self.n = b.count
            self.maxEntries = maxEntries
        }

        mutating func run() -> StringsTableSummary? {
            if n >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { i = 3 }
            // UTF-16, with or without a byte-order mark, goes to the full parser.
            if n >= 2, (b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF) { return nil }
            if n >= 4, n % 2 == 0, (b[1] == 0 && b[3] == 0) || (b[0] == 0 && b[2] == 0) { return nil }
            guard String(validating: UnsafeBufferPointer(rebasing: b[i...]), as: UTF8.self) != nil else { return nil }
            lineStart = i
            var entries = 0
            while true {
                guard skipTrivia() else { return nil }
                if i >= n {
                    summary.keys = keys
                    summary.formats = formats
                    return summary
                }
                guard let key = quoted(), skipTrivia(), i < n else { return nil }
                var value = key
                if b[i] == 0x3D {  // =
                    i += 1
                    guard skipTrivia(), let v = quoted(), skipTrivia(), i < n else { return nil }
                    value = v
                } else if key.hasPercent {
                    return nil  // `"key";` naming a format: the parser decides where its value is
                }
                guard b[i] == 0x3B else { return nil }  // ;
                i += 1
                entries += 1
                if entries > maxEntries { return nil }
                let keyText = text(of: key), valueText = text(of: value)
                // Every key gets a digest: a key without one is new.
                let isNew = summary.noteValue(keyText, valueText)
                if isNew { keys.append(keyText) }
                if value.hasPercent {
                    formats[keyText] = StringsTableSummary.FormatValue(value: valueText, position: value.position)
                } else if !isNew {
                    formats[keyText] = nil  // the last entry of a key wins
                }
            }
        }

        mutating func skipTrivia() -> Bool {
            while i < n {
                let c = b[i]
                if c == 0x0A {
                    newline()
                } else if c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0B || c == 0x0C {
                    i += 1
                } else if c == 0x2F, i + 1 < n, b[i + 1] == 0x2F {
                    while i < n, b[i] != 0x0A { i += 1 }
                } else if c == 0x2F, i + 1 < n, b[i + 1] == 0x2A {
                    i += 2
                    while i + 1 < n, !(b[i] == 0x2A && b[i + 1] == 0x2F) {
                        if b[i] == 0x0A { newline() } else { i += 1 }
                    }
                    guard i + 1 < n else { return false }
                    i += 2
                } else {
                    return true
                }
            }
            return true
        }

        mutating func newline() {
            i += 1
            line += 1
            lineStart = i
        }

        /// The string's line and column as the full parser counts them: columns in Unicode
        /// scalars, that is UTF-8 bytes that do not continue a sequence.
        func position(line: Int, lineStart: Int, offset: Int) -> SourcePosition {
            var column = 1
            for k in lineStart..<offset where b[k] & 0xC0 != 0x80 { column += 1 }
            return SourcePosition(line: line, column: column)
        }

        /// A string's bytes (decoded only when its text is needed: most values are not).
        struct Quoted {
            var range: Range<Int>
            /// The bytes with escapes decoded, when it has any.
            var escaped: [UInt8]?
            var hasPercent: Bool
            var position: SourcePosition?
        }

        func text(of q: Quoted) -> String {
            q.escaped.map { String(decoding: $0, as: UTF8.self) } ?? String(decoding: UnsafeBufferPointer(rebasing: b[q.range]), as: UTF8.self)
        }

        mutating func quoted() -> Quoted? {
            guard i < n, b[i] == 0x22 else { return nil }
            let open = i
            let openLine = line, openLineStart = lineStart
            i += 1
            let start = i
            var percent = false
            var escaped: [UInt8]?
            while i < n {
                let c = b[i]
                if c == 0x22 {
                    let range = start..<i
                    i += 1
                    let position = percent ? self.position(line: openLine, lineStart: openLineStart, offset: open) : nil
                    return Quoted(range: range, escaped: escaped, hasPercent: percent, position: position)
                }
                if c == 0x25 { percent = true }
                if c == 0x5C {
                    guard i + 1 < n else { return nil }
                    let decoded: UInt8
                    switch b[i + 1] {
                    case 0x22: decoded = 0x22
                    case 0x5C: decoded = 0x5C
                    case 0x6E: decoded = 0x0A
                    case 0x74: decoded = 0x09
                    case 0x72: decoded = 0x0D
                    case 0x61: decoded = 0x07
                    case 0x62: decoded = 0x08
                    case 0x66: decoded = 0x0C
                    case 0x76: decoded = 0x0B
                    case 0x0A:
                        // An escaped line break is the line break (a value over several lines).
                        if escaped == nil { escaped = Array(b[start..<i]) }
                        escaped?.append(0x0A)
                        i += 1
                        newline()
                        continue
                    // `\U`, octal digits and an escaped carriage return: the full parser decides.
                    case 0x55, 0x30...0x37, 0x0D: return nil
                    // Any other character stands for itself (`\u203A` is the letters "u203A",
                    // as CoreFoundation reads it); a multi-byte one's other bytes follow as they are.
                    default: decoded = b[i + 1]
                    }
                    if decoded == 0x25 { percent = true }  // `\%` is a percent sign too
                    if escaped == nil { escaped = Array(b[start..<i]) }
                    escaped?.append(decoded)
                    i += 2
                    continue
                }
                if c == 0x0A {
                    escaped?.append(c)
                    newline()
                    continue
                }
                escaped?.append(c)
                i += 1
            }
            return nil
        }
    }
}
