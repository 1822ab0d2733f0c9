import Foundation
import Artifacts
import Evidence

public struct CleartextDatabaseStorageRule: Rule {
    public init() {}
    typealias Security = ProtectedResourceCatalog.Security

    public static let description = RuleDescription(
        identifier: "cleartext_database_storage",
        name: "Sensitive data stored in a database in clear",
        summary: "A password, token, secret or key reaches a database write unhashed and unencrypted: SQLite's C API, GRDB, SQLite.swift, a Realm without an encryption key, a Core Data managed object.",
        rationale: """
        A database file in the app's container is read by anyone who gets a copy of the \
        container: an unencrypted backup, a jailbroken or forensically imaged device, a shared \
        app-group container, a Mac with the device paired. A credential stored there in clear \
        outlives the session it protected and is replayed by whoever reads the file \
        (OWASP MASVS-STORAGE-1, MASTG-TEST-0052 "Testing Local Data Storage"; CWE-312 \
        "Cleartext Storage of Sensitive Information"). Credentials belong in the keychain; data \
        that must be in a database is encrypted first (SQLCipher, a Realm encryption key, \
        CryptoKit) and passwords are never stored, only a KDF's output.

        Found by following the stored value back to a sensitive source — a name that says it is \
        a password, token, secret, API key, PIN, card number… (by the same judgement as \
        `credential_logged`: not `passwordHash`, `tokenType` or a flag; a value named only \
        `token`, which names a chat room's, a page's or a push token as often as a \
        credential, is not judged by its name), or a value sensitive by \
        what it is: a keychain read (`SecItemCopyMatching`'s result, a keychain wrapper's or a \
        Valet's getter), a `SymmetricKey`/`SecKey`, the text of a `UITextField` the file makes \
        secure or of a SwiftUI `SecureField`, the text of a field named for a credential \
        (`passwordTextField.text`, given to the database directly: masked or not, what the user \
        typed there is the credential) — through variables, \
        conversions, interpolation and the file's functions; a hash, KDF, HMAC or cipher on the \
        way stops it, and so does one at every call of the function when the value is a \
        parameter judged by its name alone (`create(secret: secret.encrypt())` at each call the \
        target's Swift makes; an `@objc`, `dynamic`, `public` or overriding function may have \
        callers nobody sees, and is reported). A number (`secretPeriod: Int`, `x as? Int`) is \
        not a secret by its name, unless the name is a PIN's, a passcode's or a card's. A value \
        read from a Core Data managed object (`primitiveValue(forKey:)`, `value(forKey:)` on an \
        `NSManagedObject`) is already at rest in the app's database: a migration copying it to \
        the new store is not a new exposure, and the write that first stored it is the one \
        reported. Sinks: SQLite's `sqlite3_bind_text`/`_text16`/`_blob` value, an \
        `INSERT`/`UPDATE`/`REPLACE` statement's interpolated text given to `sqlite3_exec` or \
        `sqlite3_prepare*` (a `SELECT` is a lookup, not a write); GRDB's \
        `execute(sql:arguments:)` (an argument, or the write statement's interpolation) and \
        `execute(literal:)`; SQLite.swift's `column <- value` (in a file that imports SQLite); \
        a property assigned to an object given to `realm.add(_:)` (or an initializer argument \
        of it) — unless the app's own code (or a framework target it links) gives a Realm \
        configuration an `encryptionKey` (the Realm package's own source does not count); Core Data's `setValue(_:forKey:)` (in a file that imports CoreData, \
        not on `UserDefaults`) and a property of an object made with `T(context:)` or \
        `NSEntityDescription.insertNewObject(forEntityName:into:)`. A parameter that reaches \
        one of these is followed to the callers in other files of the target (up to three \
        functions deep), and the finding is at the call that passes the credential. In \
        Objective-C, a value named for a credential (not followed through variables) bound \
        with `sqlite3_bind_text`/`_blob`, given to Core Data's `setValue:forKey:` on a managed \
        object of the same method (declared `NSManagedObject *` or made by \
        `insertNewObjectForEntityForName:`; key-value coding on any other object, a request's \
        parameters, is not a store), or passed to FMDB's `executeUpdate:` / \
        `executeUpdateWithFormat:` for an `INSERT`, `UPDATE` or `REPLACE` (as an argument or in \
        `withArgumentsInArray:@[…]`).

        Severity: a **warning**. It is storage on the device, where iOS data protection still \
        encrypts the file while the device is locked (for the protection class the file has), \
        so this is weaker than a secret sent in clear or written to a shared log; but the \
        database is in every backup and readable whenever the device is unlocked. A **note** in \
        a package or pod the app may not run; code only under `#if DEBUG` is not reported.

        Fix: keep credentials in the keychain (`SecItemAdd` with \
        `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`) and store only a reference in the \
        database; encrypt the database (SQLCipher, `Realm.Configuration(encryptionKey:)` with a \
        key kept in the keychain) or the value; store a password's PBKDF2/Argon2 output, never \
        the password.
        """,
        area: .storage, severity: .warning, tags: ["security", "storage", "MASVS-STORAGE-1", "CWE-312"],
        references: ["https://mas.owasp.org/MASVS/controls/MASVS-STORAGE-1/",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-STORAGE/MASTG-TEST-0052/",
                     "https://cwe.mitre.org/data/definitions/312.html",
                     "https://www.sqlite.org/c3ref/bind_blob.html",
                     "https://www.mongodb.com/docs/atlas/device-sdks/sdk/swift/realm-files/encrypt-a-realm/"],
        triggering: [
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/AccountStore.swift": """
                         import Foundation
                         import SQLite3

                         let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

                         final class AccountStore {
                             var db: OpaquePointer?

                             func save(user: String, password: String) {
                                 var statement: OpaquePointer?
                                 sqlite3_prepare_v2(db, "INSERT INTO accounts (user, password) VALUES (?, ?)", -1, &statement, nil)
                                 sqlite3_bind_text(statement, 1, user, -1, SQLITE_TRANSIENT)
                                 let secret = password
                                 sqlite3_bind_text(statement, 2, ↓secret, -1, SQLITE_TRANSIENT)
                                 sqlite3_step(statement)
                                 sqlite3_finalize(statement)
                             }

                             func remember(sessionToken: String) {
                                 sqlite3_exec(db, ↓"UPDATE session SET token = '\\(sessionToken)'", nil, nil, nil)
                             }
                         }
                         """],
                        note: "SQLite's C API: a bound password (through a variable) and a token interpolated into an UPDATE."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Storage.swift": """
                         import CoreData
                         import GRDB
                         import RealmSwift
                         import SQLite

                         final class Credential: Object {
                             @Persisted var user = ""
                             @Persisted var password = ""
                         }

                         func store(user: String, password: String, apiKey: String, db: Database, context: NSManagedObjectContext) throws {
                             try db.execute(sql: "INSERT INTO keys (user, key) VALUES (?, ?)", arguments: [user, ↓apiKey])
                             let users = Table("users")
                             let name = Expression<String>("name"), secret = Expression<String>("secret")
                             _ = users.insert(name <- user, secret <- ↓password)
                             let realm = try Realm()
                             let credential = Credential()
                             credential.user = user
                             credential.password = ↓password
                             try realm.write { realm.add(credential) }
                             let account = NSEntityDescription.insertNewObject(forEntityName: "Account", into: context)
                             account.setValue(↓apiKey, forKey: "apiKey")
                         }
                         """],
                        note: "GRDB arguments, SQLite.swift's <-, a Realm object without an encryption key, a Core Data managed object."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Database.swift": """
                         import Foundation
                         import SQLite3

                         final class Database {
                             var handle: OpaquePointer?
                             func put(_ value: String, column: Int32, in statement: OpaquePointer?) {
                                 sqlite3_bind_text(statement, column, value, -1, nil)
                             }
                         }
                         """,
                         "App/Login.swift": """
                         final class Login {
                             let database = Database()
                             func signIn(authToken: String) {
                                 database.put(↓authToken, column: 1, in: nil)
                             }
                         }
                         """],
                        note: "A method of the app whose parameter reaches sqlite3_bind_text, called with a token from another file."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/UnlockView.swift": """
                         import CoreData
                         import SwiftUI
                         import Valet

                         struct UnlockView: View {
                             @State private var code = ""
                             let context: NSManagedObjectContext
                             let valet = Valet.valet(with: Identifier(nonEmpty: "vault")!, accessibility: .whenUnlockedThisDeviceOnly)

                             var body: some View {
                                 SecureField("Code", text: $code)
                                 Button("Save") { save() }
                             }

                             func save() {
                                 let entry = NSEntityDescription.insertNewObject(forEntityName: "Entry", into: context)
                                 entry.setValue(↓code, forKey: "code")
                                 let stored = try? valet.string(forKey: "recovery")
                                 entry.setValue(↓stored, forKey: "recovery")
                             }
                         }
                         """],
                        note: "Sensitive by what the value is, whatever its name: the text a SwiftUI SecureField edits, a Valet (keychain) read."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/CredentialStore.m": """
                         #import <Foundation/Foundation.h>
                         #import <sqlite3.h>

                         @implementation CredentialStore
                         - (void)saveUser:(NSString *)user password:(NSString *)password statement:(sqlite3_stmt *)statement {
                             sqlite3_bind_text(statement, 1, [user UTF8String], -1, SQLITE_TRANSIENT);
                             sqlite3_bind_text(statement, 2, [↓password UTF8String], -1, SQLITE_TRANSIENT);
                             sqlite3_bind_text(statement, 3, [[self sha256Of:password] UTF8String], -1, SQLITE_TRANSIENT);
                             sqlite3_step(statement);
                         }
                         @end
                         """],
                        note: "Objective-C: a password bound with sqlite3_bind_text (its SHA-256 on the next line is not reported)."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/AccountStore.m": """
                         #import <CoreData/CoreData.h>
                         #import "FMDB.h"

                         @implementation AccountStore
                         - (void)saveUser:(NSString *)user password:(NSString *)password {
                             NSManagedObject *account = [NSEntityDescription insertNewObjectForEntityForName:@"Account"
                                                                                      inManagedObjectContext:self.context];
                             [account setValue:user forKey:@"user"];
                             [account setValue:↓password forKey:@"password"];
                             [self.queue executeUpdate:@"INSERT INTO users (name, secret) VALUES (?, ?)", user, self.↓apiSecret];
                         }
                         @end
                         """],
                        note: "Objective-C: a password set on a Core Data managed object, an API secret inserted with FMDB."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Entry.swift": """
                         import CoreData

                         final class Entry: NSManagedObject {
                             @NSManaged var secret: String?
                             @NSManaged var code: NSNumber?

                             @nonobjc static func create(on context: NSManagedObjectContext, secret: String, passcode: Int) {
                                 let entry = NSEntityDescription.insertNewObject(forEntityName: "Entry", into: context) as! Entry
                                 entry.secret = ↓secret
                                 entry.setValue(↓passcode, forKey: "code")
                             }

                             @nonobjc static func copy(from old: NSManagedObject, response: NSDictionary, into context: NSManagedObjectContext) {
                                 let entry = NSEntityDescription.insertNewObject(forEntityName: "Entry", into: context)
                                 let apiKey = response.value(forKey: "apiKey") as? String
                                 entry.setValue(↓apiKey, forKey: "apiKey")
                             }
                         }
                         """,
                         "App/Repository.swift": """
                         import CoreData

                         final class Repository {
                             let context: NSManagedObjectContext
                             init(context: NSManagedObjectContext) { self.context = context }

                             func add(secret: String) {
                                 Entry.create(on: context, secret: secret.encrypt(), passcode: 0)
                             }

                             func restore(secret: String) {
                                 Entry.create(on: context, secret: secret, passcode: 0)
                             }
                         }
                         """],
                        note: "Near misses: one call of the function passes the secret unencrypted (the other encrypts it); a passcode typed Int is still a passcode; key-value coding on a dictionary, not a managed object, is a new source."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/AccountStore.swift": """
                         import CryptoKit
                         import Foundation
                         import SQLite3

                         final class AccountStore {
                             var db: OpaquePointer?

                             func save(user: String, password: String, passwordHash: String, token: String, roomToken: String) {
                                 var statement: OpaquePointer?
                                 sqlite3_prepare_v2(db, "INSERT INTO accounts (user, verifier, hash) VALUES (?, ?, ?)", -1, &statement, nil)
                                 let verifier = SHA256.hash(data: Data(password.utf8)).description
                                 sqlite3_bind_text(statement, 1, user, -1, nil)
                                 sqlite3_bind_text(statement, 2, verifier, -1, nil)
                                 sqlite3_bind_text(statement, 3, passwordHash, -1, nil)
                                 sqlite3_step(statement)
                                 sqlite3_exec(db, "SELECT * FROM session WHERE token = '\\(token)'", nil, nil, nil)
                                 sqlite3_bind_text(statement, 1, roomToken, -1, nil)
                                 sqlite3_bind_text(statement, 2, token, -1, nil)
                                 #if DEBUG
                                 sqlite3_bind_text(statement, 1, password, -1, nil)
                                 #endif
                             }
                         }
                         """],
                        note: "A hashed password, a value named as a hash, a SELECT (a lookup, not a write), a room's token and a value named only token (a room, page or push token as often as a credential), debug-only code."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Vault.swift": """
                         import Foundation
                         import RealmSwift

                         final class Entry: Object {
                             @Persisted var title = ""
                             @Persisted var password = ""
                         }

                         func save(title: String, password: String) throws {
                             let realm = try Realm()
                             let entry = Entry()
                             entry.title = title
                             entry.password = password
                             try realm.write { realm.add(entry) }
                         }
                         """,
                         "App/RealmSetup.swift": """
                         import Foundation
                         import RealmSwift

                         func configureRealm(key: Data) {
                             Realm.Configuration.defaultConfiguration = Realm.Configuration(encryptionKey: key)
                         }
                         """],
                        note: "The target's Realm is encrypted: a configuration with an encryption key in another file of the target."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Profile.swift": """
                         import CoreData
                         import Foundation

                         func save(name: String, tokenType: String, isPasswordSet: Bool, context: NSManagedObjectContext) {
                             let profile = NSEntityDescription.insertNewObject(forEntityName: "Profile", into: context)
                             profile.setValue(name, forKey: "name")
                             profile.setValue(tokenType, forKey: "tokenType")
                             profile.setValue(isPasswordSet, forKey: "isPasswordSet")
                             UserDefaults.standard.setValue(name, forKey: "lastUser")
                         }
                         """],
                        note: "Values that are not secrets (a token's type, a flag)."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/LoginRequest.m": """
                         #import <Foundation/Foundation.h>
                         #import "FMDB.h"

                         @implementation LoginRequest
                         - (NSDictionary *)parametersForUser:(NSString *)user password:(NSString *)password {
                             NSMutableDictionary *parameters = [NSMutableDictionary dictionary];
                             [parameters setValue:user forKey:@"user"];
                             [parameters setValue:password forKey:@"password"];
                             FMResultSet *rows = [self.db executeQuery:@"SELECT id FROM users WHERE name = ?", user];
                             [self.db executeUpdate:@"UPDATE users SET verifier = ? WHERE name = ?", [self pbkdf2Of:password], user];
                             return parameters;
                         }
                         @end
                         """],
                        note: "Key-value coding on a request's parameters dictionary (not a managed object), an FMDB query, and a KDF's output stored."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Entry.swift": """
                         import CoreData

                         final class Entry: NSManagedObject {
                             @NSManaged var secret: String?

                             @nonobjc static func create(on context: NSManagedObjectContext, secret: String) {
                                 let entry = NSEntityDescription.insertNewObject(forEntityName: "Entry", into: context) as! Entry
                                 entry.secret = secret
                             }
                         }
                         """,
                         "App/Repository.swift": """
                         import CoreData
                         import CryptoKit

                         final class Repository {
                             let context: NSManagedObjectContext
                             init(context: NSManagedObjectContext) { self.context = context }

                             func add(secret: String) {
                                 Entry.create(on: context, secret: secret.encrypt())
                             }

                             func imported(_ record: Record) {
                                 Entry.create(on: context, secret: SHA256.hash(data: Data(record.secret.utf8)).description)
                             }
                         }
                         """],
                        note: "A parameter named secret whose every call in the project passes an encrypted or hashed value (encryption is a sanitizer)."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/EntryMigrationPolicy.swift": """
                         import CoreData

                         final class EntryMigrationPolicy: NSEntityMigrationPolicy {
                             override func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping,
                                                                      manager: NSMigrationManager) throws {
                                 guard let secret = sInstance.primitiveValue(forKey: "secret") as? String else { return }
                                 let password = sInstance.value(forKey: "password") as? String
                                 let newEntry = NSEntityDescription.insertNewObject(forEntityName: "Entry", into: manager.destinationContext)
                                 newEntry.setValue(secret, forKey: "secret")
                                 newEntry.setValue(password, forKey: "password")
                             }
                         }
                         """,
                         "App/Settings.swift": """
                         import CoreData

                         func saveSettings(secretPeriod: Int, passwordMinLength: Int, context: NSManagedObjectContext, old: NSManagedObject) {
                             let settings = NSEntityDescription.insertNewObject(forEntityName: "Settings", into: context)
                             settings.setValue(secretPeriod, forKey: "period")
                             settings.setValue(passwordMinLength, forKey: "minLength")
                             let secretCounter = old.primitiveValue(forKey: "counter") as? Int
                             settings.setValue(secretCounter, forKey: "counter")
                         }
                         """],
                        note: "A Core Data migration copying a managed object's stored values to the new store (already at rest in the app's database, not a new exposure), and numbers named for a secret: a TOTP period, a minimum length, a counter."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        let facts = SecurityFacts(context)
        // The app's own configuration (its code or its framework targets), not a Realm package's
        // or pod's source forwarding the property (`configuration.encryptionKey = self.encryptionKey`).
        let encryptedRealm = Set(facts.all(Security.realmEncrypted).filter { _, fact in
            switch fact.usage.origin {
            case .app, .linked(.target, _, _): return true
            default: return false
            }
        }.map(\.host.name))
        return facts.all(Security.databaseCleartext).compactMap { host, fact in
            let u = fact.usage
            if u.key.hasPrefix("Realm"), encryptedRealm.contains(host.name) { return nil }
            let place = SecurityFacts.location(u)
            let f = finding("\(host.name) stores sensitive data in a database in clear, where any copy of the container (a backup, an imaged device) reads it: \(UsageReading.describe(u))",
                            bundle: host.name, at: place, key: u.key, evidence: [UsageReading.evidenceRef(u)],
                            fix: "Keep the credential in the keychain and store only a reference, encrypt the database or the value (SQLCipher, a Realm encryption key kept in the keychain), and store a password's KDF output, never the password.",
                            fingerprint: [u.key, place.path, FlowFacts.stable(u.api)])
            return fact.lowered(f, to: .note)
        }
    }
}
