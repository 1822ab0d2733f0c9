import Foundation
import Formats
import CPreflightZlib

/// An `.ipa` (ZIP) read in place: the central directory and every local header are validated
/// by `ZipDirectory`, entries are inflated in memory on demand from the data offsets it
/// validated, nothing is ever extracted to disk. Inflating is zlib's, driven here with exact
/// input lengths; no general-purpose archive library decides what is read (ZIPFoundation's
/// reader, used before, stopped at the first encrypted entry, ignored the ZIP64 locator's
/// offset, trusted local header sizes, and its Linux inflater let zlib read past short chunks).
public final class ZipSource: FileSource, @unchecked Sendable {
    public let displayName: String
    public let entries: [FileEntry]
    /// Entries that were not accepted (unsafe names, duplicates) — reported, never read.
    public let problems: [LoadProblem]

    /// One open handle per concurrent reader: a handle has one file position.
    private var idleHandles: [FileHandle]
    private let limits: ReaderLimits
    private let lock = NSLock()
    private let available: DispatchSemaphore
    private var byPath: [String: ZipDirectory.Entry] = [:]
    private var totalRead = 0
    public static let concurrentReaders = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))

    public init(_ url: URL, displayName: String? = nil, limits: ReaderLimits = .default) throws {
        self.displayName = displayName ?? url.path
        self.limits = limits
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw SourceError(path: url.path, reason: "cannot open file")
        }
        let size = Int(try handle.seekToEnd())
        let directory: ZipDirectory
        do {
            directory = try ZipDirectory.read(fileSize: size, limits: limits) { offset, count in
                try handle.seek(toOffset: UInt64(offset))
                return try handle.read(upToCount: count) ?? Data()
            }
        } catch {
            try? handle.close()
            throw error
        }
        idleHandles = [handle]
        for _ in 1..<Self.concurrentReaders {
            if let h = FileHandle(forReadingAtPath: url.path) { idleHandles.append(h) }
        }
        available = DispatchSemaphore(value: idleHandles.count)
        var list: [FileEntry] = []
        var problems: [LoadProblem] = []
        var seenDirs = Set<String>()
        for entry in directory.entries {
            if let reason = entry.hasInvalidName ? "not valid UTF-8" : Self.unsafeNameReason(entry.rawName) {
                problems.append(LoadProblem(.inaccessible("unsafe archive entry name (\(reason)); entry skipped"), path: Self.printable(entry.rawName)))
                continue
            }
            let path = PathUtil.normalize(entry.rawName)
            if path.isEmpty || Self.isJunk(path) { continue }
            if byPath[path] != nil {
                problems.append(LoadProblem(.inaccessible("duplicate archive entry name; only the first is read"), path: path))
                continue
            }
            byPath[path] = entry
            // Archives need not list parent folders; the model wants them.
            var parent = PathUtil.parent(path)
            while !parent.isEmpty, seenDirs.insert(parent).inserted {
                list.append(FileEntry(path: parent, kind: .directory, size: 0))
                parent = PathUtil.parent(parent)
            }
            if entry.isDirectory {
                if seenDirs.insert(path).inserted { list.append(FileEntry(path: path, kind: .directory, size: 0)) }
            } else if entry.isSymlink {
                list.append(FileEntry(path: path, kind: .symlink, size: Int64(clamping: entry.uncompressedSize),
                                      linkTarget: Self.linkTarget(handle: handle, entry: entry)))
            } else {
                if entry.isEncrypted {
                    problems.append(LoadProblem(.inaccessible(Self.encryptedReason), path: path))
                }
                list.append(FileEntry(path: path, kind: .file, size: Int64(clamping: entry.uncompressedSize)))
            }
        }
        self.entries = list.sorted { $0.path < $1.path }
        self.problems = problems
    }

    deinit {
        for h in idleHandles { try? h.close() }
    }

    /// The target a symlink entry stores as its data, read at the data offset the directory
    /// validated: a bounded path, never content.
    static func linkTarget(handle: FileHandle, entry: ZipDirectory.Entry) -> String {
        guard entry.method == 0 else { return "(compressed link target)" }
        guard entry.compressedSize <= 4096 else { return "(oversized link target)" }
        guard (try? handle.seek(toOffset: entry.dataOffset)) != nil,
              let data = try? handle.read(upToCount: Int(entry.compressedSize)) else { return "(unreadable link target)" }
        return String(decoding: data, as: UTF8.self)
    }

    static let encryptedReason = "archive entry is encrypted; it cannot be checked"

    /// `__MACOSX/` resource forks and `._name` AppleDouble files are zip-tool junk, not app content.
    static func isJunk(_ path: String) -> Bool {
        path == "__MACOSX" || path.hasPrefix("__MACOSX/") || PathUtil.lastComponent(path).hasPrefix("._")
    }

    static func unsafeNameReason(_ name: String) -> String? {
        if name.unicodeScalars.contains("\0") { return "contains NUL" }
        if name.contains("\\") { return "contains a backslash" }
        if name.hasPrefix("/") { return "absolute path" }
        if name.count >= 2, name.dropFirst().first == ":" { return "drive-letter path" }
        if name.split(separator: "/").contains("..") { return "contains '..'" }
        return nil
    }

    static func printable(_ name: String) -> String {
        String(name.unicodeScalars.map { $0.value < 0x20 ? "?" : Character($0) })
    }

    public func read(_ path: String) throws -> Data {
        try inflate(path, into: Data())
    }

    public func readBytes(_ path: String) throws -> [UInt8] {
        try inflate(path, into: [UInt8]())
    }

    /// The first `maxBytes` of an entry: inflation stops there (the CRC, which covers the
    /// whole entry, is not checked; a full read of the same entry still checks it).
    public func readPrefix(_ path: String, maxBytes: Int) throws -> [UInt8] {
        let p = PathUtil.normalize(path)
        guard let entry = byPath[p], !entry.isDirectory, !entry.isSymlink, !entry.isEncrypted,
              entry.method == 0 || entry.method == 8, entry.uncompressedSize > UInt64(max(maxBytes, 0)) else {
            return Array(try readBytes(path).prefix(maxBytes))
        }
        let handle = borrowHandle()
        defer { returnHandle(handle) }
        var out: [UInt8] = []
        out.reserveCapacity(maxBytes)
        do {
            _ = try Self.stream(entry, compressed: Int64(clamping: entry.compressedSize), from: handle, inflating: entry.method == 8) { chunk in
                out.append(contentsOf: chunk.prefix(maxBytes - out.count))
                if out.count >= maxBytes { throw PrefixComplete() }
            }
        } catch is PrefixComplete {
        } catch is TruncatedStream {
            throw FormatError.truncated(ZipDirectory.format, "entry \(p): its compressed data ends before the end of the deflate stream")
        } catch let e as InvalidDeflate {
            throw FormatError.malformed(ZipDirectory.format, "entry \(p) cannot be inflated: \(e.message)")
        }
        return out
    }

    private struct PrefixComplete: Error {}

    /// One of the open handles, waiting while all are in use.
    private func borrowHandle() -> FileHandle {
        available.wait()
        lock.lock()
        defer { lock.unlock() }
        return idleHandles.removeLast()
    }

    private func returnHandle(_ handle: FileHandle) {
        lock.lock()
        idleHandles.append(handle)
        lock.unlock()
        available.signal()
    }

    private func inflate<Buffer: RangeReplaceableCollection>(_ path: String, into initial: Buffer) throws -> Buffer where Buffer.Element == UInt8 {
        let p = PathUtil.normalize(path)
        guard let entry = byPath[p] else { throw SourceError(path: p, reason: "no such entry in the archive") }
        guard !entry.isDirectory else { throw SourceError(path: p, reason: "is a folder") }
        guard !entry.isSymlink else { throw SourceError(path: p, reason: "is a symbolic link (not followed)") }
        guard !entry.isEncrypted else { throw SourceError(path: p, reason: Self.encryptedReason) }
        guard entry.method == 0 || entry.method == 8 else {
            throw FormatError(.unsupported, format: ZipDirectory.format, reason: "entry \(p) uses compression method \(entry.method)")
        }
        guard entry.method != 0 || entry.compressedSize == entry.uncompressedSize else {
            throw FormatError.malformed(ZipDirectory.format, "stored entry \(p) declares \(entry.compressedSize) bytes stored but \(entry.uncompressedSize) bytes of content", offset: entry.recordOffset)
        }
        guard entry.uncompressedSize <= UInt64(limits.maxFileBytes) else {
            throw FormatError.limit(ZipDirectory.format, "max-file-bytes", "entry \(p) declares \(entry.uncompressedSize) bytes, more than \(limits.maxFileBytes)")
        }
        if entry.method == 8, entry.uncompressedSize > 1 << 20,
           entry.uncompressedSize / max(entry.compressedSize, 1) > UInt64(limits.maxCompressionRatio) {
            throw FormatError.limit(ZipDirectory.format, "max-compression-ratio", "entry \(p) inflates \(entry.compressedSize) bytes to \(entry.uncompressedSize) (ratio above \(limits.maxCompressionRatio))")
        }
        let declared = Int(entry.uncompressedSize)
        lock.lock()
        guard totalRead <= limits.maxTotalBytes - declared else {
            lock.unlock()
            throw FormatError.limit(ZipDirectory.format, "max-total-bytes", "reading \(p) would inflate more than \(limits.maxTotalBytes) bytes in total")
        }
        totalRead += declared
        lock.unlock()
        let handle = borrowHandle()
        defer { returnHandle(handle) }
        var out = initial
        // The declared size is a claim: reserve what the compressed bytes can plausibly
        // produce, and let real output grow the buffer (bounded by `declared` below).
        let plausible = entry.method == 0 ? declared : min(declared, max(1 << 20, Int(clamping: entry.compressedSize) &* 32))
        out.reserveCapacity(plausible)
        let compressed = Int64(clamping: entry.compressedSize)
        do {
            let crc = try Self.stream(entry, compressed: compressed, from: handle, inflating: entry.method == 8) { chunk in
                // Never trust the declared size: stop as soon as the stream produces more.
                guard out.count + chunk.count <= declared else { throw OversizeEntry() }
                out.append(contentsOf: chunk)
            }
            if crc != entry.crc32 {
                throw FormatError.malformed(ZipDirectory.format, "entry \(p) fails its CRC-32 check")
            }
        } catch let error as FormatError {
            throw error
        } catch is OversizeEntry {
            throw FormatError.malformed(ZipDirectory.format, "entry \(p) inflates to more than its declared \(declared) bytes")
        } catch is TruncatedStream {
            throw FormatError.truncated(ZipDirectory.format, "entry \(p): its \(compressed) bytes of compressed data end before the end of the deflate stream")
        } catch let e as InvalidDeflate {
            throw FormatError.malformed(ZipDirectory.format, "entry \(p) cannot be inflated: \(e.message)")
        } catch {
            throw FormatError.malformed(ZipDirectory.format, "entry \(p) cannot be read: \(error)")
        }
        guard out.count == declared else {
            throw FormatError.malformed(ZipDirectory.format, "entry \(p) inflates to \(out.count) bytes but declares \(declared)")
        }
        return out
    }

    /// Reads exactly the entry's `compressed` bytes from its validated data offset, inflating
    /// them when asked, and hands the output to `consumer` in chunks; returns the CRC-32 of the
    /// output. A deflate stream must end within those bytes.
    static func stream(_ entry: ZipDirectory.Entry, compressed: Int64, from handle: FileHandle, inflating: Bool,
                       consumer: (UnsafeBufferPointer<UInt8>) throws -> Void) throws -> UInt32 {
        let chunkSize = 256 * 1024
        var crc = crc32(0, nil, 0)
        var position: Int64 = 0
        try handle.seek(toOffset: entry.dataOffset)
        func next() throws -> Data {
            let count = Int(min(Int64(chunkSize), compressed - position))
            guard count > 0 else { throw TruncatedStream() }
            let chunk = try handle.read(upToCount: count) ?? Data()
            guard chunk.count == count else { throw TruncatedStream() }
            position += Int64(count)
            return chunk
        }
        guard inflating else {
            while position < compressed {
                let chunk = try next()
                try chunk.withUnsafeBytes { raw in
                    let bytes = raw.bindMemory(to: UInt8.self)
                    crc = crc32(crc, bytes.baseAddress, UInt32(bytes.count))
                    try consumer(bytes)
                }
            }
            return UInt32(crc)
        }
        var z = z_stream()
        guard inflateInit2_(&z, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw InvalidDeflate(message: "zlib cannot start")
        }
        defer { inflateEnd(&z) }
        let input = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        let output = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        defer { input.deallocate(); output.deallocate() }
        var result = Z_OK
        repeat {
            if z.avail_in == 0 {
                let chunk = try next()
                chunk.copyBytes(to: input, count: chunk.count)
                z.next_in = input
                z.avail_in = UInt32(chunk.count)
            }
            z.next_out = output
            z.avail_out = UInt32(chunkSize)
            result = CPreflightZlib.inflate(&z, Z_NO_FLUSH)
            guard result == Z_OK || result == Z_STREAM_END || result == Z_BUF_ERROR else {
                throw InvalidDeflate(message: z.msg.map { String(cString: $0) } ?? "invalid deflate data (zlib \(result))")
            }
            let produced = chunkSize - Int(z.avail_out)
            if produced > 0 {
                crc = crc32(crc, output, UInt32(produced))
                try consumer(UnsafeBufferPointer(start: output, count: produced))
            }
        } while result != Z_STREAM_END
        return UInt32(crc)
    }

    private struct OversizeEntry: Error {}
    private struct TruncatedStream: Error {}
    private struct InvalidDeflate: Error { var message: String }
}
