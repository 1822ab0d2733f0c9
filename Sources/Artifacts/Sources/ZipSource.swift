import Foundation
import Formats
import ZIPFoundation

/// An `.ipa` (ZIP) read in place: the central directory and every local header are validated
/// by `ZipDirectory`, entries are inflated in memory on demand from the data offsets it
/// validated, nothing is ever extracted to disk. ZIPFoundation only supplies the inflater and
/// CRC-32: its own archive reader finds the directory and the data by other rules (it stops at
/// the first encrypted entry, ignores the ZIP64 locator's offset, trusts local header sizes),
/// so it never decides what is read.
public final class ZipSource: FileSource, @unchecked Sendable {
    public let displayName: String
    public let entries: [FileEntry]
    /// Entries that were not accepted (unsafe names, duplicates) — reported, never read.
    public let problems: [LoadProblem]
    public let isZip64: Bool

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
        self.isZip64 = directory.isZip64
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
        available.wait()
        lock.lock()
        let handle = idleHandles.removeLast()
        lock.unlock()
        defer {
            lock.lock()
            idleHandles.append(handle)
            lock.unlock()
            available.signal()
        }
        var out = initial
        // The declared size is a claim: reserve what the compressed bytes can plausibly
        // produce, and let real output grow the buffer (bounded by `declared` below).
        let plausible = entry.method == 0 ? declared : min(declared, max(1 << 20, Int(clamping: entry.compressedSize) &* 32))
        out.reserveCapacity(plausible)
        let compressed = Int64(clamping: entry.compressedSize)
        // Reads the entry's compressed bytes and nothing past them.
        let provider: Provider = { position, size in
            let count = Int(min(Int64(size), compressed - position))
            guard count > 0 else { throw TruncatedStream() }
            try handle.seek(toOffset: entry.dataOffset + UInt64(position))
            let chunk = try handle.read(upToCount: count) ?? Data()
            guard chunk.count == count else { throw TruncatedStream() }
            return chunk
        }
        let consumer: Consumer = { chunk in
            // Never trust the declared size: stop as soon as the stream produces more.
            guard out.count + chunk.count <= declared else { throw OversizeEntry() }
            out.append(contentsOf: chunk)
        }
        let bufferSize = 256 * 1024
        do {
            let crc: CRC32
            if entry.method == 8 {
                crc = try Data.decompress(size: compressed, bufferSize: bufferSize, skipCRC32: false, provider: provider, consumer: consumer)
            } else {
                var checksum = CRC32(0), position: Int64 = 0
                while position < compressed {
                    let chunk = try provider(position, bufferSize)
                    try consumer(chunk)
                    checksum = chunk.crc32(checksum: checksum)
                    position += Int64(chunk.count)
                }
                crc = checksum
            }
            if crc != entry.crc32 {
                throw FormatError.malformed(ZipDirectory.format, "entry \(p) fails its CRC-32 check")
            }
        } catch let error as FormatError {
            throw error
        } catch is OversizeEntry {
            throw FormatError.malformed(ZipDirectory.format, "entry \(p) inflates to more than its declared \(declared) bytes")
        } catch is TruncatedStream {
            throw FormatError.truncated(ZipDirectory.format, "entry \(p): compressed data ends before the end of its stream (\(compressed) bytes)")
        } catch {
            throw FormatError.malformed(ZipDirectory.format, "entry \(p) cannot be inflated: \(error)")
        }
        guard out.count == declared else {
            throw FormatError.malformed(ZipDirectory.format, "entry \(p) inflates to \(out.count) bytes but declares \(declared)")
        }
        return out
    }

    private struct OversizeEntry: Error {}
    private struct TruncatedStream: Error {}
}
