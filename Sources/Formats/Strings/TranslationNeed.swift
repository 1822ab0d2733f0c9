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

    /// FNV-1a of the value's UTF-8 bytes: equal values, equal digests.
    public static func digest(_ value: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in value.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }
}
