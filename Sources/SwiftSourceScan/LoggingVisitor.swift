import Evidence
import SwiftSyntax

/// Credentials a Swift file writes to a log (`Security.credentialSystemLog`,
/// `Security.credentialStandardOutput`): an argument or an interpolated value that is a name
/// `SecretNames` calls a secret (`password`, `self.accessToken`, `user.password`), passed to
/// `NSLog`, to `os_log` where the format shows it (`%{public}@`), to a `Logger` method with
/// `privacy: .public`, or to `print`, `debugPrint`, `dump`. A string literal that merely
/// contains the word, a Boolean, and a `Logger` interpolation without `privacy: .public`
/// (redacted in the system log) are not.
final class LoggingVisitor: DeclarationCollector {
    typealias Security = ProtectedResourceCatalog.Security
    typealias E = SecurityExpressions

    let lines: LineTable
    private let target: TargetConditions
    /// One entry per enclosing `#if` clause: whether it can ship (`FileWalk` keeps it in a shared walk).
    var clauseShips: [Bool] = []
    private var found: [(usage: SourceUsage, name: String)] = []
    /// Parameters of the file's functions that reach a log (`func log(_ m: String) { NSLog("%@", m) }`).
    private var links: [SourceUsage] = []
    /// The file's data flow, for values held in variables (`let y = password; NSLog(y)`).
    var flow: FlowResolver?

    init(lines: LineTable, target: TargetConditions = TargetConditions()) {
        self.lines = lines
        self.target = target
        super.init(viewMode: .sourceAccurate)
    }

    /// Names the byte pass must see referenced before the file is parsed for this visitor.
    static let triggerNames: Set<String> = ["NSLog", "os_log", "print", "debugPrint", "dump", "fatalError", "privacy"]
    static let calls = LoggingPrefilter.table(["NSLog(", "os_log(", "print(", "debugPrint(", "dump(", "fatalError(", "privacy:"])
    /// `Logger`'s methods (os, iOS 14).
    static let loggerMethods: Set<String> = ["log", "trace", "debug", "info", "notice", "warning", "error", "critical", "fault"]
    /// Members that give the value itself as text.
    static let transparentMembers: Set<String> = ["description", "debugDescription", "utf8"]

    /// Whether the file names a logging call and a word credentials are named with.
    static func mayFind(in source: String) -> Bool {
        var text = source
        return text.withUTF8 { mayFind(bytes: $0) }
    }

    /// A logging call beside a word credentials are named with, or in a file that declares a
    /// function (a wrapper), where some call passes more than a plain string literal.
    static func mayFind(bytes b: UnsafeBufferPointer<UInt8>) -> Bool {
        LoggingPrefilter.mayLogValue(b, calls: calls)
    }

    var ships: Bool { !clauseShips.contains(false) }

    func scan(_ tree: SourceFileSyntax) -> [SourceUsage] {
        walk(tree)
        return finish()
    }

    /// What the walk found, resolved once the whole file is known.
    func finish() -> [SourceUsage] {
        let context = FileContext(self)
        // A function of the file's own with the name (`func print(_:)` that prints nothing in
        // release builds) is not the system's; a name the file declares `Bool` is a flag.
        return found.filter { f in
            !(f.usage.symbol.map(functions.contains) ?? false) && context.variableType(f.name) != .type("Bool")
        }.map(\.usage) + links.filter { u in !functions.contains(u.symbol ?? "") }
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let arguments = Array(node.arguments)
        if let callee = Self.function(node.calledExpression) {
            let function = callee.name
            // `Swift.print` is the system's even where the project declares a `print` of its own.
            let symbol = callee.qualified ? nil : function
            switch function {
            case "NSLog":
                // Every argument is formatted into one string, logged as it is.
                for a in arguments { report(a.expression, onlyPublic: false, Security.credentialSystemLog, api: "NSLog", symbol: symbol) }
            // `fatalError` prints its message to standard error and into the crash report.
            case "print", "debugPrint", "dump", "fatalError":
                guard !arguments.contains(where: { $0.label?.text == "to" }) else { break }  // into a string or stream of the app's
                for a in arguments where a.label == nil {
                    report(a.expression, onlyPublic: false, Security.credentialStandardOutput, api: function, symbol: symbol)
                }
            case "os_log":
                judgeOSLog(arguments, symbol: symbol)
            default: break
            }
        } else if let member = node.calledExpression.as(MemberAccessExprSyntax.self), member.base != nil,
                  Self.loggerMethods.contains(member.declName.baseName.text) {
            // `logger.info("… \(token, privacy: .public)")`: only an OSLogMessage takes `privacy:`.
            for a in arguments where E.stripped(a.expression).is(StringLiteralExprSyntax.self) {
                report(a.expression, onlyPublic: true, Security.credentialSystemLog,
                       api: "Logger.\(member.declName.baseName.text) privacy: .public", symbol: nil)
            }
        }
        return .visitChildren
    }

    /// `os_log("… %{public}@", log: l, type: .info, token)` or `os_log(.info, "\(token, privacy: .public)")`.
    private func judgeOSLog(_ arguments: [LabeledExprSyntax], symbol: String?) {
        guard let formatIndex = arguments.firstIndex(where: { $0.label == nil && E.stripped($0.expression).is(StringLiteralExprSyntax.self) }),
              let literal = E.stripped(arguments[formatIndex].expression).as(StringLiteralExprSyntax.self) else { return }
        if literal.segments.contains(where: { if case .expressionSegment = $0 { return true } else { return false } }) {
            report(literal, onlyPublic: true, Security.credentialSystemLog, api: "os_log privacy: .public", symbol: symbol)
            return
        }
        guard let format = E.stringLiteral(arguments[formatIndex].expression) else { return }
        let shown = LogFormat.shownArguments(format)
        let values = arguments[(formatIndex + 1)...].filter { $0.label == nil }
        for (a, isShown) in zip(values, shown) where isShown {
            report(a.expression, onlyPublic: false, Security.credentialSystemLog, api: "os_log public format", symbol: symbol)
        }
    }

    /// `Self.logged`, then the values whose origin the data flow shows sensitive, with their path.
    private func logged(_ expression: some ExprSyntaxProtocol, onlyPublic: Bool) -> [(name: String, node: Syntax, path: FlowOrigin?)] {
        logged(expression, onlyPublic: onlyPublic, parameters: nil)
    }

    /// As `logged(_:onlyPublic:)`; the values that are parameters of the enclosing function go to `parameters`.
    private func logged(_ expression: some ExprSyntaxProtocol, onlyPublic: Bool,
                        parameters: ((FlowOrigin, Syntax) -> Void)?) -> [(name: String, node: Syntax, path: FlowOrigin?)] {
        let direct = Self.logged(expression, onlyPublic: onlyPublic).map { (name: $0.name, node: $0.node, path: FlowOrigin?.none) }
        guard let flow else { return direct }
        let e = E.stripped(ExprSyntax(expression))
        var values: [ExprSyntax] = []
        if let literal = e.as(StringLiteralExprSyntax.self) {
            for case .expressionSegment(let segment) in literal.segments {
                guard let value = segment.expressions.first(where: { $0.label == nil })?.expression else { continue }
                if onlyPublic && !Self.isPublic(segment) { continue }
                values.append(value)
            }
        } else if !onlyPublic {
            values = [e]
        }
        var out = direct
        for value in values where !direct.contains(where: { $0.node.id == Syntax(value).id || $0.node.id == Syntax(E.stripped(value)).id }) {
            // A flag or a count is never the secret, whatever it was computed from.
            if E.isFlagLiteral(value) { continue }
            guard let origin = flow.origin(value) else { continue }
            if origin.kind == .sensitive { out.append((origin.what, Syntax(value), origin)) }
            else if origin.kind == .parameter { parameters?(origin, Syntax(value)) }
        }
        return out
    }

    private func report(_ expression: some ExprSyntaxProtocol, onlyPublic: Bool, _ capability: String, api: String, symbol: String?) {
        let values = logged(expression, onlyPublic: onlyPublic) { [self] origin, node in
            // A parameter reaching the log: the callers in other files decide (`SourceFlowJoin`).
            // The symbol lets a function of the file's own named like the log shadow it, as for direct uses.
            if var open = flow?.link(origin, wants: .sensitive, capability: capability, key: origin.what, sink: api, at: node, ships: ships) {
                open.symbol = symbol
                open.link?.keyIsValue = true
                links.append(open)
            }
        }
        report(values, capability, api: api, symbol: symbol)
    }

    private func report(_ logged: [(name: String, node: Syntax, path: FlowOrigin?)], _ capability: String, api: String, symbol: String?) {
        for (name, node, path) in logged {
            let location = lines.location(ofUTF8Offset: node.positionAfterSkippingLeadingTrivia.utf8Offset)
            let shown = path.map { $0.path(to: api, line: location.line) } ?? api
            let usage = SourceUsage(capability: capability, key: name, api: shown, line: location.line, column: location.column,
                                    strength: .definite, ships: ships, symbol: symbol, container: UsageVisitor.container(of: node))
            found.append((usage, name))
        }
    }

    /// The global function a callee names: `print`, `Swift.print`, `Foundation.NSLog`.
    static func function(_ callee: ExprSyntax) -> (name: String, qualified: Bool)? {
        if let reference = callee.as(DeclReferenceExprSyntax.self) { return (reference.baseName.text, false) }
        if let member = callee.as(MemberAccessExprSyntax.self), let base = member.base?.as(DeclReferenceExprSyntax.self),
           ["Swift", "Foundation", "os"].contains(base.baseName.text) {
            return (member.declName.baseName.text, true)
        }
        return nil
    }

    /// The secrets an argument logs: itself when it is a secret's name, or the values a
    /// string literal interpolates (with `onlyPublic`, those marked `privacy: .public`).
    static func logged(_ expression: some ExprSyntaxProtocol, onlyPublic: Bool) -> [(name: String, node: Syntax)] {
        let e = E.stripped(ExprSyntax(expression))
        guard let literal = e.as(StringLiteralExprSyntax.self) else {
            return onlyPublic ? [] : secretName(e).map { [($0, Syntax(e))] } ?? []
        }
        var out: [(name: String, node: Syntax)] = []
        for case .expressionSegment(let segment) in literal.segments {
            guard let value = segment.expressions.first(where: { $0.label == nil })?.expression else { continue }
            if onlyPublic && !isPublic(segment) { continue }
            if let name = secretName(value) { out.append((name, Syntax(value))) }
        }
        return out
    }

    /// `\(value, privacy: .public)`.
    static func isPublic(_ segment: ExpressionSegmentSyntax) -> Bool {
        guard let privacy = segment.expressions.first(where: { $0.label?.text == "privacy" })?.expression else { return false }
        return E.name(privacy).map { $0.name == "public" && ($0.base == "" || $0.base == "OSLogPrivacy") } ?? false
    }

    /// The name of a value that is a secret: `password`, `self.accessToken`, `token ?? ""`,
    /// `String(describing: token)`, `token.description`. Not a type (`Token`), not a call's result.
    static func secretName(_ expression: ExprSyntax, depth: Int = 0) -> String? {
        guard depth < 8 else { return nil }
        let e = E.stripped(expression)
        if let call = e.as(FunctionCallExprSyntax.self), call.arguments.count == 1, let only = call.arguments.first,
           only.label?.text == "describing" || only.label?.text == "reflecting",
           call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "String" {
            return secretName(only.expression, depth: depth + 1)
        }
        if let sequence = e.as(SequenceExprSyntax.self), sequence.elements.count == 3,
           sequence.elements.dropFirst().first?.as(BinaryOperatorExprSyntax.self)?.operator.text == "??",
           let first = sequence.elements.first {
            return secretName(first, depth: depth + 1)
        }
        if let member = e.as(MemberAccessExprSyntax.self), let base = member.base,
           transparentMembers.contains(member.declName.baseName.text) {
            return secretName(base, depth: depth + 1)
        }
        // `json["access_token"]`, `defaults.string(forKey: "authToken")`: a value by a key that says it is a secret.
        if let subscriptCall = e.as(SubscriptCallExprSyntax.self), subscriptCall.arguments.count == 1,
           let key = subscriptCall.arguments.first.flatMap({ E.stringLiteral($0.expression) }) {
            return LoggedCredential.isCredential(key) ? key : nil
        }
        if let call = e.as(FunctionCallExprSyntax.self), call.arguments.count == 1, call.arguments.first?.label?.text == "forKey",
           let key = call.arguments.first.flatMap({ E.stringLiteral($0.expression) }) {
            return LoggedCredential.isCredential(key) ? key : nil
        }
        guard let name = E.valueName(e), let first = name.unicodeScalars.first, !first.properties.isUppercase,
              LoggedCredential.isCredential(name) else { return nil }
        return name
    }

    override func visit(_ node: IfConfigClauseSyntax) -> SyntaxVisitorContinueKind {
        clauseShips.append(CompilationConditions.clauseShips(node, target: target))
        if let elements = node.elements { walk(elements) }
        clauseShips.removeLast()
        return .skipChildren
    }
}
