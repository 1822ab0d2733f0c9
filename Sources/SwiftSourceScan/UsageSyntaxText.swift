import Evidence
import Foundation
import SwiftSyntax

/// How a call and its arguments read: argument labels, literal arguments and the short source
/// text shown in api texts.
extension UsageVisitor {
    // MARK: Syntax helpers

    /// Argument labels of a call, `_` for none; trailing closures are not included.
    func callLabels(_ call: FunctionCallExprSyntax) -> [String] {
        call.arguments.map { $0.label?.text ?? "_" }
    }

    /// `for: .video, completionHandler:` when an argument decided, else `toShare:read:`.
    func labelList(_ call: FunctionCallExprSyntax, decisive shown: String? = nil) -> String {
        guard let shown else {
            return call.arguments.map { ($0.label?.text ?? "_") + ":" }.joined()
        }
        var parts: [String] = []
        var placed = false
        for argument in call.arguments {
            let label = argument.label?.text
            if !placed, Self.literalName(argument.expression).map(Self.shownLiteral) == shown
                || Self.shortText(argument.expression) == shown {
                parts.append((label.map { $0 + ": " } ?? "") + shown)
                placed = true
            } else {
                parts.append((label ?? "_") + ":")
            }
        }
        return parts.joined(separator: ", ")
    }

    static func argument(_ label: String?, of call: FunctionCallExprSyntax) -> ExprSyntax? {
        call.arguments.first { $0.label?.text == label }?.expression
    }

    /// `.video`, `AVMediaType.video`, `UIImagePickerController.SourceType.camera` → the member
    /// name; `true`/`false`/`nil` → themselves; anything else is not a literal.
    static func literalName(_ expression: ExprSyntax) -> String? {
        if let member = expression.as(MemberAccessExprSyntax.self) {
            guard let base = member.base else { return member.declName.baseName.text }
            return isTypeExpression(base) ? member.declName.baseName.text : nil
        }
        if let boolean = expression.as(BooleanLiteralExprSyntax.self) { return boolean.literal.text }
        if expression.is(NilLiteralExprSyntax.self) { return "nil" }
        return nil
    }

    static func shownLiteral(_ name: String) -> String {
        name == "true" || name == "false" || name == "nil" ? name : "." + name
    }

    /// `AVMediaType`, `UIImagePickerController.SourceType`: a chain of upper-case names.
    private static func isTypeExpression(_ expression: ExprSyntax, depth: Int = 0) -> Bool {
        guard depth < FileContext.maximumDepth else { return false }
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return FileContext.isTypeName(reference.baseName.text) }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base {
            return FileContext.isTypeName(member.declName.baseName.text) && isTypeExpression(base, depth: depth + 1)
        }
        return false
    }

    /// Source text of an expression on one line, shortened for api texts.
    static func shortText(_ expression: ExprSyntax) -> String {
        let text = expression.sourceText.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        return text.count > 40 ? String(text.prefix(39)) + "…" : text
    }
}
