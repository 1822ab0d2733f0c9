import Foundation

/// A small bounds-checked BER/DER walker: enough to dig the content out of a CMS
/// (PKCS #7) SignedData structure. Supports definite and indefinite lengths and constructed
/// strings, with a nesting bound so hostile input cannot recurse without end.
public struct DERReader: Sendable {
    public struct Element: Sendable, Equatable {
        /// The identifier octet (class, constructed bit, tag number < 31).
        public var tag: UInt8
        public var offset: Int
        public var contentStart: Int
        /// End of the content (the end-of-contents marker for indefinite lengths).
        public var contentEnd: Int
        /// First byte after the element.
        public var end: Int
        public var isConstructed: Bool { tag & 0x20 != 0 }
    }

    public let r: ByteReader
    public let maxDepth: Int
    var format: String { r.format }

    public init(_ r: ByteReader, maxDepth: Int) {
        self.r = r
        self.maxDepth = maxDepth
    }

    /// Reads the element at `offset`, which must end at or before `limit`.
    public func element(at offset: Int, limit: Int, depth: Int = 0) throws -> Element {
        guard depth <= maxDepth else {
            throw FormatError.limit(format, "max-nesting-depth", "DER nesting deeper than \(maxDepth)", offset: offset)
        }
        guard offset < limit else { throw FormatError.truncated(format, "DER element expected but its container ends", offset: offset) }
        let tag = try r.u8(offset, "DER tag")
        guard tag & 0x1F != 0x1F else {
            throw FormatError(.unsupported, format: format, reason: "DER high tag number form", offset: offset)
        }
        let lenByte = try r.u8(offset + 1, "DER length")
        var start = offset + 2
        if lenByte == 0x80 {
            guard tag & 0x20 != 0 else {
                throw FormatError.malformed(format, "indefinite length on a primitive DER element", offset: offset + 1)
            }
            // Walk children up to the end-of-contents marker.
            var k = start
            while true {
                guard k + 2 <= limit else {
                    throw FormatError.truncated(format, "indefinite-length DER element has no end-of-contents marker", offset: offset)
                }
                if r.bytes[k] == 0, r.bytes[k + 1] == 0 {
                    return Element(tag: tag, offset: offset, contentStart: start, contentEnd: k, end: k + 2)
                }
                k = try element(at: k, limit: limit, depth: depth + 1).end
            }
        }
        var length: Int
        if lenByte & 0x80 == 0 {
            length = Int(lenByte)
        } else {
            let n = Int(lenByte & 0x7F)
            guard n <= 8, n > 0 else { throw FormatError.malformed(format, "DER length of \(n) bytes is not supported", offset: offset + 1) }
            let v = try r.uint(offset + 2, width: n, "DER length")
            length = try Checked.int(v, format: format, "DER length", offset: offset + 1)
            start += n
        }
        let (end, overflow) = start.addingReportingOverflow(length)
        guard !overflow, end <= limit else {
            throw FormatError.truncated(format, "DER element (\(length) bytes) extends past the end of its container", offset: offset)
        }
        return Element(tag: tag, offset: offset, contentStart: start, contentEnd: end, end: end)
    }

    /// The children of a constructed element.
    public func children(of e: Element, depth: Int = 0) throws -> [Element] {
        guard e.isConstructed else { throw FormatError.malformed(format, "DER element 0x\(String(e.tag, radix: 16)) is not constructed", offset: e.offset) }
        var out: [Element] = []
        var k = e.contentStart
        while k < e.contentEnd {
            let c = try element(at: k, limit: e.contentEnd, depth: depth + 1)
            out.append(c)
            k = c.end
        }
        return out
    }

    /// Decodes an OBJECT IDENTIFIER's content as dotted text.
    public func oid(_ e: Element) throws -> String {
        guard e.tag == 0x06 else { throw FormatError.malformed(format, "expected an OBJECT IDENTIFIER, found tag 0x\(String(e.tag, radix: 16))", offset: e.offset) }
        let bytes = try r.slice(e.contentStart, e.contentEnd - e.contentStart, "OBJECT IDENTIFIER")
        guard !bytes.isEmpty, bytes.count <= 64 else { throw FormatError.malformed(format, "OBJECT IDENTIFIER of \(bytes.count) bytes", offset: e.offset) }
        var parts: [UInt64] = []
        var v: UInt64 = 0
        for c in bytes {
            guard v >> 56 == 0 else { throw FormatError.malformed(format, "OBJECT IDENTIFIER component too large", offset: e.offset) }
            v = v << 7 | UInt64(c & 0x7F)
            if c & 0x80 == 0 { parts.append(v); v = 0 }
        }
        guard bytes.last! & 0x80 == 0 else { throw FormatError.malformed(format, "OBJECT IDENTIFIER ends inside a component", offset: e.offset) }
        let first = parts[0]
        let head = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80]
        return (head + parts.dropFirst()).map(String.init).joined(separator: ".")
    }

    /// The bytes of an OCTET STRING, primitive or constructed (BER) from primitive pieces.
    public func octets(_ e: Element, depth: Int = 0) throws -> [UInt8] {
        switch e.tag {
        case 0x04:
            return Array(try r.slice(e.contentStart, e.contentEnd - e.contentStart, "OCTET STRING"))
        case 0x24:
            guard depth < maxDepth else {
                throw FormatError.limit(format, "max-nesting-depth", "DER nesting deeper than \(maxDepth)", offset: e.offset)
            }
            var out: [UInt8] = []
            for c in try children(of: e, depth: depth) { out += try octets(c, depth: depth + 1) }
            return out
        default:
            throw FormatError.malformed(format, "expected an OCTET STRING, found tag 0x\(String(e.tag, radix: 16))", offset: e.offset)
        }
    }
}
