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

    /// `helpers` are the files of `Tuist/ProjectDescriptionHelpers`: their constants and
    /// functions are visible where the manifest does not declare the same name.
    init(file: ManifestFile, path: String, limits: ReaderLimits = .default, helpers: [ManifestFile] = []) {
        var b: [String: ManifestValue] = [:]
        var f: [String: ManifestFile.Function] = [:]
        for source in [file] + helpers {
            for binding in source.bindings where b[binding.name] == nil { b[binding.name] = binding.value }
            for function in source.functions where f[function.name] == nil { f[function.name] = function }
        }
        bindings = b
        functions = f
        ordered = file.bindings
        self.path = path
        self.limits = limits
        work = Work()
    }

    /// The value with identifiers of the file's constants replaced (a chain of them included),
    /// calls of the file's functions replaced by their body with the arguments in place, and
    /// conditionals whose condition is a literal `Bool` replaced by the branch it chooses.
    func resolve(_ value: ManifestValue) -> ManifestValue {
        var v = value
        var steps = 0
        while true {
            let next: ManifestValue
            let name: String
            switch v.kind {
            case .identifier(let n) where bindings[n] != nil, .member(let n) where bindings[n] != nil:
                (next, name) = (bindings[n]!, n)
            case .call(let n, nil, let args) where functions[n] != nil:
                guard let expanded = expand(functions[n]!, args) else { return v }
                (next, name) = (expanded, n)
            case .call(".contains", let base?, let args) where args.count == 1:
                // The list may name this very value (`let a = a.contains(.x)`): bounded like a condition.
                guard work.depth < limits.maxNestingDepth else { return v }
                work.depth += 1
                let result = contains(base, args[0].value)
                work.depth -= 1
                guard let found = result else { return v }
                (next, name) = (ManifestValue(.bool(found), position: v.position, file: v.file), "contains")
            case .conditional(let c, let yes, let no):
                guard work.depth < limits.maxNestingDepth else { return v }
                work.depth += 1
                let condition = resolve(c)
                work.depth -= 1
                guard case .bool(let b) = condition.kind else { return v }
                (next, name) = (b ? yes : no, "a condition")
            default:
                return v
            }
            work.resolutions += 1
            steps += 1
            guard work.resolutions <= limits.maxPlistObjects, steps <= bindings.count + functions.count + limits.maxNestingDepth else {
                return ManifestValue(.unsupported("\(name) (constants expand to more than \(limits.maxPlistObjects) values)"),
                                     position: value.position, file: value.file)
            }
            v = next
        }
    }

    /// `list.contains(x)` for a literal list or `Set([…])` of members or strings; nil when any
    /// element or `x` is not such a literal.
    private func contains(_ list: ManifestValue, _ element: ManifestValue) -> Bool? {
        var l = resolve(list)
        if case .call(let n, nil, let args) = l.kind, n == "Set" || n == "Array", args.count == 1, args[0].label == nil {
            l = resolve(args[0].value)
        }
        func literal(_ v: ManifestValue) -> String? {
            let r = resolve(v)
            switch r.kind {
            case .member: return r.memberName.map { "." + $0 }
            case .string(let s): return "\"" + s
            default: return nil
            }
        }
        guard case .array(let items) = l.kind, items.count <= limits.maxNestingDepth, let wanted = literal(element) else { return nil }
        var out = false
        for item in items {
            guard let value = literal(item) else { return nil }
            if value == wanted { out = true }
        }
        return out
    }

    /// `f`'s body with each parameter replaced by the argument of the same label (or its
    /// default value when the call leaves it out) and its locals set in order; nil when the
    /// call's labels do not fit the parameters (an overload: not read).
    private func expand(_ f: ManifestFile.Function, _ args: [ManifestArgument]) -> ManifestValue? {
        var values: [String: ManifestValue] = [:]
        var next = 0
        for p in f.parameters {
            if next < args.count, args[next].label == p.label {
                values[p.name] = args[next].value
                next += 1
            } else if let d = p.defaultValue {
                values[p.name] = d
            } else {
                return nil
            }
        }
        guard next == args.count else { return nil }
        for local in f.locals { values[local.name] = substitute(local.value, values) }
        return substitute(f.body, values)
    }

    /// One element of a `.map`/`.flatMap`/`.compactMap`: the closure's body with its parameter
    /// bound to `item`, or a function named by reference (`names.map(makeTarget)`) called with it.
    private func apply(_ transform: ManifestValue, to item: ManifestValue) -> ManifestValue? {
        let t = resolve(transform)
        switch t.kind {
        case .closure(let parameters, let body) where parameters.count == 1:
            return resolve(substitute(body, [parameters[0]: item]))
        case .identifier(let n), .member(let n):
            guard let f = functions[n], f.parameters.count == 1 else { return nil }
            return resolve(expand(f, [ManifestArgument(label: f.parameters[0].label, value: item)]) ?? t)
        default:
            return nil
        }
    }

    /// `value` with identifiers named in `values` replaced; every node is charged to the limit.
    private func substitute(_ value: ManifestValue, _ values: [String: ManifestValue]) -> ManifestValue {
        work.resolutions += 1
        guard work.resolutions <= limits.maxPlistObjects else {
            return ManifestValue(.unsupported("a function call (expands to more than \(limits.maxPlistObjects) values)"), position: value.position, file: value.file)
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
        case .closure(let parameters, let body):
            // The closure's own parameters hide the names replaced outside it.
            var inner = values
            for p in parameters { inner[p] = nil }
            out.kind = .closure(parameters: parameters, body: substitute(body, inner))
        case .conditional(let c, let yes, let no): out.kind = .conditional(condition: sub(c), then: sub(yes), else: sub(no))
        case .member, .string, .number, .bool, .nil, .unsupported: break
        }
        return out
    }

    /// Charges `count` values visited; false (and one problem) once `max-plist-objects` is
    /// spent: a helper's locals can share one value many times (`x += x`), so a small body can
    /// describe an exponentially large list without naming a constant.
    mutating func charge(_ count: Int, _ value: ManifestValue) -> Bool {
        work.resolutions += count
        guard work.resolutions <= limits.maxPlistObjects else {
            unreadable(ManifestValue(.unsupported("values (they expand to more than \(limits.maxPlistObjects) values)"),
                                     position: value.position, file: value.file), "value")
            return false
        }
        return true
    }

    /// Enters one level of a recursive interpretation; false (and a problem) past the depth limit.
    mutating func enter(_ value: ManifestValue) -> Bool {
        guard work.depth < limits.maxNestingDepth else {
            unreadable(ManifestValue(.unsupported("a value nested deeper than \(limits.maxNestingDepth) levels"),
                                     position: value.position, file: value.file), "value")
            return false
        }
        work.depth += 1
        return true
    }

    func leave() { work.depth -= 1 }

    /// Reports an expression that cannot be read statically; what it describes is not loaded.
    mutating func unreadable(_ value: ManifestValue, _ what: String) {
        guard problems.count < Self.maxProblems else { return }
        func describe(_ v: ManifestValue) -> String {
            switch v.kind {
            case .unsupported(let t): return t
            case .identifier(let n): return n
            case .call(let name, let base?, _): return describe(base) + name + "(…)"
            case .call(let name, nil, _): return name + "(…)"
            case .member(let m): return m
            case .conditional(let c, _, _): return describe(c) + " ? …"
            default: return "this expression"
            }
        }
        let text = describe(value)
        let clipped = text.count > 80 ? String(text.prefix(77)) + "…" : text
        let reason = "\(what) `\(clipped)` cannot be read statically (a helper function, loop or computed value); it is left out"
        // A helper's constant used by many targets is one problem where it is written, and one
        // condition met at each step of a helper's `if`/`else` is one problem.
        let isConditional: Bool
        if case .conditional = value.kind { isConditional = true } else { isConditional = false }
        if problems.contains(where: { p in
            guard case .unreadable(let e) = p.kind, e.reason == reason else { return false }
            return isConditional || (p.path == (value.file ?? path) && e.line == value.position.line && e.column == value.position.column)
        }) { return }
        problems.append(LoadProblem(.unreadable(FormatError(.unsupported, format: TuistManifestLoader.format,
            reason: reason,
            line: value.position.line, column: value.position.column)), path: value.file ?? path))
    }

    /// Where `value` is written: the manifest, or the helpers file it comes from.
    func location(_ value: ManifestValue) -> FileLocation {
        FileLocation(path: value.file ?? path, position: value.position)
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
            guard charge(parts.count, v), enter(v) else { return nil }
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
        case .call(let name, let base?, let args) where args.isEmpty && (name == ".lowercased" || name == ".uppercased"):
            guard enter(v) else { return nil }
            defer { leave() }
            return string(base, what).map { name == ".lowercased" ? $0.lowercased() : $0.uppercased() }
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
        case .array(let items):
            guard charge(items.count, v) else { return [] }
            return items.map(resolve)
        case .concatenation(let parts):
            guard charge(parts.count, v), enter(v) else { return [] }
            defer { leave() }
            return parts.flatMap { array($0, what) }
        case .nil:
            return []
        case .conditional(_, let yes, let no):
            // `if unknown { list.append(x) }`: the list without `x` is certain; `x` is reported.
            if case .concatenation(let parts) = yes.kind, parts.first == no {
                unreadable(v, what)
                return array(no, what)
            }
            if case .concatenation(let parts) = no.kind, parts.first == yes {
                unreadable(v, what)
                return array(yes, what)
            }
            unreadable(v, what)
            return []
        case .call(let name, let base?, let args) where [".map", ".flatMap", ".compactMap"].contains(name) && args.count == 1:
            guard enter(v) else { return [] }
            defer { leave() }
            var out: [ManifestValue] = []
            for item in array(base, what) {
                guard let mapped = apply(args[0].value, to: item) else { unreadable(v, what); return out }
                if name == ".flatMap" { out += array(mapped, what) } else if name == ".compactMap", case .nil = mapped.kind { continue } else { out.append(mapped) }
            }
            return out
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
