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
        let fm = FileManager.default
        while let rel = pending.popLast() {
            let dir = rel.isEmpty ? root.path : root.path + "/" + rel
            let names: [String]
            do { names = try fm.contentsOfDirectory(atPath: dir) } catch {
                throw SourceError(path: rel, reason: "cannot list folder: \(error.localizedDescription)")
            }
            for name in names.sorted() {
                let childRel = rel.isEmpty ? name : rel + "/" + name
                let full = dir + "/" + name
                // lstat, not FileManager's attribute dictionaries: a listing of thousands of
                // files is one system call each, and links are described, never followed.
                var info = stat()
                guard lstat(full, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    if skipped.contains(name) { continue }
                    list.append(FileEntry(path: childRel, kind: .directory, size: 0))
                    pending.append(childRel)
                case S_IFREG:
                    list.append(FileEntry(path: childRel, kind: .file, size: Int64(info.st_size)))
                case S_IFLNK:
                    let target = (try? fm.destinationOfSymbolicLink(atPath: full)) ?? ""
                    list.append(FileEntry(path: childRel, kind: .symlink, size: 0, linkTarget: target))
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

    public func read(_ path: String) throws -> Data {
        let p = PathUtil.normalize(path)
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
        let most = limits.maxFileBytes &+ 1
        var data = Data(count: min(max(Int(info.st_size), 0), limits.maxFileBytes) &+ 1)
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
        if data.count > limits.maxFileBytes {
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
