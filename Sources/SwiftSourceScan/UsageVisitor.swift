import Evidence
import Foundation
import SwiftSyntax

/// One walk over the tree: collects the file's declarations (as `DeclarationCollector`) and
/// the candidate nodes whose names the index knows, with whether each can ship; then matches
/// the candidates, in tree order, once every declaration of the file is known.
final class UsageVisitor: DeclarationCollector {
    private let index: SwiftAPIIndex
    private var context = FileContext()
    private let lines: LineTable

    /// One entry per enclosing `#if` clause: whether it can ship.
    private var clauseShips: [Bool] = []
    /// Nodes worth matching, in tree (pre-)order, with whether their code can ship.
    private var candidates: [(node: Syntax, ships: Bool)] = []
    /// Whether the candidate being matched can ship.
    private var ships = true
    /// Type references already explained by a member or initializer match.
    private var consumed: Set<SyntaxIdentifier> = []
    private var found: [SourceUsage] = []

    /// The target's platform and conditions, when known (decide `#if`).
    private let target: TargetConditions
    /// Modules the file imports (`import X`, any kind of import).
    private(set) var imports: Set<String> = []

    init(index: SwiftAPIIndex, lines: LineTable, target: TargetConditions = TargetConditions()) {
        self.index = index
        self.lines = lines
        self.target = target
        super.init(viewMode: .sourceAccurate)
    }

    /// Walks the file and matches what it found.
    func scan(_ tree: SourceFileSyntax) {
        walk(tree)
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
        if index.properties[node.declName.baseName.text] != nil { remember(node) }
        return .visitChildren
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        if index.typeReferences[node.baseName.text] != nil { remember(node) }
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

    // MARK: Calls

    private func match(_ node: FunctionCallExprSyntax) {
        let callee = node.calledExpression
        if let reference = callee.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            if let entries = index.functions[name], !context.localFunctions.contains(name), !context.isLocalType(name) {
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

    private func match(_ node: SequenceExprSyntax) {
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

    private func match(_ node: MemberAccessExprSyntax) {
        let name = node.declName.baseName.text
        if let entries = index.properties[name], let base = node.base,
           node.parent?.as(FunctionCallExprSyntax.self)?.calledExpression.id != node.id {
            _ = matchMember(entries, name: name, base: base, call: nil, value: nil, anchor: Syntax(node))
        }
    }

    // MARK: Type references

    private func match(_ node: DeclReferenceExprSyntax) {
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

    private func match(_ node: IdentifierTypeSyntax) {
        let name = node.name.text
        guard let uses = index.typeReferences[name], !context.isLocalType(name) else { return }
        if let parent = node.parent?.as(MemberTypeSyntax.self), parent.baseType.id == node.id {
            return  // a nested type: `AVCaptureDevice.Position`
        }
        emit(uses, api: name, at: node, symbol: name)
    }

    private func match(_ node: MemberTypeSyntax) {
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

    private struct Outcome {
        var uses: [SwiftAPIUse]
        /// A literal the entry lists decided the uses.
        var listedLiteral = false
        /// How the deciding argument is shown in the api text (`.video`), if one decided.
        var shown: String?
        /// Appended to the api text (` (camera or microphone)`).
        var suffix = ""
    }

    /// The uses of a call or assignment. A literal the entry does not list gives no use.
    private func decide(_ decision: SwiftAPIDecision, call: FunctionCallExprSyntax?, value: ExprSyntax?) -> Outcome {
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

    // MARK: Output

    private func emit(_ uses: [SwiftAPIUse], api: String, at node: Syntax, symbol: String?) {
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

    private func emit(_ uses: [SwiftAPIUse], api: String, at node: some SyntaxProtocol, symbol: String?) {
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
                type = d.extendedType.as(IdentifierTypeSyntax.self)?.name.text ?? d.extendedType.trimmedDescription
            }
            current = n.parent
        }
        return [type, function].compactMap { $0 }
    }

    /// Marks the type references inside a matched receiver (`AVCaptureDevice` in
    /// `AVCaptureDevice.requestAccess`, `AVAudioSession` in `AVAudioSession.sharedInstance()`).
    private func consume(_ node: Syntax, depth: Int = 0) {
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

    // MARK: Syntax helpers

    /// Argument labels of a call, `_` for none; trailing closures are not included.
    private func callLabels(_ call: FunctionCallExprSyntax) -> [String] {
        call.arguments.map { $0.label?.text ?? "_" }
    }

    /// `for: .video, completionHandler:` when an argument decided, else `toShare:read:`.
    private func labelList(_ call: FunctionCallExprSyntax, decisive shown: String? = nil) -> String {
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

    private static func argument(_ label: String?, of call: FunctionCallExprSyntax) -> ExprSyntax? {
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

    private static func shownLiteral(_ name: String) -> String {
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

    /// Source text of an expression on one line, shortened for api texts.
    static func shortText(_ expression: ExprSyntax) -> String {
        let text = expression.trimmedDescription.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        return text.count > 40 ? String(text.prefix(39)) + "…" : text
    }
}
