import SwiftSyntax

/// How the security visitor reads an expression: the name it stands for once casts and
/// bridging wrappers are removed (`kSecAttrAccessible as String`, `String(kSecClass)`), a
/// string literal's text, and whether it is a certain `true`.
enum SecurityExpressions {
    /// Bridging wrappers that change nothing of the value: `String(x)`, `NSString(x)`.
    static let bridgingTypes: Set<String> = ["String", "NSString", "CFString", "AnyHashable"]

    /// The expression under casts, parentheses, bridging initializers, `!` and `?`.
    static func stripped(_ expression: ExprSyntax, depth: Int = 0) -> ExprSyntax {
        guard depth < 16 else { return expression }
        if let cast = expression.as(AsExprSyntax.self) { return stripped(cast.expression, depth: depth + 1) }
        if let sequence = expression.as(SequenceExprSyntax.self), sequence.elements.count == 3,
           let op = sequence.elements.dropFirst().first, op.is(UnresolvedAsExprSyntax.self), let first = sequence.elements.first {
            return stripped(first, depth: depth + 1)
        }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first, only.label == nil {
            return stripped(only.expression, depth: depth + 1)
        }
        if let forced = expression.as(ForceUnwrapExprSyntax.self) { return stripped(forced.expression, depth: depth + 1) }
        if let optional = expression.as(OptionalChainingExprSyntax.self) { return stripped(optional.expression, depth: depth + 1) }
        if let call = expression.as(FunctionCallExprSyntax.self), call.arguments.count == 1, let only = call.arguments.first,
           only.label == nil, call.trailingClosure == nil,
           let callee = call.calledExpression.as(DeclReferenceExprSyntax.self), bridgingTypes.contains(callee.baseName.text) {
            return stripped(only.expression, depth: depth + 1)
        }
        return expression
    }

    /// The global or member name an expression stands for: `kSecAttrAccessible` (no base),
    /// `.completeFileProtection` → `completeFileProtection` with the empty base of an implicit
    /// member, `FileProtectionType.none` → `none` with its base `FileProtectionType`.
    static func name(_ expression: ExprSyntax) -> (base: String?, name: String)? {
        let e = stripped(expression)
        if let reference = e.as(DeclReferenceExprSyntax.self) { return (nil, reference.baseName.text) }
        if let member = e.as(MemberAccessExprSyntax.self) {
            let name = member.declName.baseName.text
            guard let base = member.base else { return ("", name) }
            if let reference = base.as(DeclReferenceExprSyntax.self) { return (reference.baseName.text, name) }
            if let inner = base.as(MemberAccessExprSyntax.self) { return (inner.declName.baseName.text, name) }
            return ("?", name)
        }
        return nil
    }

    /// A global name written alone (`kSecAttrAccessibleAlways`, `Security.kSecAttrAccessibleAlways`).
    static func globalName(_ expression: ExprSyntax) -> String? {
        guard let n = name(expression) else { return nil }
        if n.base == nil || n.base == "Security" || n.base == "Foundation" { return n.name }
        return nil
    }

    /// The text of a string literal without interpolation.
    static func stringLiteral(_ expression: ExprSyntax) -> String? {
        guard let literal = stripped(expression).as(StringLiteralExprSyntax.self), literal.segments.count == 1,
              case .stringSegment(let segment)? = literal.segments.first else { return nil }
        return segment.content.text
    }

    /// `true`, `kCFBooleanTrue`, `NSNumber(value: true)`.
    static func isTrue(_ expression: ExprSyntax) -> Bool {
        let e = stripped(expression)
        if let literal = e.as(BooleanLiteralExprSyntax.self) { return literal.literal.tokenKind == .keyword(.true) }
        if globalName(e) == "kCFBooleanTrue" { return true }
        if let call = e.as(FunctionCallExprSyntax.self), call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "NSNumber",
           call.arguments.count == 1, let only = call.arguments.first {
            return isTrue(only.expression)
        }
        return false
    }

    /// Whether the expression is a Boolean or number literal (a flag, not a secret).
    static func isFlagLiteral(_ expression: ExprSyntax) -> Bool {
        let e = stripped(expression)
        if e.is(BooleanLiteralExprSyntax.self) || e.is(IntegerLiteralExprSyntax.self) || e.is(FloatLiteralExprSyntax.self) { return true }
        if let prefix = e.as(PrefixOperatorExprSyntax.self) { return prefix.operator.text == "!" || isFlagLiteral(prefix.expression) }
        return false
    }

    /// The last name of a value expression (`password`, `self.credentials.accessToken` → `accessToken`).
    static func valueName(_ expression: ExprSyntax) -> String? {
        let e = stripped(expression)
        if let reference = e.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let member = e.as(MemberAccessExprSyntax.self), member.base != nil { return member.declName.baseName.text }
        return nil
    }
}
