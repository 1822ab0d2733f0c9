import Foundation
import Formats

/// Reads an XcodeGen spec and the files it `include`s into one mapping, as XcodeGen merges
/// them: included files first, each merged deeply under the file that includes it (mappings
/// merge key by key, anything else is replaced). Every node keeps its own file, and the folder
/// its relative paths start from (`relativePaths: false` makes them start at the includer's).
struct XcodeGenSpecFiles {
    static let format = "XcodeGen spec"
    static let maxIncludes = 64

    let source: FileSource
    let index: FileIndex
    let limits: ReaderLimits
    var problems: [LoadProblem] = []
    /// Files read through `include` (not the top spec), in the order they were read.
    private(set) var included: [String] = []
    private var reading: [String] = []
    private var count = 0

    init(source: FileSource, index: FileIndex, limits: ReaderLimits) {
        self.source = source
        self.index = index
        self.limits = limits
    }

    /// The merged spec, or nil (with a problem) when the top file cannot be read.
    mutating func read(_ path: String) -> YAMLNode? {
        read(path, baseDir: PathUtil.parent(path), from: nil)
    }

    private mutating func read(_ path: String, baseDir: String, from: FileLocation?) -> YAMLNode? {
        count += 1
        guard count <= Self.maxIncludes else {
            problems.append(LoadProblem(.unreadable(FormatError(.limitExceeded("includes"), format: Self.format,
                reason: "more than \(Self.maxIncludes) included files")), path: path, referencedFrom: from))
            return nil
        }
        guard !reading.contains(path) else {
            problems.append(LoadProblem(.unreadable(FormatError(.malformed, format: Self.format,
                reason: "includes itself (through \(reading.joined(separator: " → ")))")), path: path, referencedFrom: from))
            return nil
        }
        let node: YAMLNode?
        do {
            let text = try ProjectFiles.readText(path, source: source, index: index, limits: limits, format: YAMLReader.format)
            node = try YAMLReader.read(text, file: path, baseDir: baseDir, limits: limits)
        } catch {
            problems.append(LoadProblem(unreadable: error, path: path, bundle: nil))
            return nil
        }
        guard let node else { return nil }
        guard node.mapping != nil else {
            problems.append(LoadProblem(.unreadable(FormatError(.malformed, format: Self.format,
                reason: "the top level is not a mapping", line: node.position.line, column: node.position.column)), path: path))
            return nil
        }
        reading.append(path)
        defer { reading.removeLast() }
        var merged: YAMLNode?
        for include in includes(of: node) {
            guard let target = ProjectPaths.join(PathUtil.parent(path), include.path) else {
                problems.append(LoadProblem(.missingReference(setting: "include"), path: include.path, referencedFrom: include.location))
                continue
            }
            guard index.entry(target) != nil else {
                problems.append(LoadProblem(.missingReference(setting: "include"), path: target, referencedFrom: include.location))
                continue
            }
            let base = include.relativePaths ? PathUtil.parent(target) : baseDir
            guard let node = read(target, baseDir: base, from: include.location) else { continue }
            included.append(target)
            merged = merged.map { Self.merge($0, node) } ?? node
        }
        return merged.map { Self.merge($0, node) } ?? node
    }

    /// Every file `spec` includes, directly or through other includes (problems dropped: the
    /// caller only asks which files are parts of the spec).
    static func includes(of spec: String, source: FileSource, index: FileIndex, limits: ReaderLimits) -> [String] {
        var files = XcodeGenSpecFiles(source: source, index: index, limits: limits)
        _ = files.read(spec)
        return files.included
    }

    struct Include {
        var path: String
        var relativePaths: Bool
        var location: FileLocation
    }

    func includes(of node: YAMLNode) -> [Include] {
        guard let list = node["include"] else { return [] }
        return (list.sequence ?? [list]).compactMap { item in
            if let p = item.string { return Include(path: p, relativePaths: true, location: item.location) }
            guard let p = item["path"]?.string, item["enable"]?.bool != false else { return nil }
            return Include(path: p, relativePaths: item["relativePaths"]?.bool ?? true, location: item.location)
        }
    }

    /// A spec that parses but says something XcodeGen would refuse, where it says it.
    static func malformed(_ reason: String, at location: FileLocation) -> LoadProblem {
        LoadProblem(.unreadable(FormatError(.malformed, format: format, reason: reason, line: location.position?.line,
                                            column: location.position?.column)), path: location.path)
    }

    /// `over` merged onto `base` as XcodeGen merges includes and templates: mappings key by key
    /// (recursively), sequences appended, anything else replaced; `key:REPLACE` replaces `key`.
    static func merge(_ base: YAMLNode, _ over: YAMLNode) -> YAMLNode {
        if let a = base.sequence, let b = over.sequence {
            var out = over
            out.value = .sequence(a + b)
            return out
        }
        guard var pairs = base.mapping, let overPairs = over.mapping else { return over }
        var at: [String: Int] = [:]
        for (i, p) in pairs.enumerated() { at[p.key] = i }
        for var pair in overPairs {
            let replace = pair.key.hasSuffix(":REPLACE")
            if replace { pair.key = String(pair.key.dropLast(":REPLACE".count)) }
            if let i = at[pair.key] {
                pairs[i] = (pair.key, pair.keyPosition, replace ? pair.value : merge(pairs[i].value, pair.value))
            } else {
                at[pair.key] = pairs.count
                pairs.append(pair)
            }
        }
        var out = over
        out.value = .mapping(pairs)
        return out
    }
}
