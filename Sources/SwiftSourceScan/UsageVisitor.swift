import Evidence
import Foundation
import SwiftSyntax

/// One walk over the tree: collects the file's declarations (as `DeclarationCollector`) and
/// the candidate nodes whose names the index knows, with whether each can ship; then matches
/// the candidates, in tree order, once every declaration of the file is known (UsageMatching,
/// UsageDecision, UsageRecording, UsageSyntaxText).
final class UsageVisitor: DeclarationCollector {
    let index: SwiftAPIIndex
    private(set) var context = FileContext()
    let lines: LineTable

    /// One entry per enclosing `#if` clause: whether it can ship.
    var clauseShips: [Bool] = []
    /// Nodes worth matching, in tree (pre-)order, with whether their code can ship.
    private var candidates: [(node: Syntax, ships: Bool)] = []
    /// Whether the candidate being matched can ship.
    private(set) var ships = true
    /// Type references already explained by a member or initializer match.
    var consumed: Set<SyntaxIdentifier> = []
    /// Usages matched so far (UsageRecording).
    var found: [SourceUsage] = []

    /// The target's platform and conditions, when known (decide `#if`).
    private let target: TargetConditions
    /// Modules the file imports (`import X`, any kind of import).
    private(set) var imports: Set<String> = []
    /// Names of `index.implicitMemberContext` the file writes in code.
    private(set) var writtenContextNames: Set<String> = []

    init(index: SwiftAPIIndex, lines: LineTable, target: TargetConditions = TargetConditions()) {
        self.index = index
        self.lines = lines
        self.target = target
        super.init(viewMode: .sourceAccurate)
    }

    /// Walks the file and matches what it found.
    func scan(_ tree: SourceFileSyntax) {
        walk(tree)
        matchCandidates()
    }

    /// Matches the candidates the walk remembered, once every declaration of the file is known.
    func matchCandidates() {
        context = FileContext(self)
        for candidate in candidates {
            ships = candidate.ships
            if let node = candidate.node.as(FunctionCallExprSyntax.self) {
                match(node)
            } else if let node = candidate.node.as(SequenceExprSyntax.self) {
                match(node)
            } else if let node = candidate.node.as(MemberAccessExprSyntax.self) {
                match(node)
            } else if let node = candidate.node.as(DeclReferenceExprSyntax.self) {
                match(node)
            } else if let node = candidate.node.as(IdentifierTypeSyntax.self) {
                match(node)
            } else if let node = candidate.node.as(MemberTypeSyntax.self) {
                match(node)
            }
        }
    }

    private func remember(_ node: some SyntaxProtocol) {
        candidates.append((Syntax(node), !clauseShips.contains(false)))
    }

    // MARK: Candidates (during the walk, before the declarations are all known)

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let callee = node.calledExpression
        if let reference = callee.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            if index.functions[name] != nil || index.initializers[name] != nil { remember(node) }
        } else if let member = callee.as(MemberAccessExprSyntax.self), member.base != nil {
            let name = member.declName.baseName.text
            if name == "init" || index.methods[name] != nil || index.initializers[name] != nil { remember(node) }
        }
        return .visitChildren
    }

    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        if node.elements.contains(where: { $0.is(AssignmentExprSyntax.self) }) { remember(node) }
        return .visitChildren
    }

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        let name = node.declName.baseName.text
        if node.base == nil {
            if index.implicitMembers[name] != nil { remember(node) }
        } else if index.properties[name] != nil {
            remember(node)
        }
        if index.implicitMemberContext.contains(name) { writtenContextNames.insert(name) }
        return .visitChildren
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        let name = node.baseName.text
        if index.typeReferences[name] != nil { remember(node) }
        if index.implicitMemberContext.contains(name) { writtenContextNames.insert(name) }
        return .visitChildren
    }

    override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
        if index.typeReferences[node.name.text] != nil { remember(node) }
        return .visitChildren
    }

    override func visit(_ node: MemberTypeSyntax) -> SyntaxVisitorContinueKind {
        if index.typeReferences[node.name.text] != nil { remember(node) }
        return .visitChildren
    }

    override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
        if let module = node.path.first?.name.text, clauseShips.allSatisfy({ $0 }) { imports.insert(module) }
        return .skipChildren
    }

    // MARK: #if

    override func visit(_ node: IfConfigClauseSyntax) -> SyntaxVisitorContinueKind {
        // The condition itself (`canImport(CoreLocation)`) is not code: only the body is walked.
        clauseShips.append(CompilationConditions.clauseShips(node, target: target))
        if let elements = node.elements { walk(elements) }
        clauseShips.removeLast()
        return .skipChildren
    }
}
