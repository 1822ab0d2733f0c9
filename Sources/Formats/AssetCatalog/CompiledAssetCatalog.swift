import Foundation

/// What the icon checks need of a compiled asset catalog (`Assets.car`): its facets (named
/// assets such as the `AppIcon` set) and, per rendition, the attributes of its key and the
/// fixed-size head of its value (pixel size, scale, layout, original file name). Image data is
/// never decoded. Integers of the catalog's own structures are little-endian.
///
/// Structures as public readers document them (Timac's CARParser `Car.h`, Alex Zielenski's
/// ThemeEngine, Joey's Asset Catalog Viewer `CUIStructures.h`): `CARHEADER` (tag `RATC`),
/// `KEYFORMAT` (tag `tmfk`, then the attribute of each position of a rendition key),
/// `EXTENDED_METADATA` (tag `META`, then the thinning arguments, 256 bytes), the
/// `FACETKEYS` tree (name → hot spot, attribute count, (attribute, value) pairs) and the
/// `RENDITIONS` tree (key: one u16 per key-format position → CSI header: tag `ISTC`, version,
/// flags, width, height, scale × 100, pixel format, colour space, modification time, layout,
/// reserved, 128-byte name).
public struct CompiledAssetCatalog: Sendable, Equatable {
    public static let format = "compiled asset catalog"
    /// Rendition key attributes the icon checks read.
    public enum Attribute: UInt16, Sendable {
        case element = 1, part = 2, size = 3, dimension1 = 8, dimension2 = 9, scale = 12, idiom = 15, subtype = 16, identifier = 17
    }
    /// Values of the idiom attribute.
    public enum Idiom: UInt16, Sendable {
        case universal = 0, phone = 1, pad = 2, tv = 3, car = 4, watch = 5, marketing = 6
    }
    /// The part of an app icon set's facet and of its images.
    public static let appIconPart: UInt16 = 220

    public struct Facet: Sendable, Equatable {
        public var name: String
        public var attributes: [UInt16: UInt16]
        public var identifier: UInt16? { attributes[Attribute.identifier.rawValue] }
        public var isAppIcon: Bool { attributes[Attribute.part.rawValue] == CompiledAssetCatalog.appIconPart }
    }

    public struct Rendition: Sendable, Equatable {
        public var attributes: [UInt16: UInt16]
        public var name: String
        public var width: Int
        public var height: Int
        /// Scale × 100 (200 for @2x).
        public var scale: Int
        public var layout: UInt16
        public func attribute(_ a: Attribute) -> UInt16? { attributes[a.rawValue] }
    }

    public var facets: [Facet]
    public var renditions: [Rendition]
    /// The thinning arguments of `EXTENDED_METADATA`; "… thinned …" when the App Store (or an
    /// ad-hoc export for one device) removed the renditions other devices need.
    public var thinningArguments: String?

    public var isThinned: Bool { thinningArguments?.contains("thinned") ?? false }

    public func facet(named name: String) -> Facet? { facets.first { $0.name == name } }

    /// The renditions of a facet: those whose identifier attribute is the facet's.
    public func renditions(of facet: Facet) -> [Rendition] {
        guard let id = facet.identifier else { return [] }
        return renditions.filter { $0.attribute(.identifier) == id }
    }

    static let csiHeaderSize = 168
    static let maxKeyTokens = 256
    static let maxFacetAttributes = 256

    public static func read(_ bytes: [UInt8], limits: ReaderLimits = .default) throws -> CompiledAssetCatalog {
        let store = try BOMStore(bytes, limits: limits)
        guard let header = try store.variable("CARHEADER") else {
            throw FormatError.malformed(format, "no CARHEADER variable")
        }
        guard header.starts(with: Array("RATC".utf8)) else {
            throw FormatError.malformed(format, "CARHEADER does not start with RATC", offset: header.startIndex)
        }
        guard let keyFormat = try store.variable("KEYFORMAT") else {
            throw FormatError.malformed(format, "no KEYFORMAT variable")
        }
        let tokens = try keyTokens(keyFormat)
        var thinning: String?
        if let meta = try store.variable("EXTENDED_METADATA"), meta.count >= 4 + 256, meta.starts(with: Array("META".utf8)) {
            thinning = cString(meta.dropFirst(4).prefix(256))
        }
        var facets: [Facet] = []
        for (key, value) in try store.treeEntries("FACETKEYS") ?? [] {
            facets.append(Facet(name: String(decoding: key.prefix { $0 != 0 }, as: UTF8.self), attributes: try facetAttributes(value)))
        }
        var renditions: [Rendition] = []
        for (key, value) in try store.treeEntries("RENDITIONS") ?? [] {
            renditions.append(try rendition(key: key, value: value, tokens: tokens))
        }
        return CompiledAssetCatalog(facets: facets, renditions: renditions, thinningArguments: thinning)
    }

    static func keyTokens(_ block: ArraySlice<UInt8>) throws -> [UInt16] {
        let r = ByteReader(Array(block), format: format)
        try r.check(0, 12, "KEYFORMAT")
        guard block.starts(with: Array("tmfk".utf8)) else {
            throw FormatError.malformed(format, "KEYFORMAT does not start with tmfk", offset: block.startIndex)
        }
        let count = Int(try r.u32(8))
        guard count <= maxKeyTokens else {
            throw FormatError.limit(format, "max-key-tokens", "KEYFORMAT declares \(count) key attributes, more than \(maxKeyTokens)", offset: block.startIndex + 8)
        }
        try r.check(12, count * 4, "KEYFORMAT attributes")
        return try (0..<count).map { UInt16(truncatingIfNeeded: try r.u32(12 + $0 * 4)) }
    }

    static func facetAttributes(_ value: ArraySlice<UInt8>) throws -> [UInt16: UInt16] {
        let r = ByteReader(Array(value.prefix(6)), format: format)
        let count = Int(try r.u16(4, "facet attribute count"))
        // Real facets carry three or four attributes (element, part, identifier…).
        guard count <= maxFacetAttributes else {
            throw FormatError.limit(format, "max-facet-attributes", "a facet declares \(count) attributes, more than \(maxFacetAttributes)", offset: value.startIndex + 4)
        }
        let all = ByteReader(Array(value.prefix(6 + count * 4)), format: format)
        try all.check(6, count * 4, "facet attributes")
        var out: [UInt16: UInt16] = [:]
        for i in 0..<count { out[try all.u16(6 + i * 4)] = try all.u16(8 + i * 4) }
        return out
    }

    static func rendition(key: ArraySlice<UInt8>, value: ArraySlice<UInt8>, tokens: [UInt16]) throws -> Rendition {
        let k = ByteReader(Array(key.prefix(tokens.count * 2)), format: format)
        try k.check(0, tokens.count * 2, "rendition key")
        var attributes: [UInt16: UInt16] = [:]
        for (i, t) in tokens.enumerated() {
            let v = try k.u16(i * 2)
            if v != 0 || attributes[t] == nil { attributes[t] = v }
        }
        let r = ByteReader(Array(value.prefix(csiHeaderSize)), format: format)
        try r.check(0, csiHeaderSize, "rendition header")
        guard value.starts(with: Array("ISTC".utf8)) else {
            throw FormatError.malformed(format, "rendition value does not start with ISTC", offset: value.startIndex)
        }
        return Rendition(attributes: attributes, name: cString(value.dropFirst(40).prefix(128)),
                         width: Int(try r.u32(12)), height: Int(try r.u32(16)), scale: Int(try r.u32(20)),
                         layout: try r.u16(36))
    }

    static func cString(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}
