import Foundation

/// An `NSExceptionDomains` key that names an IP address or a CIDR range (`192.168.42.63`,
/// `10.0.0.0/8`, `2001:db8:12::/48`): honoured from iOS 17 (Apple's NSExceptionDomains page:
/// "In iOS 17, iPadOS 17, and macOS 14, you can use an IPv4 address … or an IPv6 address … You
/// can also use a classless inter-domain routing (CIDR) range").
public struct ATSAddressRange: Sendable, Equatable {
    /// The address's bytes: 4 for IPv4, 16 for IPv6.
    public var bytes: [UInt8]
    /// The number of leading bits that must match (32 or 128 for a single address).
    public var prefixLength: Int
    public var isRange: Bool { prefixLength < bytes.count * 8 }

    /// The first iOS version that honours such a key.
    public static let firstHonouringMajorVersion = 17

    /// Parses an address or a range; nil for anything else (a host name, a malformed range).
    public init?(_ key: String) {
        var text = Substring(key)
        var prefix: Int?
        if let slash = text.firstIndex(of: "/") {
            let digits = text[text.index(after: slash)...]
            guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy(\.isASCII), let n = Int(digits) else { return nil }
            prefix = n
            text = text[..<slash]
        }
        guard let address = Self.ipv4(text) ?? Self.ipv6(text) else { return nil }
        let bits = address.count * 8
        guard (prefix ?? bits) <= bits else { return nil }
        bytes = address
        prefixLength = prefix ?? bits
    }

    /// Whether a host written as an IP address lies in the range.
    public func contains(_ host: String) -> Bool {
        let trimmed = host.hasPrefix("[") && host.hasSuffix("]") ? Substring(host.dropFirst().dropLast()) : Substring(host)
        guard let address = Self.ipv4(trimmed) ?? Self.ipv6(trimmed), address.count == bytes.count else { return false }
        var left = prefixLength
        for (a, b) in zip(address, bytes) where left > 0 {
            let take = min(8, left)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - take))
            if a & mask != b & mask { return false }
            left -= take
        }
        return true
    }

    static func ipv4(_ s: Substring) -> [UInt8]? {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var out: [UInt8] = []
        for p in parts {
            guard !p.isEmpty, p.count <= 3, p.allSatisfy({ $0.isASCII && $0.isNumber }), let v = Int(p), v <= 255 else { return nil }
            out.append(UInt8(v))
        }
        return out
    }

    static func ipv6(_ s: Substring) -> [UInt8]? {
        guard s.contains(":"), s.allSatisfy({ $0.isASCII && ($0.isHexDigit || $0 == ":" || $0 == ".") }) else { return nil }
        let halves = s.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt16]? {
            if part.isEmpty { return [] }
            var out: [UInt16] = []
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (i, piece) in pieces.enumerated() {
                if i == pieces.count - 1, piece.contains(".") {
                    guard let v4 = ipv4(piece) else { return nil }
                    out.append(UInt16(v4[0]) << 8 | UInt16(v4[1]))
                    out.append(UInt16(v4[2]) << 8 | UInt16(v4[3]))
                } else {
                    guard !piece.isEmpty, piece.count <= 4, let v = UInt16(piece, radix: 16) else { return nil }
                    out.append(v)
                }
            }
            return out
        }
        guard let head = groups(halves[0]) else { return nil }
        var all = head
        if halves.count == 2 {
            guard let tail = groups(halves[1]), head.count + tail.count <= 7 else { return nil }
            all += [UInt16](repeating: 0, count: 8 - head.count - tail.count) + tail
        }
        guard all.count == 8 else { return nil }
        return all.flatMap { [UInt8($0 >> 8), UInt8(truncatingIfNeeded: $0)] }
    }
}
