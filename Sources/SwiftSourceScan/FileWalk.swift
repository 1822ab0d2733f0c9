import SwiftSyntax

/// A visitor that keeps the `#if` clauses it is in (whether each can ship), so that a shared
/// walk (`FileWalk`) can keep them for it.
protocol ClauseTracking: SyntaxVisitor {
    var clauseShips: [Bool] { get set }
}

extension UsageVisitor: ClauseTracking {}
extension SecurityVisitor: ClauseTracking {}
extension LoggingVisitor: ClauseTracking {}
extension CryptoVisitor: ClauseTracking {}
extension FlowVisitor: ClauseTracking {}

/// One walk of a file's tree for every visitor a build context needs (usage, launch, security,
/// logging, crypto, data-flow sinks): each node is visited once and handed to each visitor in
/// turn, instead of one walk of the whole tree per visitor.
///
/// The visitors see what their own walks would show them: every node of the kinds below in
/// tree order (`visit` before the children, `visitPost` after); an `#if` clause's body but not
/// its condition, with the clause's shipping state pushed for each (`ClauseTracking`); an
/// import's children only for a visitor that does not skip them. Every other `visit` of these
/// visitors returns `.visitChildren` (a visitor that skipped other children would need the
/// same care as imports).
final class FileWalk: SyntaxVisitor {
    private let visitors: [SyntaxVisitor]
    private let tracking: [any ClauseTracking]
    private let target: TargetConditions
    /// Visitors (by index) that skip the children of the import being walked.
    private var skippingImport: [Bool]
    private var inImport = false

    init(visitors: [SyntaxVisitor], tracking: [any ClauseTracking], target: TargetConditions) {
        self.visitors = visitors
        self.tracking = tracking
        self.target = target
        skippingImport = visitors.map { _ in false }
        super.init(viewMode: .sourceAccurate)
    }

    @inline(__always)
    private func each(_ body: (SyntaxVisitor) -> SyntaxVisitorContinueKind) -> SyntaxVisitorContinueKind {
        if inImport {
            for (i, v) in visitors.enumerated() where !skippingImport[i] { _ = body(v) }
        } else {
            for v in visitors { _ = body(v) }
        }
        return .visitChildren
    }

    @inline(__always)
    private func eachPost(_ body: (SyntaxVisitor) -> Void) {
        if inImport {
            for (i, v) in visitors.enumerated() where !skippingImport[i] { body(v) }
        } else {
            for v in visitors { body(v) }
        }
    }

    // MARK: Special cases

    override func visit(_ node: IfConfigClauseSyntax) -> SyntaxVisitorContinueKind {
        let ships = CompilationConditions.clauseShips(node, target: target)
        for v in tracking { v.clauseShips.append(ships) }
        if let elements = node.elements { walk(elements) }
        for v in tracking { v.clauseShips.removeLast() }
        return .skipChildren
    }

    override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
        var anyVisits = false
        for (i, v) in visitors.enumerated() {
            skippingImport[i] = v.visit(node) == .skipChildren
            anyVisits = anyVisits || !skippingImport[i]
        }
        inImport = anyVisits
        return anyVisits ? .visitChildren : .skipChildren
    }

    override func visitPost(_ node: ImportDeclSyntax) {
        for i in skippingImport.indices { skippingImport[i] = false }
        inImport = false
    }

    // MARK: Handed to every visitor

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind { each { $0.visit(node) } }
    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind { each { $0.visit(node) } }
    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind { each { $0.visit(node) } }
    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind { each { $0.visit(node) } }
    override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind { each { $0.visit(node) } }
    override func visit(_ node: MemberTypeSyntax) -> SyntaxVisitorContinueKind { each { $0.visit(node) } }
    override func visit(_ node: StringLiteralExprSyntax) -> SyntaxVisitorContinueKind { each { $0.visit(node) } }
    override func visit(_ node: DictionaryExprSyntax) -> SyntaxVisitorContinueKind { each { $0.visit(node) } }
    override func visit(_ node: AttributeSyntax) -> SyntaxVisitorContinueKind { each { $0.visit(node) } }
    override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind { each { $0.visit(node) } }
    override func visit(_ node: OptionalBindingConditionSyntax) -> SyntaxVisitorContinueKind { each { $0.visit(node) } }
    override func visit(_ node: FunctionParameterSyntax) -> SyntaxVisitorContinueKind { each { $0.visit(node) } }
    override func visit(_ node: ClosureParameterSyntax) -> SyntaxVisitorContinueKind { each { $0.visit(node) } }
    override func visit(_ node: GenericParameterSyntax) -> SyntaxVisitorContinueKind { each { $0.visit(node) } }
    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { each { $0.visit(node) } }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { each { $0.visit(node) } }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { each { $0.visit(node) } }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { each { $0.visit(node) } }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind { each { $0.visit(node) } }
    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind { each { $0.visit(node) } }
    override func visit(_ node: AssociatedTypeDeclSyntax) -> SyntaxVisitorContinueKind { each { $0.visit(node) } }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { each { $0.visit(node) } }
    override func visitPost(_ node: FunctionDeclSyntax) { eachPost { $0.visitPost(node) } }
    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { each { $0.visit(node) } }
    override func visitPost(_ node: InitializerDeclSyntax) { eachPost { $0.visitPost(node) } }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { each { $0.visit(node) } }
    override func visitPost(_ node: ClosureExprSyntax) { eachPost { $0.visitPost(node) } }
}
