import Foundation
import Formats

/// The files a spec's source entries stand for: a file, or every file under a folder, less
/// `excludes` and limited to `includes` (globs relative to the entry: `*` within a name,
/// `**` across folders, `?` one character; a pattern matching a folder covers its files).
///
/// A spec can name the same large folder many times (templates, platforms, hostile input), so
/// folders are found by binary search in the sorted file list and the files visited for one
/// spec are capped (`budget`); past it, sources are left out and `exhausted` is set.
struct GeneratedSourceFiles {
    static let skippedNames: Set<String> = [".DS_Store", ".git", ".svn"]

    private let files: [String]
    private let fileSet: Set<String>
    private(set) var budget: Int
    private(set) var exhausted = false

    init(index: FileIndex, limits: ReaderLimits) {
        files = index.entries.filter { $0.kind == .file }.map(\.path).sorted()
        fileSet = Set(files)
        budget = limits.maxArchiveEntries.multipliedReportingOverflow(by: 4).partialValue
    }

    /// Files below `folder` ("" for all), in order, charged to the budget.
    mutating func under(_ folder: String) -> ArraySlice<String> {
        let prefix = folder.isEmpty ? "" : folder + "/"
        var lo = 0, hi = files.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if files[mid] < prefix { lo = mid + 1 } else { hi = mid }
        }
        var end = lo
        while end < files.count, files[end].hasPrefix(prefix) {
            end += 1
            budget -= 1
            if budget < 0 { exhausted = true; return [] }
        }
        return files[lo..<end]
    }

    mutating func files(at path: String, excludes: [String], includes: [String]) -> [String] {
        let root = PathUtil.normalize(path)
        if fileSet.contains(root) { return [root] }
        return under(root).compactMap { file -> String? in
            let rel = root.isEmpty ? file : String(file.dropFirst(root.count + 1))
            let parts = rel.split(separator: "/").map(String.init)
            if parts.contains(where: { Self.skippedNames.contains($0) }) { return nil }
            if excludes.contains(where: { Self.matches($0, parts) }) { return nil }
            if !includes.isEmpty, !includes.contains(where: { Self.matches($0, parts) }) { return nil }
            return file
        }
    }

    /// The problem to report once when the budget ran out.
    func exhaustedProblem(_ spec: String) -> LoadProblem? {
        guard exhausted else { return nil }
        return LoadProblem(.unreadable(FormatError(.limitExceeded("max-archive-entries"), format: "generated project",
            reason: "its sources name more files in all than 4 × max-archive-entries; the rest are left out")), path: spec)
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
