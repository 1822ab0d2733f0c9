import Foundation
import Formats

/// The files a spec's source entry stands for: a file, or every file under a folder, less
/// `excludes` and limited to `includes` (globs relative to the entry: `*` within a name,
/// `**` across folders, `?` one character; a pattern matching a folder covers its files).
enum GeneratedSourceFiles {
    static let skippedNames: Set<String> = [".DS_Store", ".git", ".svn"]

    static func files(at path: String, excludes: [String], includes: [String], index: FileIndex) -> [String] {
        let root = PathUtil.normalize(path)
        if let e = index.entry(root), e.kind == .file { return [e.path] }
        return index.files(under: root).compactMap { e -> String? in
            guard e.kind == .file else { return nil }
            let rel = root.isEmpty ? e.path : String(e.path.dropFirst(root.count + 1))
            let parts = rel.split(separator: "/").map(String.init)
            if parts.contains(where: { skippedNames.contains($0) }) { return nil }
            if excludes.contains(where: { matches($0, parts) }) { return nil }
            if !includes.isEmpty, !includes.contains(where: { matches($0, parts) }) { return nil }
            return e.path
        }.sorted()
    }

    /// True when the pattern matches the path or one of its folders.
    static func matches(_ pattern: String, _ parts: [String]) -> Bool {
        let p = pattern.split(separator: "/").map(String.init).filter { $0 != "." }
        for n in stride(from: parts.count, through: 1, by: -1) where match(p[...], parts[..<n]) { return true }
        return false
    }

    /// Component-wise glob matching; `**` matches any number of components. Iterative over
    /// the last `**` (no recursion), like `Glob.matches` within a component.
    static func match(_ pattern: ArraySlice<String>, _ parts: ArraySlice<String>) -> Bool {
        var pi = pattern.startIndex, ti = parts.startIndex
        var star: Int?, mark = ti
        while ti < parts.endIndex {
            if pi < pattern.endIndex, pattern[pi] == "**" {
                star = pi; mark = ti; pi += 1
            } else if pi < pattern.endIndex, Glob.matches(pattern[pi], parts[ti]) {
                pi += 1; ti += 1
            } else if let s = star {
                pi = s + 1; mark += 1; ti = mark
            } else {
                return false
            }
        }
        while pi < pattern.endIndex, pattern[pi] == "**" { pi += 1 }
        return pi == pattern.endIndex
    }

    /// Splits files into what a target compiles and what it copies.
    static func classify(_ files: [String], into target: inout GeneratedTarget) {
        for f in files {
            if ProjectFileRole.isSource(f) { target.sources.append(f) } else { target.resources.append(f) }
        }
    }
}
