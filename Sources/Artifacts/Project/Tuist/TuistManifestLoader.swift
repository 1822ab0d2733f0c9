import Foundation
import Formats

/// Reads Tuist manifests (`Project.swift`, and the projects a `Workspace.swift` lists) with the
/// injected Swift reader. Without a reader every manifest is reported as unreadable and the
/// folder is read without it.
enum TuistManifestLoader {
    static let format = "Tuist manifest"

    static func read(manifests: [String], reader: ManifestExpressionReader?, source: FileSource, index: FileIndex,
                     limits: ReaderLimits) -> [GeneratedProjectRead] {
        guard let reader else {
            return manifests.map { path in
                GeneratedProjectRead(problems: [LoadProblem(.unreadable(FormatError(.unsupported, format: format,
                    reason: "no Swift manifest reader was given to the loader, so the Tuist project is not read")), path: path)])
            }
        }
        var projects = manifests.filter { PathUtil.lastComponent($0) == "Project.swift" }
        var reads: [GeneratedProjectRead] = []
        // A workspace names project folders; those not found by discovery (none should be) are added.
        for workspace in manifests where PathUtil.lastComponent(workspace) == "Workspace.swift" {
            var problems: [LoadProblem] = []
            guard let file = parse(workspace, reader: reader, source: source, index: index, limits: limits, problems: &problems) else {
                reads.append(GeneratedProjectRead(problems: problems))
                continue
            }
            var scope = ManifestScope(file: file, path: workspace, limits: limits)
            for folder in TuistWorkspace.projectFolders(in: &scope, folder: PathUtil.parent(workspace), index: index) {
                let p = PathUtil.join(folder, "Project.swift")
                if index.entry(p) != nil, !projects.contains(p) { projects.append(p) }
            }
            reads.append(GeneratedProjectRead(problems: problems + scope.problems))
        }
        for path in projects.sorted() {
            var problems: [LoadProblem] = []
            guard let file = parse(path, reader: reader, source: source, index: index, limits: limits, problems: &problems) else {
                reads.append(GeneratedProjectRead(problems: problems))
                continue
            }
            var reader = TuistProjectReader(scope: ManifestScope(file: file, path: path, limits: limits), index: index)
            var read = reader.read()
            read.problems = problems + read.problems
            reads.append(read)
        }
        return reads
    }

    static func parse(_ path: String, reader: ManifestExpressionReader, source: FileSource, index: FileIndex,
                      limits: ReaderLimits, problems: inout [LoadProblem]) -> ManifestFile? {
        do {
            if let e = index.entry(path), e.size > Int64(limits.maxSourceFileBytes) {
                throw FormatError(.limitExceeded("max-source-file-bytes"), format: format,
                                  reason: "\(path) is \(e.size) bytes, more than \(limits.maxSourceFileBytes)")
            }
            let text = try ProjectFiles.readText(path, source: source, index: index, limits: limits, format: format)
            // An app's own `Project.swift` model file is not a manifest.
            guard text.contains("import ProjectDescription") else { return nil }
            return try reader.read(source: text, path: path, limits: limits)
        } catch {
            problems.append(LoadProblem(unreadable: error, path: path, bundle: nil))
            return nil
        }
    }
}

/// A manifest's constants, resolving identifiers to the values they are bound to, and the
/// problems met while interpreting it ("cannot be read statically").
///
/// Constants can refer to each other, so a small file can describe an exponentially large
/// value (`let b = [a, a, a]`, `let c = [b, b, b]`…) or a deep one (a chain of constants):
/// every resolution is charged to `max-plist-objects` and the interpreters stop descending at
/// `max-nesting-depth` (`enter`/`leave`), reporting what they left out.
struct ManifestScope {
    static let maxProblems = 50
    let bindings: [String: ManifestValue]
    /// The constants in the order written.
    let ordered: [ManifestFile.Binding]
    let path: String
    let limits: ReaderLimits
    var problems: [LoadProblem] = []
    private let work: Work

    final class Work {
        var resolutions = 0
        var depth = 0
    }

    init(file: ManifestFile, path: String, limits: ReaderLimits = .default) {
        var b: [String: ManifestValue] = [:]
        for binding in file.bindings where b[binding.name] == nil { b[binding.name] = binding.value }
        bindings = b
        ordered = file.bindings
        self.path = path
        self.limits = limits
        work = Work()
    }

    /// The value with identifiers of the file's constants replaced (a chain of them included).
    func resolve(_ value: ManifestValue) -> ManifestValue {
        var v = value
        var steps = 0
        while case .identifier(let name) = v.kind, let bound = bindings[name] {
            work.resolutions += 1
            steps += 1
            guard work.resolutions <= limits.maxPlistObjects, steps <= bindings.count else {
                return ManifestValue(.unsupported("\(name) (constants expand to more than \(limits.maxPlistObjects) values)"),
                                     position: value.position)
            }
            v = bound
        }
        return v
    }

    /// Enters one level of a recursive interpretation; false (and a problem) past the depth limit.
    mutating func enter(_ value: ManifestValue) -> Bool {
        guard work.depth < limits.maxNestingDepth else {
            unreadable(ManifestValue(.unsupported("a value nested deeper than \(limits.maxNestingDepth) levels"),
                                     position: value.position), "value")
            return false
        }
        work.depth += 1
        return true
    }

    func leave() { work.depth -= 1 }

    /// Reports an expression that cannot be read statically; what it describes is not loaded.
    mutating func unreadable(_ value: ManifestValue, _ what: String) {
        guard problems.count < Self.maxProblems else { return }
        let text: String
        switch value.kind {
        case .unsupported(let t): text = t
        case .identifier(let n): text = n
        case .call(let name, _, _): text = name + "(…)"
        default: text = "this expression"
        }
        let clipped = text.count > 80 ? String(text.prefix(77)) + "…" : text
        problems.append(LoadProblem(.unreadable(FormatError(.unsupported, format: TuistManifestLoader.format,
            reason: "\(what) `\(clipped)` cannot be read statically (a helper function, loop or computed value); it is left out",
            line: value.position.line, column: value.position.column)), path: path))
    }

    static let stringWrappers: Set<String> = [
        ".relativeToManifest", ".relativeToRoot", "Path.relativeToManifest", "Path.relativeToRoot", "Path", ".path",
        "SettingValue", "Plist.Value", ".string", "SettingValue.string",
    ]

    /// A string literal, a constant bound to one, or an interpolation of those.
    mutating func string(_ value: ManifestValue?, _ what: String) -> String? {
        guard let value else { return nil }
        let v = resolve(value)
        switch v.kind {
        case .string(let s): return s
        case .interpolation(let parts):
            guard enter(v) else { return nil }
            defer { leave() }
            var out = ""
            for p in parts {
                guard let s = string(p, what) else { return nil }
                out += s
                if out.utf8.count > limits.maxStringLength { unreadable(v, what); return nil }
            }
            return out
        case .call(let name, _, let args) where Self.stringWrappers.contains(name) && args.count == 1:
            // `Path("…")`, `.relativeToManifest("…")`, `SettingValue(stringLiteral: …)`, `.string("…")`.
            guard enter(v) else { return nil }
            defer { leave() }
            return string(args[0].value, what)
        default:
            unreadable(v, what)
            return nil
        }
    }

    /// Elements of an array literal (resolved), or of one constant bound to one.
    mutating func array(_ value: ManifestValue?, _ what: String) -> [ManifestValue] {
        guard let value else { return [] }
        let v = resolve(value)
        switch v.kind {
        case .array(let items): return items.map(resolve)
        default:
            unreadable(v, what)
            return []
        }
    }
}

extension ManifestValue {
    /// The call's name and arguments when this is a call.
    var call: (name: String, arguments: [ManifestArgument])? {
        if case .call(let name, _, let args) = kind { return (name, args) }
        return nil
    }
    /// The member name without its leading dot or type (`.iOS`, `Destinations.iOS` → `iOS`).
    var memberName: String? {
        if case .member(let m) = kind { return String(m.split(separator: ".").last ?? "") }
        return nil
    }
}

extension [ManifestArgument] {
    subscript(label: String) -> ManifestValue? { first { $0.label == label }?.value }
    var firstUnlabelled: ManifestValue? { first { $0.label == nil }?.value }
}

/// `Workspace(name:, projects: ["App", "Modules/*"])`: the project folders it lists.
enum TuistWorkspace {
    static func projectFolders(in scope: inout ManifestScope, folder: String, index: FileIndex) -> [String] {
        let calls = scope.ordered.compactMap { binding -> [ManifestArgument]? in
            guard let c = binding.value.call, c.name == "Workspace" || c.name == ".init" else { return nil }
            return c.arguments
        }
        var out: [String] = []
        for args in calls {
            for item in scope.array(args["projects"], "workspace project") {
                guard let pattern = scope.string(item, "workspace project") else { continue }
                guard pattern.contains("*") else {
                    if let p = ProjectPaths.join(folder, pattern) { out.append(p) }
                    continue
                }
                // `Modules/*`: every folder matching that holds a Project.swift.
                let parts = (folder.isEmpty ? [] : folder.split(separator: "/").map(String.init))
                    + pattern.split(separator: "/").map(String.init)
                for e in index.entries where PathUtil.lastComponent(e.path) == "Project.swift" {
                    let dir = PathUtil.parent(e.path)
                    if GeneratedSourceFiles.match(parts[...], dir.split(separator: "/").map(String.init)[...]) { out.append(dir) }
                }
            }
        }
        return out
    }
}
