import Evidence
import SwiftSyntax

/// Sensitive values written to a database in clear (`cleartext_database_storage`): the value's
/// origin is sensitive (`FlowResolver.sensitive`: a credential by name, a keychain read, key
/// material; a hash, KDF or cipher output is not) where it reaches
/// - SQLite's C API: `sqlite3_bind_text`/`_text16`/`_blob`'s value, or an `INSERT`/`UPDATE`/
///   `REPLACE` statement's interpolated text given to `sqlite3_exec`/`sqlite3_prepare*`;
/// - GRDB: `execute(sql:arguments:)` (the statement's interpolation or an argument),
///   `execute(literal:)` (SQL interpolation binds the value, which is still stored);
/// - SQLite.swift: `column <- value` in a file that imports SQLite;
/// - Realm: a property of an object given to `realm.add(_:)` (or an initializer argument of it);
///   a Realm configuration with an `encryptionKey` is recorded (`realmEncrypted`) so the rule
///   drops the target's Realm findings;
/// - Core Data: `setValue(_:forKey:)` in a file that imports CoreData (not on `UserDefaults`),
///   or a property of an object made with `T(context:)`/`insertNewObject(forEntityName:into:)`.
/// A parameter that reaches one of these leaves an open end for the callers in other files.
extension FlowVisitor {
    /// Names that make a file hold a database sink whatever its words.
    static let databaseAlwaysNames: Set<String> = ["sqlite3_bind_text", "sqlite3_bind_text16", "sqlite3_bind_blob", "sqlite3_exec",
                                                    "sqlite3_prepare", "sqlite3_prepare_v2", "sqlite3_prepare_v3", "encryptionKey"]
    /// Generic names that hold a sink only beside a word a sensitive value's name or source is made of.
    static let databaseNames: Set<String> = ["execute", "add", "setValue"]
    static let databaseWords = LoggingPrefilter.table(["password", "passwd", "passphrase", "passcode", "secret", "credential", "token",
                                                       "apikey", "api_key", "privatekey", "private_key", "jwt", "keychain", "ssn",
                                                       "creditcard", "cardnumber", "cvv", "pincode", "issecuretextentry", "secitemcopymatching",
                                                       "securefield", "valet"])
    static let sqlLabels = SecurityVisitor.prefixTable(["sql", "literal"])
    static let realmWord = LoggingPrefilter.table(["realm"])
    static let coreDataModule = SecurityVisitor.prefixTable(["CoreData"])
    static let sqliteModule = SecurityVisitor.prefixTable(["SQLite"])
    static let sqliteSetter = SecurityVisitor.prefixTable(["<-"])

    /// The parse gate's database part: a word sensitive values are named with, and what
    /// `databaseCall`/`databaseAssignment` need besides a call's name — `execute`'s `sql:` or
    /// `literal:` label, a receiver named for Realm, an import of CoreData or SQLite (spelled
    /// in the file), SQLite.swift's `<-`. `referenced` are the byte pass's names (nil: any
    /// of the calls may be there; the visitor decides).
    static func mayHoldDatabaseSink(_ b: UnsafeBufferPointer<UInt8>, referenced: Set<String>?) -> Bool {
        // The cheap tests first: most files name none of the calls and import neither module.
        let names = referenced.map { $0.intersection(databaseNames) } ?? databaseNames
        let coreData = SecurityVisitor.contains(b, coreDataModule), sqlite = SecurityVisitor.contains(b, sqliteModule)
        guard !names.isEmpty || coreData || sqlite else { return false }
        let sink = (names.contains("execute") && SecurityVisitor.contains(b, sqlLabels))
            || (names.contains("add") && LoggingPrefilter.containsFoldingCase(b, realmWord))
            || (coreData && (names.contains("setValue") || SecurityVisitor.contains(b, coreDataAssignment)))
            || (sqlite && SecurityVisitor.contains(b, sqliteSetter))
        return sink && LoggingPrefilter.containsFoldingCase(b, databaseWords)
    }

    static let sqliteBinds: Set<String> = ["sqlite3_bind_text", "sqlite3_bind_text16", "sqlite3_bind_blob"]
    static let sqliteStatements: Set<String> = ["sqlite3_exec", "sqlite3_prepare", "sqlite3_prepare_v2", "sqlite3_prepare_v3"]

    func databaseCall(_ node: FunctionCallExprSyntax) {
        let arguments = Array(node.arguments)
        if let callee = node.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text {
            if Self.sqliteBinds.contains(callee), arguments.count >= 3 { databaseSink(arguments[2].expression, api: callee) }
            if Self.sqliteStatements.contains(callee), arguments.count >= 2, Self.writesRows(arguments[1].expression) {
                databaseSink(arguments[1].expression, api: "\(callee) (\(Self.statementVerb(arguments[1].expression) ?? "SQL"))")
            }
            if callee == "Configuration" || callee == "RLMRealmConfiguration" { realmConfiguration(arguments, at: node) }
            return
        }
        guard let member = node.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base else {
            // `.init(encryptionKey:)`, `Realm.Configuration(encryptionKey:)` spelled through a type member.
            return
        }
        let name = member.declName.baseName.text
        let baseText = E.stripped(base).sourceText
        switch name {
        case "Configuration" where baseText == "Realm":
            realmConfiguration(arguments, at: node)
        case "execute":
            guard let first = arguments.first else { return }
            if first.label?.text == "sql" {
                if Self.writesRows(first.expression) { databaseSink(first.expression, api: "execute(sql:)") }
                if let values = arguments.first(where: { $0.label?.text == "arguments" })?.expression,
                   Self.writesRows(first.expression) || E.stringLiteral(first.expression) == nil {
                    for value in Self.statementArguments(values) { databaseSink(value, api: "execute(sql:arguments:)") }
                }
            } else if first.label?.text == "literal", Self.writesRows(first.expression) {
                databaseSink(first.expression, api: "execute(literal:)")
            }
        case "add" where baseText.lowercased().contains("realm") && baseText.count < 80:
            guard let object = arguments.first?.expression else { return }
            realmObject(object, at: node)
        case "setValue" where imports.contains("CoreData") && arguments.count == 2 && arguments[1].label?.text == "forKey":
            let receiver = baseText.lowercased()
            guard !receiver.contains("defaults"), !receiver.contains("keychain") else { return }
            databaseSink(arguments[0].expression, api: "Core Data setValue(_:forKey:)")
        default: break
        }
    }

    /// `column <- value` (SQLite.swift), and `object.property = value` on a managed object the
    /// function makes (Core Data).
    func databaseAssignment(_ node: SequenceExprSyntax, _ elements: [ExprSyntax]) {
        guard elements.count == 3 else { return }
        if imports.contains("SQLite"), elements[1].as(BinaryOperatorExprSyntax.self)?.operator.text == "<-" {
            databaseSink(elements[2], api: "SQLite.swift <-")
            return
        }
        guard imports.contains("CoreData"), elements[1].is(AssignmentExprSyntax.self),
              let member = elements[0].as(MemberAccessExprSyntax.self), let base = member.base,
              let object = FlowResolver.unwrapped(base).as(DeclReferenceExprSyntax.self)?.baseName.text,
              let made = CryptoVisitor.letValue(object, from: Syntax(node), membersOnly: false), Self.makesManagedObject(made)
        else { return }
        databaseSink(elements[2], api: "Core Data \(object).\(member.declName.baseName.text)")
    }

    static func makesManagedObject(_ value: ExprSyntax) -> Bool {
        let e = FlowResolver.unwrapped(value)
        guard let call = e.as(FunctionCallExprSyntax.self) else { return false }
        if call.arguments.count == 1, call.arguments.first?.label?.text == "context" { return true }
        return call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "insertNewObject"
    }

    /// The sink: a sensitive value is a fact; a parameter an open end for the callers elsewhere.
    func databaseSink(_ value: ExprSyntax, api: String) {
        guard !E.isFlagLiteral(value) else { return }
        // `user.password = passwordTextField.text`: what the user typed into a field named for a
        // credential is stored (masked or not, it is the credential). Logs judge fields by
        // `isSecureTextEntry` only.
        if let member = FlowResolver.unwrapped(value).as(MemberAccessExprSyntax.self), member.declName.baseName.text == "text",
           let base = member.base, let field = E.valueName(base), let entered = FlowResolver.credentialField(field) {
            let path = FlowOrigin(kind: .sensitive, what: "the text of \(entered)", line: flow.line(value)).path(to: api, line: flow.line(value))
            emit(Security.databaseCleartext, key: api, api: path, at: value)
            return
        }
        guard let o = flow.origin(value) else { return }
        if o.kind == .sensitive {
            if FlowResolver.isBareToken(o.what) { return }
            // Copied from a managed object's stored value: already at rest in the app's database.
            if o.atRest { return }
            let path = o.path(to: api, line: flow.line(value))
            if let named = o.namedParameter {
                // A parameter sensitive by its name: the join drops it when every call passes a sanitized value.
                let location = flow.lines.location(ofUTF8Offset: value.positionAfterSkippingLeadingTrivia.utf8Offset)
                let link = FlowLink(role: .namedParameterSink, wants: .sensitive, callee: named.callee, parameterIndex: named.index, path: path)
                found.append((SourceUsage(capability: Security.databaseCleartext, key: api, api: path, line: location.line,
                                          column: location.column, strength: .definite, ships: ships,
                                          container: UsageVisitor.container(of: Syntax(value)), link: link), false))
                return
            }
            emit(Security.databaseCleartext, key: api, api: path, at: value)
        } else if o.kind == .parameter,
                  let open = flow.link(o, wants: .sensitive, capability: Security.databaseCleartext, key: api, sink: api, at: value, ships: ships) {
            found.append((open, false))
        }
    }

    /// `realm.add(user)`: the properties the function assigns to `user` before, or the
    /// arguments of the initializer given directly.
    private func realmObject(_ object: ExprSyntax, at call: FunctionCallExprSyntax) {
        let e = FlowResolver.unwrapped(object)
        if let made = e.as(FunctionCallExprSyntax.self) {
            for a in made.arguments where a.label != nil { databaseSink(a.expression, api: "Realm add(_:)") }
            return
        }
        guard let name = e.as(DeclReferenceExprSyntax.self)?.baseName.text, let body = Self.enclosingBody(Syntax(call)) else { return }
        let assignments = PropertyAssignments(object: name, before: call.position)
        assignments.walk(body)
        for value in assignments.values { databaseSink(value, api: "Realm add(_:)") }
        if let made = CryptoVisitor.letValue(name, from: Syntax(call), membersOnly: false)?.as(FunctionCallExprSyntax.self) {
            for a in made.arguments where a.label != nil { databaseSink(a.expression, api: "Realm add(_:)") }
        }
    }

    static func enclosingBody(_ node: Syntax) -> CodeBlockSyntax? {
        var current = node.parent
        var steps = 0
        while let n = current, steps < 256 {
            steps += 1
            if let f = n.as(FunctionDeclSyntax.self) { return f.body }
            if let i = n.as(InitializerDeclSyntax.self) { return i.body }
            current = n.parent
        }
        return nil
    }

    /// `Realm.Configuration(encryptionKey: key)`: recorded for the rule, whatever the key (a
    /// constant key is `hardcoded_crypto_key`'s business).
    private func realmConfiguration(_ arguments: [LabeledExprSyntax], at node: FunctionCallExprSyntax) {
        guard let key = arguments.first(where: { $0.label?.text == "encryptionKey" })?.expression, !key.is(NilLiteralExprSyntax.self)
        else { return }
        emit(Security.realmEncrypted, key: "Realm.Configuration(encryptionKey:)", api: "Realm.Configuration(encryptionKey:)", at: node)
    }

    /// `config.encryptionKey = key`.
    func realmEncryptionAssignment(_ elements: [ExprSyntax], at node: SequenceExprSyntax) {
        guard elements.count == 3, elements[1].is(AssignmentExprSyntax.self),
              elements[0].as(MemberAccessExprSyntax.self)?.declName.baseName.text == "encryptionKey",
              !elements[2].is(NilLiteralExprSyntax.self) else { return }
        emit(Security.realmEncrypted, key: "Realm.Configuration.encryptionKey", api: "encryptionKey =", at: node)
    }

    /// Whether an SQL text writes rows: it starts with INSERT, UPDATE or REPLACE (a SELECT by a
    /// token is a lookup; a statement the file does not show is not judged).
    static func writesRows(_ sql: ExprSyntax) -> Bool { statementVerb(sql) != nil }

    static func statementVerb(_ sql: ExprSyntax) -> String? {
        guard let literal = E.stripped(sql).as(StringLiteralExprSyntax.self), case .stringSegment(let head)? = literal.segments.first
        else { return nil }
        let words = head.content.text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
        guard let verb = words.first?.uppercased() else { return nil }
        if verb == "INSERT" || verb == "UPDATE" { return verb }
        if verb == "REPLACE" { return verb }
        return nil
    }

    /// The values of GRDB's `arguments:`: an array or dictionary literal, `StatementArguments(…)`.
    static func statementArguments(_ e: ExprSyntax) -> [ExprSyntax] {
        let s = FlowResolver.unwrapped(e)
        if let array = s.as(ArrayExprSyntax.self) { return array.elements.prefix(64).map(\.expression) }
        if let dictionary = s.as(DictionaryExprSyntax.self), case .elements(let list) = dictionary.content {
            return list.prefix(64).map(\.value)
        }
        if let call = s.as(FunctionCallExprSyntax.self), call.calledExpression.sourceText == "StatementArguments",
           let first = call.arguments.first?.expression {
            return statementArguments(first)
        }
        return []
    }
}

/// `object.property = value` statements before a position (not in closures or nested functions).
private final class PropertyAssignments: SyntaxVisitor {
    let object: String
    let before: AbsolutePosition
    var values: [ExprSyntax] = []

    init(object: String, before: AbsolutePosition) {
        self.object = object
        self.before = before
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        let elements = Array(node.elements)
        if node.position < before, values.count < 64, elements.count == 3, elements[1].is(AssignmentExprSyntax.self),
           let member = elements[0].as(MemberAccessExprSyntax.self), member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == object {
            values.append(elements[2])
        }
        return .visitChildren
    }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}
