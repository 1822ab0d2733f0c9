import Foundation
import Evidence
import SwiftSyntax

/// Intraprocedural data flow of one Swift file, asked at a sink: where does this argument's
/// value come from? It follows, backwards from the sink and inside the function that holds it,
/// `let`/`var` bindings (tuple patterns too), `if let`/`guard let`, reassignment and `+=`,
/// string interpolation and `+`, `??` and `?:`, the conversions that keep a value
/// (`Data(x.utf8)`, `x.data(using:)`, `String(x)`, `Array(x)`, `[UInt8](x)`), parameters, and
/// then the file's own constants (`let`/`static let` members and globals) and the return
/// values of the file's own functions. A `var` changed in any other way before the sink
/// (`&x`, `x.append`, `x.withUnsafeMutableBytes`, an assignment in a nested block) has no known
/// value, except that `&x` given to `SecItemCopyMatching` makes it a keychain read.
///
/// The resolution is lazy (only sinks ask) and bounded (`maximumDepth`), so a file costs one
/// walk plus a few backward looks per sink.
final class FlowResolver {
    typealias E = SecurityExpressions

    let lines: LineTable
    private let tree: SourceFileSyntax
    private var members: [String: [ExprSyntax]]?
    private var functions: [String: [FunctionDeclSyntax]] = [:]
    private var calls: [String: [FunctionCallExprSyntax]] = [:]
    private var secureFields: Set<String> = []
    private var secureBindings: Set<String> = []
    /// Every name a pattern of the file binds (`let x`, `for x in`, `case let x`, `catch let x`).
    private var boundNames: Set<String> = []
    private var variables: [String: [ExprSyntax]] = [:]
    private var assignedNames: Set<String> = []
    private var pwnedPasswords: Bool?
    private var summaries: [String: FlowOrigin?] = [:]
    private var summarizing: Set<String> = []
    /// True while a constant sink asks (`askingForConstant(_:)`): a name alone then says
    /// nothing, so `Secrets.archivePassword` declared in another file is still a constant to
    /// join, and a parameter named `password` one its callers may pass a literal for.
    private var constantAsked = false

    static let maximumDepth = 16

    init(tree: SourceFileSyntax, lines: LineTable) {
        self.tree = tree
        self.lines = lines
    }

    /// `body`'s answers as a constant sink (a key, an IV, a salt, a KDF password) needs them.
    func askingForConstant<T>(_ body: () -> T) -> T {
        let outer = constantAsked
        constantAsked = true
        defer { constantAsked = outer }
        return body()
    }

    func line(_ node: some SyntaxProtocol) -> Int {
        lines.location(ofUTF8Offset: node.positionAfterSkippingLeadingTrivia.utf8Offset).line
    }

    /// The origin of an expression's value, or nil when the file does not show it.
    func origin(_ expression: ExprSyntax) -> FlowOrigin? { origin(expression, depth: 0) }

    /// A sensitive origin only (a credential, a keychain read, key material).
    func sensitive(_ expression: ExprSyntax) -> FlowOrigin? {
        origin(expression).flatMap { $0.kind == .sensitive ? $0 : nil }
    }

    /// A constant origin only (a literal, literal bytes, a file constant).
    func constant(_ expression: ExprSyntax) -> FlowOrigin? {
        origin(expression).flatMap { $0.kind == .constant ? $0 : nil }
    }

    // MARK: Expressions

    func origin(_ expression: ExprSyntax, depth: Int) -> FlowOrigin? {
        guard depth < Self.maximumDepth else { return nil }
        let e = Self.unwrapped(expression)
        let at = line(e)
        if let literal = e.as(StringLiteralExprSyntax.self) { return stringOrigin(literal, depth: depth) }
        if let integer = e.as(IntegerLiteralExprSyntax.self) {
            return FlowOrigin(kind: .constant, what: "the number \(integer.literal.text)", line: at, number: Self.integer(integer))
        }
        if let array = e.as(ArrayExprSyntax.self) {
            guard !array.elements.isEmpty else { return nil }
            let parts = array.elements.map { origin($0.expression, depth: depth + 1) }
            if parts.allSatisfy({ $0?.kind == .constant }) { return FlowOrigin(kind: .constant, what: "literal bytes", line: at) }
            return Self.firstSensitive(parts)?.then("in an array", line: at)
        }
        if let reference = e.as(DeclReferenceExprSyntax.self) {
            return resolve(reference.baseName.text, at: Syntax(e), depth: depth + 1)
        }
        if let member = e.as(MemberAccessExprSyntax.self) { return memberOrigin(member, depth: depth) }
        if let call = e.as(FunctionCallExprSyntax.self) { return callOrigin(call, depth: depth) }
        if let subscriptCall = e.as(SubscriptCallExprSyntax.self) {
            if Self.isKeychainReceiver(subscriptCall.calledExpression) {
                return FlowOrigin(kind: .sensitive, what: "a keychain read", line: at)
            }
            if let key = subscriptCall.arguments.first.flatMap({ E.stringLiteral($0.expression) }), LoggedCredential.isCredential(key) {
                return FlowOrigin(kind: .sensitive, what: "the value for \"\(key)\"", line: at)
            }
            return nil
        }
        if let ternary = CryptoVisitor.ternaryBranches(e) {
            return combine(ternary.map { origin($0, depth: depth + 1) }, requireAllConstant: true, step: "?:", line: at)
        }
        if let sequence = e.as(SequenceExprSyntax.self) { return sequenceOrigin(sequence, depth: depth) }
        return nil
    }

    /// Casts, parentheses, `!`, `?`, `try`, `await`; not bridging initializers (a conversion is a step).
    static func unwrapped(_ expression: ExprSyntax, depth: Int = 0) -> ExprSyntax {
        guard depth < 16 else { return expression }
        if let t = expression.as(TryExprSyntax.self) { return unwrapped(t.expression, depth: depth + 1) }
        if let a = expression.as(AwaitExprSyntax.self) { return unwrapped(a.expression, depth: depth + 1) }
        if let cast = expression.as(AsExprSyntax.self) { return unwrapped(cast.expression, depth: depth + 1) }
        if let sequence = expression.as(SequenceExprSyntax.self), sequence.elements.count == 3,
           let op = sequence.elements.dropFirst().first, op.is(UnresolvedAsExprSyntax.self), let first = sequence.elements.first {
            return unwrapped(first, depth: depth + 1)
        }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first, only.label == nil {
            return unwrapped(only.expression, depth: depth + 1)
        }
        if let forced = expression.as(ForceUnwrapExprSyntax.self) { return unwrapped(forced.expression, depth: depth + 1) }
        if let optional = expression.as(OptionalChainingExprSyntax.self) { return unwrapped(optional.expression, depth: depth + 1) }
        return expression
    }

    private func stringOrigin(_ literal: StringLiteralExprSyntax, depth: Int) -> FlowOrigin? {
        let at = line(literal)
        var parts: [FlowOrigin?] = []
        var text = ""
        for segment in literal.segments {
            switch segment {
            case .stringSegment(let s): text += s.content.text
            case .expressionSegment(let s):
                parts.append(s.expressions.first.flatMap { origin($0.expression, depth: depth + 1) })
            }
        }
        if parts.isEmpty {
            // An empty literal is a placeholder filled later, not a value.
            return text.isEmpty ? nil : FlowOrigin(kind: .constant, what: "a string literal", line: at)
        }
        return combine(parts, requireAllConstant: true, step: "interpolated into a string", line: at)
    }

    /// Sensitive when any part is; constant when every part is.
    /// Otherwise a parameter part (partial unless every other part is a constant), for the
    /// callers to decide, or an external value when it is the only part.
    private func combine(_ parts: [FlowOrigin?], requireAllConstant: Bool, step: String, line at: Int) -> FlowOrigin? {
        if let s = Self.firstSensitive(parts) { return s.then(step, line: at) }
        if !parts.isEmpty, parts.allSatisfy({ $0?.kind == .constant }), let first = parts[0] { return first.then(step, line: at) }
        let parameters = parts.compactMap { $0 }.filter { $0.kind == .parameter }
        if var p = parameters.first {
            p.partial = p.partial || parameters.count > 1 || !parts.allSatisfy { $0?.kind == .constant || $0?.kind == .parameter }
            return p.then(step, line: at)
        }
        if parts.count == 1, let only = parts[0], only.kind == .external { return only.then(step, line: at) }
        return nil
    }

    /// The sensitive part that speaks for a value made of several: one not already at rest in a
    /// database first; no single parameter's callers can clear it when several parts are sensitive.
    static func firstSensitive(_ parts: [FlowOrigin?]) -> FlowOrigin? {
        let sensitive = parts.compactMap { $0 }.filter { $0.kind == .sensitive }
        guard var s = sensitive.first(where: { !$0.atRest }) ?? sensitive.first else { return nil }
        if sensitive.count > 1 { s.namedParameter = nil }
        return s
    }

    private func sequenceOrigin(_ sequence: SequenceExprSyntax, depth: Int) -> FlowOrigin? {
        let elements = Array(sequence.elements)
        guard elements.count >= 3, elements.count % 2 == 1, elements.count <= 31 else { return nil }
        var operands: [ExprSyntax] = []
        var ops: Set<String> = []
        for (i, element) in elements.enumerated() {
            if i % 2 == 0 { operands.append(element) } else {
                guard let op = element.as(BinaryOperatorExprSyntax.self) else { return nil }
                ops.insert(op.operator.text)
            }
        }
        guard ops.isSubset(of: ["+", "??"]) else { return nil }
        let at = line(sequence)
        let parts = operands.map { origin($0, depth: depth + 1) }
        return combine(parts, requireAllConstant: true, step: ops.contains("+") ? "concatenated" : "??", line: at)
    }

    // MARK: Members

    /// Members that are the value itself in another form.
    static let transparentMembers: Set<String> = ["utf8", "utf8CString", "bytes", "description", "debugDescription", "baseAddress",
                                                  "base64EncodedString", "base64EncodedData", "uppercased", "lowercased",
                                                  "data", "rawValue", "stringValue", "absoluteString"]

    private func memberOrigin(_ member: MemberAccessExprSyntax, depth: Int) -> FlowOrigin? {
        let name = member.declName.baseName.text
        let at = line(member)
        guard let base = member.base else { return nil }
        let baseName = E.valueName(base)
        let selfBase = ["self", "Self"].contains(base.as(DeclReferenceExprSyntax.self)?.baseName.text)
        if selfBase, let secure = secureBinding(name, line: at) { return secure }
        if selfBase || baseName.map(Self.isTypeName) == true {
            if let known = fileMember(name, at: at, depth: depth) ?? nameOrigin(name, line: at) { return known }
            // `Keys.aes`: a static constant another file of the target may declare.
            guard !selfBase, let type = base.as(DeclReferenceExprSyntax.self)?.baseName.text, !Self.isTypeName(name) else { return nil }
            var o = FlowOrigin(kind: .external, what: "\(type).\(name)", line: at)
            o.function = name
            o.qualifier = type
            return o
        }
        if Self.transparentMembers.contains(name), name != "data" {
            return origin(base, depth: depth + 1)?.then(".\(name)", line: at)
        }
        if name == "text", let field = baseName, isSecureField(field) {
            return FlowOrigin(kind: .sensitive, what: "the text of secure field \(field)", line: at)
        }

        return nameOrigin(name, line: at)
    }

    /// A text field or view named for a credential (`passwordTextField`, `self.pinField`): its
    /// name, or nil. The name without its UI suffix must be one `LoggedCredential` calls a credential.
    static func credentialField(_ name: String) -> String? {
        let last = name.split(separator: ".").last.map(String.init) ?? name
        for suffix in ["TextField", "SecureField", "Field", "TextView", "Input", "TF"] where last.hasSuffix(suffix) && last.count > suffix.count {
            let stem = String(last.dropLast(suffix.count))
            return LoggedCredential.isCredential(stem) || isPersonalSecret(stem) ? last : nil
        }
        return nil
    }

    static func isTypeName(_ name: String) -> Bool { name.unicodeScalars.first?.properties.isUppercase == true }

    /// A field the file makes secure (`x.isSecureTextEntry = true`); a field's name alone
    /// (`passwordField`) is not enough (a storyboard may leave it plain).
    /// A property a SwiftUI `SecureField` of the file edits (`SecureField("PIN", text: $pin)`).
    private func secureBinding(_ name: String, line at: Int) -> FlowOrigin? {
        loadFileFacts()
        return secureBindings.contains(name) ? FlowOrigin(kind: .sensitive, what: "the text of SecureField $\(name)", line: at) : nil
    }

    private func isSecureField(_ name: String) -> Bool {
        loadFileFacts()
        return secureFields.contains(name)
    }

    // MARK: Calls

    /// Initializers and methods that keep the value (its bytes or its text).
    static let conversions: Set<String> = ["Data", "NSData", "Array", "ContiguousArray", "String", "NSString", "NSMutableData",
                                           "Int", "UInt", "Int32", "UInt32", "Int64", "UInt64", "Optional"]
    static let conversionLabels: Set<String> = ["bytes", "data", "base64Encoded", "hex", "decoding", "describing", "utf8String"]
    static let keepingMethods: Set<String> = ["data", "base64EncodedString", "base64EncodedData", "uppercased", "lowercased",
                                              "trimmingCharacters", "toHexString", "hexString"]
    /// Calls whose result does not give away their input: hashes, KDFs, ciphers, MACs.
    static func isSanitizer(_ name: String) -> Bool {
        let lower = name.lowercased()
        return ["hash", "digest", "encrypt", "seal", "pbkdf", "derive", "hmac", "bcrypt", "scrypt", "argon", "sha", "md5",
                "authenticationcode", "cipher"].contains { lower.contains($0) }
    }

    private func callOrigin(_ call: FunctionCallExprSyntax, depth: Int) -> FlowOrigin? {
        let at = line(call)
        let arguments = Array(call.arguments)
        let first = arguments.first
        // `[UInt8](x)`, `[UInt8](repeating: 0, count: 16)`
        let callee = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
            ?? (call.calledExpression.is(ArrayExprSyntax.self) ? "Array" : nil)
        if let callee, Self.conversions.contains(callee) {
            if let first, first.label?.text == "repeating" || (first.label?.text == "count" && arguments.count == 1) {
                return FlowOrigin(kind: .constant, what: "bytes of one repeated value", line: at)
            }
            if let first, first.label == nil || Self.conversionLabels.contains(first.label?.text ?? "") {
                return origin(first.expression, depth: depth + 1)?.then("\(callee)(…)", line: at)
            }
            return nil
        }
        if callee == "SymmetricKey", first?.label?.text == "size" {
            return FlowOrigin(kind: .sensitive, what: "a random SymmetricKey", line: at)
        }
        if callee == "SecKeyCreateRandomKey" { return FlowOrigin(kind: .sensitive, what: "a SecKey", line: at) }
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
            let name = member.declName.baseName.text
            if let base = member.base {
                if Self.isKeychainReceiver(base), ["string", "data", "get", "getData", "getString", "password", "passwordData", "read",
                                                    "load", "object", "value", "secret"].contains(name) {
                    return FlowOrigin(kind: .sensitive, what: "a keychain read", line: at)
                }
                if Self.keepingMethods.contains(name) { return origin(base, depth: depth + 1)?.then(".\(name)(…)", line: at) }
                if Self.isSanitizer(name) {
                    // `x.sha256()`, `SHA256.hash(data: x)`: a constant stays one; a secret is no longer readable.
                    let input = Self.isTypeName(E.valueName(base) ?? "") ? first?.expression : base
                    return sanitized(input, name: name, line: at, depth: depth)
                }
                if ["self", "Self"].contains(base.as(DeclReferenceExprSyntax.self)?.baseName.text) {
                    return summary(of: name, line: at, depth: depth)
                }
            }
            return nil
        }
        if let callee {
            if Self.isSanitizer(callee) { return sanitized(first?.expression, name: callee, line: at, depth: depth) }
            loadFileFacts()
            if functions[callee] == nil, arguments.isEmpty, call.trailingClosure == nil, !Self.isTypeName(callee), !boundNames.contains(callee) {
                // `makeKey()`: a function another file of the target may declare.
                var o = FlowOrigin(kind: .external, what: "\(callee)()", line: at)
                o.function = callee
                o.isCall = true
                return o
            }
            return summary(of: callee, line: at, depth: depth)
        }
        return nil
    }

    /// What a zero-argument function of this file returns (for the project-wide join).
    func returned(by name: String) -> FlowOrigin? {
        loadFileFacts()
        guard let declarations = functions[name], declarations.count == 1,
              declarations[0].signature.parameterClause.parameters.isEmpty else { return nil }
        return summary(of: name, line: line(declarations[0]), depth: 0)
    }

    private func sanitized(_ input: ExprSyntax?, name: String, line at: Int, depth: Int) -> FlowOrigin? {
        let inner = input.flatMap { origin($0, depth: depth + 1) }
        if let inner, inner.kind == .constant { return inner.then("\(name)(…)", line: at) }
        return FlowOrigin(kind: .sanitized, what: "\(name)(…)", line: at)
    }

    /// `keychain`, `KeychainWrapper.standard`, `self.keychainStore`, `SAMKeychain`, a Valet (`valet`, `Valet.valet(with:…)`).
    static func isKeychainReceiver(_ e: ExprSyntax) -> Bool {
        let text = E.stripped(e).sourceText.lowercased()
        return text.count < 80 && (text.contains("keychain") || text.contains("valet"))
    }

    /// What a function of this file returns: the first sensitive return value, a constant when
    /// every return is one, else a value its name calls a credential.
    private func summary(of name: String, line at: Int, depth: Int) -> FlowOrigin? {
        loadFileFacts()
        guard let declarations = functions[name], !declarations.isEmpty else { return nil }
        let summaryKey = constantAsked ? "constant " + name : name
        if let cached = summaries[summaryKey] { return cached?.then("returned by \(name)()", line: at) }
        guard !summarizing.contains(name), depth < Self.maximumDepth else { return nil }
        summarizing.insert(name)
        defer { summarizing.remove(name) }
        var parts: [FlowOrigin?] = []
        for f in declarations {
            if let type = f.signature.returnClause?.type.sourceText, type == "Bool" || type == "Void" { return nil }
            for value in Self.returnedValues(f) { parts.append(origin(value, depth: depth + 1)) }
        }
        var result = combine(parts, requireAllConstant: true, step: "return", line: at)
        if result == nil, LoggedCredential.isCredential(name), declarations.allSatisfy({ $0.signature.returnClause != nil }) {
            result = FlowOrigin(kind: .sensitive, what: "\(name)()", line: line(declarations[0]))
        }
        summaries[summaryKey] = result
        return result?.then("returned by \(name)()", line: at)
    }

    /// The values a function returns (not those of closures or nested functions in it).
    static func returnedValues(_ f: FunctionDeclSyntax) -> [ExprSyntax] {
        guard let body = f.body else { return [] }
        if body.statements.count == 1, let only = body.statements.first?.item.as(ExprSyntax.self) { return [only] }
        final class Returns: SyntaxVisitor {
            var values: [ExprSyntax] = []
            override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind {
                if let e = node.expression, values.count < 16 { values.append(e) }
                return .skipChildren
            }
            override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
            override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        }
        let visitor = Returns(viewMode: .sourceAccurate)
        visitor.walk(body.statements)
        return visitor.values
    }

    // MARK: Names

    /// The origin a name's value has at `node`: its binding in the enclosing blocks, a
    /// parameter, a constant of the file, or what its name says.
    func resolve(_ name: String, at node: Syntax, depth: Int) -> FlowOrigin? {
        guard depth < Self.maximumDepth else { return nil }
        let at = line(node)
        var child = node
        var current = node.parent
        var steps = 0
        while let n = current, steps < 256 {
            steps += 1
            if let list = n.as(CodeBlockItemListSyntax.self) {
                if let found = bindingIn(list, before: child, name: name, sink: node, depth: depth) { return found }
            } else if let ifExpr = n.as(IfExprSyntax.self), child.id == ifExpr.body.id {
                if let found = conditionBinding(ifExpr.conditions, name: name, depth: depth) { return found }
            } else if let whileStmt = n.as(WhileStmtSyntax.self), child.id == whileStmt.body.id {
                if let found = conditionBinding(whileStmt.conditions, name: name, depth: depth) { return found }
            } else if let closure = n.as(ClosureExprSyntax.self), Self.closureParameters(closure).contains(name) {
                // `x.withUnsafeBytes { p in … }`: `p` is `x`'s bytes.
                if Self.closureParameters(closure).count == 1, let base = Self.bytesClosureBase(closure) {
                    return origin(base, depth: depth + 1)?.then("\(name) in withUnsafeBytes", line: at)
                }
                return nameOrigin(name, line: at)
            } else if let function = n.as(FunctionDeclSyntax.self) {
                let parameters = Array(function.signature.parameterClause.parameters)
                if let index = parameters.firstIndex(where: { ($0.secondName ?? $0.firstName).text == name }) {
                    if var o = parameterOrigin(parameters[index], line: line(parameters[index])) {
                        if o.what.hasPrefix("parameter "), let c = Self.callee(function, linkable: Self.callersAreVisible(function)) {
                            o.namedParameter = FlowOrigin.NamedParameter(callee: c, index: index)
                        }
                        return o
                    }
                    var o = FlowOrigin(kind: .parameter, what: "parameter \(name) of \(function.name.text)", line: line(parameters[index]))
                    o.function = function.name.text
                    o.parameterIndex = index
                    o.callee = Self.callee(function, linkable: !Self.scalarTypes.contains(parameters[index].type.sourceText))
                    return o
                }
            } else if let initializer = n.as(InitializerDeclSyntax.self) {
                if let p = initializer.signature.parameterClause.parameters.first(where: { ($0.secondName ?? $0.firstName).text == name }) {
                    return parameterOrigin(p, line: line(p))
                }
            }
            child = n
            current = n.parent
        }
        if let secure = secureBinding(name, line: at) { return secure }
        if let known = fileMember(name, at: at, depth: depth) ?? nameOrigin(name, line: at) { return known }
        // A name nothing in the file binds: a global constant another file of the target may declare.
        loadFileFacts()
        guard !Self.isTypeName(name), !boundNames.contains(name), functions[name] == nil else { return nil }
        var o = FlowOrigin(kind: .external, what: name, line: at)
        o.function = name
        return o
    }

    /// A value named only `token` (`token`, `room.token`, `parameter token`): a chat room's, a
    /// page's or a push token as often as a credential, so not carried into another file's
    /// wrapper nor a database on its name alone.
    static func isBareToken(_ what: String) -> Bool {
        var name = what.hasPrefix("parameter ") ? String(what.dropFirst("parameter ".count)) : what
        if let dot = name.lastIndex(of: ".") { name = String(name[name.index(after: dot)...]) }
        return SecretNames.words(name) == ["token"]
    }

    /// Parameter types whose values are never a secret nor key material.
    static let scalarTypes: Set<String> = ["Bool", "Int", "UInt", "Int32", "UInt32", "Int64", "UInt64", "Double", "Float", "CGFloat"]

    /// A function other files can call (a global or a member, not a function nested in a body),
    /// as its callers name it; nil when it is not one or `linkable` is false.
    static func callee(_ f: FunctionDeclSyntax, linkable: Bool) -> FlowCallee? {
        guard linkable else { return nil }
        var current = f.parent
        var isMethod = false
        var steps = 0
        while let n = current, steps < 64 {
            steps += 1
            if n.is(CodeBlockSyntax.self) || n.is(ClosureExprSyntax.self) { return nil }
            if n.is(MemberBlockSyntax.self) { isMethod = true; break }
            if n.is(SourceFileSyntax.self) { break }
            current = n.parent
        }
        let parameters = f.signature.parameterClause.parameters
        return FlowCallee(name: f.name.text, labels: parameters.map(\.firstName.text), defaults: parameters.map { $0.defaultValue != nil },
                          isMethod: isMethod)
    }

    /// The open end a sink leaves when its value is a parameter of the enclosing function (its
    /// callers in other files decide) or an external value (for constant sinks): a `SourceUsage`
    /// carrying a `FlowLink`, or nil when the value is neither.
    func link(_ o: FlowOrigin, wants: FlowLink.Wants, capability: String, key: String, sink: String, at node: some SyntaxProtocol,
              ships: Bool) -> SourceUsage? {
        let location = lines.location(ofUTF8Offset: node.positionAfterSkippingLeadingTrivia.utf8Offset)
        let path = o.path(to: sink, line: location.line)
        let l: FlowLink
        switch o.kind {
        case .parameter:
            loadFileFacts()
            guard let c = o.callee, let i = o.parameterIndex, wants == .sensitive || !o.partial, functions[c.name]?.count == 1 else { return nil }
            var parameterLink = FlowLink(role: .parameterSink, wants: wants, callee: c, parameterIndex: i, path: path)
            if wants == .constant, let f = functions[c.name]?.first, i < f.signature.parameterClause.parameters.count {
                let p = f.signature.parameterClause.parameters[f.signature.parameterClause.parameters.index(f.signature.parameterClause.parameters.startIndex, offsetBy: i)]
                if let value = p.defaultValue?.value, let d = constant(value) { parameterLink.defaultPath = d.then("default of \((p.secondName ?? p.firstName).text)", line: line(value)).path }
            }
            l = parameterLink
        case .external:
            guard wants == .constant, let name = o.function else { return nil }
            l = FlowLink(role: .externalSink, wants: wants, name: name, qualifier: o.qualifier, isCall: o.isCall, path: path)
        default:
            return nil
        }
        return SourceUsage(capability: capability, key: key, api: path, line: location.line, column: location.column, strength: .definite,
                           ships: ships, container: UsageVisitor.container(of: Syntax(node)), link: l)
    }

    /// What a name alone says: a credential (`password`, `authToken`), not a type.
    func nameOrigin(_ name: String, line at: Int) -> FlowOrigin? {
        guard !constantAsked, !Self.isTypeName(name), LoggedCredential.isCredential(name) || Self.isPersonalSecret(name) else { return nil }
        return FlowOrigin(kind: .sensitive, what: name, line: at)
    }

    /// Secrets `SecretNames` leaves to the data flow: a PIN code, a social security number, a card number or CVV.
    static func isPersonalSecret(_ name: String) -> Bool {
        let words = SecretNames.words(name)
        guard !words.isEmpty, words.count <= 4, Set(words).isDisjoint(with: ["is", "has", "count", "length", "type", "enabled", "field",
                                                                             "label", "view", "placeholder", "policy", "required", "valid"])
        else { return false }
        let joined = words.joined()
        return words.contains("ssn") || words.contains("cvv") || joined.contains("creditcard") || joined.contains("cardnumber")
            || joined.contains("pincode") || joined.contains("socialsecurity")
    }

    /// Types whose values are key material.
    static let keyTypes: Set<String> = ["SymmetricKey", "SecKey", "SecIdentity"]

    /// A key-typed value whose name says it is the public half.
    static func isPublic(_ name: String) -> Bool { SecretNames.words(name).contains("public") }

    private func parameterOrigin(_ p: FunctionParameterSyntax, line at: Int) -> FlowOrigin? {
        let name = (p.secondName ?? p.firstName).text
        let type = p.type.sourceText.trimmingCharacters(in: ["?", "!"])
        if Self.keyTypes.contains(type), !Self.isPublic(name) { return FlowOrigin(kind: .sensitive, what: "\(name): \(type)", line: at) }
        if type == "Bool" || Self.isNumber(type, named: name) { return nil }
        return nameOrigin(name, line: at) == nil ? nil : FlowOrigin(kind: .sensitive, what: "parameter \(name)", line: at)
    }

    /// The receiver of `x.withUnsafeBytes { … }` (trailing closure or only argument).
    static func bytesClosureBase(_ closure: ClosureExprSyntax) -> ExprSyntax? {
        var call = closure.parent?.as(FunctionCallExprSyntax.self)
        if call == nil, let argument = closure.parent?.as(LabeledExprSyntax.self) {
            call = argument.parent?.parent?.as(FunctionCallExprSyntax.self)
        }
        guard let member = call?.calledExpression.as(MemberAccessExprSyntax.self),
              ["withUnsafeBytes", "withUnsafeBufferPointer"].contains(member.declName.baseName.text) else { return nil }
        return member.base
    }

    /// A constant one of the file's calls passes for a parameter the sink's value comes from
    /// (the argument, or the parameter's default when a call leaves it out): the first found,
    /// its path running from the caller's constant through the parameter to the sink's value.
    func callSiteConstant(for parameter: FlowOrigin, at sink: Syntax) -> FlowOrigin? {
        guard parameter.kind == .parameter, !parameter.partial, let name = parameter.function, let index = parameter.parameterIndex else { return nil }
        var current = sink.parent
        var steps = 0
        var declaration: FunctionDeclSyntax?
        while let n = current, steps < 256, declaration == nil {
            steps += 1
            if let f = n.as(FunctionDeclSyntax.self), f.name.text == name { declaration = f }
            current = n.parent
        }
        guard let declaration else { return nil }
        let parameters = Array(declaration.signature.parameterClause.parameters)
        guard index < parameters.count else { return nil }
        let p = parameters[index]
        let label = p.firstName.text
        loadFileFacts()
        for call in calls[name] ?? [] {
            let arguments = Array(call.arguments)
            let passed: ExprSyntax?
            if label == "_" {
                let positional = arguments.filter { $0.label == nil }
                passed = index < positional.count ? positional[index].expression : nil
            } else {
                passed = arguments.first { $0.label?.text == label }?.expression
            }
            guard let value = passed ?? p.defaultValue?.value, let c = constant(value) else { continue }
            var o = c.then("\(name)(\(label == "_" ? "" : label + ":")…) (called)", line: line(call))
            for step in parameter.steps { o = o.then(step.text, line: step.line) }
            return o
        }
        return nil
    }

    static func closureParameters(_ closure: ClosureExprSyntax) -> [String] {
        switch closure.signature?.parameterClause {
        case .simpleInput(let list)?: return list.map(\.name.text)
        case .parameterClause(let clause)?: return clause.parameters.map { ($0.secondName ?? $0.firstName).text }
        case nil: return []
        }
    }

    private func conditionBinding(_ conditions: ConditionElementListSyntax, name: String, depth: Int) -> FlowOrigin? {
        for element in conditions {
            guard case .optionalBinding(let binding) = element.condition,
                  binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name else { continue }
            let at = line(binding)
            let specifier = binding.bindingSpecifier.text
            if let value = binding.initializer?.value {
                return valueOrigin(value, name: name, depth: depth)?.then("\(specifier) \(name)", line: at)
            }
            // `if let name`: the outer binding of the same name.
            return resolve(name, at: Syntax(element.parent ?? Syntax(element)), depth: depth + 1)?.then("\(specifier) \(name)", line: at)
        }
        return nil
    }

    /// A binding's value, or what its name says when the value is not known (never for a sanitizer's output).
    private func valueOrigin(_ value: ExprSyntax, name: String, type: String? = nil, depth: Int) -> FlowOrigin? {
        if let o = origin(value, depth: depth + 1) {
            if o.kind == .parameter || o.kind == .external { return namedValueOrigin(value, name: name, type: type) ?? o }
            // `guard let roomToken = room.token`: the binding's name says which token a bare `token` is.
            if o.kind == .sensitive, Self.isBareToken(o.what), SecretNames.words(name).contains("token"), !LoggedCredential.isCredential(name) {
                return nil
            }
            // A sanitizer's output stays one (a caller's `let sealed = secret.encrypt()`), never judged by its name.
            return o
        }
        return namedValueOrigin(value, name: name, type: type)
    }

    /// What a binding's name says of a value the file does not show: nothing for a number
    /// (`let secretPeriod = x as? Int`, a PIN aside), a credential already at rest for a managed
    /// object's stored value (`let secret = old.primitiveValue(forKey: "secret") as? String`).
    private func namedValueOrigin(_ value: ExprSyntax, name: String, type: String?) -> FlowOrigin? {
        if Self.isNumber(type ?? Self.castType(value), named: name) { return nil }
        guard var o = nameOrigin(name, line: line(value)) else { return nil }
        o.atRest = isManagedObjectRead(value)
        return o
    }

    /// The type a value is cast to (`x as? Int`, `x as! Int`), optionals stripped.
    static func castType(_ value: ExprSyntax) -> String? {
        var e = value
        if let t = e.as(TryExprSyntax.self) { e = t.expression }
        if let cast = e.as(AsExprSyntax.self) { return cast.type.sourceText.trimmingCharacters(in: ["?", "!"]) }
        if let sequence = e.as(SequenceExprSyntax.self), sequence.elements.count == 3,
           sequence.elements.dropFirst().first?.is(UnresolvedAsExprSyntax.self) == true, let type = sequence.elements.last?.as(TypeExprSyntax.self) {
            return type.type.sourceText.trimmingCharacters(in: ["?", "!"])
        }
        return nil
    }

    /// Number types: a value of one is a period, a length, a count or a flag, not a secret by
    /// its name (`secretPeriod: Int`, `tokenLength`) — except a PIN, a passcode or a card's
    /// number, which are digits (`pin: Int`, `passcode: Int`).
    static let numberTypes: Set<String> = scalarTypes.union(["Int8", "UInt8", "Int16", "UInt16", "Float32", "Float64", "NSNumber",
                                                             "TimeInterval", "NSInteger", "NSUInteger", "Decimal"])
    static let digitSecretWords: Set<String> = ["pin", "pincode", "passcode", "password", "passwd", "code", "otp", "totp", "hotp",
                                                "cvv", "cvc", "ssn", "card"]

    static func isNumber(_ type: String?, named name: String) -> Bool {
        guard let type = type?.trimmingCharacters(in: ["?", "!"]), numberTypes.contains(type) else { return false }
        return Set(SecretNames.words(name)).isDisjoint(with: digitSecretWords)
    }

    /// Core Data's read of a stored value: `primitiveValue(forKey:)` (only a managed object has
    /// it), or `value(forKey:)` on a name declared `NSManagedObject` (a parameter or a `let`).
    func isManagedObjectRead(_ value: ExprSyntax) -> Bool {
        guard let call = Self.unwrapped(value).as(FunctionCallExprSyntax.self), call.arguments.count == 1,
              call.arguments.first?.label?.text == "forKey", let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              let base = member.base else { return false }
        switch member.declName.baseName.text {
        case "primitiveValue": return true
        case "value":
            guard let receiver = Self.unwrapped(base).as(DeclReferenceExprSyntax.self)?.baseName.text else { return false }
            return Self.declaredType(of: receiver, at: Syntax(call)) == "NSManagedObject"
        default: return false
        }
    }

    /// The annotated type of a parameter of an enclosing function (or closure) or a `let` of an enclosing block.
    static func declaredType(of name: String, at node: Syntax) -> String? {
        var current = node.parent
        var steps = 0
        while let n = current, steps < 256 {
            steps += 1
            if let list = n.as(CodeBlockItemListSyntax.self) {
                for item in list where item.position < node.position {
                    guard let decl = item.item.as(VariableDeclSyntax.self), let found = binding(decl, name) else { continue }
                    return found.1
                }
            } else if let f = n.as(FunctionDeclSyntax.self) {
                if let p = f.signature.parameterClause.parameters.first(where: { ($0.secondName ?? $0.firstName).text == name }) {
                    return p.type.sourceText.trimmingCharacters(in: ["?", "!"])
                }
                return nil
            }
            current = n.parent
        }
        return nil
    }

    /// Whether every call of a function can be in the project's Swift: not one Objective-C or
    /// the runtime may call (`@objc`, `dynamic`, `@IBAction`, an `override`, a member of an
    /// `@objcMembers` type), nor one other modules may call (`public`, `open`).
    static func callersAreVisible(_ f: FunctionDeclSyntax) -> Bool {
        let hidden: Set<String> = ["objc", "IBAction", "IBSegueAction", "objcMembers", "_cdecl", "_silgen_name"]
        func attributes(_ list: AttributeListSyntax?) -> [String] {
            (list ?? []).compactMap { $0.as(AttributeSyntax.self)?.attributeName.sourceText }
        }
        if attributes(f.attributes).contains(where: hidden.contains) { return false }
        if f.modifiers.contains(where: { ["dynamic", "override", "public", "open"].contains($0.name.text) }) { return false }
        var current = f.parent
        var steps = 0
        while let n = current, steps < 64 {
            steps += 1
            if let c = n.as(ClassDeclSyntax.self), attributes(c.attributes).contains("objcMembers") { return false }
            if let e = n.as(ExtensionDeclSyntax.self), attributes(e.attributes).contains(where: hidden.contains) { return false }
            current = n.parent
        }
        return true
    }

    /// The latest binding of `name` among the items of `list` before `child`, followed to the sink.
    private func bindingIn(_ list: CodeBlockItemListSyntax, before child: Syntax, name: String, sink: Syntax,
                           depth: Int) -> FlowOrigin?? {
        let items = Array(list)
        guard let childIndex = items.firstIndex(where: { $0.id == child.id }) else { return nil }
        for index in stride(from: childIndex - 1, through: 0, by: -1) {
            let item = items[index]
            if let decl = item.item.as(VariableDeclSyntax.self) {
                guard let found = Self.binding(decl, name) else { continue }
                let (value, typeName, at) = found
                let isVar = decl.bindingSpecifier.tokenKind == .keyword(.var)
                if isVar, let changed = mutation(of: name, after: item.endPosition, before: sink, in: items[index...childIndex], depth: depth) {
                    return .some(changed)
                }
                let specifier = isVar ? "var" : "let"
                if let typeName, Self.keyTypes.contains(typeName), !Self.isPublic(name) {
                    return .some(FlowOrigin(kind: .sensitive, what: "\(name): \(typeName)", line: line(at)))
                }
                guard let value else { return .some(Self.isNumber(typeName, named: name) ? nil : nameOrigin(name, line: line(at))) }
                return .some(valueOrigin(value, name: name, type: typeName, depth: depth)?.then("\(specifier) \(name)", line: line(at)))
            }
            if let guardStmt = item.item.as(GuardStmtSyntax.self), let found = conditionBinding(guardStmt.conditions, name: name, depth: depth) {
                return .some(found)
            }
            if let sequence = item.item.as(SequenceExprSyntax.self), let assigned = Self.assignment(sequence), assigned.0 == name {
                let value = assigned.1
                if let changed = mutation(of: name, after: item.endPosition, before: sink, in: items[index...childIndex], depth: depth) {
                    return .some(changed)
                }
                return .some(valueOrigin(value, name: name, depth: depth)?.then("\(name) =", line: line(sequence)))
            }
        }
        return nil
    }

    /// `let name = value`, `let (a, name) = (x, value)`: the value, the annotated type, the pattern.
    static func binding(_ decl: VariableDeclSyntax, _ name: String) -> (ExprSyntax?, String?, Syntax)? {
        for b in decl.bindings {
            let type = b.typeAnnotation?.type.sourceText.trimmingCharacters(in: ["?", "!"])
            if b.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name { return (b.initializer?.value, type, Syntax(b)) }
            if let tuple = b.pattern.as(TuplePatternSyntax.self),
               let i = tuple.elements.firstIndex(where: { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name }) {
                let position = tuple.elements.distance(from: tuple.elements.startIndex, to: i)
                if let values = b.initializer?.value.as(TupleExprSyntax.self), values.elements.count == tuple.elements.count {
                    let value = values.elements[values.elements.index(values.elements.startIndex, offsetBy: position)].expression
                    return (value, nil, Syntax(b))
                }
                return (nil, nil, Syntax(b))
            }
        }
        return nil
    }

    /// `name = value` (not `==`, not a member).
    static func assignment(_ sequence: SequenceExprSyntax) -> (String, ExprSyntax)? {
        let elements = Array(sequence.elements)
        guard elements.count == 3, elements[1].is(AssignmentExprSyntax.self),
              let target = elements[0].as(DeclReferenceExprSyntax.self)?.baseName.text else { return nil }
        return (target, elements[2])
    }

    /// Methods that change a value in place.
    static let mutatingMembers: Set<String> = ["append", "insert", "remove", "removeAll", "removeFirst", "removeLast", "replaceSubrange",
                                               "resetBytes", "reverse", "shuffle", "sort", "withUnsafeMutableBytes",
                                               "withUnsafeMutableBufferPointer", "copyBytes", "randomize"]

    /// How a `var` changes between its binding and the sink: `.some(nil)` when it does in a
    /// way the file does not show, `.some(origin)` for a keychain read into it or `+=`, nil when it does not.
    private func mutation(of name: String, after start: AbsolutePosition, before sink: Syntax,
                          in items: ArraySlice<CodeBlockItemSyntax>, depth: Int) -> FlowOrigin?? {
        let end = sink.position
        var appended: [FlowOrigin?] = []
        for item in items {
            for token in item.tokens(viewMode: .sourceAccurate) where token.position >= start && token.position < end {
                guard token.tokenKind == .identifier(name), let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
                let expr = Syntax(reference)
                if let inOutArgument = expr.parent?.as(InOutExprSyntax.self) {
                    if Self.enclosingCallName(Syntax(inOutArgument)) == "SecItemCopyMatching" {
                        return .some(FlowOrigin(kind: .sensitive, what: "a keychain read (SecItemCopyMatching)", line: line(inOutArgument)))
                    }
                    return .some(nil)
                }
                if let member = expr.parent?.as(MemberAccessExprSyntax.self), member.base?.id == expr.id {
                    if Self.mutatingMembers.contains(member.declName.baseName.text) { return .some(nil) }
                    continue
                }
                var top = expr
                if let subscriptCall = expr.parent?.as(SubscriptCallExprSyntax.self), subscriptCall.calledExpression.id == expr.id {
                    top = Syntax(subscriptCall)
                }
                // An unfolded `a = b` is a SequenceExpr whose elements (an ExprList) hold `a`.
                if let sequence = top.parent?.parent?.as(SequenceExprSyntax.self), sequence.elements.first?.id == top.id,
                   sequence.elements.count >= 3 {
                    let op = sequence.elements[sequence.elements.index(after: sequence.elements.startIndex)]
                    if op.is(AssignmentExprSyntax.self) {
                        // A reassignment at the binding's own level is a new binding, found by the caller first.
                        return .some(nil)
                    }
                    if let binary = op.as(BinaryOperatorExprSyntax.self), binary.operator.text.hasSuffix("="),
                       !["==", "!=", "<=", ">=", "==="].contains(binary.operator.text) {
                        if binary.operator.text == "+=", top.id == expr.id, let last = sequence.elements.last {
                            appended.append(origin(last, depth: depth + 1))
                            continue
                        }
                        return .some(nil)
                    }
                }
            }
        }
        if var s = appended.compactMap({ $0 }).first(where: { $0.kind == .sensitive }) {
            // The value is also what it was bound to: no one parameter's callers can clear it.
            s.namedParameter = nil
            return .some(s.then("+= into \(name)", line: s.line))
        }
        // Constants appended to a value keep what it was (a constant stays one, a secret stays one).
        return appended.allSatisfy({ $0?.kind == .constant }) ? nil : .some(nil)
    }

    static func enclosingCallName(_ node: Syntax) -> String? {
        var current = node.parent
        var steps = 0
        while let n = current, steps < 6 {
            steps += 1
            if let call = n.as(FunctionCallExprSyntax.self) {
                return call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
                    ?? call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
            }
            current = n.parent
        }
        return nil
    }

    // MARK: File

    /// A `let` of the file (a global or a member of any type) by name: its origin when every
    /// declaration of the name agrees.
    private func fileMember(_ name: String, at: Int, depth: Int) -> FlowOrigin? {
        loadFileFacts()
        // A stored `var` the file never assigns again keeps the value it is declared with.
        guard let values = members?[name] ?? (assignedNames.contains(name) ? nil : variables[name]), !values.isEmpty, values.count <= 4
        else { return nil }
        let specifier = members?[name] != nil ? "let" : "var"
        let parts = values.map { origin($0, depth: depth + 1) }
        if let s = Self.firstSensitive(parts) { return s.then("\(specifier) \(name)", line: s.line) }
        guard parts.allSatisfy({ $0?.kind == .constant }), let first = parts[0] else { return nil }
        return first.then("\(specifier) \(name)", line: line(values[0]))
    }

    private func loadFileFacts() {
        guard members == nil else { return }
        let collector = FileDeclarations(viewMode: .sourceAccurate)
        collector.walk(tree)
        members = collector.constants
        functions = collector.functions
        calls = collector.calls
        secureFields = collector.secureFields
        secureBindings = collector.secureBindings
        boundNames = collector.boundNames
        variables = collector.variables
        assignedNames = collector.assigned
    }

    /// Whether the file works with Have I Been Pwned's range API, whose protocol is SHA-1 of the
    /// password (only a 5-character prefix leaves the device): a `HIBP…`/`…Pwned…` name or URL.
    /// Read from the tokens only when a SHA-1 sink asks (rare), not on every file's walk.
    var usesPwnedPasswords: Bool {
        if let known = pwnedPasswords { return known }
        var found = false
        for token in tree.tokens(viewMode: .sourceAccurate) {
            switch token.tokenKind {
            case .identifier(let text), .stringSegment(let text):
                let lower = text.lowercased()
                if lower.contains("pwned") || lower.contains("hibp") { found = true }
            default: break
            }
            if found { break }
        }
        pwnedPasswords = found
        return found
    }

    static func integer(_ literal: IntegerLiteralExprSyntax) -> UInt64? { CryptoVisitor.integer(literal) }
}

/// The file's constants (`let` globals and members with a value), functions by name, and the
/// text fields it makes secure: one walk, outside function bodies for the constants.
private final class FileDeclarations: SyntaxVisitor {
    var constants: [String: [ExprSyntax]] = [:]
    var functions: [String: [FunctionDeclSyntax]] = [:]
    /// Calls of a name (`f(…)`, `self.f(…)`), for the callers of a function of the file.
    var calls: [String: [FunctionCallExprSyntax]] = [:]
    var secureFields: Set<String> = []
    var secureBindings: Set<String> = []
    var boundNames: Set<String> = []
    /// Stored `var`s outside bodies with a value, and the names the file assigns (`x =`, `self.x +=`, `&x`) anywhere.
    var variables: [String: [ExprSyntax]] = [:]
    var assigned: Set<String> = []
    private var bodyDepth = 0

    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        let elements = Array(node.elements)
        if elements.count >= 3, elements[1].is(AssignmentExprSyntax.self) || elements[1].as(BinaryOperatorExprSyntax.self).map({
            $0.operator.text.hasSuffix("=") && !["==", "!=", "<=", ">=", "==="].contains($0.operator.text) }) == true {
            if let name = SecurityExpressions.valueName(elements[0]) { assigned.insert(String(name.split(separator: ".").last ?? "")) }
            if let member = elements[0].as(MemberAccessExprSyntax.self) { assigned.insert(member.declName.baseName.text) }
        }
        return .visitChildren
    }

    override func visit(_ node: InOutExprSyntax) -> SyntaxVisitorContinueKind {
        if let name = SecurityExpressions.valueName(node.expression) { assigned.insert(String(name.split(separator: ".").last ?? "")) }
        return .visitChildren
    }

    override func visit(_ node: IdentifierPatternSyntax) -> SyntaxVisitorContinueKind {
        boundNames.insert(node.identifier.text)
        return .visitChildren
    }


    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        guard bodyDepth == 0 else { return .visitChildren }
        let isLet = node.bindingSpecifier.tokenKind == .keyword(.let)
        for b in node.bindings {
            if let name = b.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let value = b.initializer?.value, b.accessorBlock == nil {
                if isLet { constants[name, default: []].append(value) } else { variables[name, default: []].append(value) }
            }
        }
        return .visitChildren
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        if functions[node.name.text, default: []].count < 4 { functions[node.name.text, default: []].append(node) }
        bodyDepth += 1
        return .visitChildren
    }
    override func visitPost(_ node: FunctionDeclSyntax) { bodyDepth -= 1 }
    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { bodyDepth += 1; return .visitChildren }
    override func visitPost(_ node: InitializerDeclSyntax) { bodyDepth -= 1 }
    override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind { bodyDepth += 1; return .visitChildren }
    override func visitPost(_ node: AccessorBlockSyntax) { bodyDepth -= 1 }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { bodyDepth += 1; return .visitChildren }
    override func visitPost(_ node: ClosureExprSyntax) { bodyDepth -= 1 }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let callee = node.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
            ?? node.calledExpression.as(MemberAccessExprSyntax.self).flatMap { m in
                m.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self" ? m.declName.baseName.text : nil
            }
        if callee == "SecureField", let text = node.arguments.first(where: { $0.label?.text == "text" })?.expression,
           let bound = text.as(DeclReferenceExprSyntax.self)?.baseName.text, bound.hasPrefix("$") {
            secureBindings.insert(String(bound.dropFirst()))
        }
        if let callee, let first = callee.unicodeScalars.first, !first.properties.isUppercase, calls[callee, default: []].count < 16 {
            calls[callee, default: []].append(node)
        }
        return .visitChildren
    }

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        if node.declName.baseName.text == "isSecureTextEntry", let base = node.base,
           let sequence = node.parent?.parent?.as(SequenceExprSyntax.self), sequence.elements.count == 3,
           sequence.elements.first?.id == node.id, let last = sequence.elements.last, SecurityExpressions.isTrue(last),
           let name = SecurityExpressions.valueName(base) {
            secureFields.insert(name)
        }
        return .visitChildren
    }
}
