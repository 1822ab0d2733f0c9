/// A function of the project as a call names it: its base name, its argument labels (`_` for
/// none), which parameters have a default, and whether it is a method (called on a receiver).
public struct FlowCallee: Sendable, Hashable, Comparable {
    public var name: String
    public var labels: [String]
    public var defaults: [Bool]
    public var isMethod: Bool

    public init(name: String, labels: [String], defaults: [Bool], isMethod: Bool) {
        self.name = name
        self.labels = labels
        self.defaults = defaults
        self.isMethod = isMethod
    }

    /// `log(_:)`, `aes(operation:keyData:)`.
    public var signature: String { "\(name)(\(labels.map { "\($0):" }.joined()))" }

    /// The parameter each argument of a call with these labels is given to, in order, or nil
    /// when the labels do not fit (a parameter with a default may be left out).
    public func parameters(forArgumentLabels call: [String]) -> [Int]? {
        var out: [Int] = []
        var p = 0
        for label in call {
            while p < labels.count, labels[p] != label {
                guard defaults[p] else { return nil }
                p += 1
            }
            guard p < labels.count else { return nil }
            out.append(p)
            p += 1
        }
        while p < labels.count { guard defaults[p] else { return nil }; p += 1 }
        return out
    }

    public static func < (a: FlowCallee, b: FlowCallee) -> Bool { a.signature < b.signature || (a.signature == b.signature && !a.isMethod && b.isMethod) }
}

/// What one file's data flow leaves open for the project-wide join (`SourceFlowJoin`), carried
/// on a `SourceUsage` whose capability, key and location are the sink's:
/// - `parameterSink`: a parameter of a function of the file reaches the sink inside it
///   (`func log(_ m: String) { NSLog("%@", m) }`); its callers elsewhere decide what reaches it.
/// - `externalSink`: the sink's value is a name or a zero-argument call the file does not
///   declare (`CCCrypt(…, Keys.aes, …)`, `let key = makeKey()`); another file may declare it.
/// - `namedParameterSink`: a finding already, whose value is a parameter judged sensitive by
///   its name alone (`func save(secret: String)`): it stands unless the project's calls of the
///   function are known and every one passes a sanitized value (`save(secret: s.encrypt())`).
public struct FlowLink: Sendable, Hashable {
    public enum Role: Sendable, Hashable { case parameterSink, externalSink, namedParameterSink }
    /// The values the sink reports: sensitive ones (logs, storage) or constants (keys, IVs).
    public enum Wants: Sendable, Hashable { case sensitive, constant }

    public var role: Role
    public var wants: Wants
    /// `parameterSink`: the function and the parameter's index.
    public var callee: FlowCallee?
    public var parameterIndex: Int
    /// `externalSink`: the name, the type that qualifies it (`Keys` in `Keys.aes`), and whether it is called.
    public var name: String
    public var qualifier: String?
    public var isCall: Bool
    /// The way from the parameter (or the external value) to the sink, steps written `text (line N)`.
    public var path: String
    /// Whether a finding's key is the value that reaches the sink (a logged credential's name)
    /// rather than the sink's own key (the preferences key, the crypto API).
    public var keyIsValue = false
    /// `parameterSink`: the path of the parameter's default value when it is a constant (a call
    /// that leaves the argument out passes it).
    public var defaultPath: String?

    public init(role: Role, wants: Wants, callee: FlowCallee? = nil, parameterIndex: Int = 0, name: String = "",
                qualifier: String? = nil, isCall: Bool = false, path: String) {
        self.role = role
        self.wants = wants
        self.callee = callee
        self.parameterIndex = parameterIndex
        self.name = name
        self.qualifier = qualifier
        self.isCall = isCall
        self.path = path
    }
}

/// What the join asks of a file it parses again: the calls it makes to these functions (for
/// these parameters), and its declarations of these constants and zero-argument functions.
public struct FlowQuery: Sendable, Hashable {
    public var callees: [FlowCallee: Set<Int>]
    public var names: Set<String>
    /// Callees some open end of which wants a constant (a key, an IV): their callers' own
    /// parameters are followed whatever the length of the calling function.
    public var constantCallees: Set<FlowCallee> = []
    /// Callees whose every call is answered (`FlowAnswer.Kind.call`): whether it passes a sanitized value.
    public var everyCall: Set<FlowCallee> = []

    public init(callees: [FlowCallee: Set<Int>] = [:], names: Set<String> = []) {
        self.callees = callees
        self.names = names
    }

    public var isEmpty: Bool { callees.isEmpty && names.isEmpty }
}

/// A file's answer to a `FlowQuery`.
public struct FlowAnswer: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// A call of `callee` passes `value` for parameter `parameterIndex`, at `line`/`column`.
        case argument
        /// A `let` named `name` (in type `qualifier`, nil for a global) holds `value`, nil when not known.
        case constant
        /// A zero-argument function named `name` returns `value`, nil when not known.
        case returned
        /// A call of a `FlowQuery.everyCall` callee: `value` is `sanitized` when the argument for
        /// `parameterIndex` is a hash's, KDF's or cipher's output, `unknown` otherwise.
        case call
    }
    /// `omitted`: the call leaves the parameter to its default.
    public enum ValueKind: Sendable, Hashable { case sensitive, constant, parameter, external, omitted, sanitized, unknown }

    public var kind: Kind
    public var callee: FlowCallee?
    public var parameterIndex: Int = 0
    public var name: String = ""
    public var qualifier: String?
    public var value: ValueKind?
    /// What the value is at its source (`token`, `the literal "…"`), and its path to here, steps `text (line N)`.
    public var what: String = ""
    public var path: String = ""
    /// `value == .parameter`: the enclosing function and the parameter's index; `.external`: the name.
    public var enclosing: FlowCallee?
    public var enclosingIndex: Int = 0
    /// `value == .parameter`: only part of the value (a constant argument does not make it a constant).
    public var partial = false
    public var external: String = ""
    public var externalQualifier: String?
    public var externalIsCall = false
    public var line: Int = 0
    public var column: Int = 0
    public var ships = true
    public var container: [String] = []

    public init(kind: Kind) { self.kind = kind }
}
