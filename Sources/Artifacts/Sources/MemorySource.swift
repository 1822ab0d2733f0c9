import Foundation
import Formats

/// Files held in memory: rule examples, tests, and synthesized inputs.
public final class MemorySource: FileSource, @unchecked Sendable {
    public let displayName: String
    public let entries: [FileEntry]
    private let files: [String: Data]

    public init(name: String = "memory", files: [String: Data], symlinks: [String: String] = [:]) {
        self.displayName = name
        var normalized: [String: Data] = [:]
        for (p, d) in files { normalized[PathUtil.normalize(p)] = d }
        self.files = normalized
        var dirs = Set<String>()
        for p in Array(normalized.keys) + symlinks.keys.map(PathUtil.normalize) {
            var parent = PathUtil.parent(p)
            while !parent.isEmpty, dirs.insert(parent).inserted { parent = PathUtil.parent(parent) }
        }
        var entries = dirs.map { FileEntry(path: $0, kind: .directory, size: 0) }
        entries += normalized.map { FileEntry(path: $0.key, kind: .file, size: Int64($0.value.count)) }
        entries += symlinks.map { FileEntry(path: PathUtil.normalize($0.key), kind: .symlink, size: 0, linkTarget: $0.value) }
        self.entries = entries.sorted { $0.path < $1.path }
    }

    public convenience init(name: String = "memory", text: [String: String], symlinks: [String: String] = [:]) {
        self.init(name: name, files: text.mapValues { Data($0.utf8) }, symlinks: symlinks)
    }

    public func read(_ path: String) throws -> Data {
        guard let d = files[PathUtil.normalize(path)] else {
            throw SourceError(path: path, reason: "no such file")
        }
        return d
    }
}
