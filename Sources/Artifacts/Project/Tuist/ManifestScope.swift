import Foundation
import Formats

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
    /// The file's one-expression functions, by name.
    let functions: [String: ManifestFile.Function]
    /// The constants in the order written.
    let ordered: [ManifestFile.Binding]
    let path: String
    let limits: ReaderLimits
    /// `.relativeToRoot(…)` paths, as a prefix from the manifest's folder to the project root
    /// (`../../` for `Projects/App/Project.swift` under a root with `Tuist/`).
    var rootPrefix = ""
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
        var f: [String: ManifestFile.Function] = [:]
        for function in file.functions where f[function.name] == nil { f[function.name] = function }
        functions = f
        ordered = file.bindings
        self.path = path
        self.limits = limits
        work = Work()
    }

    /// The value with identifiers of the file's constants replaced (a chain of them included),
    /// and calls of the file's functions replaced by their body with the arguments in place.
    func resolve(_ value: ManifestValue) -> ManifestValue {
        var v = value
        var steps = 0
        while true {
            let next: ManifestValue
            let name: String
            if case .identifier(let n) = v.kind, let bound = bindings[n] {
                (next, name) = (bound, n)
            } else if case .call(let n, nil, let args) = v.kind, let f = functions[n], let expanded = expand(f, args) {
                (next, name) = (expanded, n)
            } else {
                return v
            }
            work.resolutions += 1
            steps += 1
            guard work.resolutions <= limits.maxPlistObjects, steps <= bindings.count + functions.count else {
                return ManifestValue(.unsupported("\(name) (constants expand to more than \(limits.maxPlistObjects) values)"),
                                     position: value.position)
            }
            v = next
        }
    }

    /// `f`'s body with each parameter replaced by the argument of the same label, or nil when
    /// the call's labels are not the parameters' (a default value, an overload: not read).
    private func expand(_ f: ManifestFile.Function, _ args: [ManifestArgument]) -> ManifestValue? {
        guard args.map(\.label) == f.parameters.map(\.label) else { return nil }
        var values: [String: ManifestValue] = [:]
        for (p, a) in zip(f.parameters, args) { values[p.name] = a.value }
        return substitute(f.body, values)
    }

    /// `value` with identifiers named in `values` replaced; every node is charged to the limit.
    private func substitute(_ value: ManifestValue, _ values: [String: ManifestValue]) -> ManifestValue {
        work.resolutions += 1
        guard work.resolutions <= limits.maxPlistObjects else {
            return ManifestValue(.unsupported("a function call (expands to more than \(limits.maxPlistObjects) values)"), position: value.position)
        }
        func sub(_ v: ManifestValue) -> ManifestValue { substitute(v, values) }
        var out = value
        switch value.kind {
        case .identifier(let name): if let v = values[name] { out = v }
        case .call(let name, let base, let args):
            out.kind = .call(name: name, base: base.map(sub), arguments: args.map { ManifestArgument(label: $0.label, value: sub($0.value)) })
        case .interpolation(let parts): out.kind = .interpolation(parts.map(sub))
        case .array(let items): out.kind = .array(items.map(sub))
        case .concatenation(let parts): out.kind = .concatenation(parts.map(sub))
        case .dictionary(let entries): out.kind = .dictionary(entries.map { ManifestEntry(key: sub($0.key), value: sub($0.value)) })
        case .member, .string, .number, .bool, .nil, .unsupported: break
        }
        return out
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
        case .interpolation(let parts), .concatenation(let parts):
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
            let prefix = name.hasSuffix("relativeToRoot") ? rootPrefix : ""
            return string(args[0].value, what).map { prefix + $0 }
        default:
            unreadable(v, what)
            return nil
        }
    }

    /// Elements of an array literal (resolved), of a constant bound to one, or of arrays joined
    /// with `+` (a part that cannot be read is reported and the others kept).
    mutating func array(_ value: ManifestValue?, _ what: String) -> [ManifestValue] {
        guard let value else { return [] }
        let v = resolve(value)
        switch v.kind {
        case .array(let items): return items.map(resolve)
        case .concatenation(let parts):
            guard enter(v) else { return [] }
            defer { leave() }
            return parts.flatMap { array($0, what) }
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
