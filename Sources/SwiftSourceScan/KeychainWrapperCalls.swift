import Evidence
import SwiftSyntax

/// The keychain accessibility, synchronizable flag, access group and user-presence binding a
/// Swift file gives through the public API of a widely used keychain wrapper, as the facts
/// the wrapper's own `SecItem` calls would show (`ProtectedResourceCatalog.Security`), with
/// `api` naming the wrapper call:
/// - KeychainAccess (`import KeychainAccess`): `Keychain(service:).synchronizable(true).accessibility(.always)`,
///   `.accessibility(_:authenticationPolicy:)`, `Keychain(service:accessGroup: "…")`;
/// - Valet: `Valet.valet(with:accessibility: .always)` and the other factories (Valet 3 still
///   had `.always`), `VALValet(identifier:accessibility:)`; `SecureEnclaveValet`;
/// - KeychainSwift: `set(_:forKey:withAccess: .accessibleAlways)` (before version 18);
/// - SwiftKeychainWrapper: `set(_:forKey:withAccessibility: .always, isSynchronizable:)`,
///   `KeychainWrapper(serviceName:accessGroup:)`;
/// - SAMKeychain / SSKeychain: `SAMKeychain.setAccessibilityType(kSecAttrAccessibleAlways)`;
/// - SimpleKeychain: `SimpleKeychain(service:accessGroup:accessibility:accessControlFlags:synchronizable:)`.
/// A call counts only when the expression names the wrapper's type (the call itself, a shared
/// instance, a variable the file types) and the file does not declare that type itself (the
/// wrapper's own source); a value counts only as an implicit member (`.always`) or a member
/// of the wrapper's enumeration.
struct KeychainWrapperCalls {
    typealias Security = ProtectedResourceCatalog.Security
    typealias E = SecurityExpressions

    let context: FileContext
    let imports: Set<String>
    let lines: LineTable

    init(tree: SourceFileSyntax, context: FileContext, lines: LineTable) {
        self.context = context
        self.lines = lines
        imports = Self.imports(tree.statements)
    }

    /// Callee names a wrapper call can have (a cheap test while walking).
    static func mayConcern(_ call: FunctionCallExprSyntax) -> Bool {
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
            return memberNames.contains(member.declName.baseName.text)
        }
        if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) {
            return initializerTypes.contains(reference.baseName.text)
        }
        return false
    }

    static let valetFactories: Set<String> = ["valet", "sharedGroupValet", "sharedAccessGroupValet", "iCloudValet",
                                              "iCloudSharedGroupValet", "iCloudSharedAccessGroupValet"]
    static let memberNames: Set<String> = valetFactories.union(["accessibility", "set", "setAccessibilityType"])
    static let initializerTypes: Set<String> = ["Keychain", "KeychainWrapper", "SimpleKeychain", "VALValet"]

    /// Enumerations whose members name an accessibility class, by wrapper.
    static let keychainAccessEnums: Set<String> = ["Accessibility"]
    static let valetEnums: Set<String> = ["Accessibility", "CloudAccessibility", "VALAccessibility"]
    static let keychainSwiftEnums: Set<String> = ["KeychainSwiftAccessOptions"]
    static let wrapperEnums: Set<String> = ["KeychainItemAccessibility"]
    static let simpleKeychainEnums: Set<String> = ["Accessibility"]

    func resolve(_ calls: [(call: FunctionCallExprSyntax, ships: Bool)]) -> [SourceUsage] {
        var out: [SourceUsage] = []
        var chains = Set<SyntaxIdentifier>()
        for (call, ships) in calls {
            var facts = Facts(lines: lines, ships: ships)
            judge(call, &facts, chains: &chains)
            out += facts.found
        }
        return out
    }

    /// What one call says, emitted at its arguments.
    struct Facts {
        let lines: LineTable
        let ships: Bool
        var found: [SourceUsage] = []

        mutating func emit(_ capability: String, key: String, api: String, at node: some SyntaxProtocol) {
            let location = lines.location(ofUTF8Offset: node.positionAfterSkippingLeadingTrivia.utf8Offset)
            found.append(SourceUsage(capability: capability, key: key, api: api, line: location.line, column: location.column,
                                     strength: .definite, ships: ships, container: UsageVisitor.container(of: Syntax(node))))
        }
    }

    private func judge(_ call: FunctionCallExprSyntax, _ facts: inout Facts, chains: inout Set<SyntaxIdentifier>) {
        let arguments = Array(call.arguments)
        let labels = arguments.map { $0.label?.text }
        func argument(_ label: String) -> ExprSyntax? { arguments.first { $0.label?.text == label }?.expression }

        if let callee = call.calledExpression.as(DeclReferenceExprSyntax.self) {
            let type = callee.baseName.text
            guard !context.isLocalType(type) else { return }
            switch type {
            case "Keychain" where imports.contains("KeychainAccess"):
                accessGroup(argument("accessGroup"), "Keychain(accessGroup:)", &facts)
            case "KeychainWrapper":
                accessGroup(argument("accessGroup"), "KeychainWrapper(serviceName:accessGroup:)", &facts)
            case "VALValet":
                if let value = argument("accessibility") {
                    accessible(value, enums: Self.valetEnums, api: "VALValet(identifier:accessibility:)", &facts)
                }
            case "SimpleKeychain":
                let api = "SimpleKeychain(accessibility:)"
                let constant = argument("accessibility").flatMap { accessible($0, enums: Self.simpleKeychainEnums, api: api, &facts) }
                accessGroup(argument("accessGroup"), "SimpleKeychain(accessGroup:)", &facts)
                if let sync = argument("synchronizable") { synchronizable(sync, constant, api: "SimpleKeychain(synchronizable: true, accessibility:)", &facts) }
                if let flags = argument("accessControlFlags"), !E.stripped(flags).is(NilLiteralExprSyntax.self) {
                    facts.emit(Security.keychainUserPresence, key: "SimpleKeychain(accessControlFlags:)", api: "SimpleKeychain(accessControlFlags:)", at: flags)
                }
            default: break
            }
            return
        }
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base else { return }
        let name = member.declName.baseName.text
        switch name {
        case "accessibility" where imports.contains("KeychainAccess") && labels.first == .some(nil)
            && (labels.count == 1 || labels == [nil, "authenticationPolicy"]):
            keychainAccessChain(call, &facts, chains: &chains)
        case "setAccessibilityType" where arguments.count == 1:
            guard let type = E.name(base).map(\.name), type == "SAMKeychain" || type == "SSKeychain", E.name(base)?.base == nil,
                  !context.isLocalType(type) else { return }
            // Every class a conditional expression may give.
            for token in arguments[0].expression.tokens(viewMode: .sourceAccurate)
            where Security.accessibilityConstants.contains(token.text) {
                facts.emit(Security.keychainAccessible, key: token.text, api: "\(type).setAccessibilityType(\(token.text))", at: token)
            }
        case "set" where labels.count >= 3 && labels[0] == nil && labels[1] == "forKey":
            if labels[2] == "withAccess", labels.count == 3, isWrapper(base, "KeychainSwift") || isQualified(arguments[2].expression, Self.keychainSwiftEnums) {
                accessible(arguments[2].expression, enums: Self.keychainSwiftEnums, prefix: "accessible",
                           api: "KeychainSwift.set(_:forKey:withAccess:)", &facts)
            } else if labels[2] == "withAccessibility", labels.count <= 4,
                      isWrapper(base, "KeychainWrapper") || isQualified(arguments[2].expression, Self.wrapperEnums) {
                let constant = accessible(arguments[2].expression, enums: Self.wrapperEnums,
                                          api: "KeychainWrapper.set(_:forKey:withAccessibility:)", &facts)
                if labels.count == 4, labels[3] == "isSynchronizable" {
                    synchronizable(arguments[3].expression, constant, api: "KeychainWrapper.set(_:forKey:withAccessibility:isSynchronizable: true)", &facts)
                }
            }
        default:
            guard Self.valetFactories.contains(name), let type = E.name(base).map(\.name), E.name(base)?.base == nil,
                  !context.isLocalType(type) else { return }
            if type == "Valet", let value = argument("accessibility") {
                accessible(value, enums: Self.valetEnums, api: "Valet.\(name)(accessibility:)", &facts)
            } else if type == "SecureEnclaveValet" || type == "SinglePromptSecureEnclaveValet", let flags = argument("accessControl") {
                facts.emit(Security.keychainUserPresence, key: type, api: "\(type).\(name)(accessControl:)", at: flags)
            }
        }
    }

    /// `Keychain(service:).synchronizable(true).accessibility(.always, authenticationPolicy: …)`: the
    /// whole chain of configuration calls, read once from its outermost call.
    private func keychainAccessChain(_ call: FunctionCallExprSyntax, _ facts: inout Facts, chains: inout Set<SyntaxIdentifier>) {
        var outer = call
        while let member = outer.parent?.as(MemberAccessExprSyntax.self), let next = member.parent?.as(FunctionCallExprSyntax.self),
              next.calledExpression.id == member.id {
            outer = next
        }
        guard chains.insert(outer.id).inserted else { return }
        // Down from the outermost call to the root: `Keychain(…)`, `Keychain`, or a variable of that type.
        var links: [(name: String, call: FunctionCallExprSyntax)] = []
        var current = ExprSyntax(outer)
        var root: ExprSyntax? = nil
        while root == nil, links.count < 32 {
            // `KeychainAccess.Keychain(service:)` is the root, not a link.
            if let c = current.as(FunctionCallExprSyntax.self), let m = c.calledExpression.as(MemberAccessExprSyntax.self), let b = m.base,
               m.declName.baseName.text != "Keychain" {
                links.append((m.declName.baseName.text, c))
                current = b
            } else {
                root = current
            }
        }
        guard let root else { return }
        let rootType: String?
        if let c = root.as(FunctionCallExprSyntax.self) { rootType = E.name(c.calledExpression)?.name } else if case .type(let t) = context.resolve(root) { rootType = t } else { rootType = nil }
        guard rootType == "Keychain", !context.isLocalType("Keychain") else { return }
        var constant: String? = nil
        for link in links.reversed() where link.name == "accessibility" {
            let arguments = Array(link.call.arguments)
            guard let first = arguments.first, first.label == nil else { continue }
            if let c = accessible(first.expression, enums: Self.keychainAccessEnums, api: "Keychain.accessibility(_:)", &facts) { constant = c }
            if arguments.count == 2, arguments[1].label?.text == "authenticationPolicy" {
                facts.emit(Security.keychainUserPresence, key: "Keychain.accessibility(_:authenticationPolicy:)",
                           api: "Keychain.accessibility(_:authenticationPolicy:)", at: arguments[1].expression)
            }
        }
        for link in links where link.name == "synchronizable" {
            if let value = link.call.arguments.first?.expression {
                synchronizable(value, constant, api: "Keychain.synchronizable(true).accessibility(…)", &facts)
            }
        }
    }

    /// The class an accessibility value names, emitted; nil for anything else.
    @discardableResult
    private func accessible(_ value: ExprSyntax, enums: Set<String>, prefix: String = "", api: String, _ facts: inout Facts) -> String? {
        guard let n = E.name(value), n.base == "" || n.base.map(enums.contains) == true, n.name.hasPrefix(prefix),
              E.stripped(value).is(MemberAccessExprSyntax.self) else { return nil }
        let rest = n.name.dropFirst(prefix.count)
        guard let first = rest.first else { return nil }
        let constant = "kSecAttrAccessible" + first.uppercased() + rest.dropFirst()
        guard Security.accessibilityConstants.contains(constant) else { return nil }
        facts.emit(Security.keychainAccessible, key: constant, api: "\(api) .\(n.name)", at: value)
        return constant
    }

    private func synchronizable(_ value: ExprSyntax, _ constant: String?, api: String, _ facts: inout Facts) {
        guard let constant, constant.hasSuffix("ThisDeviceOnly"), E.isTrue(value) else { return }
        facts.emit(Security.keychainSynchronizableThisDeviceOnly, key: constant, api: api, at: value)
    }

    private func accessGroup(_ value: ExprSyntax?, _ api: String, _ facts: inout Facts) {
        guard let value, let group = E.stringLiteral(value) else { return }
        facts.emit(Security.keychainAccessGroup, key: group, api: "\(api) \"\(group)\"", at: value)
    }

    /// Whether the receiver is the wrapper's type, a shared instance or a variable the file types.
    private func isWrapper(_ base: ExprSyntax, _ type: String) -> Bool {
        guard !context.isLocalType(type) else { return false }
        if case .type(let t) = context.resolve(base) { return t == type }
        return false
    }

    /// `KeychainSwiftAccessOptions.accessibleAlways`: the value names the wrapper's enumeration.
    private func isQualified(_ value: ExprSyntax, _ enums: Set<String>) -> Bool {
        guard let base = E.name(value)?.base else { return false }
        return enums.contains(base)
    }

    /// Modules the file imports at its top level (also inside `#if`).
    static func imports(_ items: CodeBlockItemListSyntax, depth: Int = 0) -> Set<String> {
        var out: Set<String> = []
        for item in items {
            if let decl = item.item.as(ImportDeclSyntax.self), let first = decl.path.first {
                out.insert(first.name.text)
            } else if depth < 4, let config = item.item.as(IfConfigDeclSyntax.self) {
                for clause in config.clauses {
                    if case .statements(let list)? = clause.elements { out.formUnion(imports(list, depth: depth + 1)) }
                }
            }
        }
        return out
    }
}
