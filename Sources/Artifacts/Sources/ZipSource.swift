import Foundation
import Formats
import ZIPFoundation

/// An `.ipa` (ZIP) read in place: the central directory is validated by `ZipDirectory`,
/// entries are inflated in memory on demand, nothing is ever extracted to disk.
public final class ZipSource: FileSource, @unchecked Sendable {
    public let displayName: String
    public let entries: [FileEntry]
    /// Entries that were not accepted (unsafe names, duplicates) — reported, never read.
    public let problems: [LoadProblem]
    public let isZip64: Bool

    /// One open archive per concurrent reader: ZIPFoundation's `Archive` owns a FILE* and
    /// is not thread-safe, so entries are inflated in parallel through separate handles.
    private var idleArchives: [Archive]
    private let limits: ReaderLimits
    private let lock = NSLock()
    private let available: DispatchSemaphore
    private var byPath: [String: (ZipDirectory.Entry, ZIPFoundation.Entry)] = [:]
    private var totalRead = 0
    public static let concurrentReaders = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))

    public init(_ url: URL, displayName: String? = nil, limits: ReaderLimits = .default) throws {
        self.displayName = displayName ?? url.path
        self.limits = limits
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw SourceError(path: url.path, reason: "cannot open file")
        }
        defer { try? handle.close() }
        let size = Int(try handle.seekToEnd())
        let directory = try ZipDirectory.read(fileSize: size, limits: limits) { offset, count in
            try handle.seek(toOffset: UInt64(offset))
            return try handle.read(upToCount: count) ?? Data()
        }
        self.isZip64 = directory.isZip64
        let archive: Archive
        do {
            archive = try Archive(url: url, accessMode: .read)
            idleArchives = [archive]
            for _ in 1..<Self.concurrentReaders { idleArchives.append(try Archive(url: url, accessMode: .read)) }
        } catch {
            throw FormatError.malformed(ZipDirectory.format, "ZIPFoundation cannot open the archive: \(error)")
        }
        available = DispatchSemaphore(value: idleArchives.count)
        let zfEntries = Array(archive)
        guard zfEntries.count == directory.entries.count else {
            throw FormatError.malformed(ZipDirectory.format, "central directory lists \(directory.entries.count) entries but \(zfEntries.count) could be read")
        }
        var list: [FileEntry] = []
        var problems: [LoadProblem] = []
        var seenDirs = Set<String>()
        for (entry, zf) in zip(directory.entries, zfEntries) {
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
            byPath[path] = (entry, zf)
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
                                      linkTarget: Self.linkTarget(archive: archive, entry: entry, zf: zf)))
            } else {
                if entry.isEncrypted {
                    problems.append(LoadProblem(.inaccessible("archive entry is encrypted; it cannot be checked"), path: path))
                }
                list.append(FileEntry(path: path, kind: .file, size: Int64(clamping: entry.uncompressedSize)))
            }
        }
        self.entries = list.sorted { $0.path < $1.path }
        self.problems = problems
    }

    /// The target a symlink entry stores as its data (bounded: a path, not content).
    static func linkTarget(archive: Archive, entry: ZipDirectory.Entry, zf: ZIPFoundation.Entry) -> String {
        guard entry.uncompressedSize <= 4096, entry.compressedSize <= 4096 else { return "(oversized link target)" }
        var data = Data()
        _ = try? archive.extract(zf, skipCRC32: true) { chunk in
            guard data.count + chunk.count <= 4096 else { throw OversizeEntry() }
            data.append(chunk)
        }
        return String(decoding: data, as: UTF8.self)
    }

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
        guard let (entry, zf) = byPath[p] else { throw SourceError(path: p, reason: "no such entry in the archive") }
        guard !entry.isDirectory else { throw SourceError(path: p, reason: "is a folder") }
        guard !entry.isSymlink else { throw SourceError(path: p, reason: "is a symbolic link (not followed)") }
        guard !entry.isEncrypted else { throw SourceError(path: p, reason: "entry is encrypted") }
        guard entry.method == 0 || entry.method == 8 else {
            throw FormatError(.unsupported, format: ZipDirectory.format, reason: "entry \(p) uses compression method \(entry.method)")
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
        let archive = idleArchives.removeLast()
        lock.unlock()
        defer {
            lock.lock()
            idleArchives.append(archive)
            lock.unlock()
            available.signal()
        }
        var out = initial
        out.reserveCapacity(declared)
        do {
            let crc = try archive.extract(zf, bufferSize: 256 * 1024, skipCRC32: false) { chunk in
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
        } catch {
            throw FormatError.malformed(ZipDirectory.format, "entry \(p) cannot be inflated: \(error)")
        }
        guard out.count == declared else {
            throw FormatError.malformed(ZipDirectory.format, "entry \(p) inflates to \(out.count) bytes but declares \(declared)")
        }
        return out
    }

    private struct OversizeEntry: Error {}
}
