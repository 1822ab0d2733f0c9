import Evidence
import SwiftSyntax

/// A file's own helper around a cryptor (`func crypt(_ data: Data, algorithm: Int, options: Int)`
/// calling `CCCrypt(op, CCAlgorithm(algorithm), CCOptions(options), …)`): the constants its
/// callers in the same file pass for those parameters are the cryptor's arguments.
extension CryptoVisitor {
    enum ArgumentRole { case algorithm, options, mode }

    /// A cryptor argument that is a parameter of the enclosing function.
    struct Forwarded {
        var function: String
        var index: Int
        /// The argument label callers write, or nil for a `_` parameter (matched by position).
        var label: String?
        var role: ArgumentRole
        var cryptor: String
    }

    /// The helper a call names: `crypt(…)`, `self.crypt(…)`, `Self.crypt(…)`.
    static func helperName(_ call: FunctionCallExprSyntax) -> String? {
        if let callee = call.calledExpression.as(DeclReferenceExprSyntax.self) { return callee.baseName.text }
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self),
           let base = member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text, base == "self" || base == "Self" {
            return member.declName.baseName.text
        }
        return nil
    }

    /// The parameter of the enclosing function an argument passes on unchanged (through
    /// integer conversions), unless a local `let` of that name shadows it.
    static func forwardedParameter(_ argument: ExprSyntax, role: ArgumentRole, cryptor: String) -> Forwarded? {
        guard let name = unwrapped(argument).as(DeclReferenceExprSyntax.self)?.baseName.text,
              letValue(name, from: Syntax(argument), membersOnly: false) == nil else { return nil }
        var current = argument.parent
        var steps = 0
        while let n = current, steps < 4096 {
            steps += 1
            if n.is(ClosureExprSyntax.self) { return nil }
            if let function = n.as(FunctionDeclSyntax.self) {
                let parameters = Array(function.signature.parameterClause.parameters)
                guard let index = parameters.firstIndex(where: { ($0.secondName ?? $0.firstName).text == name }) else { return nil }
                let label = parameters[index].firstName.text
                return Forwarded(function: function.name.text, index: index, label: label == "_" ? nil : label, role: role,
                                 cryptor: cryptor)
            }
            current = n.parent
        }
        return nil
    }

    /// Whether an argument is a CommonCrypto constant or a literal (resolved, whatever its value).
    static func resolvesToConstant(_ argument: ExprSyntax) -> Bool {
        let e = unwrapped(argument)
        if e.is(IntegerLiteralExprSyntax.self) { return true }
        return e.tokens(viewMode: .sourceAccurate).contains { $0.text.hasPrefix("kCC") }
    }

    /// Judges the arguments the file's callers pass to each helper parameter a cryptor reads.
    func resolveForwarded() {
        for f in forwarded {
            for (call, ships) in callsByName[f.function] ?? [] {
                let arguments = Array(call.arguments)
                let argument: LabeledExprSyntax?
                if let label = f.label {
                    argument = arguments.first { $0.label?.text == label }
                } else {
                    argument = f.index < arguments.count && arguments[f.index].label == nil ? arguments[f.index] : nil
                }
                guard let argument else { continue }
                judge(argument.expression, role: f.role, api: "\(f.function)(…) → \(f.cryptor)", ships: ships)
            }
        }
    }
}
