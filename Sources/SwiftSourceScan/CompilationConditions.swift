import SwiftSyntax

/// What a `#if` condition is in a release build for a device, as far as the source says.
enum ReleaseTruth: Sendable, Equatable {
    /// Always true in a release device build (`!DEBUG`, `true`, `1`).
    case yes
    /// Never true in a release device build (`DEBUG`, `targetEnvironment(simulator)`, `false`, `0`).
    case no
    /// Depends on the platform, the SDK, the compiler or a flag the scanner cannot see.
    case maybe

    static prefix func ! (value: ReleaseTruth) -> ReleaseTruth {
        switch value {
        case .yes: .no
        case .no: .yes
        case .maybe: .maybe
        }
    }

    static func && (lhs: ReleaseTruth, rhs: ReleaseTruth) -> ReleaseTruth {
        if lhs == .no || rhs == .no { return .no }
        if lhs == .yes && rhs == .yes { return .yes }
        return .maybe
    }

    static func || (lhs: ReleaseTruth, rhs: ReleaseTruth) -> ReleaseTruth {
        if lhs == .yes || rhs == .yes { return .yes }
        if lhs == .no && rhs == .no { return .no }
        return .maybe
    }
}

/// What a target's build settings say about its `#if` conditions.
struct TargetConditions: Sendable, Hashable {
    /// `iOS`, `watchOS`, … decides `os(…)`; nil when unknown.
    var platform: String?
    /// The Swift compilation conditions of the shipping build, nil when unknown.
    var conditions: Set<String>?

    init(platform: String? = nil, conditions: Set<String>? = nil) {
        self.platform = platform
        self.conditions = conditions
    }
}

/// Decides whether the code of a `#if` clause can ship.
///
/// Known non-shipping conditions: `DEBUG`, `targetEnvironment(simulator)`, `false`, `0`.
/// `os(…)`, `canImport(…)`, `swift(…)`, `compiler(…)`, `arch(…)`, other
/// `targetEnvironment(…)` values and unknown flags may hold in a shipping build.
enum CompilationConditions {
    /// Deeper conditions are treated as `maybe` (possibly shipping).
    static let maximumDepth = 64

    /// Whether the clause's code can be in a release device build: false when its own
    /// condition never holds there, or when an earlier clause of the same `#if` always does.
    /// `platform` (`iOS`, `watchOS`, `tvOS`, `macOS`, `visionOS`), when the target is known,
    /// decides `os(…)` conditions: code for another platform is not compiled for this target.
    static func clauseShips(_ clause: IfConfigClauseSyntax, target: TargetConditions = TargetConditions()) -> Bool {
        if let list = clause.parent?.as(IfConfigClauseListSyntax.self) {
            for earlier in list {
                if earlier.id == clause.id { break }
                if let condition = earlier.condition, truth(condition, target: target) == .yes { return false }
            }
        }
        guard let condition = clause.condition else { return true }  // #else
        return truth(condition, target: target) != .no
    }

    static func truth(_ expression: ExprSyntax, target: TargetConditions = TargetConditions(), depth: Int = 0) -> ReleaseTruth {
        guard depth < maximumDepth else { return .maybe }
        if let literal = expression.as(BooleanLiteralExprSyntax.self) {
            return literal.literal.tokenKind == .keyword(.true) ? .yes : .no
        }
        if let literal = expression.as(IntegerLiteralExprSyntax.self) {
            return literal.literal.text == "0" ? .no : .yes
        }
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            // A flag the target's settings do not set is false, as for the compiler.
            if let conditions = target.conditions { return conditions.contains(reference.baseName.text) ? .yes : .no }
            return reference.baseName.text == "DEBUG" ? .no : .maybe
        }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
            return !truth(prefix.expression, target: target, depth: depth + 1)
        }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
            return truth(only.expression, target: target, depth: depth + 1)
        }
        if let infix = expression.as(InfixOperatorExprSyntax.self),
           let op = infix.operator.as(BinaryOperatorExprSyntax.self) {
            let lhs = truth(infix.leftOperand, target: target, depth: depth + 1), rhs = truth(infix.rightOperand, target: target, depth: depth + 1)
            switch op.operator.text {
            case "&&": return lhs && rhs
            case "||": return lhs || rhs
            default: return .maybe
            }
        }
        if let sequence = expression.as(SequenceExprSyntax.self) {
            return sequenceTruth(Array(sequence.elements), target: target, depth: depth + 1)
        }
        if let call = expression.as(FunctionCallExprSyntax.self),
           let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
           callee.baseName.text == "targetEnvironment",
           call.arguments.count == 1, let argument = call.arguments.first,
           let value = argument.expression.as(DeclReferenceExprSyntax.self) {
            return value.baseName.text == "simulator" ? .no : .maybe
        }
        if let platform = target.platform, let call = expression.as(FunctionCallExprSyntax.self),
           let callee = call.calledExpression.as(DeclReferenceExprSyntax.self), callee.baseName.text == "os",
           call.arguments.count == 1, let value = call.arguments.first?.expression.as(DeclReferenceExprSyntax.self) {
            return value.baseName.text == platform ? .yes : .no
        }
        return .maybe
    }

    /// An unfolded `a && b || !c` sequence: `&&` binds tighter than `||`.
    private static func sequenceTruth(_ elements: [ExprSyntax], target: TargetConditions, depth: Int) -> ReleaseTruth {
        var result: ReleaseTruth = .no      // of the `||` groups seen so far
        var group: ReleaseTruth = .yes      // of the current `&&` group
        var expectOperand = true
        for element in elements {
            if expectOperand {
                group = group && truth(element, target: target, depth: depth)
            } else {
                guard let op = element.as(BinaryOperatorExprSyntax.self) else { return .maybe }
                switch op.operator.text {
                case "&&": break
                case "||":
                    result = result || group
                    group = .yes
                default: return .maybe
                }
            }
            expectOperand.toggle()
        }
        return result || group
    }
}
