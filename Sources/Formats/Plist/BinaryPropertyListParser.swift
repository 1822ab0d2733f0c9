import Foundation

/// A bounds-checked reader for binary property lists (`bplist00`).
///
/// - The 32-byte trailer is validated before anything else: offset-integer and object-ref
///   sizes 1–8, an object count that fits in the data and in `maxPlistObjects`, a top object
///   inside the table, and an offset table that lies between the header and the trailer.
/// - Every object read is bounds-checked; lengths are checked against the remaining bytes
///   before anything is allocated.
/// - Shared objects are parsed once and reused; an object that contains itself directly or
///   indirectly (a reference cycle) is an error. Nesting depth is capped by `maxNestingDepth`.
/// - UIDs (keyed archives) are returned as a dictionary `{"CF$UID": n}` like Foundation;
///   sets are returned as arrays. `null` and fill markers are reported as unsupported.
///   Integers must fit in `Int64` (16-byte integers above `Int64.max` are errors).
/// - Nodes have no positions (binary format).
public enum BinaryPropertyListParser {
    public static let formatName = "binary property list"

    public static func parse(_ data: Data, limits: ReaderLimits = .default) throws -> PlistNode {
        try limits.checkInputSize(data.count, format: formatName)
        var p = try BinaryPlistReader(ByteReader(data, format: formatName), limits: limits)
        return try p.object(p.topObject, depth: 0)
    }

    /// True when `data` starts with the `bplist` magic.
    public static func hasMagic(_ data: Data) -> Bool {
        data.count >= 6 && data.prefix(6).elementsEqual("bplist".utf8)
    }
}

struct BinaryPlistReader {
    let r: ByteReader
    let limits: ReaderLimits
    let offsetIntSize: Int
    let refSize: Int
    let numObjects: Int
    let topObject: Int
    let offsetTable: Int
    private var cache: [Int: PlistNode] = [:]
    private var inProgress: Set<Int> = []
    private var objectsRead = 0
    private var format: String { BinaryPropertyListParser.formatName }

    init(_ r: ByteReader, limits: ReaderLimits) throws {
        self.r = r
        self.limits = limits
        let format = BinaryPropertyListParser.formatName
        guard r.count >= 8 else { throw FormatError.truncated(format, "missing bplist header", offset: 0) }
        let magic = Array(r.bytes[0..<8])
        guard magic.starts(with: Array("bplist".utf8)) else {
            throw FormatError.malformed(format, "missing bplist header", offset: 0)
        }
        guard magic[6] == 0x30, magic[7] == 0x30 else {
            let v = String(decoding: magic[6..<8], as: UTF8.self)
            throw FormatError(.unsupported, format: format, reason: "version \(v.debugDescription) (only bplist00 is supported)", offset: 6)
        }
        guard r.count >= 8 + 32 else {
            throw FormatError.truncated(format, "data (\(r.count) bytes) is too short for the 32-byte trailer", offset: 0)
        }
        let t = r.count - 32
        offsetIntSize = Int(try r.u8(t + 6, "offset integer size"))
        refSize = Int(try r.u8(t + 7, "object reference size"))
        guard (1...8).contains(offsetIntSize) else {
            throw FormatError.malformed(format, "trailer offset integer size \(offsetIntSize) is not 1 to 8", offset: t + 6)
        }
        guard (1...8).contains(refSize) else {
            throw FormatError.malformed(format, "trailer object reference size \(refSize) is not 1 to 8", offset: t + 7)
        }
        let n64 = try r.u64(t + 8, bigEndian: true, "object count")
        let top64 = try r.u64(t + 16, bigEndian: true, "top object")
        let table64 = try r.u64(t + 24, bigEndian: true, "offset table offset")
        guard n64 >= 1 else { throw FormatError.malformed(format, "trailer declares no objects", offset: t + 8) }
        guard n64 <= UInt64(limits.maxPlistObjects) else {
            throw FormatError.limit(format, "max-plist-objects", "trailer declares \(n64) objects, more than \(limits.maxPlistObjects)", offset: t + 8)
        }
        guard n64 <= UInt64(r.count) else {
            throw FormatError.malformed(format, "trailer declares \(n64) objects, more than the data can hold", offset: t + 8)
        }
        numObjects = Int(n64)
        guard top64 < n64 else {
            throw FormatError.malformed(format, "top object \(top64) is not below the object count \(n64)", offset: t + 16)
        }
        topObject = Int(top64)
        guard table64 >= 8, table64 < UInt64(t) else {
            throw FormatError.malformed(format, "offset table offset 0x\(String(table64, radix: 16)) is outside the object area", offset: t + 24)
        }
        offsetTable = Int(table64)
        let tableSize = numObjects * offsetIntSize // both small: no overflow
        guard offsetTable + tableSize <= t else {
            throw FormatError.malformed(format, "offset table (\(numObjects) entries of \(offsetIntSize) bytes at 0x\(String(offsetTable, radix: 16))) overlaps the trailer", offset: offsetTable)
        }
    }

    private func offset(of ref: Int) throws -> Int {
        let at = offsetTable + ref * offsetIntSize
        let v = try r.uint(at, width: offsetIntSize, "offset table entry \(ref)")
        guard v >= 8, v < UInt64(offsetTable) else {
            throw FormatError.malformed(format, "object \(ref) offset 0x\(String(v, radix: 16)) is outside the object area", offset: at)
        }
        return Int(v)
    }

    /// Reads the length that follows a marker with low nibble 0xF. Returns (length, next offset).
    private func length(marker: UInt8, at off: Int) throws -> (Int, Int) {
        let low = Int(marker & 0x0F)
        if low != 0x0F { return (low, off + 1) }
        let intMarker = try r.u8(off + 1, "length marker")
        guard intMarker & 0xF0 == 0x10 else {
            throw FormatError.malformed(format, "length of object is not an integer (marker 0x\(String(intMarker, radix: 16)))", offset: off + 1)
        }
        let width = 1 << Int(intMarker & 0x0F)
        guard width <= 8 else {
            throw FormatError.malformed(format, "length integer of \(width) bytes is too large", offset: off + 1)
        }
        let v = try r.uint(off + 2, width: width, "length integer")
        guard v <= UInt64(Int.max) else {
            throw FormatError.malformed(format, "object length \(v) is too large", offset: off + 2)
        }
        return (Int(v), off + 2 + width)
    }

    private func refs(count: Int, at off: Int, what: String) throws -> [Int] {
        let bytes = try Checked.multiply(count, refSize, format: format, "\(what) size", offset: off)
        try r.check(off, bytes, what)
        var out: [Int] = []
        out.reserveCapacity(count)
        for k in 0..<count {
            let v = try r.uint(off + k * refSize, width: refSize, "object reference")
            guard v < UInt64(numObjects) else {
                throw FormatError.malformed(format, "object reference \(v) is not below the object count \(numObjects)", offset: off + k * refSize)
            }
            out.append(Int(v))
        }
        return out
    }

    /// One array, set or dictionary being read. Reading is iterative (an explicit stack), so
    /// hostile nesting never exhausts the thread's stack.
    private struct Frame {
        var ref: Int
        var isDict: Bool
        /// Child references; for dictionaries the keys first, then the values.
        var refs: [Int]
        var index = 0
        var items: [PlistNode] = []
        var keys: [String] = []
        var entries: [PlistEntry] = []
    }

    mutating func object(_ root: Int, depth baseDepth: Int) throws -> PlistNode {
        var stack: [Frame] = []
        var pending = try enter(root, depth: baseDepth, stack: &stack)
        while true {
            if let node = pending {
                pending = nil
                guard !stack.isEmpty else { return node }
                let top = stack.count - 1
                let f = stack[top]
                if f.isDict {
                    let n = f.refs.count / 2
                    if f.index < n {
                        guard let key = node.string else {
                            throw FormatError.malformed(format, "dictionary key (object \(f.refs[f.index])) is a \(node.value.typeName), not a string", offset: try offset(of: f.refs[f.index]))
                        }
                        stack[top].keys.append(key)
                    } else {
                        stack[top].entries.append(PlistEntry(key: f.keys[f.index - n], value: node))
                    }
                } else {
                    stack[top].items.append(node)
                }
                stack[top].index += 1
            }
            let top = stack.count - 1
            if stack[top].index == stack[top].refs.count {
                let f = stack.removeLast()
                let node = PlistNode(f.isDict ? .dictionary(PlistDictionary(f.entries)) : .array(f.items))
                inProgress.remove(f.ref)
                cache[f.ref] = node
                pending = node
                continue
            }
            pending = try enter(stack[top].refs[stack[top].index], depth: baseDepth + stack.count, stack: &stack)
        }
    }

    /// Starts reading object `ref`: returns scalars (and cached objects), or pushes a frame.
    private mutating func enter(_ ref: Int, depth: Int, stack: inout [Frame]) throws -> PlistNode? {
        if let cached = cache[ref] { return cached }
        let off = try offset(of: ref)
        guard depth <= limits.maxNestingDepth else {
            throw FormatError.limit(format, "max-nesting-depth", "nesting deeper than \(limits.maxNestingDepth)", offset: off)
        }
        guard inProgress.insert(ref).inserted else {
            throw FormatError.malformed(format, "object \(ref) contains itself (reference cycle)", offset: off)
        }
        objectsRead += 1
        if objectsRead > limits.maxPlistObjects {
            throw FormatError.limit(format, "max-plist-objects", "more than \(limits.maxPlistObjects) objects", offset: off)
        }
        let marker = try r.u8(off, "object marker")
        switch marker >> 4 {
        case 0xA, 0xC:
            let (n, start) = try length(marker: marker, at: off)
            let items = try refs(count: n, at: start, what: marker >> 4 == 0xA ? "array" : "set")
            var f = Frame(ref: ref, isDict: false, refs: items)
            f.items.reserveCapacity(n)
            stack.append(f)
            return nil
        case 0xD:
            let (n, start) = try length(marker: marker, at: off)
            let all = try refs(count: try Checked.multiply(n, 2, format: format, "dictionary size", offset: off), at: start, what: "dictionary")
            var f = Frame(ref: ref, isDict: true, refs: all)
            f.keys.reserveCapacity(n)
            f.entries.reserveCapacity(n)
            stack.append(f)
            return nil
        default:
            let node = try scalar(at: off, marker: marker)
            inProgress.remove(ref)
            cache[ref] = node
            return node
        }
    }

    private func scalar(at off: Int, marker: UInt8) throws -> PlistNode {
        let hex = "0x" + String(marker, radix: 16)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return PlistNode(.bool(false))
            case 0x09: return PlistNode(.bool(true))
            case 0x00: throw FormatError(.unsupported, format: format, reason: "null object", offset: off)
            case 0x0F: throw FormatError(.unsupported, format: format, reason: "fill byte used as an object", offset: off)
            default: throw FormatError.malformed(format, "unknown object marker \(hex)", offset: off)
            }
        case 0x1:
            return PlistNode(.integer(try integer(marker: marker, at: off)))
        case 0x2:
            switch marker & 0x0F {
            case 2: return PlistNode(.real(Double(Float(bitPattern: try r.u32(off + 1, bigEndian: true, "real")))))
            case 3: return PlistNode(.real(Double(bitPattern: try r.u64(off + 1, bigEndian: true, "real"))))
            default: throw FormatError.malformed(format, "real of unsupported size (marker \(hex))", offset: off)
            }
        case 0x3:
            guard marker == 0x33 else { throw FormatError.malformed(format, "unknown object marker \(hex)", offset: off) }
            let seconds = Double(bitPattern: try r.u64(off + 1, bigEndian: true, "date"))
            guard seconds.isFinite else { throw FormatError.malformed(format, "date is not a finite number", offset: off) }
            return PlistNode(.date(Date(timeIntervalSinceReferenceDate: seconds)))
        case 0x4:
            let (n, start) = try length(marker: marker, at: off)
            return PlistNode(.data(Data(try r.slice(start, n, "data object"))))
        case 0x5:
            let (n, start) = try length(marker: marker, at: off)
            let bytes = try r.slice(start, n, "ASCII string")
            var scalars = String.UnicodeScalarView()
            for c in bytes { scalars.append(Unicode.Scalar(c)) }
            return PlistNode(.string(String(scalars)))
        case 0x6:
            let (n, start) = try length(marker: marker, at: off)
            let size = try Checked.multiply(n, 2, format: format, "UTF-16 string size", offset: off)
            let bytes = try r.slice(start, size, "UTF-16 string")
            var units: [UInt16] = []
            units.reserveCapacity(n)
            var k = bytes.startIndex
            while k < bytes.endIndex { units.append(UInt16(bytes[k]) << 8 | UInt16(bytes[k + 1])); k += 2 }
            return PlistNode(.string(String(decoding: units, as: UTF16.self)))
        case 0x8:
            let width = Int(marker & 0x0F) + 1
            guard width <= 8 else { throw FormatError.malformed(format, "UID of \(width) bytes is too large", offset: off) }
            let v = try r.uint(off + 1, width: width, "UID")
            guard v <= UInt64(Int64.max) else { throw FormatError.malformed(format, "UID \(v) is too large", offset: off) }
            return PlistNode(.dictionary(PlistDictionary([PlistEntry(key: "CF$UID", value: PlistNode(.integer(Int64(v))))])))
        default:
            throw FormatError.malformed(format, "unknown object marker \(hex)", offset: off)
        }
    }

    private func integer(marker: UInt8, at off: Int) throws -> Int64 {
        switch marker & 0x0F {
        case 0: return Int64(try r.uint(off + 1, width: 1, "integer"))
        case 1: return Int64(try r.uint(off + 1, width: 2, "integer"))
        case 2: return Int64(try r.uint(off + 1, width: 4, "integer"))
        case 3: return Int64(bitPattern: try r.uint(off + 1, width: 8, "integer"))
        case 4:
            let high = try r.u64(off + 1, bigEndian: true, "integer")
            let low = try r.u64(off + 9, bigEndian: true, "integer")
            if high == 0, low <= UInt64(Int64.max) { return Int64(low) }
            if high == UInt64.max, Int64(bitPattern: low) < 0 { return Int64(bitPattern: low) }
            if high == 0 {
                throw FormatError.malformed(format, "integer \(low) does not fit in a signed 64-bit integer", offset: off)
            }
            throw FormatError.malformed(format, "128-bit integer does not fit in a signed 64-bit integer", offset: off)
        default:
            throw FormatError.malformed(format, "integer of unsupported size (marker 0x\(String(marker, radix: 16)))", offset: off)
        }
    }
}
