import Foundation

extension StringProtocol {
    /// `trimmingCharacters(in: .whitespaces)`, without Foundation's NSString round trip for
    /// the common case of nothing to trim (it dominated the loading of large projects on Linux).
    public func trimmingWhitespace() -> String {
        let bytes = utf8
        guard let first = bytes.first else { return "" }
        let last = bytes[bytes.index(bytes.endIndex, offsetBy: -1)]
        func plain(_ b: UInt8) -> Bool { b < 0x80 && b != 0x20 && b != 0x09 }
        if plain(first) && plain(last) { return String(self) }
        return trimmingCharacters(in: .whitespaces)
    }
}
