import Evidence

/// One step of a value's way from where it is made to where it is used.
struct FlowStep: Equatable {
    var text: String
    var line: Int
}

/// Where a value comes from, as far as one file shows it: a constant written in the code, a
/// sensitive value (a credential by name, a keychain read, key material), or the output of a
/// hash, KDF or cipher (a sanitizer: it stops a sensitive flow, and keeps a constant constant).
struct FlowOrigin: Equatable {
    /// `parameter`: a parameter of the enclosing function that nothing marks sensitive; a sink
    /// may ask the function's callers in the file (`FlowResolver.callSiteConstant`), or, through
    /// a `FlowLink`, the callers in the rest of the target. `external`: a name or a zero-argument
    /// call the file does not declare (`Keys.aes`, `makeKey()`), for the project-wide join.
    enum Kind: Equatable { case constant, sensitive, sanitized, parameter, external }
    var kind: Kind
    /// What the value is at its source: `the literal "…"`, `password`, `a keychain read`.
    var what: String
    var line: Int
    /// An integer constant's value (an iteration count).
    var number: UInt64? = nil
    /// The bindings and conversions it went through, in order.
    var steps: [FlowStep] = []
    /// For `.parameter`: the function and the parameter's index.
    var function: String? = nil
    var parameterIndex: Int? = nil
    /// For `.parameter`: the function as its callers name it.
    var callee: FlowCallee? = nil
    /// For `.parameter`: only part of the value (other parts are not constants), so a constant
    /// argument does not make the value a constant.
    var partial = false
    /// For `.external`: the type that qualifies the name, and whether the value is a call's result.
    var qualifier: String? = nil
    var isCall = false
    /// For `.sensitive`: a parameter judged sensitive by its name alone (`secret: String`), as
    /// its callers name the function: the project-wide join may find that every caller passes
    /// a sanitized value (`secret.encrypt()`). Nil when several sensitive values make the value.
    var namedParameter: NamedParameter? = nil
    /// For `.sensitive`: a value read from a Core Data managed object (`object.primitiveValue(forKey:)`),
    /// already at rest in the app's database: a database write of it is a copy, not a new exposure.
    var atRest = false

    struct NamedParameter: Equatable { var callee: FlowCallee; var index: Int }

    static let maximumSteps = 12

    func then(_ text: String, line: Int) -> FlowOrigin {
        var o = self
        if o.steps.count < Self.maximumSteps, o.steps.last?.text != text { o.steps.append(FlowStep(text: text, line: line)) }
        return o
    }

    /// `the literal "abc…" (line 3) → let key (line 3) → Data(…) (line 5)`.
    var path: String {
        ([FlowStep(text: what, line: line)] + steps).map { "\($0.text) (line \($0.line))" }.joined(separator: " → ")
    }

    /// The path ending at a sink: `… → CCCrypt key (line 9)`.
    func path(to sink: String, line: Int) -> String { "\(path) → \(sink) (line \(line))" }
}
