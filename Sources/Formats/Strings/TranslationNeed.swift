import Foundation

/// Whether a localized value is text a translator has to translate.
public enum TranslationNeed {
    /// True for values every language shows as they are: empty or white space, numbers,
    /// punctuation and symbols, format specifiers alone (`%@`, `%1$@ – %2$@`), a URL or an
    /// e-mail address.
    public static func needsNone(_ value: String) -> Bool {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return true }
        if !trimmed.contains(where: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            let lower = trimmed.lowercased()
            if lower.contains("://") || lower.hasPrefix("www.") || lower.hasPrefix("mailto:") { return true }
            if let at = lower.firstIndex(of: "@"), at != lower.startIndex, lower[lower.index(after: at)...].contains("."),
               !lower.contains("%") { return true }
        }
        return !withoutSpecifiers(trimmed).contains(where: \.isLetter)
    }

    /// The text with printf-style specifiers (`%@`, `%1$lld`, `%.2f`, `%%`) removed.
    static func withoutSpecifiers(_ s: String) -> String {
        var out = ""
        var chars = s.makeIterator()
        while let c = chars.next() {
            guard c == "%" else { out.append(c); continue }
            // Skip flags, argument number, width, precision and length up to the conversion.
            while let d = chars.next() {
                if d.isLetter && !"hlqLjzt".contains(d) || d == "@" || d == "%" { break }
                if !(d.isNumber || "$-+ #.'*hlqLjzt".contains(d)) { out.append(d); break }
            }
        }
        return out
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
        guard let dot = key.firstIndex(of: "."), let property = key[key.index(after: dot)...].first, property.isLowercase else { return nil }
        let id = key[..<dot]
        let parts = id.split(separator: "-", omittingEmptySubsequences: false)
        let isIB = parts.count == 3 && parts.map(\.count) == [3, 2, 3]
            && parts.allSatisfy { $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
        let isNumeric = !id.isEmpty && id.count <= 8 && id.allSatisfy { $0.isASCII && $0.isNumber }
        return isIB || isNumeric ? String(id) : nil
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
