import Evidence
import Foundation
import SwiftSyntax

/// Matching a candidate node against the index: calls and initializers, assignments, property
/// reads and type references; a member's entries are tried against the receiver's type and labels.
extension UsageVisitor {
    // MARK: Calls

    func match(_ node: FunctionCallExprSyntax) {
        let callee = node.calledExpression
        if let reference = callee.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            if let entries = index.functions[name], !context.localFunctions.contains(name), !context.isLocalType(name),
               !(SwiftAPITable.cFunctionsNamingStructs.contains(name) && node.arguments.isEmpty) {
                let uses = entries.flatMap { entry -> [SwiftAPIUse] in
                    if case .fixed(let uses) = entry.decision { return uses }
                    return []
                }
                emit(uses, api: name + "(" + labelList(node) + ")", at: node, symbol: name)
            } else if FileContext.isTypeName(name) {
                matchInitializer(type: name, call: node, typeNode: Syntax(reference))
            }
            // An unqualified lower-case call is a method of the enclosing type or a local
            // function: its receiver is not known, so it does not count.
        } else if let member = callee.as(MemberAccessExprSyntax.self), let base = member.base {
            let name = member.declName.baseName.text
            if name == "init" {
                if case .type(let type) = context.resolve(base) {
                    matchInitializer(type: type, call: node, typeNode: Syntax(base))
                }
            } else if FileContext.isTypeName(name), let module = base.as(DeclReferenceExprSyntax.self),
                      SwiftAPITable.appleModules.contains(module.baseName.text) {
                matchInitializer(type: name, call: node, typeNode: Syntax(member.declName))
            } else {
                _ = matchMember(index.methods[name], name: name, base: base, call: node, value: nil, anchor: Syntax(node))
            }
        }
    }

    private func matchInitializer(type: String, call: FunctionCallExprSyntax, typeNode: Syntax) {
        guard !context.isLocalType(type), let entries = index.initializers[type] else { return }
        let labels = callLabels(call)
        for entry in entries {
            if let required = entry.labels, !labels.starts(with: required) { continue }
            let outcome = decide(entry.decision, call: call, value: nil)
            if let shown = outcome.shown {
                emit(outcome.uses, api: type + "(" + labelList(call, decisive: shown) + ")" + outcome.suffix, at: call, symbol: type)
            } else {
                emit(outcome.uses, api: type + "(" + labelList(call) + ")" + outcome.suffix, at: call, symbol: type)
            }
            consume(typeNode)
            return
        }
    }

    // MARK: Assignments and property reads

    func match(_ node: SequenceExprSyntax) {
        let elements = Array(node.elements)
        for position in elements.indices where position > 0 && position + 1 < elements.count
            && elements[position].is(AssignmentExprSyntax.self) {
            guard let target = elements[position - 1].as(MemberAccessExprSyntax.self), let base = target.base else { continue }
            let name = target.declName.baseName.text
            // `a.b = x ? y : z` and other compound right-hand sides are not literals.
            let value: ExprSyntax = position + 2 == elements.count ? elements[position + 1] : ExprSyntax(node)
            _ = matchMember(index.assignments[name], name: name, base: base, call: nil, value: value, anchor: Syntax(target))
        }
    }

    func match(_ node: MemberAccessExprSyntax) {
        let name = node.declName.baseName.text
        if node.base == nil {
            matchImplicitMember(node, name: name)
            return
        }
        if let entries = index.properties[name], let base = node.base,
           node.parent?.as(FunctionCallExprSyntax.self)?.calledExpression.id != node.id {
            _ = matchMember(entries, name: name, base: base, call: nil, value: nil, anchor: Syntax(node))
        }
    }

    /// `.creationDateKey`: the entry's uses when the file writes one of the names it needs.
    private func matchImplicitMember(_ node: MemberAccessExprSyntax, name: String) {
        guard let entries = index.implicitMembers[name] else { return }
        for entry in entries where entry.receivers.isEmpty || !writtenContextNames.isDisjoint(with: entry.receivers) {
            guard case .fixed(let uses) = entry.decision else { continue }
            emit(uses, api: "." + name, at: Syntax(node), symbol: nil)
            return
        }
    }

    // MARK: Type references

    func match(_ node: DeclReferenceExprSyntax) {
        let name = node.baseName.text
        guard let uses = index.typeReferences[name], !context.isLocalType(name), !consumed.contains(node.id) else {
            return
        }
        if let parent = node.parent?.as(MemberAccessExprSyntax.self) {
            if parent.declName.id == node.id {
                // `x.CLLocationManager` names a member, unless x is a module.
                guard let module = parent.base?.as(DeclReferenceExprSyntax.self),
                      SwiftAPITable.appleModules.contains(module.baseName.text) else { return }
            } else if FileContext.isTypeName(parent.declName.baseName.text) {
                return  // a nested type: `AVCaptureDevice.Position`
            }
        }
        var api = name
        var anchor = Syntax(node)
        if let qualified = node.parent?.as(MemberAccessExprSyntax.self), qualified.declName.id == node.id {
            anchor = Syntax(qualified)
        }
        if let call = anchor.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == anchor.id {
            api = name + "(" + labelList(call) + ")"
        }
        emit(uses, api: api, at: anchor, symbol: name)
    }

    func match(_ node: IdentifierTypeSyntax) {
        let name = node.name.text
        guard let uses = index.typeReferences[name], !context.isLocalType(name) else { return }
        if let parent = node.parent?.as(MemberTypeSyntax.self), parent.baseType.id == node.id {
            return  // a nested type: `AVCaptureDevice.Position`
        }
        emit(uses, api: name, at: node, symbol: name)
    }

    func match(_ node: MemberTypeSyntax) {
        let name = node.name.text
        if let module = node.baseType.as(IdentifierTypeSyntax.self), SwiftAPITable.appleModules.contains(module.name.text),
           let uses = index.typeReferences[name], !context.isLocalType(name) {
            emit(uses, api: name, at: node, symbol: name)
        }
    }

    // MARK: Matching

    /// Tries the entries for one member in order; the first that fits the receiver and the
    /// labels decides. Returns whether one matched.
    private func matchMember(_ entries: [SwiftAPI]?, name: String, base: ExprSyntax, call: FunctionCallExprSyntax?,
                             value: ExprSyntax?, anchor: Syntax) -> Bool {
        guard let entries else { return false }
        let receiver = context.resolve(base)
        let labels = call.map(callLabels)
        for entry in entries {
            if let labels, let required = entry.labels, !labels.starts(with: required) { continue }
            var known = true
            var typeName: String?
            if !entry.receivers.isEmpty {
                switch receiver {
                case .type(let type):
                    guard !context.isLocalType(type), entry.receivers.contains(type) else { continue }
                    typeName = type
                case .unknown:
                    known = false
                }
            }
            var outcome = decide(entry.decision, call: call, value: value)
            if !known {
                // An unknown receiver counts only for a specific name or a listed literal.
                guard outcome.listedLiteral || entry.distinctive else { continue }
                outcome.uses = outcome.uses.map { SwiftAPIUse(capability: $0.capability, strength: .indicative) }
            }
            let receiverText: String
            if let typeName {
                receiverText = typeName + "."
            } else if entry.receivers.isEmpty {
                receiverText = "."
            } else {
                receiverText = Self.shortText(base) + "."
            }
            var api: String
            switch entry.kind {
            case .assignment:
                api = receiverText + name + " = " + (outcome.shown ?? value.map(Self.shortText) ?? "")
            case .property:
                api = receiverText + name
            default:
                api = receiverText + name + "(" + (call.map { labelList($0, decisive: outcome.shown) } ?? "") + ")"
            }
            api += outcome.suffix
            if !known, let expected = entry.receivers.first {
                api += " (receiver type unknown; expected \(expected))"
            }
            emit(outcome.uses, api: api, at: anchor, symbol: typeName)
            if known { consume(Syntax(base)) }
            return true
        }
        return false
    }
}
