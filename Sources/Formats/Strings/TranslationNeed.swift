import Foundation

/// Whether a localized value is text a translator has to translate.
public enum TranslationNeed {
    /// True for values every language shows as they are: empty or white space, numbers,
    /// punctuation and symbols, format specifiers alone (`%@`, `%1$@ – %2$@`), a URL or an
    /// e-mail address.
    public static func needsNone(_ value: String) -> Bool {
        if let ascii = value.utf8.withContiguousStorageIfAvailable({ asciiNeedsNone($0) }), let answer = ascii { return answer }
        // Trimmed as `trimmingCharacters(in: .whitespacesAndNewlines)` would (Unicode's
        // White_Space scalars), without Foundation: this runs for every value of every table.
        let scalars = value.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return true }
        let trimmed = Substring(scalars[first...last])
        // A URL, `www.`, `mailto:` or e-mail address needs a `:` or a `.`, which lowercasing never makes.
        if trimmed.utf8.contains(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }),
           !trimmed.contains(where: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            let lower = trimmed.lowercased()
            if lower.contains("://") || lower.hasPrefix("www.") || lower.hasPrefix("mailto:") { return true }
            if let at = lower.firstIndex(of: "@"), at != lower.startIndex, lower[lower.index(after: at)...].contains("."),
               !lower.contains("%") { return true }
        }
        return !hasLetterOutsideSpecifiers(trimmed)
    }

    /// `needsNone` for an ASCII value, on its bytes; nil when a byte is not ASCII.
    static func asciiNeedsNone(_ b: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard !b.contains(where: { $0 >= 0x80 }) else { return nil }
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || (0x09...0x0D).contains(c) }
        func isLetter(_ c: UInt8) -> Bool { (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) }
        func lower(_ c: UInt8) -> UInt8 { (0x41...0x5A).contains(c) ? c | 0x20 : c }
        guard let first = b.firstIndex(where: { !isSpace($0) }), let last = b.lastIndex(where: { !isSpace($0) }) else { return true }
        let t = UnsafeBufferPointer(rebasing: b[first...last])
        func has(_ needle: String, at offset: Int? = nil) -> Bool {
            let n = Array(needle.utf8)
            guard n.count <= t.count else { return false }
            if let offset { return offset + n.count <= t.count && (0..<n.count).allSatisfy { lower(t[offset + $0]) == n[$0] } }
            return (0...(t.count - n.count)).contains { i in (0..<n.count).allSatisfy { lower(t[i + $0]) == n[$0] } }
        }
        // As Characters: "\r\n" is one, and not "\n".
        let breaks = t.indices.contains { t[$0] == 0x20 || t[$0] == 0x09 || (t[$0] == 0x0A && ($0 == 0 || t[$0 - 1] != 0x0D)) }
        if !breaks {
            if has("://") || has("www.", at: 0) || has("mailto:", at: 0) { return true }
            if let at = t.firstIndex(of: UInt8(ascii: "@")), at > 0, t[(at + 1)...].contains(UInt8(ascii: ".")),
               !t.contains(UInt8(ascii: "%")) { return true }
        }
        let lengths = Array("hlqLjzt".utf8), flags = Array("$-+ #.'*hlqLjzt".utf8)
        var i = 0
        while i < t.count {
            let c = t[i]; i += 1
            guard c == UInt8(ascii: "%") else { if isLetter(c) { return false }; continue }
            while i < t.count {
                let d = t[i]; i += 1
                if isLetter(d) && !lengths.contains(d) || d == UInt8(ascii: "@") || d == UInt8(ascii: "%") { break }
                if !((0x30...0x39).contains(d) || flags.contains(d)) { if isLetter(d) { return false }; break }
            }
        }
        return true
    }

    /// Whether a letter is left once printf-style specifiers (`%@`, `%1$lld`, `%.2f`, `%%`) are
    /// removed: `withoutSpecifiers(s).contains(where: \.isLetter)`, stopping at the first letter.
    static func hasLetterOutsideSpecifiers<S: StringProtocol>(_ s: S) -> Bool {
        var chars = s.makeIterator()
        while let c = chars.next() {
            guard c == "%" else { if c.isLetter { return true }; continue }
            while let d = chars.next() {
                if d.isLetter && !"hlqLjzt".contains(d) || d == "@" || d == "%" { break }
                if !(d.isNumber || "$-+ #.'*hlqLjzt".contains(d)) { if d.isLetter { return true }; break }
            }
        }
        return false
    }

    /// Interface Builder's default texts (a new label says "Label", a button "Button", a
    /// navigation item "Title", a text view "Lorem ipsum…"): left in a storyboard or xib, they
    /// are placeholders that code replaces, not text to translate.
    static let interfaceDefaults: Set<String> = ["Label", "Button", "Title", "Subtitle", "Detail", "Text", "Item"]

    /// True for a key of a storyboard's or xib's strings table (`abc-12-xyz.text`) whose
    /// development text is one of Interface Builder's defaults.
    public static func isInterfacePlaceholder(key: String, value: String) -> Bool {
        guard interfaceObjectID(key) != nil else { return false }
        let v = value.trimmingCharacters(in: .whitespacesAndNewlines)
        return interfaceDefaults.contains(v) || v.hasPrefix("Lorem ipsum")
    }

    /// The object of a storyboard's or xib's strings key: `abc-12-xyz.text` → `abc-12-xyz`
    /// (Interface Builder's ids; old files use numbers: `2.title`); nil for other keys.
    public static func interfaceObjectID(_ key: String) -> String? {
        // The id's shape is decided on bytes (both shapes are ASCII); most keys fail it.
        let bytes = key.utf8
        guard let dot = bytes.firstIndex(of: UInt8(ascii: ".")) else { return nil }
        let id = bytes[..<dot]
        func isAlphanumeric(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) }
        let isIB = id.count == 10 && id.enumerated().allSatisfy { i, b in i == 3 || i == 6 ? b == UInt8(ascii: "-") : isAlphanumeric(b) }
        let isNumeric = (1...8).contains(id.count) && id.allSatisfy { (0x30...0x39).contains($0) }
        // A `.` that a combining mark follows is not the `.` Character: the id then ends later, and is not ASCII.
        guard isIB || isNumeric, key.firstIndex(of: ".") == dot,
              let property = key[key.index(after: dot)...].first, property.isLowercase else { return nil }
        return String(key[..<dot])
    }

    /// True when a comment for translators says the text is not to be translated (Xcode copies
    /// a storyboard object's localizer note into the catalog: `Note = "Placeholder - do not translate"`).
    public static func saysDoNotTranslate(_ comment: String?) -> Bool {
        guard let c = comment?.lowercased(), c.count <= 4_096 else { return false }
        return c.contains("do not translate") || c.contains("don't translate") || c.contains("don’t translate")
    }

    /// FNV-1a of the value's UTF-8 bytes: equal values, equal digests.
    public static func digest(_ value: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in value.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }
}
