import Foundation

/// Bounds-checked random access to untrusted bytes. Every read checks `offset + size`
/// with overflow-safe arithmetic and throws a `FormatError` naming the offset.
public struct ByteReader: Sendable {
    public let bytes: [UInt8]
    public let format: String

    public init(_ data: Data, format: String) {
        self.bytes = [UInt8](data)
        self.format = format
    }

    public init(_ bytes: [UInt8], format: String) {
        self.bytes = bytes
        self.format = format
    }

    public var count: Int { bytes.count }

    /// Throws unless `count` bytes starting at `offset` lie inside the input.
    @inline(__always)
    public func check(_ offset: Int, _ count: Int, _ what: @autoclosure () -> String) throws {
        guard offset >= 0, count >= 0 else {
            throw FormatError.malformed(format, "\(what()) has a negative offset or size", offset: max(offset, 0))
        }
        let (end, overflow) = offset.addingReportingOverflow(count)
        guard !overflow, end <= bytes.count else {
            throw FormatError.truncated(format, "\(what()) (\(count) bytes) extends past the end of the data (\(bytes.count) bytes)", offset: offset)
        }
    }

    public func u8(_ offset: Int, _ what: @autoclosure () -> String = "byte") throws -> UInt8 {
        try check(offset, 1, what())
        return bytes[offset]
    }

    public func u16(_ offset: Int, bigEndian: Bool = false, _ what: @autoclosure () -> String = "16-bit value") throws -> UInt16 {
        try check(offset, 2, what())
        let a = UInt16(bytes[offset]), b = UInt16(bytes[offset + 1])
        return bigEndian ? (a << 8 | b) : (b << 8 | a)
    }

    public func u32(_ offset: Int, bigEndian: Bool = false, _ what: @autoclosure () -> String = "32-bit value") throws -> UInt32 {
        try check(offset, 4, what())
        var v: UInt32 = 0
        if bigEndian {
            for i in 0..<4 { v = v << 8 | UInt32(bytes[offset + i]) }
        } else {
            for i in (0..<4).reversed() { v = v << 8 | UInt32(bytes[offset + i]) }
        }
        return v
    }

    public func u64(_ offset: Int, bigEndian: Bool = false, _ what: @autoclosure () -> String = "64-bit value") throws -> UInt64 {
        try check(offset, 8, what())
        var v: UInt64 = 0
        if bigEndian {
            for i in 0..<8 { v = v << 8 | UInt64(bytes[offset + i]) }
        } else {
            for i in (0..<8).reversed() { v = v << 8 | UInt64(bytes[offset + i]) }
        }
        return v
    }

    /// Big-endian unsigned integer of 1...8 bytes.
    public func uint(_ offset: Int, width: Int, _ what: @autoclosure () -> String = "integer") throws -> UInt64 {
        guard (1...8).contains(width) else {
            throw FormatError.malformed(format, "\(what()) has unsupported width \(width)", offset: offset)
        }
        try check(offset, width, what())
        var v: UInt64 = 0
        for i in 0..<width { v = v << 8 | UInt64(bytes[offset + i]) }
        return v
    }

    public func slice(_ offset: Int, _ count: Int, _ what: @autoclosure () -> String = "range") throws -> ArraySlice<UInt8> {
        try check(offset, count, what())
        return bytes[offset..<(offset + count)]
    }
}

/// Overflow-checked arithmetic for offsets and sizes read from untrusted input.
public enum Checked {
    public static func add(_ a: Int, _ b: Int, format: String, _ what: @autoclosure () -> String, offset: Int? = nil) throws -> Int {
        let (r, o) = a.addingReportingOverflow(b)
        if o { throw FormatError.malformed(format, "\(what()) overflows", offset: offset) }
        return r
    }

    public static func multiply(_ a: Int, _ b: Int, format: String, _ what: @autoclosure () -> String, offset: Int? = nil) throws -> Int {
        let (r, o) = a.multipliedReportingOverflow(by: b)
        if o { throw FormatError.malformed(format, "\(what()) overflows", offset: offset) }
        return r
    }

    /// Converts an unsigned value read from input to `Int`, rejecting values that do not fit.
    public static func int<T: UnsignedInteger>(_ v: T, format: String, _ what: @autoclosure () -> String, offset: Int? = nil) throws -> Int {
        guard let r = Int(exactly: v) else {
            throw FormatError.malformed(format, "\(what()) \(v) is too large", offset: offset)
        }
        return r
    }
}
