import Foundation

/// What an icon check needs of a PNG file: its pixel size and whether it can be transparent.
/// Reads the signature and the chunks before the first `IDAT` (`IHDR`, then ancillary chunks
/// such as `tRNS`), never image data.
///
/// Built apps carry Apple-optimized PNGs (`CgBI` chunk before `IHDR`, BGRA pixels, raw
/// deflate): their header reads the same, and `isAppleOptimized` says which one it is.
public struct PNGHeader: Sendable, Equatable {
    public static let format = "PNG"
    /// How much of a file callers read first: enough for the chunks before image data of
    /// nearly every PNG (an embedded ICC profile or Exif block can push `IDAT` further).
    public static let typicalPrefix = 64 * 1024
    /// The signature every PNG starts with.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let maxChunks = 4_096

    public var width: Int
    public var height: Int
    public var bitDepth: UInt8
    /// 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGB + alpha.
    public var colorType: UInt8
    /// A `tRNS` chunk: a palette or a colour key made transparent.
    public var hasTransparencyChunk: Bool
    /// Apple's `CgBI` variant (what Xcode copies into built apps).
    public var isAppleOptimized: Bool

    /// An alpha channel in the pixel format (colour type 4 or 6).
    public var hasAlphaChannel: Bool { colorType == 4 || colorType == 6 }
    /// Whether any pixel can be transparent: an alpha channel or a `tRNS` chunk.
    public var hasAlpha: Bool { hasAlphaChannel || hasTransparencyChunk }

    public init(width: Int, height: Int, bitDepth: UInt8, colorType: UInt8, hasTransparencyChunk: Bool, isAppleOptimized: Bool) {
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        self.colorType = colorType
        self.hasTransparencyChunk = hasTransparencyChunk
        self.isAppleOptimized = isAppleOptimized
    }

    /// Whether the bytes start like a PNG.
    public static func isPNG<C: Collection>(_ head: C) -> Bool where C.Element == UInt8 {
        head.starts(with: signature)
    }

    /// Reads the header from the start of a file. `isWholeFile` false: the bytes are a prefix,
    /// and running out of them before `IDAT` throws `.truncated` (read more and try again).
    public static func read(_ bytes: [UInt8], isWholeFile: Bool = true) throws -> PNGHeader {
        let r = ByteReader(bytes, format: format)
        guard isPNG(bytes) else {
            throw FormatError.malformed(format, "no PNG signature", offset: 0)
        }
        var offset = 8
        var header: PNGHeader?
        var appleOptimized = false
        for index in 0..<maxChunks {
            if offset == bytes.count, isWholeFile, let h = header {
                // A file with no image data at all still has a readable header.
                return h
            }
            let length = try Checked.int(try r.u32(offset, bigEndian: true, "chunk \(index) length"), format: format, "chunk length", offset: offset)
            guard length <= 0x7FFF_FFFF else { throw FormatError.malformed(format, "chunk \(index) declares \(length) bytes, more than PNG allows", offset: offset) }
            let type = try r.slice(offset + 4, 4, "chunk \(index) type")
            let name = String(decoding: type, as: UTF8.self)
            let data = try Checked.add(offset, 8, format: format, "chunk data offset", offset: offset)
            switch name {
            case "CgBI" where header == nil:
                appleOptimized = true
            case "IHDR":
                guard header == nil else { throw FormatError.malformed(format, "second IHDR chunk", offset: offset) }
                guard index == 0 || (index == 1 && appleOptimized) else {
                    throw FormatError.malformed(format, "IHDR is not the first chunk", offset: offset)
                }
                guard length == 13 else { throw FormatError.malformed(format, "IHDR chunk has \(length) bytes, not 13", offset: offset) }
                let width = Int(try r.u32(data, bigEndian: true, "IHDR width"))
                let height = Int(try r.u32(data + 4, bigEndian: true, "IHDR height"))
                let depth = try r.u8(data + 8, "IHDR bit depth")
                let color = try r.u8(data + 9, "IHDR colour type")
                guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
                    throw FormatError.malformed(format, "image size \(width)x\(height) is not allowed", offset: data)
                }
                guard [0, 2, 3, 4, 6].contains(color) else {
                    throw FormatError.malformed(format, "unknown colour type \(color)", offset: data + 9)
                }
                header = PNGHeader(width: width, height: height, bitDepth: depth, colorType: color,
                                   hasTransparencyChunk: false, isAppleOptimized: appleOptimized)
            case "tRNS":
                guard header != nil else { throw FormatError.malformed(format, "tRNS chunk before IHDR", offset: offset) }
                header?.hasTransparencyChunk = true
            case "IDAT", "IEND":
                guard let h = header else { throw FormatError.malformed(format, "\(name) chunk before IHDR", offset: offset) }
                return h
            default:
                guard header != nil else {
                    throw FormatError.malformed(format, "first chunk is \(printable(name)), not IHDR", offset: offset)
                }
            }
            // Next chunk: data, then a 4-byte CRC (not checked: nothing here depends on it).
            let next = try Checked.add(data, try Checked.add(length, 4, format: format, "chunk size", offset: offset), format: format, "next chunk offset", offset: offset)
            if next > bytes.count {
                throw FormatError.truncated(format, "chunk \(printable(name)) (\(length) bytes) extends past the end of the data (\(bytes.count) bytes)", offset: offset)
            }
            offset = next
        }
        throw FormatError.limit(format, "max-chunks", "more than \(maxChunks) chunks before image data", offset: offset)
    }

    static func printable(_ name: String) -> String {
        String(name.unicodeScalars.map { $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
    }
}
