import Foundation
import Formats
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder on disk. Symlinks are listed but never followed: a link that points outside the
/// tree could otherwise make Preflight read files the input does not own.
public final class DirectorySource: FileSource, @unchecked Sendable {
    public let displayName: String
    public let root: URL
    private let rootPath: String
    public let entries: [FileEntry]
    private let limits: ReaderLimits
    private let kinds: [String: FileKind]

    /// Folder names never descended into: build output and dependency managers' caches that
    /// are not part of what ships from this tree.
    public static let skippedFolderNames: Set<String> = [".git", ".build", "DerivedData", "node_modules", ".swiftpm", ".svn", ".hg"]

    public init(_ url: URL, displayName: String? = nil, limits: ReaderLimits = .default,
                skipping skipped: Set<String> = DirectorySource.skippedFolderNames) throws {
        self.root = url.standardizedFileURL
        self.rootPath = root.path
        self.displayName = displayName ?? url.path
        self.limits = limits
        var list: [FileEntry] = []
        var pending: [String] = [""]
        while let rel = pending.popLast() {
            let dir = rel.isEmpty ? root.path : root.path + "/" + rel
            // opendir/readdir and lstat relative to the open folder (fstatat): a listing of
            // thousands of files is one system call each, and links are described, never followed.
            guard let stream = opendir(dir) else {
                throw SourceError(path: rel, reason: "cannot list folder: \(String(cString: strerror(errno)))")
            }
            defer { closedir(stream) }
            let folder = dirfd(stream)
            var names: [String] = []
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != "." && name != ".." { names.append(name) }
            }
            for name in names.sorted() {
                let childRel = rel.isEmpty ? name : rel + "/" + name
                var info = stat()
                guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    if skipped.contains(name) { continue }
                    list.append(FileEntry(path: childRel, kind: .directory, size: 0))
                    pending.append(childRel)
                case S_IFREG:
                    list.append(FileEntry(path: childRel, kind: .file, size: Int64(info.st_size)))
                case S_IFLNK:
                    list.append(FileEntry(path: childRel, kind: .symlink, size: 0, linkTarget: Self.linkTarget(folder, name)))
                default:
                    continue // sockets, devices, fifos: never read
                }
                if list.count > limits.maxArchiveEntries {
                    throw FormatError.limit("folder", "max-archive-entries", "more than \(limits.maxArchiveEntries) files")
                }
            }
        }
        self.entries = list.sorted { $0.path < $1.path }
        var kinds: [String: FileKind] = [:]
        for e in entries { kinds[e.path] = e.kind }
        self.kinds = kinds
    }

    /// Where a symbolic link points, as written in it ("" when it cannot be read).
    static func linkTarget(_ folder: Int32, _ name: String) -> String {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBufferPointer { b in
            b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { readlinkat(folder, name, $0, b.count - 1) }
        }
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
    }

    public func readPrefix(_ path: String, maxBytes: Int) throws -> [UInt8] {
        let data = try read(PathUtil.normalize(path), upTo: max(0, min(maxBytes, limits.maxFileBytes)))
        return [UInt8](data)
    }

    public func read(_ path: String) throws -> Data {
        try read(PathUtil.normalize(path), upTo: nil)
    }

    /// The file's bytes; with `upTo`, no more than that many (a prefix, no size check).
    private func read(_ p: String, upTo: Int?) throws -> Data {
        guard let kind = kinds[p] else { throw SourceError(path: p, reason: "no such file") }
        guard kind == .file else { throw SourceError(path: p, reason: kind == .symlink ? "is a symbolic link (not followed)" : "is a folder") }
        // The file was a regular file when listed; it may have been replaced since. Never
        // follow a link put in its place, never block on a FIFO: open without following and
        // without blocking, then check what was opened.
        let fd = open(rootPath + "/" + p, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw SourceError(path: p, reason: "cannot open file (\(String(cString: strerror(errno))))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw SourceError(path: p, reason: "is no longer a regular file")
        }
        // Read at most one byte past the limit, so a file that grew since listing is still caught.
        let most = upTo ?? (limits.maxFileBytes &+ 1)
        var data = Data(count: min(min(max(Int(info.st_size), 0), limits.maxFileBytes) &+ 1, most))
        var count = 0
        while true {
            if count == data.count {
                guard data.count < most else { break }
                data.count = data.count > most / 2 ? most : data.count * 2
            }
            let got = data.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress! + count, $0.count - count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw SourceError(path: p, reason: "cannot read file (\(String(cString: strerror(errno))))")
            }
            if got == 0 { break }
            count += got
        }
        data.count = count
        if upTo == nil, data.count > limits.maxFileBytes {
            throw FormatError.limit("file", "max-file-bytes", "\(p) is larger than \(limits.maxFileBytes) bytes")
        }
        return data
    }
}

private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.read(fd, buffer, count)
    #else
    return Darwin.read(fd, buffer, count)
    #endif
}
