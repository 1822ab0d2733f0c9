import Foundation

/// Text as XML or HTML character data or attribute value: the five markup characters
/// escaped, and characters XML 1.0 cannot hold (controls other than tab and line breaks,
/// U+FFFE, U+FFFF) dropped.
public enum MarkupEscaping {
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                let v = scalar.value
                if v >= 0x20 && !(0xFFFE...0xFFFF).contains(v) { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
