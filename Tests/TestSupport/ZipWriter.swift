import Foundation

/// Writes ZIP archives byte by byte, so tests can build valid `.ipa` files and every malformed
/// variant a hostile archive could contain: every field of every record can lie.
public struct ZipWriter {
    public struct Entry {
        public var name: [UInt8]
        /// The bytes stored after the local header (already compressed when `method` is 8).
        public var stored: Data
        public var uncompressedSize: UInt64
        public var crc: UInt32
        public var flags: UInt16 = 0x0800
        public var method: UInt16 = 0
        public var externalAttributes: UInt32 = 0
        public var madeBy: UInt16 = 0x0314 // Unix, version 2.0
        /// Bit 3: sizes and CRC are zero in the local header, written in a descriptor after the data.
        public var dataDescriptor = false
        /// Sizes and offset are 0xFFFFFFFF in the central directory, the real values in a ZIP64 extra field.
        public var zip64Extra = false
        /// What the central directory claims, when it lies.
        public var declaredUncompressed: UInt64?
        public var declaredCompressed: UInt64?
        /// Sizes the local header claims, when it lies.
        public var localCompressed: UInt32?
        /// No local header of its own: the central record points at entry `k`'s local header.
        public var sharesLocalHeaderOf: Int?

        public init(name: [UInt8], stored: Data, uncompressedSize: UInt64, crc: UInt32, method: UInt16 = 0) {
            self.name = name
            self.stored = stored
            self.uncompressedSize = uncompressedSize
            self.crc = crc
            self.method = method
        }
    }

    public var entries: [Entry] = []
    /// Writes the ZIP64 end of central directory record and locator (EOCD fields set to 0xFFFF…).
    public var zip64End = false
    public var zip64EntryCount: UInt64?
    public var zip64RecordOffset: UInt64?

    public mutating func add(_ name: String, _ text: String) { add(name, data: Data(text.utf8)) }
    public mutating func add(_ name: String, data: Data) { add(rawName: Array(name.utf8), data: data) }
    public mutating func add(rawName: [UInt8], data: Data) {
        entries.append(Entry(name: rawName, stored: data, uncompressedSize: UInt64(data.count), crc: Self.crc32(data)))
    }
    public mutating func addDeflated(_ name: String, data: Data) throws {
        let (c, crc) = try Self.deflate(data)
        entries.append(Entry(name: Array(name.utf8), stored: c, uncompressedSize: UInt64(data.count), crc: crc, method: 8))
    }
    public mutating func addZeroBomb(_ name: String, zeros: Int) throws {
        let (c, crc) = try Self.deflate(zeros: zeros)
        entries.append(Entry(name: Array(name.utf8), stored: c, uncompressedSize: UInt64(zeros), crc: crc, method: 8))
    }
    public mutating func addSymlink(_ name: String, target: String) {
        add(name, target)
        entries[entries.count - 1].externalAttributes = UInt32(0o120777) << 16
    }
    public mutating func modifyLast(_ change: (inout Entry) -> Void) { change(&entries[entries.count - 1]) }

    public func build() -> Data {
        var out: [UInt8] = [], central: [UInt8] = []
        var offsets: [UInt64] = []
        for (i, e) in entries.enumerated() {
            if let k = e.sharesLocalHeaderOf {
                offsets.append(offsets[k])
            } else {
                offsets.append(UInt64(out.count))
                let localSize = e.dataDescriptor ? 0 : e.localCompressed ?? UInt32(truncatingIfNeeded: e.stored.count)
                let localUSize = e.dataDescriptor ? 0 : UInt32(truncatingIfNeeded: e.uncompressedSize)
                out += le32(0x04034b50) + le16(e.zip64Extra ? 45 : 20) + le16(e.flags | (e.dataDescriptor ? 8 : 0)) + le16(e.method)
                out += le16(0) + le16(0) + le32(e.dataDescriptor ? 0 : e.crc)
                out += le32(localSize) + le32(localUSize)
                out += le16(UInt16(e.name.count)) + le16(0)
                out += e.name
                out += [UInt8](e.stored)
                if e.dataDescriptor {
                    out += le32(0x08074b50) + le32(e.crc) + le32(UInt32(e.stored.count)) + le32(UInt32(truncatingIfNeeded: e.uncompressedSize))
                }
            }
            let csize = e.declaredCompressed ?? UInt64(e.stored.count)
            let usize = e.declaredUncompressed ?? e.uncompressedSize
            var extra: [UInt8] = []
            if e.zip64Extra {
                extra = le16(1) + le16(24) + le64(usize) + le64(csize) + le64(offsets[i])
            }
            central += le32(0x02014b50) + le16(e.madeBy) + le16(e.zip64Extra ? 45 : 20) + le16(e.flags | (e.dataDescriptor ? 8 : 0)) + le16(e.method)
            central += le16(0) + le16(0) + le32(e.crc)
            central += e.zip64Extra ? le32(0xFFFF_FFFF) : le32(UInt32(truncatingIfNeeded: csize))
            central += e.zip64Extra ? le32(0xFFFF_FFFF) : le32(UInt32(truncatingIfNeeded: usize))
            central += le16(UInt16(e.name.count)) + le16(UInt16(extra.count)) + le16(0)
            central += le16(0) + le16(0) + le32(e.externalAttributes)
            central += e.zip64Extra ? le32(0xFFFF_FFFF) : le32(UInt32(truncatingIfNeeded: offsets[i]))
            central += e.name + extra
        }
        let cdOffset = UInt64(out.count)
        out += central
        if zip64End {
            let recordOffset = UInt64(out.count)
            let count = zip64EntryCount ?? UInt64(entries.count)
            out += le32(0x06064b50) + le64(44) + le16(45) + le16(45) + le32(0) + le32(0)
            out += le64(count) + le64(count) + le64(UInt64(central.count)) + le64(cdOffset)
            out += le32(0x07064b50) + le32(0) + le64(zip64RecordOffset ?? recordOffset) + le32(1)
            out += le32(0x06054b50) + le16(0) + le16(0) + le16(0xFFFF) + le16(0xFFFF)
            out += le32(0xFFFF_FFFF) + le32(0xFFFF_FFFF) + le16(0)
        } else {
            out += le32(0x06054b50) + le16(0) + le16(0)
            out += le16(UInt16(truncatingIfNeeded: entries.count)) + le16(UInt16(truncatingIfNeeded: entries.count))
            out += le32(UInt32(central.count)) + le32(UInt32(cdOffset)) + le16(0)
        }
        return Data(out)
    }

    public init() {}

    /// Writes the archive to a fresh scratch file.
    public func write(name: String = "App.ipa") throws -> URL {
        let url = try Scratch.file(name)
        try build().write(to: url)
        return url
    }

    public static func crc32(_ data: Data) -> UInt32 {
        var table = [UInt32](repeating: 0, count: 256)
        for i in 0..<256 {
            var c = UInt32(i)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB88320 ^ (c >> 1) : c >> 1 }
            table[i] = c
        }
        var crc: UInt32 = 0xFFFFFFFF
        for b in data { crc = table[Int((crc ^ UInt32(b)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFFFFFF
    }

    // MARK: - Deflate (through python3's zlib: the test target has no compressor of its own)

    /// Raw deflate of `data`, or of `zeros` zero bytes generated by Python (no huge pipe).
    /// Returns the compressed bytes and the CRC-32 of the uncompressed data.
    public static func deflate(_ data: Data = Data(), zeros: Int = 0) throws -> (compressed: Data, crc: UInt32) {
        let script = """
        import sys, zlib, struct
        n = int(sys.argv[1])
        d = bytes(n) if n else sys.stdin.buffer.read()
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        out = c.compress(d) + c.flush()
        sys.stdout.buffer.write(struct.pack('<I', zlib.crc32(d) & 0xffffffff) + out)
        """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", script, String(zeros)]
        let input = Pipe(), output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        try p.run()
        let writer = Thread {
            input.fileHandleForWriting.write(data)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0, out.count >= 4 else { throw DeflateError() }
        let bytes = [UInt8](out)
        let crc = UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
        return (Data(bytes[4...]), crc)
    }

    public struct DeflateError: Error {}
}

private func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xff), UInt8(v >> 8)] }
private func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * UInt32($0))) & 0xff) } }
private func le64(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8((v >> (8 * UInt64($0))) & 0xff) } }
