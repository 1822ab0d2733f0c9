import SwiftSyntax

/// The type of an expression, as far as one file says.
enum ReceiverType: Equatable {
    /// A named type: the expression is the type itself, an instance, or a shared instance.
    case type(String)
    case unknown
}

/// What one file declares: its own types and functions (which shadow Apple's names) and the
/// declared or initialized types of its variables, properties and parameters, by name.
///
/// Names are file-wide, not scoped: a name declared twice with different types is unknown.
struct FileContext {
    private(set) var localTypes: Set<String> = []
    private(set) var localFunctions: Set<String> = []
    private var variableTypes: [String: String] = [:]
    private var ambiguous: Set<String> = []

    /// Resolution of nested expressions stops here.
    static let maximumDepth = 32

    init() {}

    /// From the declarations a walk collected.
    init(_ collector: DeclarationCollector) {
        localTypes = collector.types
        localFunctions = collector.functions
        for (name, type) in collector.annotated { record(name, type) }
        // Two rounds, so `let b = a` resolves whichever of a and b comes first.
        for _ in 0..<2 {
            for (name, initializer) in collector.initialized {
                if case .type(let type) = resolve(initializer) { record(name, type) }
            }
        }
    }

    private mutating func record(_ name: String, _ type: String) {
        guard !ambiguous.contains(name) else { return }
        if let existing = variableTypes[name], existing != type {
            variableTypes[name] = nil
            ambiguous.insert(name)
        } else {
            variableTypes[name] = type
        }
    }

    func isLocalType(_ name: String) -> Bool { localTypes.contains(name) }

    func variableType(_ name: String) -> ReceiverType {
        variableTypes[name].map(ReceiverType.type) ?? .unknown
    }

    /// The type an expression has when it is a type, a variable of a known type, a created
    /// instance (`CNContactStore()`) or a shared one (`AVAudioSession.sharedInstance()`).
    func resolve(_ expression: ExprSyntax, depth: Int = 0) -> ReceiverType {
        guard depth < Self.maximumDepth else { return .unknown }
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            if name == "self" || name == "super" || name == "Self" { return .unknown }
            return Self.isTypeName(name) ? .type(name) : variableType(name)
        }
        if let member = expression.as(MemberAccessExprSyntax.self) {
            let name = member.declName.baseName.text
            guard let base = member.base else { return .unknown }
            if let baseReference = base.as(DeclReferenceExprSyntax.self) {
                let baseName = baseReference.baseName.text
                if baseName == "self" || baseName == "Self" { return variableType(name) }
                if SwiftAPITable.appleModules.contains(baseName), Self.isTypeName(name) { return .type(name) }
            }
            if SwiftAPITable.sharedInstanceMembers.contains(name),
               case .type(let type) = resolve(base, depth: depth + 1) {
                return .type(type)
            }
            return Self.isTypeName(name) ? .unknown : variableType(name)
        }
        if let call = expression.as(FunctionCallExprSyntax.self) {
            let callee = call.calledExpression
            if let reference = callee.as(DeclReferenceExprSyntax.self) {
                let name = reference.baseName.text
                return Self.isTypeName(name) ? .type(name) : .unknown
            }
            if let member = callee.as(MemberAccessExprSyntax.self), let base = member.base {
                let name = member.declName.baseName.text
                if name == "init" || SwiftAPITable.sharedInstanceMembers.contains(name) {
                    return resolve(base, depth: depth + 1)
                }
                if Self.isTypeName(name) { return resolve(callee, depth: depth + 1) }  // Module.Type()
            }
            return .unknown
        }
        if let optional = expression.as(OptionalChainingExprSyntax.self) {
            return resolve(optional.expression, depth: depth + 1)
        }
        if let forced = expression.as(ForceUnwrapExprSyntax.self) {
            return resolve(forced.expression, depth: depth + 1)
        }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first,
           only.label == nil {
            return resolve(only.expression, depth: depth + 1)
        }
        if let awaited = expression.as(AwaitExprSyntax.self) { return resolve(awaited.expression, depth: depth + 1) }
        if let tried = expression.as(TryExprSyntax.self) { return resolve(tried.expression, depth: depth + 1) }
        if let cast = expression.as(AsExprSyntax.self), let name = Self.typeName(cast.type) { return .type(name) }
        if let sequence = expression.as(SequenceExprSyntax.self), sequence.elements.count == 3,
           let op = sequence.elements.dropFirst().first, op.is(UnresolvedAsExprSyntax.self),
           let last = sequence.elements.last, let typeExpression = last.as(TypeExprSyntax.self),
           let name = Self.typeName(typeExpression.type) {
            return .type(name)  // `x as! T` before folding
        }
        return .unknown
    }

    /// Types start with an upper-case letter in Swift code (and in every Apple API the table names).
    static func isTypeName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first else { return false }
        return first.properties.isUppercase
    }

    /// The named type of a declaration's type, through optionals and attributes.
    static func typeName(_ type: TypeSyntax, depth: Int = 0) -> String? {
        guard depth < maximumDepth else { return nil }
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            return identifier.genericArgumentClause == nil ? identifier.name.text : nil
        }
        if let optional = type.as(OptionalTypeSyntax.self) { return typeName(optional.wrappedType, depth: depth + 1) }
        if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return typeName(unwrapped.wrappedType, depth: depth + 1)
        }
        if let attributed = type.as(AttributedTypeSyntax.self) { return typeName(attributed.baseType, depth: depth + 1) }
        if let member = type.as(MemberTypeSyntax.self), let base = member.baseType.as(IdentifierTypeSyntax.self),
           SwiftAPITable.appleModules.contains(base.name.text) {
            return member.name.text
        }
        return nil
    }
}

/// Collects the declarations of a file (the usage visitor extends it, so one walk does both).
class DeclarationCollector: SyntaxVisitor {
    var types: Set<String> = []
    var functions: Set<String> = []
    var annotated: [(String, String)] = []
    var initialized: [(String, ExprSyntax)] = []

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { types.insert(node.name.text); return .visitChildren }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { types.insert(node.name.text); return .visitChildren }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { types.insert(node.name.text); return .visitChildren }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { types.insert(node.name.text); return .visitChildren }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind { types.insert(node.name.text); return .visitChildren }
    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind { types.insert(node.name.text); return .visitChildren }
    override func visit(_ node: AssociatedTypeDeclSyntax) -> SyntaxVisitorContinueKind { types.insert(node.name.text); return .visitChildren }
    override func visit(_ node: GenericParameterSyntax) -> SyntaxVisitorContinueKind { types.insert(node.name.text); return .visitChildren }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { functions.insert(node.name.text); return .visitChildren }

    override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
        if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
            if let type = node.typeAnnotation?.type {
                if let typeName = FileContext.typeName(type) { annotated.append((name, typeName)) }
            } else if let value = node.initializer?.value {
                initialized.append((name, value))
            }
        }
        return .visitChildren
    }

    override func visit(_ node: FunctionParameterSyntax) -> SyntaxVisitorContinueKind {
        let name = (node.secondName ?? node.firstName).text
        if name != "_", let typeName = FileContext.typeName(node.type) { annotated.append((name, typeName)) }
        return .visitChildren
    }

    override func visit(_ node: ClosureParameterSyntax) -> SyntaxVisitorContinueKind {
        let name = (node.secondName ?? node.firstName).text
        if name != "_", let type = node.type, let typeName = FileContext.typeName(type) { annotated.append((name, typeName)) }
        return .visitChildren
    }

    override func visit(_ node: OptionalBindingConditionSyntax) -> SyntaxVisitorContinueKind {
        if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
            if let type = node.typeAnnotation?.type, let typeName = FileContext.typeName(type) {
                annotated.append((name, typeName))
            } else if let value = node.initializer?.value {
                initialized.append((name, value))
            }
        }
        return .visitChildren
    }
}
