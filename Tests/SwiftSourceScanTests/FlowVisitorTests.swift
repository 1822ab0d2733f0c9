import Foundation
import XCTest
import Evidence
@testable import SwiftSourceScan

/// The data-flow facts: a value's origin followed from its source to a sink, with the path.
final class FlowVisitorTests: XCTestCase {
    typealias Security = ProtectedResourceCatalog.Security

    static let flowCapabilities: Set<String> = [
        Security.hardcodedKey, Security.staticIV, Security.kdfConstantSalt, Security.kdfConstantPassword, Security.kdfIterations,
        Security.weakHashOfSensitive, Security.tlsBelow12, Security.trustNotEvaluated, Security.cleartextCredential,
        Security.credentialSystemLog, Security.credentialStandardOutput, Security.preferenceSecret, Security.ecbMode,
        Security.databaseCleartext, Security.realmEncrypted,
    ]

    func usages(_ source: String, file: StaticString = #filePath, line: UInt = #line) -> [SourceUsage] {
        let found = SwiftSourceScanner.scan(source: source, path: "T.swift").filter { Self.flowCapabilities.contains($0.capability) }
        // Every snippet with a fact (or an open end for the project-wide join) passes the parse
        // gate: a prefiltered scan finds what a full parse finds.
        if !found.isEmpty {
            let facts = SourceFactsScanner(names: SwiftSourceScanning.names).scan(Array(source.utf8))
            XCTAssertTrue(SwiftSourceScanning().mayUse(facts, bytes: Data(source.utf8)), "the parse gate would skip it", file: file, line: line)
        }
        // A finding on a parameter sensitive by its name stands unless the join clears it: a fact here.
        return found.filter { $0.link == nil || $0.link?.role == .namedParameterSink }
    }

    /// The open ends (`FlowLink`) a snippet leaves for the project-wide join, gate checked as for facts.
    func links(_ source: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        _ = usages(source, file: file, line: line)
        return SwiftSourceScanner.scan(source: source, path: "T.swift").compactMap { u -> String? in
            guard let l = u.link, l.role != .namedParameterSink else { return nil }
            let end = l.role == .parameterSink ? "\(l.callee?.signature ?? "?")#\(l.parameterIndex)" : "\(l.qualifier.map { $0 + "." } ?? "")\(l.name)\(l.isCall ? "()" : "")"
            return "\(u.capability.split(separator: ".").last!) \(end) \(u.line)" + (u.ships ? "" : " debug")
        }
    }

    func facts(_ source: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        usages(source, file: file, line: line).map { u in
            "\(u.capability.split(separator: ".").last!) \(u.key) \(u.line)" + (u.ships ? "" : " debug")
        }
    }

    func testBindingsConversionsAndFileConstantsReachKeySinks() {
        XCTAssertEqual(facts("""
        import CommonCrypto
        import CryptoKit
        import Foundation
        let globalKey = "0123456789abcdef"
        struct Config { static let iv: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16] }
        func a() {
            let k = globalKey
            var text = k
            text += "0123456789abcdef"
            let data = text.data(using: .utf8)!
            _ = SymmetricKey(data: data)
        }
        func b(out: inout [UInt8], moved: inout Int) {
            let (key, other) = ([UInt8]("secret-secret-16".utf8), 1)
            guard let bytes = Optional(key) else { return }
            CCCrypt(0, 0, 0, Array(bytes), 16, Config.iv, nil, 0, &out, 0, &moved)
        }
        func c(suffix: String) {
            if let s = Optional("prefix-\\(suffix)") { _ = SymmetricKey(data: Data(s.utf8)) }
            let joined = "abc" + "def"
            _ = SymmetricKey(data: Data(String(joined).utf8))
        }
        """), ["hardcoded_key SymmetricKey(data:) 11", "hardcoded_key CCCrypt key 16", "static_iv CCCrypt IV 16",
               "hardcoded_key SymmetricKey(data:) 21"])
    }

    func testPathNamesSourceStepsAndSink() {
        let found = usages("""
        import CryptoKit
        import Foundation
        enum Keys { static let master = "0123456789abcdef0123456789abcdef" }
        func seal() {
            let raw = Keys.master
            let key = SymmetricKey(data: Data(raw.utf8))
        }
        """)
        XCTAssertEqual(found.map(\.api), ["a string literal (line 3) → let master (line 3) → let raw (line 5) → .utf8 (line 6) → Data(…) (line 6) → SymmetricKey(data:) (line 6)"])
    }

    func testFilledBuffersRandomKeysAndParametersAreNotConstants() {
        XCTAssertEqual(facts("""
        import CommonCrypto
        import CryptoKit
        import Foundation
        func a(key: [UInt8], out: inout [UInt8], moved: inout Int) {
            var iv = [UInt8](repeating: 0, count: 16)
            _ = SecRandomCopyBytes(kSecRandomDefault, iv.count, &iv)
            CCCrypt(0, 0, 0, key, 16, iv, nil, 0, &out, 0, &moved)
            var salt = Data(count: 16)
            salt.withUnsafeMutableBytes { _ = SecRandomCopyBytes(kSecRandomDefault, 16, $0.baseAddress!) }
            _ = SymmetricKey(data: salt)
            var k2 = "placeholder-0123"
            if Bool.random() { k2 = String(key.count) }
            _ = SymmetricKey(data: Data(k2.utf8))
            let random = SymmetricKey(size: .bits256)
            _ = AES.GCM.Nonce()
            _ = random
        }
        """), [])
    }

    func testKeyDerivationSaltRoundsAndPassword() {
        XCTAssertEqual(facts("""
        import CommonCrypto
        import CryptoSwift
        let salt = "NaCl"
        func a(password: String, derived: inout [UInt8]) {
            CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), password, password.count, salt, 4, CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA1), 1_000_000, &derived, 32)
            CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), "hunter2", 7, password, 4, CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA512), 300_000, &derived, 32)
        }
        func b(password: String) throws {
            _ = try PKCS5.PBKDF2(password: Array(password.utf8), salt: Array(salt.utf8), iterations: 700_000, variant: .sha2(.sha256)).calculate()
            _ = try PKCS5.PBKDF2(password: Array(password.utf8), salt: Array(password.utf8), iterations: 200_000).calculate()
        }
        """), ["kdf_constant_salt CCKeyDerivationPBKDF salt 5", "kdf_iterations 1000000 5", "kdf_constant_password CCKeyDerivationPBKDF password 6",
               "kdf_constant_salt PKCS5.PBKDF2 salt 9", "kdf_iterations 200000 10"])
    }

    func testConstantsACallerOfTheFilePassesForTheSinksParameter() {
        XCTAssertEqual(facts("""
        import CommonCrypto
        import Foundation
        let appSalt = "0123456789"
        final class Vault {
            func derive(password: String, salt: Data, rounds: Int = 1000) -> Data {
                var key = Data(repeating: 0, count: 32)
                _ = key.withUnsafeMutableBytes { out in
                    salt.withUnsafeBytes { saltBytes in
                        CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), password, password.utf8.count, saltBytes, salt.count,
                                             CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256), UInt32(rounds), out.baseAddress, 32)
                    }
                }
                return key
            }
            func unlock(_ password: String) -> Data {
                let saltData = appSalt.data(using: .utf8)!
                return derive(password: password, salt: saltData)
            }
            func unlockFresh(_ password: String, salt: Data) -> Data {
                derive(password: password, salt: salt, rounds: 600_000)
            }
        }
        """), ["kdf_constant_salt CCKeyDerivationPBKDF salt 9", "kdf_iterations 1000 10"])
    }

    func testWeakHashesOfSensitiveValues() {
        XCTAssertEqual(facts("""
        import CryptoKit
        import CommonCrypto
        import Foundation
        func a(password: String, token: String, passwordHash: String, file: Data, out: inout [UInt8]) {
            CC_MD5(password, CC_LONG(password.utf8.count), &out)
            CC_SHA256(password, 8, &out)
            CC_SHA256(token, 8, &out)
            _ = Insecure.SHA1.hash(data: Data(token.utf8))
            _ = Insecure.MD5.hash(data: file)
            _ = Insecure.MD5.hash(data: Data(passwordHash.utf8))
            _ = SHA512.hash(data: SHA256.hash(data: Data(password.utf8)).withUnsafeBytes { Data($0) })
        }
        """), ["weak_hash_sensitive CC_MD5 5", "weak_hash_sensitive CC_SHA256 6", "weak_hash_sensitive SHA1 8", "weak_hash_sensitive SHA256 11"])
    }

    func testTLSVersionsInCode() {
        XCTAssertEqual(facts("""
        import Foundation
        func a(c: URLSessionConfiguration, o: sec_protocol_options_t) {
            c.tlsMinimumSupportedProtocolVersion = .TLSv10
            c.tlsMaximumSupportedProtocolVersion = tls_protocol_version_t.TLSv11
            c.tlsMinimumSupportedProtocolVersion = .TLSv12
            sec_protocol_options_set_min_tls_protocol_version(o, .TLSv13)
            sec_protocol_options_set_max_tls_protocol_version(o, .TLSv10)
            if c.tlsMinimumSupportedProtocolVersion == .TLSv10 { }
            c.TLSMinimumSupportedProtocol = .TLSProtocol11
        #if DEBUG
            c.tlsMinimumSupportedProtocol = .tlsProtocol1
        #endif
        }
        """), ["tls_below_1_2 TLSv10 3", "tls_below_1_2 TLSv11 4", "tls_below_1_2 TLSv10 7", "tls_below_1_2 TLSProtocol11 9",
               "tls_below_1_2 tlsProtocol1 11 debug"])
    }

    func testTrustChallengeAcceptedOnlyWhenNothingEvaluatesIt() {
        let accepting = """
        import Foundation
        class D: NSObject, URLSessionDelegate {
            func urlSession(_ s: URLSession, didReceive challenge: URLAuthenticationChallenge,
                            completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
                let trust = challenge.protectionSpace.serverTrust!
                print("challenge for \\(challenge.protectionSpace.host)")
                completionHandler(.useCredential, URLCredential(trust: trust))
            }
        }
        """
        XCTAssertEqual(facts(accepting), ["trust_not_evaluated urlSession(_:didReceive:completionHandler:) 7"])
        XCTAssertEqual(facts(accepting.replacingOccurrences(of: "        completionHandler(.useCredential",
                                                             with: "        guard SecTrustEvaluateWithError(trust, nil) else { return }\n        completionHandler(.useCredential")), [])
        XCTAssertEqual(facts(accepting.replacingOccurrences(of: "        completionHandler(.useCredential",
                                                             with: "        guard Pinning.check(challenge) else { return }\n        completionHandler(.useCredential")), [])
    }

    func testOpenEndsForTheProjectWideJoin() {
        XCTAssertEqual(links("""
        import CommonCrypto
        import CryptoKit
        import Foundation
        func log(_ message: String) { NSLog("%@", message) }
        func count(_ n: Int) { NSLog("%ld", n) }
        func quiet(_ message: String) { NSLog("%ld", message.count) }
        extension Data {
            func aes(keyData: Data) { keyData.withUnsafeBytes { k in _ = CCCrypt(0, 0, 0, k.baseAddress, 16, nil, nil, 0, nil, 0, nil) } }
        }
        func seal() {
            _ = SymmetricKey(data: Data(Keys.aes.utf8))
            let k = makeKey()
            _ = SymmetricKey(data: k)
            for candidate in [Data()] { _ = SymmetricKey(data: candidate) }
        }
        """), ["system_log log(_:)#0 4", "hardcoded_key aes(keyData:)#0 8", "hardcoded_key Keys.aes 11", "hardcoded_key makeKey() 13"])
    }

    func testAnswersToTheProjectWideJoin() {
        let log = FlowCallee(name: "log", labels: ["_"], defaults: [false], isMethod: false)
        let aes = FlowCallee(name: "aes", labels: ["operation", "keyData"], defaults: [true, false], isMethod: true)
        let query = FlowQuery(callees: [log: [0], aes: [1]], names: ["encryptionKey", "makeKey"])
        let answers = SwiftSourceScanner.flowAnswers(source: """
        import Foundation
        let encryptionKey = "AAAAAAAAAAAAAAAA"
        func makeKey() -> String { "k" + "ey" }
        final class Login {
            func log(level: Int) {}
            func signIn(password: String, passwordHash: String, data: Data, note: String) {
                log(password)
                log(passwordHash)
                log("\\(note): \\(password)")
                _ = data.aes(keyData: Data(encryptionKey.utf8))
                _ = data.aes(operation: 1, keyData: Data(note.utf8))
                #if DEBUG
                log(password)
                #endif
            }
        }
        """, context: SourceScanContext(), query: query, limits: .default)
        let shown = answers.map { a -> String in
            switch a.kind {
            case .argument: return "\(a.callee!.signature)#\(a.parameterIndex) \(a.value.map { "\($0)" } ?? "-") \(a.what) \(a.line)" + (a.ships ? "" : " debug")
            case .constant, .returned: return "\(a.kind) \(a.name) \(a.value.map { "\($0)" } ?? "-") \(a.line)"
            case .call: return "call \(a.callee!.signature)#\(a.parameterIndex) \(a.value.map { "\($0)" } ?? "-") \(a.line)"
            }
        }
        // A parameter (passwordHash, note) is for the callers of signIn to decide; each value a string interpolates is passed on.
        XCTAssertEqual(shown, ["constant encryptionKey constant 2", "returned makeKey constant 3", "log(_:)#0 sensitive parameter password 7",
                               "log(_:)#0 parameter parameter passwordHash of signIn 8", "log(_:)#0 parameter parameter note of signIn 9",
                               "log(_:)#0 sensitive parameter password 9", "aes(operation:keyData:)#1 constant a string literal 10",
                               "aes(operation:keyData:)#1 parameter parameter note of signIn 11", "log(_:)#0 sensitive parameter password 13 debug"])
    }

    func testEveryCallOfAFunctionIsAnsweredSanitizedOrNot() {
        let create = FlowCallee(name: "create", labels: ["on", "secret"], defaults: [false, false], isMethod: true)
        var query = FlowQuery(callees: [create: [1]])
        query.everyCall = [create]
        let answers = SwiftSourceScanner.flowAnswers(source: """
        import CryptoKit
        final class Repository {
            func add(secret: String, record: Record, note: String) {
                Entry.create(on: context, secret: secret.encrypt())
                Entry.create(on: context, secret: SHA256.hash(data: Data(record.secret.utf8)).description)
                Entry.create(on: context, secret: note)
                Entry.create(on: context, secret: "abc".encrypt())
                Entry.create(on: context)
                let sealed = secret.encrypt()
                Entry.create(on: context, secret: sealed)
                var plain = sealed
                plain = note
                Entry.create(on: context, secret: plain)
                _ = Entry.create(on:context:)
                secrets.forEach(Entry.create)
                if action == .create { return }
            }
        }
        """, context: SourceScanContext(), query: query, limits: .default)
        let calls = answers.filter { $0.kind == .call }.map { "\($0.value.map { "\($0)" } ?? "-") \($0.line)" }
        // A constant encrypted is still a constant; a call whose labels do not fit is not this function's.
        // Named and not called (a function reference): it may be called with anything; other labels are another function.
        XCTAssertEqual(calls, ["sanitized 4", "sanitized 5", "unknown 6", "unknown 7", "sanitized 10", "unknown 13", "unknown 15"])
    }

    func testAParameterSensitiveByItsNameLeavesAFindingTheCallersMayClear() {
        let found = SwiftSourceScanner.scan(source: """
        import CoreData
        final class Entry: NSManagedObject {
            @nonobjc static func create(on context: NSManagedObjectContext, secret: String) {
                let entry = NSEntityDescription.insertNewObject(forEntityName: "Entry", into: context)
                entry.setValue(secret, forKey: "secret")
            }
            @objc func store(secret: String, context: NSManagedObjectContext) {
                let entry = NSEntityDescription.insertNewObject(forEntityName: "Entry", into: context)
                entry.setValue(secret, forKey: "secret")
            }
        }
        """, path: "T.swift").filter { $0.capability == Security.databaseCleartext }
        let shown = found.map { u in "\(u.line) " + (u.link.map { "\($0.role) \($0.callee?.signature ?? "?")#\($0.parameterIndex)" } ?? "finding") }
        // An @objc method may be called from Objective-C, where the join does not look: reported as it is.
        XCTAssertEqual(shown, ["5 namedParameterSink create(on:secret:)#1", "9 finding"])
    }

    func testNumbersAndStoredValuesAreNotSecretsByName() {
        XCTAssertEqual(facts("""
        import CoreData
        func save(secretPeriod: Int, passcode: Int, context: NSManagedObjectContext, old: NSManagedObject, json: NSDictionary) {
            let o = NSEntityDescription.insertNewObject(forEntityName: "Entry", into: context)
            o.setValue(secretPeriod, forKey: "period")
            let secretCounter = json.value(forKey: "counter") as? Int
            o.setValue(secretCounter, forKey: "counter")
            let secretTTL: Int = json.ttl
            o.setValue(secretTTL, forKey: "ttl")
            let secret = old.value(forKey: "secret") as? String
            o.setValue(secret, forKey: "secret")
            let apiKey = json.value(forKey: "apiKey") as? String
            o.setValue(apiKey, forKey: "apiKey")
            o.setValue(passcode, forKey: "passcode")
        }
        """), ["database_cleartext Core Data setValue(_:forKey:) 12", "database_cleartext Core Data setValue(_:forKey:) 13"])
    }

    func testSensitiveValuesWrittenToDatabases() {
        XCTAssertEqual(facts("""
        import SQLite3
        func a(db: OpaquePointer?, s: OpaquePointer?, password: String, name: String, authToken: String, token: String) {
            sqlite3_bind_text(s, 1, password, -1, nil)
            sqlite3_bind_text(s, 2, name, -1, nil)
            sqlite3_exec(db, "INSERT INTO t VALUES ('\\(authToken)')", nil, nil, nil)
            sqlite3_exec(db, "DELETE FROM t WHERE token = '\\(authToken)'", nil, nil, nil)
            sqlite3_bind_text(s, 3, token, -1, nil)
        }
        """), ["database_cleartext sqlite3_bind_text 3", "database_cleartext sqlite3_exec (INSERT) 5"])  // a bare `token` is not judged by name
        XCTAssertEqual(facts("""
        import GRDB
        func a(db: Database, secret: String, note: String) throws {
            try db.execute(sql: "UPDATE t SET s = ?", arguments: StatementArguments([secret]))
            try db.execute(literal: "INSERT INTO t VALUES (\\(secret))")
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["n": note])
        }
        """), ["database_cleartext execute(sql:arguments:) 3", "database_cleartext execute(literal:) 4"])
        XCTAssertEqual(facts("""
        import CoreData
        func a(context: NSManagedObjectContext, pin: String, pinCode: String) {
            let item = Item(context: context)
            item.pinCode = pinCode
            item.label = "x"
            let defaults = UserDefaults.standard
            defaults.setValue(pinCode, forKey: "p")
        }
        """), ["secret p 7", "database_cleartext Core Data item.pinCode 4"])  // UserDefaults is secret_in_preferences's
        XCTAssertEqual(facts("""
        import RealmSwift
        func a(key: Data, refreshToken: String) {
            var config = Realm.Configuration()
            config.encryptionKey = key
            let realm = try! Realm(configuration: config)
            realm.add(Session(token: refreshToken))
        }
        """), ["realm_encrypted Realm.Configuration.encryptionKey 4", "database_cleartext Realm add(_:) 6"])
        // A wrapper's parameter reaching the sink is an open end (the gate parses the file without a secret word).
        XCTAssertEqual(links("""
        import SQLite3
        func put(_ value: String, _ s: OpaquePointer?) { sqlite3_bind_text(s, 1, value, -1, nil) }
        """), ["database_cleartext put(_:_:)#0 2"])
    }

    func testValuesSensitiveByWhatTheyAre() {
        XCTAssertEqual(facts("""
        import SQLite3
        import SwiftUI
        import Valet
        struct UnlockView: View {
            @State private var code = ""
            @State private var note = ""
            let valet = Valet.valet(with: Identifier(nonEmpty: "x")!, accessibility: .whenUnlocked)
            var body: some View {
                SecureField("Code", text: $code)
                TextField("Note", text: $note)
            }
            func save(_ s: OpaquePointer?) {
                sqlite3_bind_text(s, 1, code, -1, nil)
                sqlite3_bind_text(s, 2, self.note, -1, nil)
                let stored = try? valet.string(forKey: "k")
                sqlite3_bind_text(s, 3, stored, -1, nil)
                var item: CFTypeRef?
                SecItemCopyMatching([:] as CFDictionary, &item)
                sqlite3_bind_blob(s, 4, item, 0, nil)
                sqlite3_bind_text(s, 5, passwordTextField.text, -1, nil)
                sqlite3_bind_text(s, 6, nameTextField.text, -1, nil)
            }
        }
        """), ["database_cleartext sqlite3_bind_text 13", "database_cleartext sqlite3_bind_text 16", "database_cleartext sqlite3_bind_blob 19",
               "database_cleartext sqlite3_bind_text 20"])
    }

    func testABindingNamedForANonSecretTokenIsNotACredential() {
        XCTAssertEqual(facts("""
        import Foundation
        func open(room: Room, session: Session) {
            guard let roomToken = room.token else { return }
            print("Joining room \\(roomToken)")
            let t = session.token
            NSLog("%@", t)
        }
        """), ["system_log token 6"])
    }

    func testCredentialsInCleartextQueries() {
        XCTAssertEqual(facts("""
        import Foundation
        func a(password: String, apiKey: String, name: String) {
            let key = apiKey
            _ = URL(string: "http://example.com/a?u=\\(name)&p=\\(password)")
            _ = URL(string: "http://example.com/a/\\(password)")
            _ = URL(string: "HTTP://example.com/a?key=" + key)
            _ = URL(string: "https://example.com/a?p=\\(password)")
            _ = URL(string: "http://127.0.0.1/a?p=\\(password)")
        }
        """), ["cleartext_credential parameter password 4", "cleartext_credential parameter apiKey 6"])
    }

    func testExistingRulesSeeThroughVariablesAndHelpers() {
        XCTAssertEqual(facts("""
        import Foundation
        import CryptoSwift
        import CryptoKit
        final class Store {
            func getPassword() -> String { UserDefaults.standard.string(forKey: "pw") ?? "" }
            func save(password: String, passwordHash: String, field: UITextField) throws {
                field.isSecureTextEntry = true
                let x = password
                UserDefaults.standard.set(x, forKey: "k")
                let hashed = SHA256.hash(data: Data(password.utf8)).description
                UserDefaults.standard.set(hashed, forKey: "h")
                let y = getPassword()
                NSLog("%@", y)
                NSLog("%@", passwordHash)
                let entered = field.text
                print("\\(entered ?? "")")
                let mode = ECB()
                _ = try AES(key: Array(password.utf8), blockMode: mode, padding: .pkcs7)
            }
        }
        """), ["secret k 9", "system_log getPassword() 13", "standard_output the text of secure field field 16", "ecb_mode ECB 18",
               "weak_hash_sensitive SHA256 10"])
    }

    func testGateAdmitsEveryFlowSinkFile() {
        // Every sink name the visitor judges is a name the gate reads.
        for name in ["CCCrypt", "SymmetricKey", "CCKeyDerivationPBKDF", "PBKDF2", "CC_MD5", "Insecure", "useCredential",
                     "tlsMinimumSupportedProtocolVersion", "sec_protocol_options_set_min_tls_protocol_version"] {
            XCTAssertTrue(SwiftSourceScanning.names.contains(name), name)
        }
        let cleartext = "func a(password: String) { _ = URL(string: \"http://e.com/?p=\\(password)\") }"
        let facts = SourceFactsScanner(names: SwiftSourceScanning.names).scan(Array(cleartext.utf8))
        XCTAssertTrue(SwiftSourceScanning().mayUse(facts, bytes: Data(cleartext.utf8)))
        let basicAuth = "func f(c: (Int, URLCredential?) -> Void) { c(.useCredential, URLCredential(user: \"u\", password: p, persistence: .none)) }"
        let basicFacts = SourceFactsScanner(names: SwiftSourceScanning.names).scan(Array(basicAuth.utf8))
        XCTAssertFalse(Array(basicAuth.utf8).withUnsafeBufferPointer { FlowVisitor.mayFind(referenced: basicFacts.referenced, bytes: $0) })
        XCTAssertTrue(Array("URLCredential (\n  trust: t)".utf8).withUnsafeBufferPointer { FlowVisitor.mentionsTrustCredential($0) })
        // A fast hash without a password word in the file: SHA-256 of a token is no finding, and no parse.
        let token = "func a(token: String) { _ = SHA256.hash(data: Data(token.utf8)) }"
        let tokenFacts = SourceFactsScanner(names: SwiftSourceScanning.names).scan(Array(token.utf8))
        XCTAssertFalse(Array(token.utf8).withUnsafeBufferPointer { FlowVisitor.mayFind(referenced: tokenFacts.referenced, bytes: $0) })
        let plain = "func a(page: Int) { _ = URL(string: \"http://e.com/?p=\\(page)\") }"
        let plainFacts = SourceFactsScanner(names: SwiftSourceScanning.names).scan(Array(plain.utf8))
        XCTAssertFalse(SwiftSourceScanning().mayUse(plainFacts, bytes: Data(plain.utf8)))
    }

    /// A generic name (`execute`, `add`, `setValue`) beside a credential word is not enough:
    /// the gate also needs what the visitor needs — GRDB's `sql:`/`literal:` label, a receiver
    /// named for Realm, CoreData or SQLite spelled in the file (its import).
    func testDatabaseGateNeedsWhatTheSinkNeeds() {
        func gate(_ source: String) -> Bool {
            let facts = SourceFactsScanner(names: SwiftSourceScanning.names).scan(Array(source.utf8))
            return Array(source.utf8).withUnsafeBufferPointer { FlowVisitor.mayFind(referenced: facts.referenced, bytes: $0) }
                && FlowVisitor.mayFind(in: source)
        }
        XCTAssertFalse(gate("func f(token: String) { queue.execute { use(token) }; tokens.add(token); view.setValue(token, forKey: \"t\") }"))
        XCTAssertFalse(gate("import UIKit\nfunc f(token: String) { items.insert(token); store.update(token) }"))
        XCTAssertTrue(gate("func f(db: Database, token: String) throws { try db.execute(sql: \"INSERT INTO t VALUES (?)\", arguments: [token]) }"))
        XCTAssertTrue(gate("func f(token: String) { try! realm.write { realm.add(Item(token: token)) } }"))
        XCTAssertTrue(gate("import CoreData\nfunc f(o: NSManagedObject, token: String) { o.setValue(token, forKey: \"t\") }"))
        XCTAssertTrue(gate("import CoreData\nfunc f(c: NSManagedObjectContext, token: String) { let u = User(context: c); u.token = token }"))
        XCTAssertTrue(gate("import SQLite\nfunc f(token: String) throws { try db.run(users.insert(tokenColumn <- token)) }"))
        XCTAssertFalse(gate("import SQLite\nfunc f(name: String) throws { try db.run(users.insert(nameColumn <- name)) }"))
    }
}
