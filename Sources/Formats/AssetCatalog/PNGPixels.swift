import Foundation

/// Whether a PNG has a transparent pixel — what App Store Connect rejects in an App Store
/// icon — read from the image data once a caller has inflated it (Formats has no zlib).
/// Many shipped apps have RGBA App Store icons whose every pixel is opaque: the alpha
/// channel alone is not what is judged, so the pixels are.
public enum PNGPixels {
    public struct Parts: Sendable {
        public var header: PNGHeader
        /// The zlib stream of the image: every `IDAT` chunk's data, in order.
        public var imageData: [UInt8]
        /// The `tRNS` chunk's data (palette alphas, or a grey or RGB colour key).
        public var transparency: [UInt8]
        public var interlaced: Bool
    }

    /// Splits a whole PNG file into what `hasTransparentPixel` needs.
    public static func parts(_ bytes: [UInt8]) throws -> Parts {
        let format = PNGHeader.format
        let header = try PNGHeader.read(bytes)
        let r = ByteReader(bytes, format: format)
        var offset = 8, imageData: [UInt8] = [], transparency: [UInt8] = [], interlaced = false
        for _ in 0..<(1 << 20) {
            guard offset + 8 <= bytes.count else { break }
            let length = Int(try r.u32(offset, bigEndian: true))
            let type = String(decoding: try r.slice(offset + 4, 4), as: UTF8.self)
            let data = try r.slice(offset + 8, length, "chunk \(type)")
            switch type {
            case "IHDR": interlaced = data.count == 13 && data[data.startIndex + 12] != 0
            case "tRNS": transparency = Array(data)
            case "IDAT": imageData.append(contentsOf: data)
            case "IEND": return Parts(header: header, imageData: imageData, transparency: transparency, interlaced: interlaced)
            default: break
            }
            offset += 12 + length
        }
        return Parts(header: header, imageData: imageData, transparency: transparency, interlaced: interlaced)
    }

    static func channels(_ colorType: UInt8) -> Int {
        switch colorType {
        case 2: return 3
        case 4: return 2
        case 6: return 4
        default: return 1
        }
    }

    /// Bytes of one scanline of `width` pixels without its filter byte; nil when it overflows.
    static func stride(_ h: PNGHeader, width: Int) -> Int? {
        let (bits, o1) = width.multipliedReportingOverflow(by: channels(h.colorType) * Int(h.bitDepth))
        return o1 ? nil : (bits + 7) / 8
    }

    /// The sub-images the image data holds, as (width, height): the whole image, or the
    /// seven passes of Adam7 interlacing (empty passes left out).
    static func passes(_ h: PNGHeader, interlaced: Bool) -> [(width: Int, height: Int)] {
        guard interlaced else { return [(h.width, h.height)] }
        let adam7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        return adam7.map { x0, y0, dx, dy in
            (h.width > x0 ? (h.width - x0 + dx - 1) / dx : 0, h.height > y0 ? (h.height - y0 + dy - 1) / dy : 0)
        }.filter { $0.0 > 0 && $0.1 > 0 }
    }

    /// The size the inflated image data must have (filter byte plus scanline, per row of
    /// each pass).
    public static func inflatedSize(_ h: PNGHeader, interlaced: Bool = false) -> Int? {
        var total = 0
        for pass in passes(h, interlaced: interlaced) {
            guard let s = stride(h, width: pass.width) else { return nil }
            let (n, o) = (s + 1).multipliedReportingOverflow(by: pass.height)
            let (t, o2) = total.addingReportingOverflow(n)
            if o || o2 { return nil }
            total = t
        }
        return total
    }

    /// Whether any pixel is transparent: alpha below full (colour types 4 and 6), a palette
    /// entry with alpha below 255, or the `tRNS` colour key. `inflated` is the image data
    /// after zlib; interlaced (Adam7) images are read pass by pass.
    public static func hasTransparentPixel(_ parts: Parts, inflated: [UInt8]) throws -> Bool {
        let h = parts.header, format = PNGHeader.format
        guard [1, 2, 4, 8, 16].contains(h.bitDepth), let size = inflatedSize(h, interlaced: parts.interlaced) else {
            throw FormatError.malformed(format, "bit depth \(h.bitDepth) with colour type \(h.colorType)")
        }
        guard inflated.count >= size else {
            throw FormatError.truncated(format, "image data inflates to \(inflated.count) bytes, fewer than the \(size) of \(h.width)×\(h.height) pixels")
        }
        // Whether a row (unfiltered, `width` pixels) has a transparent pixel.
        let test: ([UInt8], Int) -> Bool
        switch h.colorType {
        case 6, 4:
            guard h.bitDepth >= 8 else { throw FormatError.malformed(format, "bit depth \(h.bitDepth) with colour type \(h.colorType)") }
            let sample = Int(h.bitDepth) / 8, pixel = channels(h.colorType) * sample, alpha = pixel - sample
            test = { row, _ in
                var i = alpha
                while i < row.count {
                    if row[i] != 0xFF || (sample == 2 && row[i + 1] != 0xFF) { return true }
                    i += pixel
                }
                return false
            }
        case 3:
            let alphas = parts.transparency
            guard alphas.contains(where: { $0 < 0xFF }) else { return false }
            guard h.bitDepth <= 8 else { throw FormatError.malformed(format, "bit depth \(h.bitDepth) with colour type 3") }
            let depth = Int(h.bitDepth)
            test = { row, width in
                for x in 0..<width {
                    let bit = x * depth
                    let index = Int(row[bit / 8] >> (8 - depth - bit % 8)) & ((1 << depth) - 1)
                    if index < alphas.count, alphas[index] < 0xFF { return true }
                }
                return false
            }
        default:
            // Grey (0) or RGB (2): transparent only where a pixel has the tRNS colour key.
            let key = parts.transparency, samples = channels(h.colorType)
            guard !key.isEmpty else { return false }
            guard key.count >= samples * 2, h.bitDepth >= 8 else {
                throw FormatError(.unsupported, format: format, reason: "a colour key with bit depth \(h.bitDepth) is not decoded")
            }
            let sample = Int(h.bitDepth) / 8
            let keyBytes: [UInt8] = (0..<samples).flatMap { s -> [UInt8] in sample == 2 ? [key[s * 2], key[s * 2 + 1]] : [key[s * 2 + 1]] }
            test = { row, _ in
                var i = 0
                while i + keyBytes.count <= row.count {
                    if row[i..<(i + keyBytes.count)].elementsEqual(keyBytes) { return true }
                    i += keyBytes.count
                }
                return false
            }
        }
        let bpp = max(1, channels(h.colorType) * Int(h.bitDepth) / 8)
        var start = 0
        for pass in passes(h, interlaced: parts.interlaced) {
            guard let stride = stride(h, width: pass.width) else { return false }
            if try unfilter(inflated, from: &start, rows: pass.height, stride: stride, bpp: bpp, test: { test($0, pass.width) }) { return true }
        }
        return false
    }

    /// Undoes the filters of `rows` scanlines starting at `start` (advanced past them) and
    /// asks `test` about each; true as soon as it says yes.
    static func unfilter(_ inflated: [UInt8], from start: inout Int, rows: Int, stride: Int, bpp: Int, test: ([UInt8]) -> Bool) throws -> Bool {
        var previous = [UInt8](repeating: 0, count: stride), current = [UInt8](repeating: 0, count: stride)
        for y in 0..<rows {
            defer { start += stride + 1 }
            let filter = inflated[start]
            for i in 0..<stride {
                let raw = inflated[start + 1 + i]
                let a = i >= bpp ? Int(current[i - bpp]) : 0, b = Int(previous[i]), c = i >= bpp ? Int(previous[i - bpp]) : 0
                let predictor: Int
                switch filter {
                case 0: predictor = 0
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                default:
                    throw FormatError.malformed(PNGHeader.format, "row \(y) has filter type \(filter)")
                }
                current[i] = raw &+ UInt8(truncatingIfNeeded: predictor)
            }
            if test(current) { return true }
            swap(&previous, &current)
        }
        return false
    }
}
