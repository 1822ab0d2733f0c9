import Foundation

/// Searching bytes for bytes, at memory speed, for readers that look for a name in
/// a file without decoding it as text.
public enum ByteSearch {
    /// The offset of the first `needle` in `haystack` at or after `from`, or nil.
    public static func firstOffset(of needle: [UInt8], in haystack: UnsafeRawBufferPointer, from: Int = 0) -> Int? {
        guard !needle.isEmpty, from >= 0, from <= haystack.count, haystack.count - from >= needle.count,
              let base = haystack.baseAddress else { return nil }
        return needle.withUnsafeBytes { n -> Int? in
            // `memchr` to each candidate first byte, `memcmp` for the rest (`memmem` is not in
            // every C library Swift imports).
            let first = Int32(needle[0])
            let last = haystack.count - needle.count
            var at = from
            while at <= last {
                guard let hit = memchr(base + at, first, last - at + 1) else { return nil }
                at = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(base + at, n.baseAddress!, n.count) == 0 { return at }
                at += 1
            }
            return nil
        }
    }

    public static func contains(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
        haystack.withUnsafeBytes { firstOffset(of: needle, in: $0) != nil }
    }

    /// The lines (ended by `\n` or `\r`) that hold `needle`, each once, joined by `\n`.
    public static func lines(containing needle: [UInt8], in haystack: [UInt8]) -> [UInt8] {
        haystack.withUnsafeBytes { h in
            var out: [UInt8] = []
            var from = 0
            while let at = firstOffset(of: needle, in: h, from: from) {
                var start = at, end = at + needle.count
                while start > 0, h[start - 1] != 0x0A, h[start - 1] != 0x0D { start -= 1 }
                while end < h.count, h[end] != 0x0A, h[end] != 0x0D { end += 1 }
                out.append(contentsOf: h[start..<end])
                out.append(0x0A)
                from = end
            }
            return out
        }
    }
}
