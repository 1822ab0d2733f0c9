import Foundation

/// The classes a compiled Interface Builder file (`.nib`, also inside `.storyboardc`)
/// instantiates, in either form ibtool writes: a NIBArchive (its class-name table) or an
/// NSKeyedArchiver property list (`$classname` of its objects).
public enum CompiledNib {
    public static let format = "compiled nib"

    public static func classNames(_ bytes: [UInt8], limits: ReaderLimits = .default) throws -> [String] {
        if bytes.starts(with: Array("NIBArchive".utf8)) { return try nibArchiveClasses(bytes, limits: limits) }
        let (root, _) = try PropertyListReader.read(Data(bytes), limits: limits)
        guard let objects = root.dictionary?.entry("$objects")?.value.array else {
            throw FormatError.malformed(format, "neither a NIBArchive nor a keyed archive with $objects")
        }
        var names: [String] = []
        for object in objects {
            if let name = object.dictionary?.entry("$classname")?.value.string, !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// NIBArchive: "NIBArchive", two 32-bit versions, then eight little-endian 32-bit counts and
    /// offsets (objects, keys, values, classes); each class entry is a varint length, a varint
    /// count of extra 32-bit values, those values, and the NUL-terminated name.
    static func nibArchiveClasses(_ bytes: [UInt8], limits: ReaderLimits) throws -> [String] {
        let r = ByteReader(bytes, format: format)
        let count = Int(try r.u32(42))
        var at = Int(try r.u32(46))
        guard count <= bytes.count else { throw FormatError.malformed(format, "class count \(count) exceeds the file", offset: 46) }
        var names: [String] = []
        for _ in 0..<count {
            let length = try varint(r, &at)
            let extras = try varint(r, &at)
            let (skip, o1) = extras.multipliedReportingOverflow(by: 4)
            guard !o1, skip <= bytes.count - at else { throw FormatError.malformed(format, "class entry extras run past the end", offset: at) }
            at += skip
            guard length >= 1, length <= limits.maxStringLength, length <= bytes.count - at else {
                throw FormatError.malformed(format, "class name of \(length) bytes does not fit", offset: at)
            }
            var name = bytes[at..<(at + length)]
            if name.last == 0 { name = name.dropLast() }
            names.append(String(decoding: name, as: UTF8.self))
            at += length
        }
        return names
    }

    private static func varint(_ r: ByteReader, _ at: inout Int) throws -> Int {
        var value = 0, shift = 0
        while true {
            let b = try r.u8(at)
            at += 1
            value |= Int(b & 0x7F) << shift
            if b & 0x80 != 0 { return value }
            shift += 7
            guard shift < 35 else { throw FormatError.malformed(format, "varint longer than 5 bytes", offset: at) }
        }
    }
}
