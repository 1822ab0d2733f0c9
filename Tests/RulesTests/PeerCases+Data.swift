/// Cases for sensitive data leaving in clear: logs, databases, preferences, the network.
extension PeerCases {
    static let logging: [PeerCase] = [
        .bad(.logging, "NSLog of a password parameter", ["App/Login.swift": """
            import Foundation

            func signIn(user: String, password: String) {
                NSLog("signing in %@ with %@", user, password)
            }
            """]),
        .bad(.logging, "print through a local copy", ["App/Session.swift": """
            struct Account { var name: String; var password: String }

            func show(_ account: Account) {
                let secret = account.password
                print("current: \\(secret)")
            }
            """]),
        .bad(.logging, "own helper in the same file", ["App/Debug.swift": """
            import Foundation

            func trace(_ message: String) {
                NSLog("%@", message)
            }

            func refreshed(authToken: String) {
                trace("new token \\(authToken)")
            }
            """]),
        .bad(.logging, "wrapper declared in another file", [
            "App/Log.swift": """
            import Foundation

            func appLog(_ text: String) {
                NSLog("[app] %@", text)
            }
            """,
            "App/Register.swift": """
            func register(email: String, password: String) {
                appLog("register \\(email) / \\(password)")
            }
            """]),
        .bad(.logging, "os_log with a public specifier", ["App/Keys.swift": """
            import os.log

            func loaded(apiKey: String) {
                os_log("key %{public}@", log: .default, type: .info, apiKey)
            }
            """]),
        .bad(.logging, "Logger interpolation made public", ["App/Auth.swift": """
            import os

            let logger = Logger(subsystem: "com.example.app", category: "auth")

            func received(refreshToken: String) {
                logger.info("refresh \\(refreshToken, privacy: .public)")
            }
            """]),
        .bad(.logging, "secure text field's text", ["App/LoginViewController.swift": """
            import UIKit

            final class LoginViewController: UIViewController {
                let field = UITextField()

                override func viewDidLoad() {
                    super.viewDidLoad()
                    field.isSecureTextEntry = true
                }

                func submit() {
                    NSLog("submitting %@", field.text ?? "")
                }
            }
            """]),
        .bad(.logging, "Objective-C NSLog of a password property", ["App/LoginController.m": """
            #import <Foundation/Foundation.h>

            @implementation LoginController
            - (void)submit {
                NSLog(@"login %@ %@", self.username, self.password);
            }
            @end
            """]),
        .bad(.logging, "a password variable holding a literal", ["App/Account.swift": """
            import Foundation

            func changePassword() {
                let password = "Winter2024!"
                NSLog("password is now \\(password)")
            }
            """]),
        .bad(.logging, "fatalError message", ["App/Session.swift": """
            func restore(refreshToken: String) -> String {
                if refreshToken.count < 8 { fatalError("refresh token too short: \\(refreshToken)") }
                return refreshToken
            }
            """]),
        .good(.logging, "length of a password only", ["App/Login.swift": """
            import Foundation

            func validate(password: String) {
                NSLog("password has %d characters", password.count)
            }
            """]),
        .good(.logging, "a password hash", ["App/Login.swift": """
            import Foundation

            func stored(passwordHash: String) {
                NSLog("stored verifier %@", passwordHash)
            }
            """]),
        .good(.logging, "Logger's default private interpolation", ["App/Auth.swift": """
            import os

            let logger = Logger(subsystem: "com.example.app", category: "auth")

            func received(accessToken: String) {
                logger.info("token \\(accessToken)")
            }
            """]),
        .good(.logging, "debug-only print", ["App/Auth.swift": """
            func received(accessToken: String) {
                #if DEBUG
                print(accessToken)
                #endif
            }
            """]),
        .good(.logging, "a message that names a password", ["App/Auth.swift": """
            import Foundation

            func failed(_ error: Error) {
                NSLog("Password reset failed: %@", error.localizedDescription)
            }
            """]),
    ]

    static let database: [PeerCase] = [
        .bad(.database, "SQLite bind of a password", ["App/Store.swift": """
            import SQLite3

            func save(db: OpaquePointer?, user: String, password: String) {
                var statement: OpaquePointer?
                sqlite3_prepare_v2(db, "INSERT INTO users (name, password) VALUES (?, ?)", -1, &statement, nil)
                sqlite3_bind_text(statement, 1, user, -1, nil)
                sqlite3_bind_text(statement, 2, password, -1, nil)
                sqlite3_step(statement)
            }
            """]),
        .bad(.database, "GRDB arguments", ["App/Store.swift": """
            import GRDB

            func save(_ dbQueue: DatabaseQueue, name: String, password: String) throws {
                try dbQueue.write { db in
                    try db.execute(sql: "INSERT INTO account (name, password) VALUES (?, ?)", arguments: [name, password])
                }
            }
            """]),
        .bad(.database, "Realm object without an encryption key", ["App/Store.swift": """
            import RealmSwift

            final class Credential: Object {
                @Persisted var user = ""
                @Persisted var password = ""
            }

            func remember(user: String, password: String) throws {
                let realm = try Realm()
                let credential = Credential()
                credential.user = user
                credential.password = password
                try realm.write { realm.add(credential) }
            }
            """]),
        .bad(.database, "Core Data managed object property", ["App/Store.swift": """
            import CoreData

            func remember(accessToken: String, in context: NSManagedObjectContext) throws {
                let session = Session(context: context)
                session.accessToken = accessToken
                try context.save()
            }
            """]),
        .bad(.database, "Core Data setValue", ["App/Store.swift": """
            import CoreData

            func remember(password: String, in context: NSManagedObjectContext) throws {
                let entity = NSEntityDescription.insertNewObject(forEntityName: "Account", into: context)
                entity.setValue(password, forKey: "password")
                try context.save()
            }
            """]),
        .bad(.database, "SQLite.swift setter", ["App/Store.swift": """
            import SQLite

            let users = Table("users")
            let secretColumn = Expression<String>("secret")

            func save(_ db: Connection, clientSecret: String) throws {
                try db.run(users.insert(secretColumn <- clientSecret))
            }
            """]),
        .bad(.database, "store helper called from another file", [
            "App/Store.swift": """
            import SQLite3

            func insertSecret(_ db: OpaquePointer?, value: String) {
                var statement: OpaquePointer?
                sqlite3_prepare_v2(db, "INSERT INTO secrets (value) VALUES (?)", -1, &statement, nil)
                sqlite3_bind_text(statement, 1, value, -1, nil)
                sqlite3_step(statement)
            }
            """,
            "App/Login.swift": """
            func loggedIn(db: OpaquePointer?, password: String) {
                insertSecret(db, value: password)
            }
            """]),
        .bad(.database, "Objective-C sqlite3_bind_text of a password", ["App/Store.m": """
            #import <sqlite3.h>

            @implementation Store
            - (void)saveUser:(NSString *)user password:(NSString *)password {
                sqlite3_stmt *statement;
                sqlite3_prepare_v2(_db, "INSERT INTO users (name, password) VALUES (?, ?)", -1, &statement, NULL);
                sqlite3_bind_text(statement, 1, [user UTF8String], -1, SQLITE_TRANSIENT);
                sqlite3_bind_text(statement, 2, [password UTF8String], -1, SQLITE_TRANSIENT);
                sqlite3_step(statement);
            }
            @end
            """]),
        .bad(.database, "Objective-C Core Data setValue:forKey:", ["App/Store.m": """
            #import <CoreData/CoreData.h>

            @implementation Store
            - (void)saveUser:(NSString *)user password:(NSString *)password {
                NSManagedObject *account = [NSEntityDescription insertNewObjectForEntityForName:@"Account" inManagedObjectContext:self.context];
                [account setValue:user forKey:@"user"];
                [account setValue:password forKey:@"password"];
                [self.context save:nil];
            }
            @end
            """]),
        .bad(.database, "Objective-C FMDB executeUpdate", ["App/Store.m": """
            #import "FMDB.h"

            @implementation Store
            - (void)saveUser:(NSString *)user password:(NSString *)password {
                [self.database executeUpdate:@"INSERT INTO users (name, password) VALUES (?, ?)", user, password];
            }
            @end
            """]),
        .good(.database, "Realm with an encryption key", ["App/Store.swift": """
            import RealmSwift

            final class Credential: Object {
                @Persisted var password = ""
            }

            func remember(password: String, key: Data) throws {
                var configuration = Realm.Configuration()
                configuration.encryptionKey = key
                let realm = try Realm(configuration: configuration)
                let credential = Credential()
                credential.password = password
                try realm.write { realm.add(credential) }
            }
            """]),
        .good(.database, "a derived verifier bound", ["App/Store.swift": """
            import SQLite3

            func save(db: OpaquePointer?, user: String, passwordVerifier: String) {
                var statement: OpaquePointer?
                sqlite3_prepare_v2(db, "INSERT INTO users (name, verifier) VALUES (?, ?)", -1, &statement, nil)
                sqlite3_bind_text(statement, 1, user, -1, nil)
                sqlite3_bind_text(statement, 2, passwordVerifier, -1, nil)
                sqlite3_step(statement)
            }
            """]),
        .good(.database, "Core Data with a user name only", ["App/Store.swift": """
            import CoreData

            func remember(username: String, in context: NSManagedObjectContext) throws {
                let profile = Profile(context: context)
                profile.username = username
                profile.passwordIsSet = true
                try context.save()
            }
            """]),
        .good(.database, "a push device token", ["App/Store.swift": """
            import GRDB

            func save(_ dbQueue: DatabaseQueue, deviceToken: String) throws {
                try dbQueue.write { db in
                    try db.execute(sql: "INSERT INTO devices (apns) VALUES (?)", arguments: [deviceToken])
                }
            }
            """]),
    ]

    static let preferences: [PeerCase] = [
        .bad(.preferences, "UserDefaults set of a password", ["App/Settings.swift": """
            import Foundation

            func remember(password: String) {
                UserDefaults.standard.set(password, forKey: "password")
            }
            """]),
        .bad(.preferences, "through a local variable", ["App/Settings.swift": """
            import Foundation

            struct Credentials { var user: String; var password: String }

            func remember(_ credentials: Credentials) {
                let value = credentials.password
                UserDefaults.standard.set(value, forKey: "current")
            }
            """]),
        .bad(.preferences, "through a local variable, under a key with a metadata word", ["App/Settings.swift": """
            import Foundation

            struct Credentials { var user: String; var password: String }

            func remember(_ credentials: Credentials) {
                let value = credentials.password
                UserDefaults.standard.set(value, forKey: "cached")
            }
            """], knownMiss: "a key made of a metadata word (cached, setting, date…) says the value is not a secret, and wins over the value's origin"),
        .bad(.preferences, "helper in the same file", ["App/Settings.swift": """
            import Foundation

            func keep(_ value: String) {
                UserDefaults.standard.set(value, forKey: "session")
            }

            func loggedIn(accessToken: String) {
                keep(accessToken)
            }
            """]),
        .bad(.preferences, "iCloud key-value store", ["App/Sync.swift": """
            import Foundation

            func share(apiKey: String) {
                NSUbiquitousKeyValueStore.default.set(apiKey, forKey: "apiKey")
            }
            """]),
        .bad(.preferences, "app group suite", ["App/Shared.swift": """
            import Foundation

            func share(refreshToken: String) {
                UserDefaults(suiteName: "group.com.example.app")?.set(refreshToken, forKey: "refresh")
            }
            """]),
        .bad(.preferences, "key constant from another file", [
            "App/Keys.swift": """
            enum DefaultsKey {
                static let password = "userPassword"
            }
            """,
            "App/Settings.swift": """
            import Foundation

            func remember(_ text: String) {
                UserDefaults.standard.set(text, forKey: DefaultsKey.password)
            }
            """], knownMiss: "a key that is not a string literal (a constant of another file) is not resolved; the value's name (text) says nothing"),
        .bad(.preferences, "key constant of the same type", ["App/Settings.swift": """
            import Foundation

            final class SessionStore {
                static let storageKey = "sessionSecret"

                func remember(_ value: String) {
                    UserDefaults.standard.set(value, forKey: Self.storageKey)
                }
            }
            """]),
        .bad(.preferences, "Objective-C NSUserDefaults", ["App/Settings.m": """
            #import <Foundation/Foundation.h>

            @implementation Settings
            - (void)rememberPassword:(NSString *)password {
                [[NSUserDefaults standardUserDefaults] setObject:password forKey:@"password"];
            }
            @end
            """]),
        .good(.preferences, "a flag about the password", ["App/Settings.swift": """
            import Foundation

            func passwordChosen() {
                UserDefaults.standard.set(true, forKey: "passwordEnabled")
            }
            """]),
        .good(.preferences, "a hashed password", ["App/Settings.swift": """
            import CryptoKit
            import Foundation

            func remember(password: String, salt: Data) {
                let digest = HMAC<SHA256>.authenticationCode(for: Data(password.utf8), using: SymmetricKey(data: salt))
                UserDefaults.standard.set(Data(digest), forKey: "verifier")
            }
            """]),
        .good(.preferences, "a push device token", ["App/Settings.swift": """
            import Foundation

            func registered(deviceToken: Data) {
                UserDefaults.standard.set(deviceToken, forKey: "apnsDeviceToken")
            }
            """]),
        .good(.preferences, "the password in the keychain", ["App/Settings.swift": """
            import Foundation
            import Security

            func remember(password: String) {
                let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                            kSecAttrAccount as String: "user",
                                            kSecValueData as String: Data(password.utf8)]
                SecItemAdd(query as CFDictionary, nil)
                UserDefaults.standard.set(Date(), forKey: "passwordSavedAt")
            }
            """]),
    ]

    static let transmission: [PeerCase] = [
        .bad(.transmission, "password in an http query", ["App/API.swift": """
            import Foundation

            func login(user: String, password: String) {
                let url = URL(string: "http://api.example.com/login?user=\\(user)&password=\\(password)")!
                URLSession.shared.dataTask(with: url).resume()
            }
            """]),
        .bad(.transmission, "concatenated token", ["App/API.swift": """
            import Foundation

            func fetch(authToken: String) {
                let address = "http://api.example.com/items?token=" + authToken
                URLSession.shared.dataTask(with: URL(string: address)!).resume()
            }
            """]),
        .bad(.transmission, "through a local variable", ["App/API.swift": """
            import Foundation

            struct Session { var apiKey: String }

            func fetch(_ session: Session) {
                let key = session.apiKey
                let url = URL(string: "http://api.example.com/v1/feed?key=\\(key)")!
                URLSession.shared.dataTask(with: url).resume()
            }
            """]),
        .bad(.transmission, "URL built by a helper", ["App/API.swift": """
            import Foundation

            func endpoint(_ secret: String) -> URL {
                URL(string: "http://api.example.com/v1/feed?key=\\(secret)")!
            }

            func fetch(apiKey: String) {
                URLSession.shared.dataTask(with: endpoint(apiKey)).resume()
            }
            """]),
        .bad(.transmission, "card number on a plain TCP connection", ["App/Payments.swift": """
            import Network

            final class Payments {
                private let connection = NWConnection(host: "pay.example.com", port: 7000, using: .tcp)

                func charge(creditCardNumber: String) {
                    connection.start(queue: .global())
                    connection.send(content: Data(creditCardNumber.utf8), completion: .contentProcessed { _ in })
                }
            }
            """]),
        .bad(.transmission, "password on a connection passed in", ["App/Payments.swift": """
            import Network

            func authenticate(on connection: NWConnection, password: String) {
                connection.send(content: password.data(using: .utf8), completion: .contentProcessed { _ in })
            }
            """], knownMiss: "a connection the file does not make may use TLS: its parameters are not known, so the send is not judged"),
        .good(.transmission, "card number on a TLS connection", ["App/Payments.swift": """
            import Network

            final class Payments {
                private let connection = NWConnection(host: "pay.example.com", port: 7000, using: .tls)

                func charge(creditCardNumber: String) {
                    connection.start(queue: .global())
                    connection.send(content: Data(creditCardNumber.utf8), completion: .contentProcessed { _ in })
                }
            }
            """]),
        .good(.transmission, "encrypted before a plain TCP send", ["App/Payments.swift": """
            import CryptoKit
            import Network

            final class Payments {
                private let connection = NWConnection(host: "pay.example.com", port: 7000, using: .tcp)

                func charge(creditCardNumber: String, key: SymmetricKey) throws {
                    let sealed = try AES.GCM.seal(Data(creditCardNumber.utf8), using: key).combined
                    connection.send(content: sealed, completion: .contentProcessed { _ in })
                }
            }
            """]),
        .good(.transmission, "https", ["App/API.swift": """
            import Foundation

            func login(user: String, password: String) {
                var request = URLRequest(url: URL(string: "https://api.example.com/login")!)
                request.httpMethod = "POST"
                request.httpBody = "user=\\(user)&password=\\(password)".data(using: .utf8)
                URLSession.shared.dataTask(with: request).resume()
            }
            """]),
        .good(.transmission, "loopback", ["App/API.swift": """
            import Foundation

            func login(password: String) {
                let url = URL(string: "http://localhost:8080/login?password=\\(password)")!
                URLSession.shared.dataTask(with: url).resume()
            }
            """]),
        .good(.transmission, "a push device token", ["App/API.swift": """
            import Foundation

            func register(deviceToken: String) {
                let url = URL(string: "http://push.example.com/register?device=\\(deviceToken)")!
                URLSession.shared.dataTask(with: url).resume()
            }
            """]),
    ]
}
