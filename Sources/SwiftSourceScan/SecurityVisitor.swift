import Evidence
import SwiftSyntax

/// Data-at-rest and authentication facts of one Swift file (`ProtectedResourceCatalog.Security`),
/// resolved from the syntax: the attributes a keychain dictionary literal or a run of
/// `query[key] = value` assignments in one function gives an item, the protection a write or
/// an attribute dictionary names, what `evaluatePolicy` asks and whether its reply reads the
/// error, secrets written to preferences. Only constants and literals are followed: a value
/// held in a variable says nothing.
final class SecurityVisitor: DeclarationCollector {
    typealias Security = ProtectedResourceCatalog.Security
    typealias E = SecurityExpressions

    let lines: LineTable
    private let target: TargetConditions
    /// One entry per enclosing `#if` clause: whether it can ship (`FileWalk` keeps it in a shared walk).
    var clauseShips: [Bool] = []
    private(set) var found: [SourceUsage] = []
    /// The file's data flow, for values held in variables.
    var flow: FlowResolver?

    /// `name[key] = value` assignments, by enclosing function and dictionary variable.
    private var assigned: [GroupID: [Attribute]] = [:]
    private var groupOrder: [GroupID] = []
    /// Deprecated accessibility constants seen, and those explained by a resolved attribute.
    private var deprecatedReferences: [(node: Syntax, name: String, ships: Bool)] = []
    private var explained: Set<SyntaxIdentifier> = []
    /// Preference writes, matched once the file's variable types are known.
    private var preferenceWrites: [(call: FunctionCallExprSyntax, ships: Bool)] = []
    /// App-group arguments, resolved once the file's constants are known (`SecurityVisitor+AppGroups`).
    var appGroupCalls: [(expression: ExprSyntax, api: String, ships: Bool)] = []
    /// Calls that may configure a keychain wrapper (`KeychainWrapperCalls`).
    private var wrapperCalls: [(call: FunctionCallExprSyntax, ships: Bool)] = []

    struct GroupID: Hashable { var scope: SyntaxIdentifier?; var variable: String }
    struct Attribute { var key: String; var value: ExprSyntax; var ships: Bool }

    init(lines: LineTable, target: TargetConditions = TargetConditions()) {
        self.lines = lines
        self.target = target
        super.init(viewMode: .sourceAccurate)
    }

    /// Names a file must mention for this visitor to find anything in it.
    static let triggerNames: Set<String> = Security.accessibilityConstants.union(Security.fileProtectionConstants.keys).union([
        "kSecAttrAccessible", "kSecAttrAccessGroup", "kSecAttrSynchronizable", "SecAccessControlCreateWithFlags",
        "kSecUseAuthenticationContext", "NSUbiquitousKeyValueStore", "UserDefaults", "AppStorage",
        "noFileProtection", "completeFileProtection", "completeFileProtectionUnlessOpen",
        "completeFileProtectionUntilFirstUserAuthentication", "FileProtectionType", "URLFileProtection", "protectionKey",
        "fileProtection", "NSFileProtectionKey", "NSPersistentStoreFileProtectionKey", "evaluatePolicy", "CKContainer",
        "forUbiquityContainerIdentifier",
    ]).union(appGroupTriggerNames)
        .union(["Keychain", "Valet", "KeychainSwift", "KeychainWrapper", "SAMKeychain", "SSKeychain", "SimpleKeychain"])

    var ships: Bool { !clauseShips.contains(false) }

    /// Walks the file and resolves what it found.
    func scan(_ tree: SourceFileSyntax) -> [SourceUsage] {
        walk(tree)
        return finish(tree)
    }

    /// What the walk found, resolved once the whole file is known.
    func finish(_ tree: SourceFileSyntax) -> [SourceUsage] {
        let context = FileContext(self)
        for id in groupOrder { judge(assigned[id] ?? [], dictionary: nil) }
        for write in preferenceWrites { judgePreferenceWrite(write.call, ships: write.ships, context: context) }
        resolveAppGroupCalls(tree)
        found += KeychainWrapperCalls(tree: tree, context: context, lines: lines).resolve(wrapperCalls)
        for r in deprecatedReferences where !explained.contains(r.node.id) {
            emit(Security.keychainAccessibleReference, key: r.name, api: r.name, at: r.node, ships: r.ships)
        }
        var seen = Set<SourceUsage>()
        // A type the file declares itself is not Apple's.
        return found.filter { u in u.symbol.map { !types.contains($0) } ?? true }.filter { seen.insert($0).inserted }.sorted { ($0.line, $0.column, $0.capability) < ($1.line, $1.column, $1.capability) }
    }

    func emit(_ capability: String, key: String, api: String, at node: some SyntaxProtocol, ships: Bool, symbol: String? = nil) {
        if capability == Security.fileProtection && key == "none" && Self.createsEmptyFile(around: node) { return }
        let location = lines.location(ofUTF8Offset: node.positionAfterSkippingLeadingTrivia.utf8Offset)
        found.append(SourceUsage(capability: capability, key: key, api: api, line: location.line, column: location.column,
                                 strength: .definite, ships: ships, symbol: symbol,
                                 container: UsageVisitor.container(of: Syntax(node))))
    }

    // MARK: Keychain attributes

    override func visit(_ node: DictionaryExprSyntax) -> SyntaxVisitorContinueKind {
        guard case .elements(let list) = node.content else { return .visitChildren }
        let attributes = list.compactMap { element -> Attribute? in
            guard let key = E.globalName(element.key) ?? E.name(element.key).map({ "." + $0.name }) else { return nil }
            return Attribute(key: key, value: element.value, ships: ships)
        }
        judge(attributes, dictionary: node)
        // `var query: [String: Any] = [kSecClass: …]` followed by `query[…] = …`: one item.
        if let binding = node.parent?.as(InitializerClauseSyntax.self)?.parent?.as(PatternBindingSyntax.self),
           let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
           attributes.contains(where: { $0.key.hasPrefix("kSec") }) {
            add(attributes, to: GroupID(scope: Self.scope(of: Syntax(node)), variable: name))
        }
        return .visitChildren
    }

    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        let elements = Array(node.elements)
        // `target = value`, or `target = value as T` before folding.
        guard elements.count >= 3, elements[1].is(AssignmentExprSyntax.self),
              elements.count == 3 || (elements.count == 5 && elements[3].is(UnresolvedAsExprSyntax.self)) else { return .visitChildren }
        if let subscriptCall = elements[0].as(SubscriptCallExprSyntax.self), subscriptCall.arguments.count == 1,
           let keyExpression = subscriptCall.arguments.first?.expression,
           let variable = subscriptCall.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
           let key = E.globalName(keyExpression) ?? E.name(keyExpression).map({ "." + $0.name }) {
            let attribute = Attribute(key: key, value: elements[2], ships: ships)
            if key.hasPrefix("kSec") {
                add([attribute], to: GroupID(scope: Self.scope(of: Syntax(node)), variable: variable))
            } else {
                judgeFileProtection([attribute])
            }
        } else if let member = elements[0].as(MemberAccessExprSyntax.self), member.declName.baseName.text == "fileProtection" {
            // `values.fileProtection = .complete` (URLResourceValues).
            if E.name(elements[2])?.base == "", let protection = Self.protection(of: elements[2], implicitAllowed: true) {
                emit(Security.fileProtection, key: protection, api: "URLResourceValues.fileProtection", at: elements[2], ships: ships)
            }
        }
        return .visitChildren
    }

    private func add(_ attributes: [Attribute], to id: GroupID) {
        if assigned[id] == nil { groupOrder.append(id) }
        assigned[id, default: []] += attributes
    }

    /// The function, closure or accessor a node is in (nil at file scope).
    static func scope(of node: Syntax) -> SyntaxIdentifier? {
        var current = node.parent
        var steps = 0
        while let n = current, steps < 4096 {
            steps += 1
            if n.is(FunctionDeclSyntax.self) || n.is(ClosureExprSyntax.self) || n.is(InitializerDeclSyntax.self)
                || n.is(AccessorDeclSyntax.self) {
                return n.id
            }
            current = n.parent
        }
        return nil
    }

    /// One item's attributes: its accessibility, synchronizable flag and access group.
    private func judge(_ attributes: [Attribute], dictionary: DictionaryExprSyntax?) {
        judgeFileProtection(attributes)
        guard attributes.contains(where: { $0.key.hasPrefix("kSec") }) else { return }
        var accessible: (name: String, attribute: Attribute)?
        for a in attributes where a.key == "kSecAttrAccessible" {
            if let name = E.globalName(a.value), Security.accessibilityConstants.contains(name) {
                accessible = (name, a)
                explained.insert(E.stripped(a.value).id)
                emit(Security.keychainAccessible, key: name, api: "kSecAttrAccessible: \(name)", at: a.value, ships: a.ships)
            }
        }
        if let accessible, accessible.name.hasSuffix("ThisDeviceOnly"),
           let sync = attributes.first(where: { $0.key == "kSecAttrSynchronizable" && E.isTrue($0.value) }) {
            emit(Security.keychainSynchronizableThisDeviceOnly, key: accessible.name,
                 api: "kSecAttrSynchronizable: true with \(accessible.name)", at: sync.value, ships: sync.ships && accessible.attribute.ships)
        }
        for a in attributes where a.key == "kSecAttrAccessGroup" {
            if let group = E.stringLiteral(a.value) {
                emit(Security.keychainAccessGroup, key: group, api: "kSecAttrAccessGroup: \"\(group)\"", at: a.value, ships: a.ships)
            }
        }
        for a in attributes where a.key == "kSecUseAuthenticationContext" || a.key == "kSecAttrAccessControl" {
            emit(Security.keychainUserPresence, key: a.key, api: a.key, at: a.value, ships: a.ships)
        }
    }

    /// `[.protectionKey: FileProtectionType.complete]`, `NSPersistentStoreFileProtectionKey: …`.
    private func judgeFileProtection(_ attributes: [Attribute]) {
        // Explicit members and constants are seen by the name visits; here the implicit ones.
        for a in attributes where Self.protectionKeys.contains(a.key) && E.name(a.value)?.base == "" {
            if let protection = Self.protection(of: a.value, implicitAllowed: true) {
                let key = a.key.hasPrefix(".") ? "FileAttributeKey" + a.key : a.key
                emit(Security.fileProtection, key: protection, api: "\(key): \(protection)", at: a.value, ships: a.ships)
            }
        }
    }

    /// `FileManager.createFile(atPath:contents: nil, attributes: [.protectionKey: .none])`: an
    /// empty file (a marker whose existence is all it says) holds no data to protect — unless
    /// the file's code writes into files through a handle or stream (a log created empty and
    /// appended to keeps the class it was created with).
    static func createsEmptyFile(around node: some SyntaxProtocol) -> Bool {
        var current: Syntax? = Syntax(node)
        while let n = current, !n.is(CodeBlockItemSyntax.self), !n.is(MemberBlockItemSyntax.self) {
            if let argument = n.as(LabeledExprSyntax.self), argument.label?.text == "attributes",
               let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self) {
                guard E.name(call.calledExpression)?.name == "createFile",
                      let contents = call.arguments.first(where: { $0.label?.text == "contents" })?.expression,
                      ["nil", "Data()", "Data([])"].contains(contents.sourceText) else { return false }
                // Only now the whole file's text, and only for such a call.
                let text = node.root.description
                return !(text.contains("FileHandle(forWriting") || text.contains("FileHandle(forUpdating") || text.contains("OutputStream("))
            }
            current = n.parent
        }
        return false
    }

    static let protectionKeys: Set<String> = [".protectionKey", "NSFileProtectionKey", "NSPersistentStoreFileProtectionKey"]
    static let protectionClasses: Set<String> = ["none", "complete", "completeUnlessOpen", "completeUntilFirstUserAuthentication"]
    static let writingOptions: [String: String] = [
        "noFileProtection": "none", "completeFileProtection": "complete",
        "completeFileProtectionUnlessOpen": "completeUnlessOpen",
        "completeFileProtectionUntilFirstUserAuthentication": "completeUntilFirstUserAuthentication",
    ]

    /// The protection class an expression names: `FileProtectionType.none`, `NSFileProtectionNone`,
    /// and, where the context says the type (`implicitAllowed`), `.complete`.
    static func protection(of expression: ExprSyntax, implicitAllowed: Bool) -> String? {
        guard let n = E.name(expression) else { return nil }
        if n.base == nil, let c = Security.fileProtectionConstants[n.name] { return c }
        if n.base == "FileProtectionType" || n.base == "URLFileProtection" || (n.base == "" && implicitAllowed),
           protectionClasses.contains(n.name), E.stripped(expression).is(MemberAccessExprSyntax.self) {
            return n.name
        }
        return nil
    }

    // MARK: Names alone

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        let name = node.declName.baseName.text
        if let protection = Self.writingOptions[name], node.base == nil || node.base?.sourceText.hasSuffix("WritingOptions") == true {
            emit(Security.fileProtection, key: protection, api: "Data.WritingOptions.\(name)", at: node, ships: ships)
        } else if let base = node.base?.as(DeclReferenceExprSyntax.self)?.baseName.text,
                  base == "FileProtectionType" || base == "URLFileProtection", Self.protectionClasses.contains(name) {
            emit(Security.fileProtection, key: name, api: "\(base).\(name)", at: node, ships: ships)
        }
        return .visitChildren
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        let name = node.baseName.text
        if Security.deprecatedAccessibility[name] != nil {
            deprecatedReferences.append((Syntax(node), name, ships))
        } else if let protection = Security.fileProtectionConstants[name] {
            emit(Security.fileProtection, key: protection, api: name, at: node, ships: ships)
        } else if name == "NSUbiquitousKeyValueStore" {
            emit(Security.kvStore, key: name, api: name, at: node, ships: ships, symbol: name)
        } else if name == "kSecUseAuthenticationContext" {
            emit(Security.keychainUserPresence, key: name, api: name, at: node, ships: ships)
        }
        return .visitChildren
    }

    override func visit(_ node: AttributeSyntax) -> SyntaxVisitorContinueKind {
        // `@AppStorage("authToken") var token = ""`
        if node.attributeName.as(IdentifierTypeSyntax.self)?.name.text == "AppStorage",
           case .argumentList(let arguments) = node.arguments, let first = arguments.first, first.label == nil,
           let key = E.stringLiteral(first.expression), SecretNames.isSecret(key) {
            emit(Security.preferenceSecret, key: key, api: "@AppStorage(\"\(key)\")", at: first.expression, ships: ships)
        }
        return .visitChildren
    }

    // MARK: Calls

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let group = Self.appGroupArgument(of: node) { appGroupCalls.append((group.expression, group.api, ships)) }
        if KeychainWrapperCalls.mayConcern(node) { wrapperCalls.append((node, ships)) }
        let arguments = Array(node.arguments)
        if let callee = node.calledExpression.as(DeclReferenceExprSyntax.self) {
            switch callee.baseName.text {
            case "SecAccessControlCreateWithFlags" where arguments.count >= 2:
                if let name = E.globalName(arguments[1].expression), Security.accessibilityConstants.contains(name) {
                    explained.insert(E.stripped(arguments[1].expression).id)
                    emit(Security.keychainAccessible, key: name, api: "SecAccessControlCreateWithFlags(\(name))",
                         at: arguments[1].expression, ships: ships)
                }
                emit(Security.keychainUserPresence, key: "SecAccessControlCreateWithFlags", api: "SecAccessControlCreateWithFlags",
                     at: node, ships: ships)
            case "CKContainer":
                let identifier = arguments.first { $0.label?.text == "identifier" }.flatMap { E.stringLiteral($0.expression) }
                if let identifier { emit(Security.cloudKit, key: identifier, api: "CKContainer(identifier: \"\(identifier)\")", at: node, ships: ships) }
            default: break
            }
            return .visitChildren
        }
        guard let member = node.calledExpression.as(MemberAccessExprSyntax.self) else { return .visitChildren }
        let name = member.declName.baseName.text
        let labels = arguments.map { $0.label?.text }
        if name == "default", member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "CKContainer", arguments.isEmpty {
            emit(Security.cloudKit, key: "default", api: "CKContainer.default()", at: node, ships: ships)
        } else if name == "url", labels == ["forUbiquityContainerIdentifier"] {
            let identifier = E.stringLiteral(arguments[0].expression)
                ?? (E.stripped(arguments[0].expression).is(NilLiteralExprSyntax.self) ? "default" : nil)
            if let identifier {
                emit(Security.ubiquityContainer, key: identifier, api: "url(forUbiquityContainerIdentifier:)", at: node, ships: ships)
            }
        } else if name == "evaluatePolicy", let policyArgument = arguments.first {
            judgeEvaluatePolicy(node, policy: policyArgument.expression)
        } else if (name == "set" || name == "setValue") && labels.count == 2 && labels[0] == nil && labels[1] == "forKey" {
            preferenceWrites.append((node, ships))
        }
        return .visitChildren
    }

    static let biometricsOnly = "deviceOwnerAuthenticationWithBiometrics"

    /// `context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: …) { success, error in … }`.
    private func judgeEvaluatePolicy(_ call: FunctionCallExprSyntax, policy: ExprSyntax) {
        guard let policyName = E.name(policy)?.name, policyName.hasPrefix("deviceOwnerAuthentication") else { return }
        emit(Security.biometricPolicy, key: policyName, api: "LAContext.evaluatePolicy(.\(policyName))", at: call, ships: ships)
        guard policyName == Self.biometricsOnly else { return }
        let reply = call.trailingClosure ?? call.arguments.first { $0.label?.text == "reply" }?.expression.as(ClosureExprSyntax.self)
        guard let reply, Self.ignoresError(reply) else { return }
        emit(Security.biometricErrorIgnored, key: policyName, api: "LAContext.evaluatePolicy(.\(policyName)) reply", at: reply, ships: ships)
    }

    /// Whether a two-parameter reply closure never reads its second parameter (`_`, or a name
    /// its body does not mention). A closure written with `$0`/`$1` reads what it mentions.
    static func ignoresError(_ closure: ClosureExprSyntax) -> Bool {
        var names: [String] = []
        switch closure.signature?.parameterClause {
        case .simpleInput(let list)?: names = list.map(\.name.text)
        case .parameterClause(let clause)?: names = clause.parameters.map { ($0.secondName ?? $0.firstName).text }
        case nil:
            return !closure.statements.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .dollarIdentifier("$1") }
        }
        guard names.count == 2 else { return false }
        let error = names[1]
        if error == "_" { return true }
        return !closure.statements.tokens(viewMode: .sourceAccurate).contains { $0.text == error }
    }

    /// A preference key written as a literal, or as a `let` of the function or of the enclosing
    /// type that holds one (`forKey: Self.passwordKey`, `forKey: Keys.password` inside `Keys`).
    static func keyLiteral(_ expression: ExprSyntax) -> String? {
        if let literal = E.stringLiteral(expression) { return literal }
        let e = E.stripped(expression)
        guard let name = CryptoVisitor.referencedName(e),
              let value = CryptoVisitor.letValue(name, from: Syntax(e), membersOnly: e.is(MemberAccessExprSyntax.self)) else { return nil }
        return E.stringLiteral(value)
    }

    /// `UserDefaults.standard.set(token, forKey: "authToken")`, `store.set(…, forKey: …)` on a
    /// receiver the file says is `UserDefaults` or `NSUbiquitousKeyValueStore`.
    private func judgePreferenceWrite(_ call: FunctionCallExprSyntax, ships: Bool, context: FileContext) {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base else { return }
        let receiver: String
        switch context.resolve(base) {
        case .type(let t) where t == "UserDefaults" || t == "NSUserDefaults" || t == "NSUbiquitousKeyValueStore": receiver = t
        default: return
        }
        let arguments = Array(call.arguments)
        guard let key = Self.keyLiteral(arguments[1].expression), !E.isFlagLiteral(arguments[0].expression) else { return }
        let valueName = E.valueName(arguments[0].expression)
        let api = "\(receiver).\(member.declName.baseName.text)(_:forKey: \"\(key)\")"
        // A key that says what it holds (`PushNotificationDeviceToken`, `passwordSetDate`) wins over a value named `token`.
        if SecretNames.isSecret(key) || (!SecretNames.saysNotSecret(key) && valueName.map(SecretNames.isSecret) == true) {
            emit(Security.preferenceSecret, key: key, api: api, at: call, ships: ships)
        } else if !SecretNames.saysNotSecret(key), let flow, let origin = flow.sensitive(arguments[0].expression) {
            // `let x = password; defaults.set(x, forKey: "k")`: the value's origin, with its path.
            emit(Security.preferenceSecret, key: key, api: origin.path(to: api, line: flow.line(call)), at: call, ships: ships)
        } else if !SecretNames.saysNotSecret(key), let flow, let origin = flow.origin(arguments[0].expression), origin.kind == .parameter,
                  let open = flow.link(origin, wants: .sensitive, capability: Security.preferenceSecret, key: key, sink: api, at: call, ships: ships) {
            // A parameter stored: the callers in other files of the target decide (`SourceFlowJoin`).
            found.append(open)
        }
    }

    // MARK: #if

    override func visit(_ node: IfConfigClauseSyntax) -> SyntaxVisitorContinueKind {
        clauseShips.append(CompilationConditions.clauseShips(node, target: target))
        if let elements = node.elements { walk(elements) }
        clauseShips.removeLast()
        return .skipChildren
    }
}

extension SecurityVisitor {
    /// Whether the text mentions a trigger name at all (a cheap test before the walk).
    /// Whether a file may hold a security fact: it names one of `triggerNames`. `UserDefaults`
    /// alone, in countless files, counts only with a `set`/`setValue` call the visitor could judge.
    static func mayFind(in source: String) -> Bool {
        var text = source
        return text.withUTF8 { b in
            Self.contains(b, triggersByPrefix) || (Self.contains(b, preferenceTypes) && Self.contains(b, preferenceWrites))
        }
    }

    /// The same decision from the names a file refers to (the byte pass's facts).
    static func mayFind(referenced: Set<String>) -> Bool {
        !referenced.isDisjoint(with: specificNames)
            || (referenced.contains("UserDefaults") && (referenced.contains("set") || referenced.contains("setValue")))
    }

    static let specificNames = triggerNames.subtracting(["UserDefaults"])
    static let preferenceTypes = prefixTable(["UserDefaults"])
    static let preferenceWrites = prefixTable([".set(", "setValue("])

    /// One pass over UTF-8 bytes (`ByteNeedles`): `String.contains` goes through Foundation's
    /// string search and was a third of a source scan's time.
    static func contains(_ b: UnsafeBufferPointer<UInt8>, _ table: ByteNeedles) -> Bool {
        table.contains(in: b)
    }

    /// The specific trigger names by their first two bytes (a flat table: one load per byte).
    static let triggersByPrefix = prefixTable(specificNames)

    static func prefixTable(_ names: Set<String>) -> ByteNeedles { ByteNeedles(names.sorted()) }
}
