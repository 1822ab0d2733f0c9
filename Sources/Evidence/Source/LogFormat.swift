import Foundation

/// Which arguments of an `os_log`/`NSLog`-style format string the log shows unredacted.
public enum LogFormat {
    /// One entry per argument the format consumes, in order: true when the unified log shows
    /// it in a release build. A `{public}` specifier shows it; `{private}`/`{sensitive}` hide
    /// it; without either, objects and C strings (`%@`, `%s`) are redacted and scalars (`%d`,
    /// `%f`, …) shown. A `*` width or precision consumes an argument of its own (a number).
    public static func shownArguments(_ format: String) -> [Bool] {
        var out: [Bool] = []
        let bytes = Array(format.utf8)
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "%") else { i += 1; continue }
            i += 1
            guard i < bytes.count else { break }
            if bytes[i] == UInt8(ascii: "%") { i += 1; continue }
            var privacy: Bool?
            if bytes[i] == UInt8(ascii: "{") {
                var j = i + 1
                while j < bytes.count, bytes[j] != UInt8(ascii: "}"), j - i < 128 { j += 1 }
                let words = String(decoding: bytes[(i + 1)..<min(j, bytes.count)], as: UTF8.self)
                    .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                if words.contains("public") { privacy = true }
                if words.contains("private") || words.contains("sensitive") { privacy = false }
                i = min(j + 1, bytes.count)
            }
            // Flags, width, precision and length, then the conversion.
            var conversion: UInt8 = 0
            while i < bytes.count {
                let c = bytes[i]
                i += 1
                if c == UInt8(ascii: "*") { out.append(true); continue }
                if (c >= 0x30 && c <= 0x39) || "-+ #.'hlqLjztv".utf8.contains(c) { continue }
                conversion = c
                break
            }
            guard conversion != 0 else { break }
            let object = conversion == UInt8(ascii: "@") || conversion == UInt8(ascii: "s") || conversion == UInt8(ascii: "S")
                || conversion == UInt8(ascii: "P")
            out.append(privacy ?? !object)
        }
        return out
    }
}
