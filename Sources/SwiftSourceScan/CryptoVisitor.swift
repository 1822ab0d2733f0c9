import Evidence
import Formats
import SwiftSyntax

/// Cryptography facts of one Swift file (`Security.weakCipher`, `.ecbMode`, `.insecureRandom`):
/// - the algorithm, options and mode arguments of CommonCrypto's cryptor calls (`CCCrypt`,
///   `CCCryptorCreate`, `CCCryptorCreateFromData`, `CCCryptorCreateWithMode`), resolved
///   through Swift's wrappers (`CCAlgorithm(kCCAlgorithmDES)`, `UInt32(…)`), `?:` branches,
///   integer literals and a `let` of the function or type that holds one constant; a constant
///   named anywhere else (an enum's mapping) is not a use;
/// - CryptoSwift's `Blowfish` cipher and `ECB()` block mode, in a file that imports it;
/// - `rand()`, `random()`, `drand48()` … and GameplayKit's seeded sources whose value goes,
///   in the same expression, into something named as a secret (a binding, an assignment's
///   target, an argument label, `password.append(…)`), or that sit in a function named as
///   producing one (`generatePassword`, `makeNonce`).
final class CryptoVisitor: SyntaxVisitor {
    typealias Security = ProtectedResourceCatalog.Security
    typealias E = SecurityExpressions

    let lines: LineTable
    private let target: TargetConditions
    /// One entry per enclosing `#if` clause: whether it can ship (`FileWalk` keeps it in a shared walk).
    var clauseShips: [Bool] = []
    private var found: [(usage: SourceUsage, needs: Need)] = []
    private var imports: Set<String> = []
    private var declaredFunctions: Set<String> = []
    /// Cryptor arguments that are a parameter of the file's own helper, and the file's calls by name.
    var forwarded: [Forwarded] = []
    var callsByName: [String: [(call: FunctionCallExprSyntax, ships: Bool)]] = [:]

    /// What a fact needs from the whole file: CryptoSwift imported, or no `func rand` of its own.
    enum Need { case nothing, cryptoSwift, globalFunction(String) }

    init(lines: LineTable, target: TargetConditions = TargetConditions()) {
        self.lines = lines
        self.target = target
        super.init(viewMode: .sourceAccurate)
    }

    /// Identifiers a file must refer to for this visitor to find anything in it.
    static let triggerNames: Set<String> = Set(Security.weakCipherConstants.keys).union(Security.cryptorCalls.keys)
        .union(Security.insecureRandomFunctions).union(Security.insecureRandomSources)
        .union([Security.ecbOption, Security.ecbModeConstant, "ECB", "Blowfish"])
        // `random` is also every `Int.random(in:)`: the byte test below asks for a bare call.
        .subtracting(["random"])

    /// Whether the bytes may hold a fact: a trigger name, or a generator written as a global
    /// call (`rand(`, `random(`: not `arc4random(`, not `Int.random(`).
    static func mayFind(in source: String) -> Bool {
        var text = source
        return text.withUTF8 { b in
            SecurityVisitor.contains(b, triggerTable) || randomCalls.contains { bareCall(b, $0) }
        }
    }

    static let triggerTable = SecurityVisitor.prefixTable(triggerNames.subtracting(Security.insecureRandomFunctions))
    static let randomCalls = Security.insecureRandomFunctions.sorted().map { Array(($0 + "(").utf8) }

    /// The needle not after `.` or an identifier byte.
    static func bareCall(_ b: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        let raw = UnsafeRawBufferPointer(b)
        var from = 0
        while let i = ByteSearch.firstOffset(of: needle, in: raw, from: from) {
            let before = i > 0 ? b[i - 1] : 0x20
            let isWord = (before >= 0x30 && before <= 0x39) || (before >= 0x41 && before <= 0x5A) || (before >= 0x61 && before <= 0x7A)
                || before == 0x5F || before == 0x2E || before >= 0x80
            if !isWord { return true }
            from = i + 1
        }
        return false
    }

    /// `random(` as a global call: not a parse trigger by name (`Int.random(in:)` names it too),
    /// so the parse gate asks the bytes, and a prefiltered scan finds what a full parse finds.
    static let bareRandomCall = Array("random(".utf8)

    var ships: Bool { !clauseShips.contains(false) }

    func scan(_ tree: SourceFileSyntax) -> [SourceUsage] {
        walk(tree)
        return finish()
    }

    /// What the walk found, resolved once the whole file is known.
    func finish() -> [SourceUsage] {
        resolveForwarded()
        return found.compactMap { entry in
            switch entry.needs {
            case .nothing: entry.usage
            case .cryptoSwift: imports.contains("CryptoSwift") ? entry.usage : nil
            case .globalFunction(let name): declaredFunctions.contains(name) ? nil : entry.usage
            }
        }
    }

    func emit(_ capability: String, key: String, api: String, at node: some SyntaxProtocol, needs: Need = .nothing,
              ships: Bool? = nil) {
        let location = lines.location(ofUTF8Offset: node.positionAfterSkippingLeadingTrivia.utf8Offset)
        found.append((SourceUsage(capability: capability, key: key, api: api, line: location.line, column: location.column,
                                  strength: .definite, ships: ships ?? self.ships, container: UsageVisitor.container(of: Syntax(node))), needs))
    }

    override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
        if let first = node.path.first { imports.insert(first.name.text) }
        return .skipChildren
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        declaredFunctions.insert(node.name.text)
        return .visitChildren
    }

    override func visit(_ node: IfConfigClauseSyntax) -> SyntaxVisitorContinueKind {
        clauseShips.append(CompilationConditions.clauseShips(node, target: target))
        if let elements = node.elements { walk(elements) }
        clauseShips.removeLast()
        return .skipChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        // `let mode = ECB(); AES(key: k, blockMode: mode)`.
        if let mode = node.arguments.first(where: { $0.label?.text == "blockMode" })?.expression.as(DeclReferenceExprSyntax.self),
           let value = Self.letValue(mode.baseName.text, from: Syntax(mode), membersOnly: false),
           let ecb = E.stripped(value).as(FunctionCallExprSyntax.self), ecb.arguments.isEmpty,
           ecb.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "ECB" {
            let line = lines.location(ofUTF8Offset: ecb.positionAfterSkippingLeadingTrivia.utf8Offset).line
            emit(Security.ecbMode, key: "ECB", api: "CryptoSwift ECB() (line \(line)) → let \(mode.baseName.text) → blockMode", at: mode, needs: .cryptoSwift)
        }
        let name: String
        if let helper = Self.helperName(node) { callsByName[helper, default: []].append((node, ships)) }
        if let callee = node.calledExpression.as(DeclReferenceExprSyntax.self) {
            name = callee.baseName.text
        } else if let member = node.calledExpression.as(MemberAccessExprSyntax.self),
                  let base = member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text, base == "CryptoSwift" || base == "GameplayKit" {
            name = member.declName.baseName.text
        } else {
            return .visitChildren
        }
        let arguments = Array(node.arguments)
        if let call = Security.cryptorCalls[name] {
            judgeCryptor(name, call, arguments: arguments)
        } else if Security.insecureRandomFunctions.contains(name), arguments.allSatisfy({ $0.label == nil }), node.trailingClosure == nil {
            if let sink = Self.secretSink(of: Syntax(node)) {
                emit(Security.insecureRandom, key: name, api: "\(name)() \(sink)", at: node, needs: .globalFunction(name))
            }
        } else if Security.insecureRandomSources.contains(name) {
            if let sink = Self.secretSink(of: Syntax(node)) { emit(Security.insecureRandom, key: name, api: "\(name) \(sink)", at: node) }
        } else if name == "Blowfish" {
            emit(Security.weakCipher, key: "Blowfish", api: "CryptoSwift Blowfish", at: node, needs: .cryptoSwift)
        } else if name == "ECB", arguments.isEmpty, node.parent?.as(LabeledExprSyntax.self)?.label?.text == "blockMode" {
            emit(Security.ecbMode, key: "ECB", api: "CryptoSwift blockMode: ECB()", at: node, needs: .cryptoSwift)
        }
        return .visitChildren
    }

    // MARK: CommonCrypto

    private func judgeCryptor(_ name: String, _ call: Security.CryptorCall, arguments: [LabeledExprSyntax]) {
        let roles: [(Int?, ArgumentRole)] = [(call.algorithm, .algorithm), (call.options, .options), (call.mode, .mode)]
        for case (let index?, let role) in roles where index < arguments.count {
            let argument = arguments[index].expression
            if !judge(argument, role: role, api: name) {
                if let f = Self.forwardedParameter(argument, role: role, cryptor: name) { forwarded.append(f) }
            }
        }
    }

    /// Emits what an argument in a role selects; whether it resolved to a constant at all.
    @discardableResult
    func judge(_ argument: ExprSyntax, role: ArgumentRole, api name: String, ships: Bool? = nil) -> Bool {
        switch role {
        case .algorithm:
            let weak = Self.weakAlgorithms(argument, depth: 0)
            for (constant, at) in weak { emit(Security.weakCipher, key: constant, api: "\(name)(\(constant))", at: at, ships: ships) }
            return !weak.isEmpty || Self.resolvesToConstant(argument)
        case .options:
            guard let at = Self.ecbOption(argument, depth: 0) else { return Self.resolvesToConstant(argument) }
            emit(Security.ecbMode, key: Security.ecbOption, api: "\(name)(options: \(Security.ecbOption))", at: at, ships: ships)
            return true
        case .mode:
            guard let at = Self.ecbModeArgument(argument, depth: 0) else { return Self.resolvesToConstant(argument) }
            emit(Security.ecbMode, key: Security.ecbModeConstant, api: "\(name)(\(Security.ecbModeConstant))", at: at, ships: ships)
            return true
        }
    }

    /// Integer conversions Swift code wraps CommonCrypto's constants in.
    static let conversions: Set<String> = ["CCAlgorithm", "CCOptions", "CCMode", "CCOperation", "CCPadding", "CCModeOptions", "UInt32",
                                           "Int", "UInt", "Int32", "UInt8"]

    /// The expression under casts, parentheses and integer conversions.
    static func unwrapped(_ expression: ExprSyntax, depth: Int = 0) -> ExprSyntax {
        let e = E.stripped(expression)
        guard depth < 8, let call = e.as(FunctionCallExprSyntax.self), call.arguments.count == 1, let only = call.arguments.first,
              only.label == nil, let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
              conversions.contains(callee.baseName.text) else { return e }
        return unwrapped(only.expression, depth: depth + 1)
    }

    /// The weak algorithms an argument passes: a constant, an integer literal, both branches of
    /// `?:`, or a `let` of the enclosing function or type that holds one.
    static func weakAlgorithms(_ expression: ExprSyntax, depth: Int) -> [(String, ExprSyntax)] {
        let e = unwrapped(expression)
        if let literal = e.as(IntegerLiteralExprSyntax.self) {
            return integer(literal).flatMap(Security.weakCipherConstant(value:)).map { [($0, e)] } ?? []
        }
        if let ternary = ternaryBranches(e) {
            return ternary.flatMap { weakAlgorithms($0, depth: depth) }
        }
        guard let name = referencedName(e) else { return [] }
        if Security.weakCipherConstants[name] != nil { return [(name, e)] }
        guard depth < 2, let value = letValue(name, from: Syntax(e), membersOnly: isMember(e)) else { return [] }
        return weakAlgorithms(value, depth: depth + 1).map { ($0.0, e) }
    }

    /// Where an options argument sets `kCCOptionECBMode` (not under `~`), or a literal with its bit.
    static func ecbOption(_ expression: ExprSyntax, depth: Int) -> ExprSyntax? {
        let e = unwrapped(expression)
        if let literal = e.as(IntegerLiteralExprSyntax.self) {
            return integer(literal).map { $0 & Security.ecbOptionBit != 0 } == true ? e : nil
        }
        for token in e.tokens(viewMode: .sourceAccurate) where token.text == Security.ecbOption && !isComplemented(token, within: e) {
            return token.parent?.as(DeclReferenceExprSyntax.self).map(ExprSyntax.init) ?? e
        }
        if depth < 2, let name = referencedName(e), !name.hasPrefix("kCC"), let value = letValue(name, from: Syntax(e), membersOnly: isMember(e)),
           ecbOption(value, depth: depth + 1) != nil {
            return e
        }
        return nil
    }

    /// Whether the token sits under `~` (`flags & ~CCOptions(kCCOptionECBMode)` clears the bit).
    static func isComplemented(_ token: TokenSyntax, within root: ExprSyntax) -> Bool {
        var current = token.parent
        while let n = current, n.id != root.id {
            if let prefix = n.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "~" { return true }
            current = n.parent
        }
        return root.as(PrefixOperatorExprSyntax.self)?.operator.text == "~"
    }

    static func ecbModeArgument(_ expression: ExprSyntax, depth: Int) -> ExprSyntax? {
        let e = unwrapped(expression)
        if let literal = e.as(IntegerLiteralExprSyntax.self) { return integer(literal) == Security.ecbModeValue ? e : nil }
        guard let name = referencedName(e) else { return nil }
        if name == Security.ecbModeConstant { return e }
        if depth < 2, let value = letValue(name, from: Syntax(e), membersOnly: isMember(e)), ecbModeArgument(value, depth: depth + 1) != nil { return e }
        return nil
    }

    /// `x`, `self.x`, `Self.x`, `CommonCrypto.x`, and `Cipher.x` inside `Cipher` (its own static member).
    static func referencedName(_ e: ExprSyntax) -> String? {
        if let reference = e.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let member = e.as(MemberAccessExprSyntax.self), let base = member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text,
           ["self", "Self", "CommonCrypto"].contains(base) || isEnclosingType(base, of: Syntax(e)) {
            return member.declName.baseName.text
        }
        return nil
    }

    /// Whether a type declaration around `node` has this name (`struct Cipher { … Cipher.options … }`).
    static func isEnclosingType(_ name: String, of node: Syntax) -> Bool {
        var current = node.parent
        var steps = 0
        while let n = current, steps < 256 {
            steps += 1
            if let s = n.as(StructDeclSyntax.self), s.name.text == name { return true }
            if let c = n.as(ClassDeclSyntax.self), c.name.text == name { return true }
            if let e = n.as(EnumDeclSyntax.self), e.name.text == name { return true }
            if let x = n.as(ExtensionDeclSyntax.self), x.extendedType.sourceText == name { return true }
            current = n.parent
        }
        return false
    }

    /// `self.x`, `Self.x`: a member, never a local.
    static func isMember(_ e: ExprSyntax) -> Bool { e.is(MemberAccessExprSyntax.self) }

    /// `c ? a : b` before folding: the two branches.
    static func ternaryBranches(_ e: ExprSyntax) -> [ExprSyntax]? {
        if let ternary = e.as(TernaryExprSyntax.self) { return [ternary.thenExpression, ternary.elseExpression] }
        guard let sequence = e.as(SequenceExprSyntax.self) else { return nil }
        let elements = Array(sequence.elements)
        guard elements.count == 3, let ternary = elements[1].as(UnresolvedTernaryExprSyntax.self) else { return nil }
        return [ternary.thenExpression, elements[2]]
    }

    static func integer(_ literal: IntegerLiteralExprSyntax) -> UInt64? {
        let text = literal.literal.text.replacingOccurrences(of: "_", with: "")
        if text.hasPrefix("0x") { return UInt64(text.dropFirst(2), radix: 16) }
        if text.hasPrefix("0b") { return UInt64(text.dropFirst(2), radix: 2) }
        return UInt64(text)
    }

    /// The value of the nearest `let name = value` before `node` in an enclosing code block,
    /// or among the members of an enclosing type.
    static func letValue(_ name: String, from node: Syntax, membersOnly: Bool) -> ExprSyntax? {
        var current = node.parent
        var steps = 0
        while let n = current, steps < 256 {
            steps += 1
            if !membersOnly, let list = n.as(CodeBlockItemListSyntax.self) {
                let before = list.filter { $0.endPosition <= node.position }
                for item in before.reversed() {
                    if let decl = item.item.as(VariableDeclSyntax.self), let value = letBinding(decl, name) { return value }
                }
            } else if let members = n.as(MemberBlockItemListSyntax.self) {
                for member in members {
                    if let decl = member.decl.as(VariableDeclSyntax.self), let value = letBinding(decl, name) { return value }
                }
            }
            current = n.parent
        }
        return nil
    }

    private static func letBinding(_ decl: VariableDeclSyntax, _ name: String) -> ExprSyntax? {
        guard decl.bindingSpecifier.tokenKind == .keyword(.let) else { return nil }
        for binding in decl.bindings where binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name {
            return binding.initializer?.value
        }
        return nil
    }
}
