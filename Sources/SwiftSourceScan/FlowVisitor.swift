import Evidence
import Formats
import SwiftSyntax

/// The sinks whose judgement needs a value's origin (`FlowResolver`): keys, IVs, nonces,
/// salts, passwords and iteration counts given to CommonCrypto, CryptoKit and CryptoSwift;
/// sensitive values hashed with MD5/SHA-1 (or a password with a fast hash); TLS versions below
/// 1.2 set in code; server-trust challenges answered without evaluating the trust; and
/// credentials put into an `http://` URL's query. Every fact's API text is the path from the
/// value's source to the sink.
final class FlowVisitor: SyntaxVisitor {
    typealias Security = ProtectedResourceCatalog.Security
    typealias E = SecurityExpressions

    let flow: FlowResolver
    private let target: TargetConditions
    /// One entry per enclosing `#if` clause: whether it can ship (`FileWalk` keeps it in a shared walk).
    var clauseShips: [Bool] = []
    private(set) var imports: Set<String> = []
    var found: [(usage: SourceUsage, cryptoSwift: Bool)] = []
    /// `NWConnection(…, using:)` transports of the file (nil: TLS or unknown) and the sends
    /// of sensitive data waiting for them (`FlowVisitor+Transmission`).
    var connectionTransports: [String?] = []
    var pendingSends: [SourceUsage] = []

    init(flow: FlowResolver, target: TargetConditions = TargetConditions()) {
        self.flow = flow
        self.target = target
        super.init(viewMode: .sourceAccurate)
    }

    var ships: Bool { !clauseShips.contains(false) }

    func scan(_ tree: SourceFileSyntax) -> [SourceUsage] {
        walk(tree)
        return finish()
    }

    /// What the walk found, once the file's imports are known.
    func finish() -> [SourceUsage] {
        judgeSends()
        let hasCryptoSwift = imports.contains("CryptoSwift")
        return found.filter { !$0.cryptoSwift || hasCryptoSwift }.map(\.usage)
    }

    // MARK: Gate

    /// Names a file must refer to for a sink of this visitor to be in it.
    static let triggerNames: Set<String> = Set<String>([
        "CCCrypt", "CCCryptorCreate", "CCCryptorCreateFromData", "CCCryptorCreateWithMode", "SymmetricKey", "SecKeyCreateWithData",
        "AES", "ChaCha20", "Blowfish", "Rabbit", "CBC", "GCM", "CTR", "CFB", "OFB", "PCBC", "CCM", "Nonce",
        "CCKeyDerivationPBKDF", "PBKDF2", "CC_MD5", "CC_SHA1", "CC_SHA224", "CC_SHA256", "CC_SHA384", "CC_SHA512",
        "Insecure", "SHA256", "SHA384", "SHA512", "md5", "sha1", "sha224", "sha256", "sha384", "sha512", "Digest",
        "tlsMinimumSupportedProtocolVersion", "tlsMinimumSupportedProtocol", "tlsMaximumSupportedProtocolVersion",
        "tlsMaximumSupportedProtocol", "TLSMinimumSupportedProtocol", "TLSMaximumSupportedProtocol",
        "sec_protocol_options_set_min_tls_protocol_version",
        "sec_protocol_options_set_max_tls_protocol_version", "useCredential",
    ]).union(databaseAlwaysNames).union(libraryNames)
    /// Core Data's `T(context:)`: a managed object whose properties are stored.
    static let coreDataAssignment = SecurityVisitor.prefixTable(["(context:", "insertNewObject("])
    /// Fast hashes are a sink only for a password (a value whose name holds one of
    /// `passwordWords`): a file naming them is parsed only when its bytes hold such a word.
    static let fastHashNames: Set<String> = ["SHA256", "SHA384", "SHA512", "sha224", "sha256", "sha384", "sha512", "Digest",
                                             "CC_SHA224", "CC_SHA256", "CC_SHA384", "CC_SHA512"]
    static let alwaysNames = triggerNames.subtracting(fastHashNames).subtracting(["useCredential"])
    static let passwordBytes = LoggingPrefilter.table(["password", "passwd", "passphrase", "passcode"])

    /// The parse gate's part for this visitor, from the byte pass's names and the bytes.
    static func mayFind(referenced: Set<String>, bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if !referenced.isDisjoint(with: alwaysNames) { return true }
        if mayHoldDatabaseSink(bytes, referenced: referenced) { return true }
        if !referenced.isDisjoint(with: fastHashNames) && LoggingPrefilter.containsFoldingCase(bytes, passwordBytes) { return true }
        // The trust rule needs `URLCredential(trust:` in the delegate, not only `.useCredential` (HTTP authentication).
        if referenced.contains("useCredential") && mentionsTrustCredential(bytes) { return true }
        return SecurityVisitor.contains(bytes, cleartextURL) && LoggingPrefilter.mayFind(bytes, calls: cleartextURL)
    }

    /// `URLCredential(trust`, with any white space around the parenthesis.
    static func mentionsTrustCredential(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(b)
        let needle = Array("URLCredential".utf8), trust = Array("trust".utf8)
        func skipSpace(_ j: inout Int) { while j < b.count, b[j] == 0x20 || b[j] == 0x0A || b[j] == 0x0D || b[j] == 0x09 { j += 1 } }
        var from = 0
        while let i = ByteSearch.firstOffset(of: needle, in: raw, from: from) {
            var j = i + needle.count
            skipSpace(&j)
            if j < b.count, b[j] == UInt8(ascii: "(") {
                j += 1
                skipSpace(&j)
                if j + trust.count <= b.count, Array(b[j..<(j + trust.count)]) == trust { return true }
            }
            from = i + 1
        }
        return false
    }

    static let triggerTable = SecurityVisitor.prefixTable(triggerNames)
    /// `"http://` in a Swift string: a URL whose query may carry a credential.
    static let cleartextURL = SecurityVisitor.prefixTable(["\"http://", "\"HTTP://"])

    /// Whether the bytes may hold a sink: a trigger name, or an `http://` literal beside a credential word.
    static func mayFind(in source: String) -> Bool {
        var text = source
        return text.withUTF8 { b in
            SecurityVisitor.contains(b, triggerTable)
                || (SecurityVisitor.contains(b, cleartextURL) && LoggingPrefilter.mayFind(b, calls: cleartextURL))
                || mayHoldDatabaseSink(b, referenced: nil)
        }
    }

    // MARK: Calls

    static let cryptorKeyIV = Security.cryptorKeyAndIV
    static let cryptoSwiftCiphers: Set<String> = ["AES", "ChaCha20", "Blowfish", "Rabbit"]
    static let cryptoSwiftModes: Set<String> = ["CBC", "GCM", "CTR", "CFB", "OFB", "PCBC", "CCM"]
    static let weakDigests: Set<String> = ["md5", "sha1", "MD5", "SHA1", "CC_MD5", "CC_SHA1"]
    static let fastDigests: Set<String> = ["sha224", "sha256", "sha384", "sha512", "SHA256", "SHA384", "SHA512",
                                           "CC_SHA224", "CC_SHA256", "CC_SHA384", "CC_SHA512"]

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        databaseCall(node)
        let arguments = Array(node.arguments)
        let labeled = { (label: String) in arguments.first { $0.label?.text == label }?.expression }
        if transmissionCall(node, labeled) { return .visitChildren }
        if let callee = node.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text {
            if let roles = Self.cryptorKeyIV[callee] {
                if roles.key < arguments.count { constantSink(arguments[roles.key].expression, Security.hardcodedKey, "\(callee) key") }
                // ECB ignores the IV (`ecb_mode_encryption` reports the mode).
                let ecb = arguments.prefix(3).contains { $0.expression.sourceText.contains("ECB") }
                if roles.iv < arguments.count, !ecb { constantSink(arguments[roles.iv].expression, Security.staticIV, "\(callee) IV") }
            }
            if libraryCall(callee, labeled) { return .visitChildren }
            switch callee {
            case "SymmetricKey": if let data = labeled("data") { constantSink(data, Security.hardcodedKey, "SymmetricKey(data:)") }
            case "SecKeyCreateWithData": if let first = arguments.first { constantSink(first.expression, Security.hardcodedKey, "SecKeyCreateWithData") }
            case "CCKeyDerivationPBKDF" where arguments.count >= 7:
                kdf(password: arguments[1].expression, salt: arguments[3].expression, rounds: arguments[6].expression,
                    prf: arguments[5].expression.sourceText, api: "CCKeyDerivationPBKDF", cryptoSwift: false, at: node)
            case "CC_MD5", "CC_SHA1", "CC_SHA224", "CC_SHA256", "CC_SHA384", "CC_SHA512":
                if let first = arguments.first { hashSink(first.expression, digest: callee, cryptoSwift: false) }
            case "sec_protocol_options_set_min_tls_protocol_version", "sec_protocol_options_set_max_tls_protocol_version":
                if arguments.count == 2 { tlsSink(arguments[1].expression, api: callee) }
            default:
                if Self.cryptoSwiftCiphers.contains(callee) {
                    if let key = labeled("key") { constantSink(key, Security.hardcodedKey, "\(callee)(key:)", cryptoSwift: true) }
                    if let iv = labeled("iv") { constantSink(iv, Security.staticIV, "\(callee)(iv:)", cryptoSwift: true) }
                } else if Self.cryptoSwiftModes.contains(callee), let iv = labeled("iv") {
                    constantSink(iv, Security.staticIV, "\(callee)(iv:)", cryptoSwift: true)
                }
            }
            return .visitChildren
        }
        guard let member = node.calledExpression.as(MemberAccessExprSyntax.self) else { return .visitChildren }
        let name = member.declName.baseName.text
        let baseText = member.base.map { E.stripped($0).sourceText } ?? ""
        if libraryMember(name, base: baseText, arguments, labeled, at: node) { return .visitChildren }
        switch name {
        case "Nonce" where ["AES.GCM", "GCM", "ChaChaPoly"].contains(baseText):
            if let data = labeled("data") { constantSink(data, Security.staticIV, "\(baseText).Nonce(data:)") }
        case "PBKDF2" where baseText == "PKCS5":
            if let password = labeled("password") {
                // CryptoSwift's default: 4,096 iterations of HMAC-SHA256.
                let variant = labeled("variant").map { $0.sourceText } ?? "sha256"
                kdf(password: password, salt: labeled("salt"), rounds: labeled("iterations"), prf: variant, api: "PKCS5.PBKDF2",
                    cryptoSwift: true, at: node, defaultRounds: 4096)
            }
        case "hash" where ["Insecure.MD5", "Insecure.SHA1", "SHA256", "SHA384", "SHA512"].contains(baseText):
            if let data = labeled("data") { hashSink(data, digest: baseText.replacingOccurrences(of: "Insecure.", with: ""), cryptoSwift: false) }
        case "md5", "sha1", "sha224", "sha256", "sha384", "sha512":
            if arguments.isEmpty, let base = member.base { hashSink(base, digest: name, cryptoSwift: true) }
            else if baseText == "Digest", let first = arguments.first { hashSink(first.expression, digest: name, cryptoSwift: true) }
        case "update":
            // `var hasher = Insecure.MD5(); hasher.update(data: passwordData)`.
            if let data = labeled("data"), let base = member.base, let digest = Self.hasherDigest(base) { hashSink(data, digest: digest, cryptoSwift: false) }
        case "calculate":
            // CryptoSwift `MD5().calculate(for: bytes)`, `SHA2(variant: .sha256).calculate(for:)`.
            if let bytes = labeled("for"), let base = member.base, let digest = Self.cryptoSwiftDigest(base) { hashSink(bytes, digest: digest, cryptoSwift: true) }
        default: break
        }
        return .visitChildren
    }

    func constantSink(_ argument: ExprSyntax, _ capability: String, _ sink: String, cryptoSwift: Bool = false) {
        flow.askingForConstant { constantSinkAsked(argument, capability, sink, cryptoSwift: cryptoSwift) }
    }

    private func constantSinkAsked(_ argument: ExprSyntax, _ capability: String, _ sink: String, cryptoSwift: Bool) {
        if let o = constantOrigin(argument) {
            emit(capability, key: sink, api: o.path(to: sink, line: flow.line(argument)), at: argument, cryptoSwift: cryptoSwift)
        } else if let o = flow.origin(argument), o.kind == .parameter || o.kind == .external,
                  let open = flow.link(o, wants: .constant, capability: capability, key: sink, sink: sink, at: argument, ships: ships) {
            // Callers or declarations in other files of the target decide (`SourceFlowJoin`).
            found.append((open, cryptoSwift))
        }
    }

    /// A constant at the sink, or one a caller in the file passes for the parameter it comes from.
    private func constantOrigin(_ argument: ExprSyntax) -> FlowOrigin? {
        guard let o = flow.origin(argument) else { return nil }
        if o.kind == .constant { return o }
        return o.kind == .parameter && !o.partial ? flow.callSiteConstant(for: o, at: Syntax(argument)) : nil
    }

    func kdf(password: ExprSyntax, salt: ExprSyntax?, rounds: ExprSyntax?, prf: String?, api: String, cryptoSwift: Bool,
                     at call: FunctionCallExprSyntax, defaultRounds: UInt64? = nil) {
        constantSink(password, Security.kdfConstantPassword, "\(api) password", cryptoSwift: cryptoSwift)
        if let salt { constantSink(salt, Security.kdfConstantSalt, "\(api) salt", cryptoSwift: cryptoSwift) }
        let floor = Security.pbkdf2Floor(prf: prf)
        if let rounds {
            guard let o = constantOrigin(rounds), let n = o.number, n < floor else { return }
            emit(Security.kdfIterations, key: "\(n)", api: o.path(to: "\(api) rounds, below \(floor) for \(prf ?? "its PRF")", line: flow.line(rounds)),
                 at: rounds, cryptoSwift: cryptoSwift)
        } else if let defaultRounds, defaultRounds < floor {
            emit(Security.kdfIterations, key: "\(defaultRounds)",
                 api: "\(api) without iterations: (the default \(defaultRounds)), below \(floor) for \(prf ?? "its PRF")",
                 at: call, cryptoSwift: cryptoSwift)
        }
    }

    /// Words of a value that is a password (a fast hash is wrong for it; a token's SHA-256 is fine).
    /// (The parse gate asks the bytes for these words: keep the two lists equal.)
    static let passwordWords: Set<String> = ["password", "passwd", "passphrase", "passcode"]

    private func hashSink(_ argument: ExprSyntax, digest: String, cryptoSwift: Bool) {
        guard let o = flow.sensitive(argument) else { return }
        let weak = Self.weakDigests.contains(digest)
        // Have I Been Pwned's range API asks for SHA-1 of the password by design (k-anonymity).
        if digest.lowercased().contains("sha1"), flow.usesPwnedPasswords { return }
        if !weak {
            guard Self.fastDigests.contains(digest), !Set(SecretNames.words(o.what)).isDisjoint(with: Self.passwordWords) else { return }
        }
        let sink = weak ? "\(digest) hash" : "\(digest) hash of a password (a fast hash, not a KDF)"
        emit(Security.weakHashOfSensitive, key: digest, api: o.path(to: sink, line: flow.line(argument)), at: argument, cryptoSwift: cryptoSwift)
    }

    // MARK: TLS

    static let oldTLS = Security.tlsVersionsBelow12
    static let tlsProperties = Security.tlsVersionProperties

    private func tlsSink(_ value: ExprSyntax, api: String) {
        guard let old = oldTLSVersion(value) else { return }
        emit(Security.tlsBelow12, key: old.0, api: "\(api) = .\(old.0)", at: old.1)
    }

    /// `.TLSv10`, `tls_protocol_version_t.TLSv11`, or a `let` holding one.
    private func oldTLSVersion(_ value: ExprSyntax) -> (String, ExprSyntax)? {
        let e = E.stripped(value)
        if let n = E.name(e), Self.oldTLS.contains(n.name) { return (n.name, e) }
        if let reference = e.as(DeclReferenceExprSyntax.self),
           let bound = CryptoVisitor.letValue(reference.baseName.text, from: Syntax(e), membersOnly: false),
           let n = E.name(bound), Self.oldTLS.contains(n.name) {
            return (n.name, e)
        }
        return nil
    }

    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        let elements = Array(node.elements)
        if elements.count == 3, elements[1].is(AssignmentExprSyntax.self), let member = elements[0].as(MemberAccessExprSyntax.self),
           Self.tlsProperties.contains(member.declName.baseName.text) {
            tlsSink(elements[2], api: member.declName.baseName.text)
        }
        concatenatedURL(elements)
        databaseAssignment(node, elements)
        realmEncryptionAssignment(elements, at: node)
        return .visitChildren
    }

    // MARK: Cleartext

    /// Hosts a request to which never leaves the device.
    static func isLoopback(_ host: String) -> Bool {
        ["localhost", "127.0.0.1", "0.0.0.0", "[::1]"].contains(host.lowercased())
    }

    /// The host of an `http://` URL's text, or nil when the text is not one.
    static func cleartextHost(_ text: String) -> String? {
        guard text.lowercased().hasPrefix("http://") else { return nil }
        let rest = text.dropFirst(7)
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != ":" && $0 != "#" }
        return String(host)
    }

    override func visit(_ node: StringLiteralExprSyntax) -> SyntaxVisitorContinueKind {
        guard case .stringSegment(let head)? = node.segments.first, let host = Self.cleartextHost(head.content.text),
              !host.isEmpty, !Self.isLoopback(host) else { return .visitChildren }
        var inQuery = false
        for segment in node.segments {
            switch segment {
            case .stringSegment(let s):
                if s.content.text.contains("?") { inQuery = true }
                if s.content.text.contains("#") { return .visitChildren }
            case .expressionSegment(let s):
                guard inQuery, let value = s.expressions.first?.expression else { continue }
                cleartextSink(value, host: host)
            }
        }
        return .visitChildren
    }

    /// `"http://host/login?token=" + token`.
    private func concatenatedURL(_ elements: [ExprSyntax]) {
        guard elements.count >= 3, elements.count % 2 == 1,
              let head = E.stringLiteral(elements[0]), let host = Self.cleartextHost(head), !host.isEmpty, !Self.isLoopback(host),
              elements.enumerated().allSatisfy({ $0.offset % 2 == 0 || $0.element.as(BinaryOperatorExprSyntax.self)?.operator.text == "+" })
        else { return }
        var inQuery = head.contains("?")
        for operand in elements.dropFirst().enumerated().filter({ $0.offset % 2 == 1 }).map(\.element) {
            if let text = E.stringLiteral(operand) {
                if text.contains("?") { inQuery = true }
                continue
            }
            if inQuery { cleartextSink(operand, host: host) }
        }
    }

    private func cleartextSink(_ value: ExprSyntax, host: String) {
        guard let o = flow.sensitive(value) else { return }
        emit(Security.cleartextCredential, key: o.what, api: o.path(to: "the query of http://\(host)", line: flow.line(value)), at: value)
    }

    // MARK: Trust

    /// `urlSession(_:didReceive:completionHandler:)`, `webView(_:didReceive:completionHandler:)`
    /// (and the task-level variant) answering `.useCredential` with `URLCredential(trust:)` while
    /// no call in the method evaluates the trust or hands it (or the challenge) to other code.
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        let parameters = Array(node.signature.parameterClause.parameters)
        guard ["urlSession", "webView"].contains(node.name.text), let body = node.body,
              let challenge = parameters.first(where: { $0.type.sourceText == "URLAuthenticationChallenge" })
        else { return .visitChildren }
        let challengeName = (challenge.secondName ?? challenge.firstName).text
        let completion = parameters.last.map { ($0.secondName ?? $0.firstName).text } ?? ""
        let calls = TrustCalls(viewMode: .sourceAccurate)
        calls.walk(body)
        guard let answer = calls.calls.first(where: Self.answersUseCredential),
              calls.calls.contains(where: Self.isTrustCredential) else { return .visitChildren }
        // Names that hold the trust or the challenge: any call given one may evaluate it.
        var watched: Set<String> = [challengeName, "serverTrust"]
        for (name, value) in calls.bindings where value.tokens(viewMode: .sourceAccurate).contains(where: { watched.contains($0.text) }) {
            watched.insert(name)
        }
        for call in calls.calls where !Self.isTrustCredential(call) && !Self.answersUseCredential(call) {
            let callee = call.calledExpression.sourceText
            if callee == completion || Self.harmless.contains(callee) { continue }
            if call.calledExpression.tokens(viewMode: .sourceAccurate).contains(where: { $0.text.hasPrefix("SecTrustEvaluate") }) { return .visitChildren }
            if call.arguments.contains(where: { a in a.expression.tokens(viewMode: .sourceAccurate).contains { watched.contains($0.text) } }) {
                return .visitChildren
            }
        }
        if body.tokens(viewMode: .sourceAccurate).contains(where: { $0.text.hasPrefix("SecTrustEvaluate") }) { return .visitChildren }
        let method = "\(node.name.text)(_:didReceive:completionHandler:)"
        emit(Security.trustNotEvaluated, key: method,
             api: "\(method) answers .useCredential with URLCredential(trust:) (line \(flow.line(answer))) and evaluates no trust",
             at: answer)
        return .visitChildren
    }

    /// Calls that cannot evaluate a trust.
    static let harmless: Set<String> = ["print", "NSLog", "debugPrint", "os_log", "String", "URLCredential"]

    static func answersUseCredential(_ call: FunctionCallExprSyntax) -> Bool {
        call.arguments.contains { E.name($0.expression)?.name == "useCredential" }
    }

    static func isTrustCredential(_ call: FunctionCallExprSyntax) -> Bool {
        call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "URLCredential" && call.arguments.first?.label?.text == "trust"
    }

    // MARK: Bookkeeping

    override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
        if let first = node.path.first { imports.insert(first.name.text) }
        return .skipChildren
    }

    override func visit(_ node: IfConfigClauseSyntax) -> SyntaxVisitorContinueKind {
        clauseShips.append(CompilationConditions.clauseShips(node, target: target))
        if let elements = node.elements { walk(elements) }
        clauseShips.removeLast()
        return .skipChildren
    }

    func emit(_ capability: String, key: String, api: String, at node: some SyntaxProtocol, cryptoSwift: Bool = false) {
        let location = flow.lines.location(ofUTF8Offset: node.positionAfterSkippingLeadingTrivia.utf8Offset)
        found.append((SourceUsage(capability: capability, key: key, api: api, line: location.line, column: location.column,
                                  strength: .definite, ships: ships, container: UsageVisitor.container(of: Syntax(node))), cryptoSwift))
    }
}

/// The calls and `let`/`var` bindings of a delegate method's body.
private final class TrustCalls: SyntaxVisitor {
    var calls: [FunctionCallExprSyntax] = []
    var bindings: [(String, ExprSyntax)] = []

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if calls.count < 256 { calls.append(node) }
        return .visitChildren
    }

    override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
        if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let value = node.initializer?.value {
            bindings.append((name, value))
        }
        return .visitChildren
    }

    override func visit(_ node: OptionalBindingConditionSyntax) -> SyntaxVisitorContinueKind {
        if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let value = node.initializer?.value {
            bindings.append((name, value))
        }
        return .visitChildren
    }
}
