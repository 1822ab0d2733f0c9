import Foundation

/// Decodes text files whose encoding is not declared: UTF-8 or UTF-16 with or without a
/// byte-order mark, as Xcode writes `.strings` and OpenStep property lists.
public enum TextDecoding {
    public enum Encoding: String, Sendable { case utf8, utf16LE, utf16BE }

    /// Returns the decoded text and the encoding found. Invalid sequences throw: a `.strings`
    /// file that cannot be decoded is never loaded by iOS either.
    public static func decode(_ data: Data, format: String) throws -> (String, Encoding) {
        let b = [UInt8](data)
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF {
            return (try utf8(b[3...], format: format, base: 3), .utf8)
        }
        if b.count >= 2, b[0] == 0xFF, b[1] == 0xFE {
            return (try utf16(b[2...], bigEndian: false, format: format), .utf16LE)
        }
        if b.count >= 2, b[0] == 0xFE, b[1] == 0xFF {
            return (try utf16(b[2...], bigEndian: true, format: format), .utf16BE)
        }
        // No BOM: UTF-16 text of ASCII-range content has a NUL in every other byte.
        if b.count >= 4, b.count % 2 == 0 {
            if b[0] != 0, b[1] == 0, b[3] == 0 { return (try utf16(b[...], bigEndian: false, format: format), .utf16LE) }
            if b[0] == 0, b[1] != 0, b[2] == 0 { return (try utf16(b[...], bigEndian: true, format: format), .utf16BE) }
        }
        return (try utf8(b[...], format: format, base: 0), .utf8)
    }

    private static func utf8(_ s: ArraySlice<UInt8>, format: String, base: Int) throws -> String {
        guard let text = String(validating: s, as: UTF8.self) else {
            // Find the first bad byte for the message.
            var it = s.makeIterator()
            var decoder = UTF8()
            var consumed = 0
            loop: while true {
                switch decoder.decode(&it) {
                case .scalarValue(let v): consumed += UTF8.width(v)
                case .emptyInput: break loop
                case .error: break loop
                }
            }
            throw FormatError.malformed(format, "invalid UTF-8", offset: base + consumed)
        }
        return text
    }

    private static func utf16(_ s: ArraySlice<UInt8>, bigEndian: Bool, format: String) throws -> String {
        guard s.count % 2 == 0 else {
            throw FormatError.truncated(format, "UTF-16 text has an odd number of bytes", offset: s.endIndex - 1)
        }
        var units: [UInt16] = []
        units.reserveCapacity(s.count / 2)
        var i = s.startIndex
        while i < s.endIndex {
            let a = UInt16(s[i]), b = UInt16(s[i + 1])
            units.append(bigEndian ? (a << 8 | b) : (b << 8 | a))
            i += 2
        }
        var out = String.UnicodeScalarView()
        var it = units.makeIterator()
        var decoder = UTF16()
        var index = 0
        while true {
            switch decoder.decode(&it) {
            case .scalarValue(let v):
                out.append(v)
                index += v.value > 0xFFFF ? 2 : 1
            case .emptyInput:
                return String(out)
            case .error:
                throw FormatError.malformed(format, "invalid UTF-16 (unpaired surrogate)", offset: s.startIndex + index * 2)
            }
        }
    }
}
