import Foundation
import Formats

/// A Swift expression of a generator manifest (Tuist's `Project.swift`), as far as it can be
/// read without running it: literals, arrays, dictionaries, member accesses (`.iOS`,
/// `Product.app`), identifiers and calls with labelled arguments (`Project(name:…)`,
/// `.target(name:…)`, `["A": "B"].merging(x)`). Anything else is `unsupported` with its text.
/// A reader of Swift source builds it (`ManifestExpressionReader`); Artifacts only interprets it.
public struct ManifestValue: Sendable, Equatable {
    public indirect enum Kind: Sendable, Equatable {
        /// `name(arguments)`, `.name(arguments)` (name starts with "."), `Type.name(arguments)`, or a
        /// method called on `base` (`base.name(arguments)`).
        case call(name: String, base: ManifestValue?, arguments: [ManifestArgument])
        /// `.name` or `Type.name` (without a call), `name` keeping the leading dot when implicit.
        case member(String)
        /// A plain identifier (`targets`, a `let` constant of the file, or something else).
        case identifier(String)
        case string(String)
        /// A string literal with interpolations: literal parts as `.string`, the rest as values.
        case interpolation([ManifestValue])
        case number(String)
        case bool(Bool)
        case array([ManifestValue])
        /// `a + b + …` (arrays or strings joined).
        case concatenation([ManifestValue])
        case dictionary([ManifestEntry])
        case `nil`
        /// `{ name in body }` / `{ body using $0 }` with a one-expression body (the argument of
        /// `.map`, `.flatMap`, `.compactMap`).
        case closure(parameters: [String], body: ManifestValue)
        /// `condition ? then : else`, `!condition` (as `condition ? false : true`), or a value an
        /// `if` of a helper function's body sets: chosen once the condition is a literal `Bool`.
        case conditional(condition: ManifestValue, then: ManifestValue, else: ManifestValue)
        /// An expression that cannot be read statically, with its source text.
        case unsupported(String)
    }
    public var kind: Kind
    public var position: SourcePosition
    /// The file the expression is written in when it is not the manifest being read (a
    /// `ProjectDescriptionHelpers` file whose function or constant the manifest uses).
    public var file: String?

    public init(_ kind: Kind, position: SourcePosition, file: String? = nil) {
        self.kind = kind
        self.position = position
        self.file = file
    }

    /// This value with `file` set on it and every value inside it that has none.
    func stamped(_ path: String) -> ManifestValue {
        var out = self
        if out.file == nil { out.file = path }
        func s(_ v: ManifestValue) -> ManifestValue { v.stamped(path) }
        switch kind {
        case .call(let name, let base, let args):
            out.kind = .call(name: name, base: base.map(s), arguments: args.map { ManifestArgument(label: $0.label, value: s($0.value)) })
        case .interpolation(let parts): out.kind = .interpolation(parts.map(s))
        case .array(let items): out.kind = .array(items.map(s))
        case .concatenation(let parts): out.kind = .concatenation(parts.map(s))
        case .dictionary(let entries): out.kind = .dictionary(entries.map { ManifestEntry(key: s($0.key), value: s($0.value)) })
        case .closure(let parameters, let body): out.kind = .closure(parameters: parameters, body: s(body))
        case .conditional(let c, let yes, let no): out.kind = .conditional(condition: s(c), then: s(yes), else: s(no))
        case .member, .identifier, .string, .number, .bool, .nil, .unsupported: break
        }
        return out
    }
}

public struct ManifestArgument: Sendable, Equatable {
    public var label: String?
    public var value: ManifestValue
    public init(label: String?, value: ManifestValue) {
        self.label = label
        self.value = value
    }
}

public struct ManifestEntry: Sendable, Equatable {
    public var key: ManifestValue
    public var value: ManifestValue
    public init(key: ManifestValue, value: ManifestValue) {
        self.key = key
        self.value = value
    }
}

/// The top level of a manifest: its constants in order, and its functions whose body can be
/// read as one value (`func appTarget(name: String) -> Target { .target(name: name, …) }`, or
/// straight-line `let`/`var`/`append`/`if` statements ending in a `return`), which a call with
/// the same argument labels expands to. Static members of types and extensions are named
/// `Type.name` (`Project.app`, `Constants.deploymentTarget`) and `.name`. Top-level `var`s are
/// read as `unsupported` (code elsewhere in the file may change them).
public struct ManifestFile: Sendable, Equatable {
    public struct Binding: Sendable, Equatable {
        public var name: String
        public var value: ManifestValue
        public init(name: String, value: ManifestValue) {
            self.name = name
            self.value = value
        }
    }
    public struct Function: Sendable, Equatable {
        public struct Parameter: Sendable, Equatable {
            /// The argument label a call writes (nil for `_`).
            public var label: String?
            /// The name the body uses.
            public var name: String
            /// `= value` in the declaration: the argument may be left out.
            public var defaultValue: ManifestValue?
            public init(label: String?, name: String, defaultValue: ManifestValue? = nil) {
                self.label = label
                self.name = name
                self.defaultValue = defaultValue
            }
        }
        public var name: String
        public var parameters: [Parameter]
        /// Local constants and variables in the order the body sets them; each value may name the
        /// parameters and earlier locals (a later entry of the same name replaces the earlier).
        public var locals: [Binding]
        /// The returned value.
        public var body: ManifestValue
        public init(name: String, parameters: [Parameter], locals: [Binding] = [], body: ManifestValue) {
            self.name = name
            self.parameters = parameters
            self.locals = locals
            self.body = body
        }
    }
    public var bindings: [Binding]
    public var functions: [Function]
    public init(bindings: [Binding], functions: [Function] = []) {
        self.bindings = bindings
        self.functions = functions
    }

    /// Every value of the file marked as written in `path` (a helpers file read for a manifest).
    func stamped(_ path: String) -> ManifestFile {
        ManifestFile(bindings: bindings.map { .init(name: $0.name, value: $0.value.stamped(path)) },
                     functions: functions.map { f in
                         .init(name: f.name,
                               parameters: f.parameters.map { .init(label: $0.label, name: $0.name, defaultValue: $0.defaultValue?.stamped(path)) },
                               locals: f.locals.map { .init(name: $0.name, value: $0.value.stamped(path)) },
                               body: f.body.stamped(path))
                     })
    }
}

/// Turns Swift source into `ManifestFile`s. Artifacts does not parse Swift; a module that
/// can (SwiftSourceScan) supplies the reader and the caller passes it to `ProductLoader`.
public protocol ManifestExpressionReader: Sendable {
    /// Throws `FormatError` (with a line when known) when the source cannot be read at all.
    func read(source: String, path: String, limits: ReaderLimits) throws -> ManifestFile
}
