import Foundation
import Formats

/// Sources and resources of a Tuist target: globs relative to the manifest.
extension TuistTargetReader {
    /// Sources or resources: `["Sources/**"]`, `"Sources/**"`, `.paths([...])`,
    /// `.glob("…", excluding: [...])`, `.folderReference(path:)`, globs relative to the manifest.
    mutating func files(_ value: ManifestValue?, scope: inout ManifestScope, sourcesOnly: Bool) -> [String] {
        guard let value else { return [] }
        let v = scope.resolve(value)
        var items: [ManifestValue]
        switch v.kind {
        case .array(let a): items = a.map(scope.resolve)
        // Lists a helper builds: `base + extra`, `names.map { … }`, `cond ? […] : […]`.
        case .concatenation, .conditional, .nil: items = scope.array(v, "file list")
        case .call(let n, _?, _) where [".map", ".flatMap", ".compactMap"].contains(n): items = scope.array(v, "file list")
        case .call(let n, _, let args) where n == ".paths" || n == ".resources" || n == "SourceFilesList.paths":
            items = scope.array(args.firstUnlabelled, "file list")
        case .call(let n, _, let args) where args["globs"] != nil && (n == "SourceFilesList" || n == ".sourceFilesList"):
            items = scope.array(args["globs"], "file list")
        default: items = [v]
        }
        var out = Set<String>()
        for item in items {
            var pattern: String?, excluding: [String] = []
            if let call = item.call {
                let first = call.arguments["pattern"] ?? call.arguments["path"] ?? call.arguments.firstUnlabelled
                pattern = scope.string(first, "file pattern")
                excluding = scope.array(call.arguments["excluding"], "excluded files").compactMap { scope.string($0, "excluded files") }
            } else {
                pattern = scope.string(item, "file pattern")
            }
            guard let pattern else { continue }
            for f in glob(pattern, excluding: excluding)
            where !sourcesOnly || ProjectFileRole.isSource(f) { out.insert(f) }
        }
        return out.sorted()
    }

    /// Files matching a glob relative to `dir` (a plain folder stands for everything in it).
    mutating func glob(_ pattern: String, excluding: [String]) -> [String] {
        // `*.{swift,h,m}`: one pattern per alternative (a few; more are left as written).
        let alternatives = Self.braceExpansions(pattern)
        if alternatives.count > 1 {
            var seen = Set<String>()
            return alternatives.flatMap { glob($0, excluding: excluding) }.filter { seen.insert($0).inserted }
        }
        guard let joined = ProjectPaths.join(dir, pattern) else { return [] }
        let parts = joined.split(separator: "/").map(String.init)
        let fixed = parts.prefix { !$0.contains("*") && !$0.contains("?") }
        let root = fixed.joined(separator: "/")
        let excludes = excluding.compactMap { ProjectPaths.join(dir, $0)?.split(separator: "/").map(String.init) }
        if fixed.count == parts.count {
            return fileList.files(at: root, excludes: [], includes: [])
        }
        return fileList.under(root).filter { path in
            let fileParts = path.split(separator: "/").map(String.init)
            guard GeneratedSourceFiles.match(parts[...], fileParts[...]) else { return false }
            return !excludes.contains { GeneratedSourceFiles.matches($0.joined(separator: "/"), fileParts) }
        }
    }

    /// The patterns a `{a,b}` group stands for: the first group expanded, recursively, at most
    /// 64 patterns (a pattern with more is taken as written).
    static func braceExpansions(_ pattern: String, limit: Int = 64) -> [String] {
        guard let open = pattern.firstIndex(of: "{"), let close = pattern[open...].firstIndex(of: "}") else { return [pattern] }
        let head = pattern[..<open], tail = pattern[pattern.index(after: close)...]
        var out: [String] = []
        for option in pattern[pattern.index(after: open)..<close].split(separator: ",", omittingEmptySubsequences: false) {
            for rest in braceExpansions(String(tail), limit: limit) {
                out.append(head + option + rest)
                if out.count > limit { return [pattern] }
            }
        }
        return out
    }
}
