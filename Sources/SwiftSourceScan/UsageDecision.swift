import Evidence
import Foundation
import SwiftSyntax

/// Which uses an index entry gives at a call or assignment: fixed uses, uses chosen by a literal
/// argument or value, or uses that depend on whether an argument is empty.
extension UsageVisitor {
    struct Outcome {
        var uses: [SwiftAPIUse]
        /// A literal the entry lists decided the uses.
        var listedLiteral = false
        /// How the deciding argument is shown in the api text (`.video`), if one decided.
        var shown: String?
        /// Appended to the api text (` (camera or microphone)`).
        var suffix = ""
    }

    /// The uses of a call or assignment. A literal the entry does not list gives no use.
    func decide(_ decision: SwiftAPIDecision, call: FunctionCallExprSyntax?, value: ExprSyntax?) -> Outcome {
        switch decision {
        case .fixed(let uses):
            return Outcome(uses: uses)
        case .literal(let label, let cases):
            let argument = value ?? call.flatMap { Self.argument(label, of: $0) }
            if let argument, let literal = Self.literalName(argument) {
                if let uses = cases[literal] {
                    return Outcome(uses: uses, listedLiteral: true, shown: Self.shownLiteral(literal))
                }
                return Outcome(uses: [], listedLiteral: false, shown: Self.shownLiteral(literal))
            }
            let names = Set(cases.values.flatMap { $0.map(\.capability) }).sorted()
            let candidates = names.map { SwiftAPIUse(capability: $0, strength: .indicative) }
            let shownNames = names + (cases.values.contains(where: \.isEmpty) ? ["none"] : [])
            return Outcome(uses: candidates, shown: argument.map(Self.shortText) ?? "…",
                           suffix: " (" + shownNames.joined(separator: " or ") + ")")
        case .nonEmpty(let pairs):
            guard let call else { return Outcome(uses: []) }
            var uses: [SwiftAPIUse] = []
            for (label, use) in pairs {
                guard let argument = Self.argument(label, of: call) else { continue }
                switch Self.emptiness(argument) {
                case .empty: continue
                case .nonEmpty: uses.append(use)
                case .unknown: uses.append(SwiftAPIUse(capability: use.capability, strength: .indicative))
                }
            }
            return Outcome(uses: uses)
        }
    }

    private enum Emptiness { case empty, nonEmpty, unknown }

    /// `[]`, `nil`, `Set()`, `Set<HKSampleType>()`, `.init()` are empty; array literals with
    /// elements and `Set([…])` with elements are not; anything else is unknown.
    private static func emptiness(_ expression: ExprSyntax) -> Emptiness {
        if expression.is(NilLiteralExprSyntax.self) { return .empty }
        if let array = expression.as(ArrayExprSyntax.self) { return array.elements.isEmpty ? .empty : .nonEmpty }
        if let call = expression.as(FunctionCallExprSyntax.self), call.trailingClosure == nil {
            let callee = call.calledExpression
            let isSet = callee.as(DeclReferenceExprSyntax.self)?.baseName.text == "Set"
                || callee.as(GenericSpecializationExprSyntax.self)?.expression.as(DeclReferenceExprSyntax.self)?.baseName.text == "Set"
                || (callee.as(MemberAccessExprSyntax.self).map { $0.base == nil && $0.declName.baseName.text == "init" } ?? false)
            if isSet {
                guard let only = call.arguments.first else { return .empty }
                if call.arguments.count == 1, only.label == nil { return emptiness(only.expression) }
            }
        }
        return .unknown
    }
}
