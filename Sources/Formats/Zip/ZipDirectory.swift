import Foundation

/// The central directory of a ZIP archive (`.ipa`), read and validated without inflating
/// anything. Preflight reads entry data through ZIPFoundation, but only for entries this
/// reader accepted, so every hostile-archive check happens here first.
public struct ZipDirectory: Sendable {
    public static let format = "ZIP archive"

    public struct Entry: Sendable, Equatable {
        /// The name as stored (decoded as UTF-8 when flagged, else as CP437-compatible Latin-1).
        public var rawName: String
        public var compressedSize: UInt64
        public var uncompressedSize: UInt64
        public var method: UInt16
        /// CRC-32 of the uncompressed data, from the central directory (authoritative even
        /// when the entry also has a data descriptor).
        public var crc32: UInt32
        public var flags: UInt16
        public var localHeaderOffset: UInt64
        public var externalAttributes: UInt32
        public var madeByHost: UInt8
        /// Offset of the central directory record, for messages.
        public var recordOffset: Int
        /// The entry is flagged UTF-8 but its name is not valid UTF-8 (`rawName` is repaired).
        public var hasInvalidName: Bool = false
        /// Where the entry's data starts: after its local header, whose own name and extra
        /// field lengths decide it (they need not match the central directory's).
        public var dataOffset: UInt64 = 0

        public var isEncrypted: Bool { flags & 1 != 0 }
        public var isDirectory: Bool { rawName.hasSuffix("/") }
        /// Unix symlink mode bits from an archive made on Unix or macOS (hosts 3 and 19, as
        /// ZIPFoundation reads them).
        public var isSymlink: Bool { (madeByHost == 3 || madeByHost == 19) && (externalAttributes >> 16) & 0o170000 == 0o120000 }
    }

    public var entries: [Entry]

    /// Reads the end-of-central-directory record and every central directory entry.
    /// `fileSize` is the archive size; `readAt` returns bytes at an offset (bounded reads).
    public static func read(fileSize: Int, limits: ReaderLimits = .default,
                            readAt: (_ offset: Int, _ count: Int) throws -> Data) throws -> ZipDirectory {
        guard fileSize >= 22 else {
            throw FormatError.truncated(format, "file is too small to be a ZIP archive (\(fileSize) bytes)")
        }
        // The EOCD record is in the last 22 + 65535 bytes (its comment is at most 64 KiB).
        let tailSize = min(fileSize, 22 + 65_535)
        let tailStart = fileSize - tailSize
        let tail = ByteReader(try readAt(tailStart, tailSize), format: format)
        var eocd = -1
        var i = tail.count - 22
        while i >= 0 {
            if tail.bytes[i] == 0x50, tail.bytes[i + 1] == 0x4b, tail.bytes[i + 2] == 5, tail.bytes[i + 3] == 6 { eocd = i; break }
            i -= 1
        }
        guard eocd >= 0 else {
            throw FormatError.malformed(format, "no end of central directory record (not a ZIP archive, or truncated)")
        }
        var count = UInt64(try tail.u16(eocd + 10))
        var cdSize = UInt64(try tail.u32(eocd + 12))
        var cdOffset = UInt64(try tail.u32(eocd + 16))
        if count == 0xFFFF || cdSize == 0xFFFF_FFFF || cdOffset == 0xFFFF_FFFF {
            // ZIP64 end of central directory locator sits right before the EOCD record.
            let loc = eocd - 20
            guard loc >= 0, try tail.u32(loc) == 0x07064b50 else {
                throw FormatError.malformed(format, "ZIP64 values without a ZIP64 end of central directory locator", offset: tailStart + eocd)
            }
            let recOffset = try Checked.int(try tail.u64(loc + 8), format: format, "ZIP64 end of central directory offset")
            let rec = ByteReader(try readAt(recOffset, min(56, max(0, fileSize - recOffset))), format: format)
            guard rec.count >= 56, try rec.u32(0) == 0x06064b50 else {
                throw FormatError.malformed(format, "bad ZIP64 end of central directory record", offset: recOffset)
            }
            count = try rec.u64(32)
            cdSize = try rec.u64(40)
            cdOffset = try rec.u64(48)
        }
        guard count <= UInt64(limits.maxArchiveEntries) else {
            throw FormatError.limit(format, "max-archive-entries", "archive declares \(count) entries, more than \(limits.maxArchiveEntries)")
        }
        let cdStart = try Checked.int(cdOffset, format: format, "central directory offset")
        let cdLength = try Checked.int(cdSize, format: format, "central directory size")
        let cdEnd = try Checked.add(cdStart, cdLength, format: format, "central directory end")
        guard cdEnd <= fileSize else {
            throw FormatError.truncated(format, "central directory (\(cdLength) bytes at 0x\(String(cdStart, radix: 16))) extends past the end of the file (\(fileSize) bytes)")
        }
        // Each record is at least 46 bytes: a count the directory cannot hold is a lie.
        guard count.multipliedReportingOverflow(by: 46).partialValue <= cdSize else {
            throw FormatError.malformed(format, "central directory of \(cdLength) bytes cannot hold \(count) entries", offset: cdStart)
        }
        let cd = ByteReader(try readAt(cdStart, cdLength), format: format)
        var entries: [Entry] = []
        entries.reserveCapacity(Int(count))
        var p = 0
        for n in 0..<Int(count) {
            let at = cdStart + p
            guard try cd.u32(p, "central directory entry \(n)") == 0x02014b50 else {
                throw FormatError.malformed(format, "central directory entry \(n) has a bad signature", offset: at)
            }
            let madeBy = UInt8(truncatingIfNeeded: try cd.u16(p + 4) >> 8)
            let flags = try cd.u16(p + 8)
            let method = try cd.u16(p + 10)
            let crc = try cd.u32(p + 16)
            var csize = UInt64(try cd.u32(p + 20))
            var usize = UInt64(try cd.u32(p + 24))
            let nameLen = Int(try cd.u16(p + 28))
            let extraLen = Int(try cd.u16(p + 30))
            let commentLen = Int(try cd.u16(p + 32))
            let external = try cd.u32(p + 38)
            var local = UInt64(try cd.u32(p + 42))
            let nameBytes = try cd.slice(p + 46, nameLen, "name of central directory entry \(n)")
            let extra = try cd.slice(p + 46 + nameLen, extraLen, "extra field of central directory entry \(n)")
            try cd.check(p + 46 + nameLen + extraLen, commentLen, "comment of central directory entry \(n)")
            if usize == 0xFFFF_FFFF || csize == 0xFFFF_FFFF || local == 0xFFFF_FFFF {
                try readZip64Extra(ByteReader(Array(extra), format: format), usize: &usize, csize: &csize, local: &local, entry: n, at: at)
            }
            let name: String
            var invalidName = false
            if flags & (1 << 11) != 0 {
                if let s = String(validating: nameBytes, as: UTF8.self) {
                    name = s
                } else {
                    name = String(decoding: nameBytes, as: UTF8.self)
                    invalidName = true
                }
            } else {
                name = String(nameBytes.map { Character(Unicode.Scalar($0)) })
            }
            entries.append(Entry(rawName: name, compressedSize: csize, uncompressedSize: usize, method: method,
                                 crc32: crc, flags: flags, localHeaderOffset: local, externalAttributes: external,
                                 madeByHost: madeBy, recordOffset: at, hasInvalidName: invalidName))
            p += 46 + nameLen + extraLen + commentLen
        }
        try checkLocalHeaders(&entries, cdStart: cdStart, readAt: readAt)
        return ZipDirectory(entries: entries)
    }

    private static func readZip64Extra(_ r: ByteReader, usize: inout UInt64, csize: inout UInt64, local: inout UInt64, entry n: Int, at: Int) throws {
        var q = 0
        while q + 4 <= r.count {
            let id = try r.u16(q), size = Int(try r.u16(q + 2))
            try r.check(q + 4, size, "extra field of entry \(n)")
            if id == 1 {
                var f = q + 4
                let end = q + 4 + size
                if usize == 0xFFFF_FFFF { guard f + 8 <= end else { break }; usize = try r.u64(f); f += 8 }
                if csize == 0xFFFF_FFFF { guard f + 8 <= end else { break }; csize = try r.u64(f); f += 8 }
                if local == 0xFFFF_FFFF { guard f + 8 <= end else { break }; local = try r.u64(f) }
                return
            }
            q += 4 + size
        }
        throw FormatError.malformed(format, "entry \(n) needs a ZIP64 extra field but has none", offset: at)
    }

    /// Reads every entry's local header (the data offset depends on it, and the library that
    /// inflates entries trusts it) and rejects entries whose local header is missing or
    /// disagrees with the central directory, and entries whose data regions overlap each other
    /// or the central directory — the construction of "overlapping" zip bombs, where one
    /// compressed stream is reused by many entries.
    private static func checkLocalHeaders(_ entries: inout [Entry], cdStart: Int,
                                          readAt: (_ offset: Int, _ count: Int) throws -> Data) throws {
        let order = entries.indices.sorted { entries[$0].localHeaderOffset < entries[$1].localHeaderOffset }
        var previousEnd: UInt64 = 0
        var previousName = ""
        for i in order {
            let e = entries[i]
            if e.localHeaderOffset < previousEnd {
                throw FormatError.malformed(format, "entry \"\(e.rawName)\" overlaps entry \"\(previousName)\"", offset: e.recordOffset)
            }
            guard e.localHeaderOffset &+ 30 <= UInt64(cdStart), e.localHeaderOffset <= UInt64(Int.max) else {
                throw FormatError.malformed(format, "local header of entry \"\(e.rawName)\" (at 0x\(String(e.localHeaderOffset, radix: 16))) is not before the central directory", offset: e.recordOffset)
            }
            let at = Int(e.localHeaderOffset)
            let local = ByteReader(try readAt(at, 30), format: format)
            guard local.count == 30, try local.u32(0) == 0x04034b50 else {
                throw FormatError.malformed(format, "entry \"\(e.rawName)\" has no local header at its offset", offset: at)
            }
            let method = try local.u16(8)
            guard method == e.method else {
                throw FormatError.malformed(format, "local header of entry \"\(e.rawName)\" says compression method \(method), the central directory says \(e.method)", offset: at)
            }
            let headerLength = UInt64(30 + Int(try local.u16(26)) + Int(try local.u16(28)))
            let dataStart = e.localHeaderOffset + headerLength
            let (end, o) = dataStart.addingReportingOverflow(e.compressedSize)
            if o || end > UInt64(cdStart) {
                throw FormatError.malformed(format, "data of entry \"\(e.rawName)\" extends into the central directory", offset: e.recordOffset)
            }
            entries[i].dataOffset = dataStart
            previousEnd = end
            previousName = e.rawName
        }
    }
}
