import Evidence
import Foundation
import SwiftSyntax

/// The visitor's bookkeeping: usages recorded with their location and container, type references
/// a match already explains, and the results in source order.
extension UsageVisitor {
    /// Usages in source order, without exact duplicates.
    func results() -> [SourceUsage] {
        var seen = Set<SourceUsage>()
        return found.filter { seen.insert($0).inserted }.sorted { lhs, rhs in
            if lhs.line != rhs.line { return lhs.line < rhs.line }
            if lhs.column != rhs.column { return lhs.column < rhs.column }
            if lhs.capability != rhs.capability { return lhs.capability < rhs.capability }
            return lhs.api < rhs.api
        }
    }

    // MARK: Output

    func emit(_ uses: [SwiftAPIUse], api: String, at node: Syntax, symbol: String?) {
        guard !uses.isEmpty else { return }
        let container = Self.container(of: node)
        let location = lines.location(ofUTF8Offset: node.positionAfterSkippingLeadingTrivia.utf8Offset)
        var strongest: [String: EvidenceStrength] = [:]
        var order: [String] = []
        for use in uses {
            if let existing = strongest[use.capability] {
                if use.strength > existing { strongest[use.capability] = use.strength }
            } else {
                strongest[use.capability] = use.strength
                order.append(use.capability)
            }
        }
        for capability in order {
            guard let key = index.keys[capability], let strength = strongest[capability] else { continue }
            found.append(SourceUsage(capability: capability, key: key, api: api, line: location.line,
                                     column: location.column, strength: strength, ships: ships, symbol: symbol,
                                     container: container))
        }
    }

    func emit(_ uses: [SwiftAPIUse], api: String, at node: some SyntaxProtocol, symbol: String?) {
        emit(uses, api: api, at: Syntax(node), symbol: symbol)
    }

    /// The outermost type (or extended type) and the innermost function around a node.
    static func container(of node: Syntax) -> [String] {
        var type: String?
        var function: String?
        var current = node.parent
        var steps = 0
        while let n = current, steps < 4096 {
            steps += 1
            if function == nil {
                if let f = n.as(FunctionDeclSyntax.self) { function = f.name.text }
                else if n.is(InitializerDeclSyntax.self) { function = "init" }
            }
            if let d = n.as(ClassDeclSyntax.self) { type = d.name.text }
            else if let d = n.as(StructDeclSyntax.self) { type = d.name.text }
            else if let d = n.as(EnumDeclSyntax.self) { type = d.name.text }
            else if let d = n.as(ActorDeclSyntax.self) { type = d.name.text }
            else if let d = n.as(ExtensionDeclSyntax.self) {
                type = d.extendedType.as(IdentifierTypeSyntax.self)?.name.text ?? d.extendedType.sourceText
            }
            current = n.parent
        }
        return [type, function].compactMap { $0 }
    }

    /// Marks the type references inside a matched receiver (`AVCaptureDevice` in
    /// `AVCaptureDevice.requestAccess`, `AVAudioSession` in `AVAudioSession.sharedInstance()`).
    func consume(_ node: Syntax, depth: Int = 0) {
        guard depth < FileContext.maximumDepth else { return }
        if let reference = node.as(DeclReferenceExprSyntax.self) {
            consumed.insert(reference.id)
        } else if let member = node.as(MemberAccessExprSyntax.self) {
            consumed.insert(member.declName.id)
            if let base = member.base { consume(Syntax(base), depth: depth + 1) }
        } else if let call = node.as(FunctionCallExprSyntax.self) {
            consume(Syntax(call.calledExpression), depth: depth + 1)
        } else if let optional = node.as(OptionalChainingExprSyntax.self) {
            consume(Syntax(optional.expression), depth: depth + 1)
        } else if let forced = node.as(ForceUnwrapExprSyntax.self) {
            consume(Syntax(forced.expression), depth: depth + 1)
        } else if let tuple = node.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
            consume(Syntax(only.expression), depth: depth + 1)
        }
    }
}
