import Foundation

/// Text of the XML property list's scalar elements to values, as CoreFoundation reads them:
/// `<integer>` (decimal, signed, `0x` hex; must fit in `Int64`), `<real>`, `<date>`
/// (`YYYY-MM-DDTHH:MM:SSZ`) and `<data>` (base64). Errors name the line and column of the element.
extension XMLPlistTokenizer {
    /// Leading whitespace is skipped as CoreFoundation does; trailing whitespace is an error
    /// there (it expects the closing tag right after the number), so it is here too.
    private static func number(_ s: String, _ what: String, pos: SourcePosition) throws -> Substring {
        var sub = Substring(s)
        while let f = sub.first, f.isWhitespace { sub = sub.dropFirst() }
        guard !sub.isEmpty else { throw fail("empty \(what)", pos) }
        if let l = sub.last, l.isWhitespace { throw fail("trailing whitespace in <\(what)>", pos) }
        return sub
    }

    private static func fail(_ reason: String, _ p: SourcePosition) -> FormatError {
        FormatError(.malformed, format: XMLPropertyListParser.formatName, reason: reason, line: p.line, column: p.column)
    }

    static func integer(_ raw: String, pos: SourcePosition) throws -> Int64 {
        let t = try number(raw, "integer", pos: pos)
        var digits = t
        var negative = false
        if digits.first == "-" { negative = true; digits = digits.dropFirst() }
        else if digits.first == "+" { digits = digits.dropFirst() }
        var radix = 10
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { radix = 16; digits = digits.dropFirst(2) }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && (radix == 16 ? $0.isHexDigit : $0.isNumber) }) else {
            throw fail("invalid integer '\(t)'", pos)
        }
        guard let magnitude = UInt64(digits, radix: radix) else {
            throw fail("integer \(t) does not fit in 64 bits", pos)
        }
        if negative {
            if magnitude == UInt64(Int64.max) + 1 { return Int64.min }
            guard magnitude <= UInt64(Int64.max) else { throw fail("integer \(t) does not fit in a signed 64-bit integer", pos) }
            return -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { throw fail("integer \(t) does not fit in a signed 64-bit integer", pos) }
        return Int64(magnitude)
    }

    static func real(_ raw: String, pos: SourcePosition) throws -> Double {
        let t = try number(raw, "real", pos: pos)
        var unsigned = t.lowercased()
        if unsigned.hasPrefix("-") || unsigned.hasPrefix("+") { unsigned.removeFirst() }
        let special = ["nan", "inf", "infinity"].contains(unsigned)
        guard special || t.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "+" || $0 == "e" || $0 == "E") }),
              let d = Double(t) else {
            throw fail("invalid real '\(t)'", pos)
        }
        return d
    }

    static func date(_ raw: String, pos: SourcePosition) throws -> Date {
        let t = Array(raw.utf8) // no whitespace allowed, as in CoreFoundation
        func num(_ from: Int, _ count: Int) -> Int? {
            var v = 0
            for k in from..<(from + count) {
                let c = t[k]
                guard c >= 0x30, c <= 0x39 else { return nil }
                v = v * 10 + Int(c - 0x30)
            }
            return v
        }
        let bad = fail("invalid date '\(String(decoding: t, as: UTF8.self))', expected YYYY-MM-DDTHH:MM:SSZ", pos)
        guard t.count == 20, t[4] == 0x2D, t[7] == 0x2D, t[10] == 0x54, t[13] == 0x3A, t[16] == 0x3A, t[19] == 0x5A,
              let y = num(0, 4), let mo = num(5, 2), let d = num(8, 2),
              let h = num(11, 2), let mi = num(14, 2), let s = num(17, 2) else { throw bad }
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...12).contains(mo), d >= 1, d <= monthDays[mo - 1], h < 24, mi < 60, s < 60 else { throw bad }
        // Days from civil (Howard Hinnant's algorithm).
        let yy = mo <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let mp = (mo + 9) % 12
        let doy = (153 * mp + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146097 + doe - 719468
        return Date(timeIntervalSince1970: TimeInterval(days * 86400 + h * 3600 + mi * 60 + s))
    }

    static func base64(_ raw: String, pos: SourcePosition) throws -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(raw.utf8.count * 3 / 4)
        var acc: UInt32 = 0
        var n = 0
        var padding = false
        for c in raw.utf8 {
            let v: UInt32
            switch c {
            case 0x41...0x5A: v = UInt32(c - 0x41)
            case 0x61...0x7A: v = UInt32(c - 0x61 + 26)
            case 0x30...0x39: v = UInt32(c - 0x30 + 52)
            case 0x2B: v = 62
            case 0x2F: v = 63
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case 0x3D: padding = true; continue
            default:
                throw fail("invalid base64 character '\(Unicode.Scalar(c).escaped(asASCII: true))' in <data>", pos)
            }
            if padding { throw fail("base64 data continues after padding", pos) }
            acc = acc << 6 | v
            n += 1
            if n == 4 {
                out.append(UInt8(acc >> 16 & 0xFF)); out.append(UInt8(acc >> 8 & 0xFF)); out.append(UInt8(acc & 0xFF))
                acc = 0; n = 0
            }
        }
        switch n {
        case 0: break
        case 2: out.append(UInt8(acc >> 4 & 0xFF))
        case 3: out.append(UInt8(acc >> 10 & 0xFF)); out.append(UInt8(acc >> 2 & 0xFF))
        default: throw fail("truncated base64 in <data>", pos)
        }
        return Data(out)
    }
}
