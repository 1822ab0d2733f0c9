import Evidence
import SwiftSyntax

/// A file's answer to the project-wide data flow's question (`SourceFlowJoin`): the values its
/// calls pass to the asked functions' asked parameters (as `FlowResolver` sees them: a
/// credential, a constant, a parameter of the caller's own function, an external name), and
/// its declarations of the asked constants (`let`, `static let`, outside bodies) and
/// zero-argument functions.
final class FlowQueryVisitor: SyntaxVisitor {
    typealias E = SecurityExpressions

    private let flow: FlowResolver
    private let query: FlowQuery
    private let target: TargetConditions
    private let byName: [String: [(FlowCallee, Set<Int>)]]
    private var clauseShips: [Bool] = []
    private var imports: Set<String> = []
    private var types: [String] = []
    private var bodyDepth = 0
    private(set) var answers: [FlowAnswer] = []

    static let maximumAnswers = 512

    init(flow: FlowResolver, query: FlowQuery, target: TargetConditions) {
        self.flow = flow
        self.query = query
        self.target = target
        var byName: [String: [(FlowCallee, Set<Int>)]] = [:]
        for (callee, indices) in query.callees.sorted(by: { $0.key < $1.key }) { byName[callee.name, default: []].append((callee, indices)) }
        self.byName = byName
        super.init(viewMode: .sourceAccurate)
    }

    private var ships: Bool { !clauseShips.contains(false) }

    private func add(_ answer: FlowAnswer) {
        if answers.count < Self.maximumAnswers { answers.append(answer) }
    }

    private func place(_ answer: inout FlowAnswer, _ node: some SyntaxProtocol) {
        let location = flow.lines.location(ofUTF8Offset: node.positionAfterSkippingLeadingTrivia.utf8Offset)
        answer.line = location.line
        answer.column = location.column
        answer.ships = ships
        answer.container = UsageVisitor.container(of: Syntax(node))
    }

    // MARK: Calls

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let name: String
        let onReceiver: Bool
        if let reference = node.calledExpression.as(DeclReferenceExprSyntax.self) {
            name = reference.baseName.text
            onReceiver = false
        } else if let member = node.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base {
            name = member.declName.baseName.text
            // `self.f(…)` is the bare call written out.
            onReceiver = base.as(DeclReferenceExprSyntax.self)?.baseName.text != "self"
        } else {
            return .visitChildren
        }
        guard let candidates = byName[name] else { return .visitChildren }
        let arguments = Array(node.arguments)
        let labels = arguments.map { $0.label?.text ?? "_" }
        for (callee, indices) in candidates {
            // A global function is called bare; a method on a receiver or, from its own type, bare.
            if onReceiver && !callee.isMethod { continue }
            // `logger.info(…)` on os's `Logger` where the file imports it: not the project's method.
            if onReceiver, LoggingVisitor.loggerMethods.contains(name), !imports.isDisjoint(with: ["os", "OSLog"]) { continue }
            guard let mapping = callee.parameters(forArgumentLabels: labels) else { continue }
            if query.everyCall.contains(callee) { answerCall(node, callee, indices, arguments, mapping) }
            for parameterIndex in indices.sorted() where !mapping.contains(parameterIndex) && parameterIndex < callee.defaults.count
                && callee.defaults[parameterIndex] {
                var a = FlowAnswer(kind: .argument)
                a.callee = callee
                a.parameterIndex = parameterIndex
                a.value = .omitted
                a.path = "\(callee.signature) called without \(callee.labels[parameterIndex]): (line \(flow.line(node)))"
                place(&a, node)
                add(a)
            }
            for (argumentIndex, parameterIndex) in mapping.enumerated() where indices.contains(parameterIndex) {
                for (argument, o) in origins(arguments[argumentIndex].expression) {
                var a = FlowAnswer(kind: .argument)
                a.callee = callee
                a.parameterIndex = parameterIndex
                a.what = o.what
                a.path = o.path(to: callee.signature, line: flow.line(argument))
                switch o.kind {
                case .sensitive:
                    // A value named only `token` names a room, page, push or CSRF token as often as a
                    // credential: not carried into another file's log or store on its name alone.
                    if FlowResolver.isBareToken(o.what) { continue }
                    a.value = .sensitive
                case .constant: a.value = .constant
                case .parameter:
                    // A wrapper of a wrapper: a short function passing its parameter on (any function for a key or an IV).
                    guard let enclosing = o.callee, let index = o.parameterIndex,
                          query.constantCallees.contains(callee) || Self.isThinWrapper(around: argument) else { continue }
                    a.value = .parameter
                    a.enclosing = enclosing
                    a.enclosingIndex = index
                    a.partial = o.partial
                case .external:
                    guard let external = o.function else { continue }
                    a.value = .external
                    a.external = external
                    a.externalQualifier = o.qualifier
                    a.externalIsCall = o.isCall
                case .sanitized: continue
                }
                place(&a, argument)
                add(a)
                }
            }
        }
        return .visitChildren
    }

    /// Whether the call passes a sanitized value (a hash's, KDF's or cipher's output) for each
    /// asked parameter; past `maximumCalls` of a callee, one `unknown` answer says the count is not complete.
    private func answerCall(_ node: FunctionCallExprSyntax, _ callee: FlowCallee, _ indices: Set<Int>,
                            _ arguments: [LabeledExprSyntax], _ mapping: [Int]) {
        for parameterIndex in indices.sorted() {
            var a = FlowAnswer(kind: .call)
            a.callee = callee
            a.parameterIndex = parameterIndex
            let count = callCounts[callee, default: 0]
            guard count <= Self.maximumCalls else { continue }
            callCounts[callee] = count + 1
            if count < Self.maximumCalls, let argumentIndex = mapping.firstIndex(of: parameterIndex),
               let o = flow.origin(arguments[argumentIndex].expression), o.kind == .sanitized {
                a.value = .sanitized
                a.path = o.path(to: callee.signature, line: flow.line(node))
            } else {
                a.value = .unknown
            }
            place(&a, node)
            answers.append(a)
        }
    }

    private var callCounts: [FlowCallee: Int] = [:]
    static let maximumCalls = 256

    /// `items.forEach(Entry.create)`, `let make = create(on:secret:)`: a `FlowQuery.everyCall`
    /// function named and not called here may be called anywhere with anything — an `unknown` call.
    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        guard !query.everyCall.isEmpty, let candidates = byName[node.baseName.text] else { return .visitChildren }
        var reference = Syntax(node)
        if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id {
            // `.create` without a base is an enum case or a static member of the contextual type, never a function's reference.
            guard member.base != nil else { return .visitChildren }
            reference = Syntax(member)
        }
        if let call = reference.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == reference.id { return .visitChildren }
        let labels = node.argumentNames.map { $0.arguments.map(\.name.text) }
        for (callee, indices) in candidates where query.everyCall.contains(callee) && (labels == nil || labels == callee.labels) {
            for parameterIndex in indices.sorted() {
                var a = FlowAnswer(kind: .call)
                a.callee = callee
                a.parameterIndex = parameterIndex
                a.value = .unknown
                place(&a, node)
                answers.append(a)
            }
        }
        return .visitChildren
    }

    /// Statements a function may have to count as a wrapper whose callers are followed in turn.
    static let maximumWrapperStatements = 6

    static func isThinWrapper(around node: some SyntaxProtocol) -> Bool {
        var current = Syntax(node).parent
        var steps = 0
        while let n = current, steps < 256 {
            steps += 1
            if let f = n.as(FunctionDeclSyntax.self) { return (f.body?.statements.count ?? .max) <= maximumWrapperStatements }
            current = n.parent
        }
        return false
    }

    /// The argument's origin; for a string that interpolates several values, each value's
    /// (`log("\(event): \(detail)")` passes both on).
    private func origins(_ argument: ExprSyntax) -> [(ExprSyntax, FlowOrigin)] {
        if E.isFlagLiteral(argument) { return [] }
        if let literal = E.stripped(argument).as(StringLiteralExprSyntax.self) {
            let values = literal.segments.compactMap { segment -> ExprSyntax? in
                if case .expressionSegment(let s) = segment { return s.expressions.first?.expression }
                return nil
            }
            if values.count > 1 {
                return values.prefix(8).compactMap { v in
                    guard !E.isFlagLiteral(v), let o = flow.origin(v), o.kind == .sensitive || o.kind == .parameter else { return nil }
                    var partial = o.then("interpolated into a string", line: flow.line(literal))
                    partial.partial = true
                    return (v, partial)
                }
            }
        }
        return flow.origin(argument).map { [(argument, $0)] } ?? []
    }

    // MARK: Declarations

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        guard bodyDepth == 0, node.bindingSpecifier.tokenKind == .keyword(.let) else { return .visitChildren }
        for b in node.bindings {
            guard let name = b.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, query.names.contains(name),
                  let value = b.initializer?.value, b.accessorBlock == nil else { continue }
            var a = FlowAnswer(kind: .constant)
            a.name = name
            a.qualifier = types.last
            if let o = flow.origin(value), o.kind == .constant || o.kind == .sensitive {
                a.value = o.kind == .constant ? .constant : .sensitive
                a.what = o.what
                a.path = o.then("let \(name)", line: flow.line(b)).path
            }
            place(&a, b)
            add(a)
        }
        return .visitChildren
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        if bodyDepth == 0, types.isEmpty, query.names.contains(node.name.text), node.signature.parameterClause.parameters.isEmpty {
            var a = FlowAnswer(kind: .returned)
            a.name = node.name.text
            if let o = flow.returned(by: node.name.text), o.kind == .constant {
                a.value = .constant
                a.what = o.what
                a.path = o.path
            }
            place(&a, node.name)
            add(a)
        }
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

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { types.append(node.name.text); return .visitChildren }
    override func visitPost(_ node: ClassDeclSyntax) { types.removeLast() }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { types.append(node.name.text); return .visitChildren }
    override func visitPost(_ node: StructDeclSyntax) { types.removeLast() }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { types.append(node.name.text); return .visitChildren }
    override func visitPost(_ node: EnumDeclSyntax) { types.removeLast() }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { types.append(node.name.text); return .visitChildren }
    override func visitPost(_ node: ActorDeclSyntax) { types.removeLast() }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        types.append(node.extendedType.sourceText)
        return .visitChildren
    }
    override func visitPost(_ node: ExtensionDeclSyntax) { types.removeLast() }

    // MARK: Bookkeeping

    override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
        if let first = node.path.first { imports.insert(first.name.text) }
        return .skipChildren
    }

    override func visit(_ node: IfConfigClauseSyntax) -> SyntaxVisitorContinueKind {
        clauseShips.append(CompilationConditions.clauseShips(node, target: target))
        if let elements = node.elements { walk(elements) }
        clauseShips.removeLast()
        return .skipChildren
    }
}
