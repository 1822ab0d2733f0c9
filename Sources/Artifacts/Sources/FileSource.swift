import Foundation
import Formats

public enum FileKind: String, Sendable {
    case file, directory, symlink
}

/// One file of an input, named by its path relative to the input's root ("/"-separated).
public struct FileEntry: Sendable, Equatable {
    public var path: String
    public var kind: FileKind
    /// Uncompressed size as declared by the archive or the file system.
    public var size: Int64
    /// For symlinks: the link target as written.
    public var linkTarget: String?

    public init(path: String, kind: FileKind, size: Int64, linkTarget: String? = nil) {
        self.path = path
        self.kind = kind
        self.size = size
        self.linkTarget = linkTarget
    }
}

/// Read-only access to the files of an input: an archive, a folder, or files in memory.
/// Listing is cheap; contents are read on demand and each read enforces the limits.
public protocol FileSource: AnyObject, Sendable {
    /// The input as the user named it, for messages.
    var displayName: String { get }
    /// Every file and folder, in a stable order.
    var entries: [FileEntry] { get }
    /// Reads one file. Throws `SourceError` or `FormatError` (limits).
    func read(_ path: String) throws -> Data
    /// Reads one file into a byte array (binary readers work on these; avoids a second copy).
    func readBytes(_ path: String) throws -> [UInt8]
    /// Reads at most the first `maxBytes` bytes of a file (headers: PNG chunks before image
    /// data), inflating or reading no more than that where the source can stop early.
    func readPrefix(_ path: String, maxBytes: Int) throws -> [UInt8]
}

extension FileSource {
    public func readBytes(_ path: String) throws -> [UInt8] { [UInt8](try read(path)) }
    public func readPrefix(_ path: String, maxBytes: Int) throws -> [UInt8] { Array(try readBytes(path).prefix(maxBytes)) }
}

public struct SourceError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}

/// Case-insensitive lookup over a source's listing, so that a reference that exists only
/// with other letter case is found and reported instead of silently missed.
public struct FileIndex: Sendable {
    public let entries: [FileEntry]
    private let exact: [String: Int]
    private let folded: [String: [Int]]
    /// Entry indices sorted by the paths' UTF-8 bytes: the paths below a folder are one run.
    private let byBytes: [Int]
    private let bytes: [[UInt8]]
    /// Byte order agrees with String's (canonical equivalence) only for ASCII paths.
    private let asciiOnly: Bool

    public init(_ entries: [FileEntry]) {
        self.entries = entries
        var exact: [String: Int] = [:], folded: [String: [Int]] = [:]
        for (i, e) in entries.enumerated() {
            exact[e.path] = i
            folded[e.path.lowercased(), default: []].append(i)
        }
        self.exact = exact
        self.folded = folded
        let bytes = entries.map { Array($0.path.utf8) }
        self.bytes = bytes
        byBytes = entries.indices.sorted { bytes[$0].lexicographicallyPrecedes(bytes[$1]) }
        asciiOnly = bytes.allSatisfy { $0.allSatisfy { $0 < 0x80 } }
    }

    public enum Match: Equatable, Sendable {
        case exact(FileEntry)
        /// Exists only with different letter case (the first such path).
        case caseMismatch(FileEntry)
        case missing
    }

    public func lookup(_ path: String) -> Match {
        let p = PathUtil.normalize(path)
        if let i = exact[p] { return .exact(entries[i]) }
        if let i = folded[p.lowercased()]?.first { return .caseMismatch(entries[i]) }
        return .missing
    }

    public func entry(_ path: String) -> FileEntry? {
        exact[PathUtil.normalize(path)].map { entries[$0] }
    }

    /// Direct and indirect children of a folder ("" is the root).
    public func files(under folder: String) -> [FileEntry] {
        let prefix = folder.isEmpty ? "" : folder + "/"
        guard !prefix.isEmpty, asciiOnly, prefix.utf8.allSatisfy({ $0 < 0x80 }) else {
            return entries.filter { $0.path.hasPrefix(prefix) && $0.path != folder }
        }
        // Binary search for the run of paths whose bytes start with the prefix (projects ask
        // this once per synchronized folder and target), then the same test as before on it,
        // in listing order.
        let key = Array(prefix.utf8)
        var low = 0, high = byBytes.count
        while low < high {
            let mid = (low + high) / 2
            if bytes[byBytes[mid]].lexicographicallyPrecedes(key) { low = mid + 1 } else { high = mid }
        }
        var hits: [Int] = []
        var i = low
        while i < byBytes.count, bytes[byBytes[i]].starts(with: key) {
            hits.append(byBytes[i])
            i += 1
        }
        return hits.sorted().map { entries[$0] }.filter { $0.path.hasPrefix(prefix) && $0.path != folder }
    }
}

public enum PathUtil {
    /// Removes `.` components, resolves `..` without escaping the root, drops empty
    /// components and leading slashes. The result never starts with `/` or `..`.
    public static func normalize(_ path: String) -> String {
        if isNormal(path) { return path }
        var parts: [Substring] = []
        for c in path.split(separator: "/", omittingEmptySubsequences: true) {
            if c == "." { continue }
            if c == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
            parts.append(c)
        }
        return parts.joined(separator: "/")
    }

    /// True when `normalize` would return the path unchanged: no empty, `.` or `..` component
    /// (most paths a reader asks for come from the listing, already normal).
    static func isNormal(_ path: String) -> Bool {
        var componentLength = 0, dots = 0
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if componentLength == 0 || (dots == componentLength && dots <= 2) { return false }
                componentLength = 0; dots = 0
            } else {
                componentLength += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        return componentLength > 0 && !(dots == componentLength && dots <= 2)
    }

    public static func join(_ a: String, _ b: String) -> String {
        if a.isEmpty { return normalize(b) }
        if b.isEmpty { return normalize(a) }
        return normalize(a + "/" + b)
    }

    public static func lastComponent(_ p: String) -> String {
        var end = p.utf8.endIndex
        while end > p.utf8.startIndex, p.utf8[p.utf8.index(before: end)] == UInt8(ascii: "/") { end = p.utf8.index(before: end) }
        guard end > p.utf8.startIndex else { return p }
        let start = p.utf8[..<end].lastIndex(of: UInt8(ascii: "/")).map { p.utf8.index(after: $0) } ?? p.utf8.startIndex
        return String(p[start..<end])
    }

    public static func parent(_ p: String) -> String {
        guard let slash = p.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(p[..<slash])
    }

    public static func pathExtension(_ p: String) -> String {
        let name = lastComponent(p)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...]).lowercased()
    }

    public static func removingExtension(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}
