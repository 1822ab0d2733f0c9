import Foundation

extension ReaderLimits {
    /// Throws `.limitExceeded("max-file-bytes")` when an input is larger than `maxFileBytes`.
    func checkInputSize(_ count: Int, format: String) throws {
        guard count <= maxFileBytes else {
            throw FormatError.limit(format, "max-file-bytes", "input of \(count) bytes is larger than \(maxFileBytes) bytes")
        }
    }
}

/// Reads a property list in any of Apple's formats, detected by content:
/// `bplist` magic → binary; `<?xml`, `<!DOCTYPE`, `<plist`, `<!--` or a bare value element
/// such as `<dict>` after an optional byte-order mark and whitespace (UTF-8 or UTF-16) → XML;
/// anything else → OpenStep.
public enum PropertyListReader {
    public static func read(_ data: Data, limits: ReaderLimits = .default) throws -> (root: PlistNode, format: PlistFormat) {
        try limits.checkInputSize(data.count, format: XMLPropertyListParser.formatName)
        let format = detect(data)
        switch format {
        case .binary: return (try BinaryPropertyListParser.parse(data, limits: limits), .binary)
        case .xml: return (try XMLPropertyListParser.parse(data, limits: limits), .xml)
        default: return (try OpenStepParser.parse(data, limits: limits), .openStep)
        }
    }

    /// The format `read` would use for `data` (`.binary`, `.xml` or `.openStep`).
    public static func detect(_ data: Data) -> PlistFormat {
        if BinaryPropertyListParser.hasMagic(data) { return .binary }
        return looksLikeXML(data) ? .xml : .openStep
    }

    /// True when the first non-space characters are `<?xml`, `<!DOCTYPE` or `<plist`, in
    /// UTF-8 (with or without BOM) or UTF-16 (with BOM, or recognisable by its NUL bytes).
    static let bareElements: Set<String> = ["dict", "array", "string", "integer", "real", "true", "false", "date", "data", "key"]

    static func looksLikeXML(_ data: Data) -> Bool {
        let b = [UInt8](data.prefix(512))
        var ascii: [UInt8] = []
        if b.count >= 2, (b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF) || (b.count >= 4 && b[0] == 0 && b[2] == 0) || (b.count >= 4 && b[1] == 0 && b[3] == 0) {
            let hasBOM = (b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF)
            let bigEndian = hasBOM ? b[0] == 0xFE : b[0] == 0
            var k = hasBOM ? 2 : 0
            while k + 1 < b.count {
                let (hi, lo) = bigEndian ? (b[k], b[k + 1]) : (b[k + 1], b[k])
                if hi != 0 { break }
                ascii.append(lo)
                k += 2
            }
        } else {
            ascii = b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF ? Array(b[3...]) : b
        }
        var k = 0
        while k < ascii.count, ascii[k] == 0x20 || ascii[k] == 0x09 || ascii[k] == 0x0A || ascii[k] == 0x0D { k += 1 }
        let rest = ascii[k...]
        if rest.starts(with: Array("<?xml".utf8)) || rest.starts(with: Array("<!DOCTYPE".utf8))
            || rest.starts(with: Array("<plist".utf8)) || rest.starts(with: Array("<!--".utf8)) {
            return true
        }
        // A bare value element (`<dict>`, `<array/>`…), which Foundation also reads as XML. Each
        // of these names has a non-hex letter, so none can be OpenStep `<0a1b>` data.
        guard rest.first == 0x3C else { return false }
        let name = rest.dropFirst().prefix { ($0 >= 0x61 && $0 <= 0x7A) }
        let after = rest.dropFirst(1 + name.count).first
        return bareElements.contains(String(decoding: name, as: UTF8.self))
            && (after == 0x3E || after == 0x2F || after == 0x20 || after == 0x09 || after == 0x0A || after == 0x0D)
    }
}
