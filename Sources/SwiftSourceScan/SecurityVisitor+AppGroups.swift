import Evidence
import SwiftSyntax

/// App groups named in calls (`ProtectedResourceCatalog.Security.appGroup`):
/// `UserDefaults(suiteName:)` and `containerURL(forSecurityApplicationGroupIdentifier:)`, with a
/// string literal or a constant the same file binds once to a literal (`let appGroup = "group.x"`,
/// `static let appGroup: String = "group.x"`, read as `appGroup`, `Self.appGroup`, `K.appGroup`).
extension SecurityVisitor {
    static let appGroupTriggerNames: Set<String> = ["suiteName", "forSecurityApplicationGroupIdentifier"]

    /// The group argument of an app-group call, or nil.
    static func appGroupArgument(of node: FunctionCallExprSyntax) -> (expression: ExprSyntax, api: String)? {
        guard node.arguments.count == 1, let argument = node.arguments.first, let label = argument.label?.text else { return nil }
        if label == "forSecurityApplicationGroupIdentifier",
           node.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "containerURL" {
            return (argument.expression, "containerURL(forSecurityApplicationGroupIdentifier:)")
        }
        guard label == "suiteName" else { return nil }
        if node.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "UserDefaults" {
            return (argument.expression, "UserDefaults(suiteName:)")
        }
        if let member = node.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "init",
           member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "UserDefaults" {
            return (argument.expression, "UserDefaults(suiteName:)")
        }
        return nil
    }

    /// Resolves the recorded calls once the walk is done: a literal, or a constant of the file.
    func resolveAppGroupCalls(_ tree: SourceFileSyntax) {
        guard !appGroupCalls.isEmpty else { return }
        var constants: StringConstants?
        for call in appGroupCalls {
            var value = SecurityExpressions.stringLiteral(call.expression)
            if value == nil, let name = Self.constantName(call.expression) {
                if constants == nil { constants = StringConstants(tree) }
                value = constants?.value(of: name)
            }
            guard let group = value, Security.isAppGroupIdentifier(group) else { continue }
            emit(Security.appGroup, key: group, api: "\(call.api) \"\(group)\"", at: call.expression, ships: call.ships)
        }
    }

    /// `appGroup`, `Self.appGroup`, `Constants.appGroup`: the constant's name.
    static func constantName(_ expression: ExprSyntax) -> String? {
        let e = SecurityExpressions.stripped(expression)
        if let reference = e.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let member = e.as(MemberAccessExprSyntax.self), member.base?.is(DeclReferenceExprSyntax.self) == true {
            return member.declName.baseName.text
        }
        return nil
    }
}

/// `let` bindings of one file whose initializer is a plain string literal, by name; a name
/// bound twice (to different values, or once with `var`) resolves to nothing.
struct StringConstants {
    private var values: [String: String] = [:]
    private var ambiguous: Set<String> = []

    init(_ tree: SourceFileSyntax) {
        let collector = Collector(viewMode: .sourceAccurate)
        collector.walk(tree)
        for (name, value) in collector.bindings {
            guard !ambiguous.contains(name) else { continue }
            if let value, values[name] == nil || values[name] == value {
                values[name] = value
            } else {
                values[name] = nil
                ambiguous.insert(name)
            }
        }
    }

    func value(of name: String) -> String? { values[name] }

    private final class Collector: SyntaxVisitor {
        var bindings: [(String, String?)] = []

        override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
            guard let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return .visitChildren }
            let isLet = node.parent?.parent?.as(VariableDeclSyntax.self)?.bindingSpecifier.tokenKind == .keyword(.let)
            let literal = node.initializer.flatMap { SecurityExpressions.stringLiteral($0.value) }
            bindings.append((name, isLet ? literal : nil))
            return .visitChildren
        }

        /// A parameter of the same name shadows a constant.
        override func visit(_ node: FunctionParameterSyntax) -> SyntaxVisitorContinueKind {
            bindings.append(((node.secondName ?? node.firstName).text, nil))
            return .visitChildren
        }
    }
}
