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
        /// An expression that cannot be read statically, with its source text.
        case unsupported(String)
    }
    public var kind: Kind
    public var position: SourcePosition

    public init(_ kind: Kind, position: SourcePosition) {
        self.kind = kind
        self.position = position
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

/// The top level of a manifest: its constants in order, and its functions whose body is one
/// expression (`func appTarget(name: String) -> Target { .target(name: name, …) }`), which
/// a call with the same argument labels expands to. `var`s are read as `unsupported` (code
/// elsewhere in the file may change them).
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
            public init(label: String?, name: String) {
                self.label = label
                self.name = name
            }
        }
        public var name: String
        public var parameters: [Parameter]
        public var body: ManifestValue
        public init(name: String, parameters: [Parameter], body: ManifestValue) {
            self.name = name
            self.parameters = parameters
            self.body = body
        }
    }
    public var bindings: [Binding]
    public var functions: [Function]
    public init(bindings: [Binding], functions: [Function] = []) {
        self.bindings = bindings
        self.functions = functions
    }
}

/// Turns Swift source into `ManifestFile`s. Artifacts does not parse Swift; a module that
/// can (SwiftSourceScan) supplies the reader and the caller passes it to `ProductLoader`.
public protocol ManifestExpressionReader: Sendable {
    /// Throws `FormatError` (with a line when known) when the source cannot be read at all.
    func read(source: String, path: String, limits: ReaderLimits) throws -> ManifestFile
}
