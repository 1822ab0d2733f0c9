import Foundation
import Artifacts

/// A Bonjour service type (`_printer._tcp`) a bundle's code names as a whole string literal or
/// C string: what it may browse for or advertise, to compare with `NSBonjourServices`.
public struct BonjourServiceType: Sendable, Hashable {
    /// `_name._tcp` or `_name._udp`, as written (without a subtype, trailing dot or `local.`).
    public var type: String
    public var location: UsageLocation
    public var bundle: String
    public var origin: UsageOrigin
    public var ships: Bool

    public init(type: String, location: UsageLocation, bundle: String, origin: UsageOrigin = .app, ships: Bool = true) {
        self.type = type
        self.location = location
        self.bundle = bundle
        self.origin = origin
        self.ships = ships
    }
}

/// A service type found in one source file.
public struct FoundServiceType: Sendable, Hashable {
    public var type: String
    public var line: Int
    public var column: Int
    public var ships: Bool
}

public enum BonjourServiceTypeScanner {
    /// At most this many service types are kept per file.
    public static let maxPerFile = 100

    /// The service type a whole string is, else nil: `_name._tcp` / `_name._udp` (RFC 6335
    /// names: 1–15 letters, digits and hyphens), optionally after a subtype (`_printer._sub.`
    /// as DNS-SD writes it, or `_<app id>.` as Google Cast documents for `NSBonjourServices`)
    /// or before a comma subtype list, a trailing `.` or `.local.`.
    /// `maxNameLength` 15 is the DNS-SD limit (RFC 6335); code and lists are read with 63 (a
    /// DNS label) so that a long type the code browses for is matched with its list entry.
    public static func serviceType(_ string: Substring, maxNameLength: Int = 15) -> String? {
        guard string.utf8.count <= 80 else { return nil }
        var s = string.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first ?? string
        if s.hasSuffix(".") { s = s.dropLast() }
        if s.lowercased().hasSuffix(".local") { s = s.dropLast(6) }
        let labels = s.split(separator: ".", omittingEmptySubsequences: false)
        guard (2...4).contains(labels.count) else { return nil }
        let name = labels[labels.count - 2], proto = labels[labels.count - 1].lowercased()
        guard proto == "_tcp" || proto == "_udp", isServiceName(name, maxLength: maxNameLength) else { return nil }
        // Only a subtype may come before the name: `_sub._name._tcp`, `_x._sub._name._tcp`.
        let prefix = labels.dropLast(2)
        guard prefix.allSatisfy(isSubtypeLabel) else { return nil }
        if prefix.count == 2, prefix.last?.lowercased() != "_sub" { return nil }
        return String(name) + "." + String(labels[labels.count - 1])
    }

    /// `_` then 1–63 letters, digits and hyphens.
    static func isSubtypeLabel(_ label: Substring) -> Bool {
        label.first == "_" && (2...64).contains(label.count)
            && label.dropFirst().allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" }
    }

    /// `_` then 1–15 letters, digits and hyphens with at least one letter.
    public static func isServiceName(_ label: Substring, maxLength: Int = 15) -> Bool {
        guard label.first == "_" else { return false }
        let name = label.dropFirst()
        return (1...maxLength).contains(name.count) && name.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" }
            && name.contains { $0.isLetter }
    }

    /// The longest service name read from code and lists (a DNS label).
    public static let longNameLimit = 63

    /// The service types a source file's string literals are, in file order.
    public static func scan(_ bytes: UnsafeRawBufferPointer, language: SourceFactsScanner.Language) -> [FoundServiceType] {
        guard URLLiteralScanner.contains(bytes, "._tcp") || URLLiteralScanner.contains(bytes, "._udp") else { return [] }
        let segments = language == .swift ? URLLiteralScanner.swiftSegments(bytes) : URLLiteralScanner.cSegments(bytes)
        var hits: [(offset: Int, type: String)] = []
        for s in segments where !s.interpolated && s.end > s.start && s.end - s.start <= 80 {
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[s.start..<s.end]), as: UTF8.self)
            guard let type = serviceType(Substring(text), maxNameLength: longNameLimit) else { continue }
            hits.append((s.start, type))
            if hits.count >= maxPerFile { break }
        }
        guard !hits.isEmpty else { return [] }
        let debugOnly = URLLiteralScanner.debugRanges(bytes)
        var out: [FoundServiceType] = []
        var line = 1, column = 1, cursor = 0
        for h in hits {
            while cursor < h.offset, cursor < bytes.count {
                let b = bytes[cursor]
                if b == 0x0a { line += 1; column = 1 } else if b & 0xc0 != 0x80 { column += 1 }
                cursor += 1
            }
            out.append(FoundServiceType(type: h.type, line: line, column: column, ships: !debugOnly.contains { $0.contains(h.offset) }))
        }
        return out
    }
}
