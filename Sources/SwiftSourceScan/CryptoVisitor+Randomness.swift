import Evidence
import SwiftSyntax

extension CryptoVisitor {
    /// Where the value of a generator call goes when that is a secret — `into 'password'`,
    /// `into 'nonce:'`, `in generateToken` — or nil. The value is followed up through the
    /// expression that holds it (arguments, operators, subscripts, a single-expression
    /// closure, a closure's `return`) to the first binding, assignment, labelled argument or
    /// appending call; a condition, a statement of its own or a function's end stops it, and
    /// then the enclosing function's name decides.
    static func secretSink(of call: Syntax) -> String? {
        var child = call
        var grandchild = call
        var steps = 0
        walk: while let current = child.parent, steps < 512 {
            steps += 1
            defer { grandchild = child; child = current }
            if let binding = current.as(PatternBindingSyntax.self) {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { break walk }
                if SecretNames.isUnpredictable(name) { return "into '\(name)'" }
                break walk
            }
            if let sequence = current.as(SequenceExprSyntax.self) {
                let elements = Array(sequence.elements)
                if let k = elements.firstIndex(where: isAssignment), k > 0,
                   let position = elements.firstIndex(where: { $0.id == grandchild.id }), position > k {
                    guard let target = assignedName(elements[k - 1]) else { break walk }
                    if SecretNames.isUnpredictable(target) { return "into '\(target)'" }
                    break walk
                }
            }
            if let labeled = current.as(LabeledExprSyntax.self), let label = labeled.label?.text, SecretNames.isUnpredictable(label) {
                return "into '\(label):'"
            }
            if let outer = current.as(FunctionCallExprSyntax.self), child.is(LabeledExprListSyntax.self),
               let member = outer.calledExpression.as(MemberAccessExprSyntax.self),
               ["append", "insert", "appending"].contains(member.declName.baseName.text),
               let base = member.base, let receiver = assignedName(base), SecretNames.isUnpredictable(receiver) {
                return "into '\(receiver)'"
            }
            if current.is(ConditionElementSyntax.self) || current.is(FunctionDeclSyntax.self) || current.is(InitializerDeclSyntax.self)
                || current.is(SubscriptDeclSyntax.self) || current.is(DeinitializerDeclSyntax.self) {
                break walk
            }
            if let item = current.as(CodeBlockItemSyntax.self), !item.item.is(ReturnStmtSyntax.self), !isSingleExpressionBody(item) {
                break walk
            }
        }
        if let function = enclosingFunction(call), SecretNames.isUnpredictable(function) { return "in \(function)" }
        return nil
    }

    /// The only item of a closure or a getter: its value is the closure's or the property's.
    static func isSingleExpressionBody(_ item: CodeBlockItemSyntax) -> Bool {
        guard let list = item.parent?.as(CodeBlockItemListSyntax.self), list.count == 1, let owner = list.parent else { return false }
        return owner.is(ClosureExprSyntax.self) || owner.is(AccessorBlockSyntax.self)
            || (owner.is(CodeBlockSyntax.self) && owner.parent?.is(AccessorDeclSyntax.self) == true)
    }

    static func isAssignment(_ e: ExprSyntax) -> Bool {
        if e.is(AssignmentExprSyntax.self) { return true }
        if let op = e.as(BinaryOperatorExprSyntax.self) { return ["+=", "|=", "^="].contains(op.operator.text) }
        return false
    }

    /// The last name of an assignment's target: `password`, `self.pin`, `key[i]` → `key`.
    static func assignedName(_ expression: ExprSyntax) -> String? {
        let e = E.stripped(expression)
        if let subscriptCall = e.as(SubscriptCallExprSyntax.self) { return assignedName(subscriptCall.calledExpression) }
        return E.valueName(e)
    }

    /// The name of the nearest enclosing function, or of the property whose accessor holds the node.
    static func enclosingFunction(_ node: Syntax) -> String? {
        var current = node.parent
        var steps = 0
        while let n = current, steps < 4096 {
            steps += 1
            if let f = n.as(FunctionDeclSyntax.self) { return f.name.text }
            if n.is(InitializerDeclSyntax.self) { return nil }
            current = n.parent
        }
        return nil
    }
}
