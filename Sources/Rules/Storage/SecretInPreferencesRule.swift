import Foundation
import Artifacts
import Evidence

public struct SecretInPreferencesRule: Rule {
    public init() {}
    typealias Security = ProtectedResourceCatalog.Security

    public static let description = RuleDescription(
        identifier: "secret_in_preferences",
        name: "Secret stored in preferences",
        summary: "Code writes a password, token or other secret to UserDefaults or the iCloud key-value store, which keep it in a plain property list (and, for the key-value store, on every device of the account).",
        rationale: """
        `UserDefaults` writes its values to a property list in the app's container, readable by \
        anyone with a backup or a jailbroken device and protected only by the default file \
        class; `NSUbiquitousKeyValueStore` is meant for preferences and small state — at most \
        1 MB and 1,024 keys — and copies every value to all of the user's devices through \
        iCloud. Neither encrypts anything for the app. Credentials, tokens and keys belong in \
        the keychain (`SecItemAdd` with a `kSecAttrAccessible` class that fits when the secret is \
        read), which encrypts them with the device's keys (MASVS-STORAGE-1).

        Reported where a literal preference key (or a `let` of the function or of the type \
        that holds one, `forKey: Self.tokenKey`) or the stored value's name says it holds a \
        secret, word by word: `authToken`, `refresh_token`, `userPassword`, `apiKey`, \
        `privateKey`; a flag or date about a secret (`passwordEnabled`, `tokenExpiry`, \
        `isPasscodeSet`), a push `deviceToken` and a Boolean or number value are not secrets. \
        The value is followed back through variables to a secret (the message shows the path), \
        and a Swift function of the target whose parameter it stores under a literal key is \
        followed to its callers in the other files of the target's code closure, up to three \
        functions deep (reported at the call that passes the secret). A key made only of \
        words about state (`cached`, `setting`, `date`) says the value is not a secret and wins \
        over a value followed through variables. In Objective-C, `setObject:`, `setValue:`, \
        `setString:` or `setData:` `forKey:` sent to `[NSUserDefaults standardUserDefaults]`, a \
        suite's `initWithSuiteName:` defaults or `[NSUbiquitousKeyValueStore defaultStore]` (or a \
        local variable of the method holding one), judged by the key literal and the value's \
        name (not through variables).
        """,
        area: .storage, severity: .warning, tags: ["security", "MASVS-STORAGE-1"],
        references: ["https://developer.apple.com/documentation/foundation/userdefaults",
                     "https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestore",
                     "https://developer.apple.com/documentation/security/keychain-services"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Preferences.swift": """
                         import Foundation

                         func rememberSession(_ value: String) {
                             UserDefaults.standard.set(value, forKey: "session")
                         }
                         """,
                         "App/Login.swift": """
                         func signIn(refreshToken: String) {
                             rememberSession(↓refreshToken)
                         }
                         """],
                        note: "The app's own function in another file stores its parameter in UserDefaults; the caller passes a refresh token."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Session.swift": """
                         import Foundation

                         func didLogIn(token: String, password: String) {
                             ↓UserDefaults.standard.set(token, forKey: "authToken")
                             let defaults = UserDefaults(suiteName: "group.com.example")
                             ↓defaults?.set(password, forKey: "pw")
                         }
                         """],
                        note: "By the key, and by the stored value's name."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>com.apple.developer.ubiquity-kvstore-identifier</key><string>$(TeamIdentifierPrefix)$(CFBundleIdentifier)</string>"),
                         "App/Sync.swift": """
                         import SwiftUI

                         struct LoginView: View {
                             @AppStorage(↓"api_key") var apiKey = ""
                             var body: some View { Text(apiKey) }
                         }

                         func share(_ refresh: String) {
                             ↓NSUbiquitousKeyValueStore.default.set(refresh, forKey: "refreshToken")
                         }
                         """],
                        note: "@AppStorage and the iCloud key-value store."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Remember.swift": """
                         import Foundation

                         func remember(password: String) {
                             let value = password
                             ↓UserDefaults.standard.set(value, forKey: "k1")
                         }
                         """],
                        note: "Through a variable: the value's origin is a password (the message shows the path)."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Session.m": """
                         #import <Foundation/Foundation.h>

                         @implementation Session
                         - (void)didLogIn:(NSString *)authToken {
                             [[NSUserDefaults standardUserDefaults] setObject:↓authToken forKey:@"auth"];
                             NSUbiquitousKeyValueStore *store = [NSUbiquitousKeyValueStore defaultStore];
                             [store setString:self.↓userPassword forKey:@"sync"];
                         }
                         @end
                         """],
                        note: "Objective-C: a token in the standard defaults, a password in the iCloud key-value store."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/SessionStore.swift": """
                         import Foundation

                         final class SessionStore {
                             static let storageKey = "sessionSecret"

                             func remember(_ value: String) {
                                 ↓UserDefaults.standard.set(value, forKey: Self.storageKey)
                             }
                         }
                         """],
                        note: "A key held by a constant of the type."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Settings.swift": """
                         import Foundation

                         func save(deviceToken: String, enabled: Bool) {
                             let token = deviceToken.lowercased()
                             UserDefaults.standard.set(token, forKey: "PushNotificationDeviceToken")
                             UserDefaults.standard.set(deviceToken, forKey: "pushDeviceToken")
                             UserDefaults.standard.set(enabled, forKey: "passcodeEnabled")
                             UserDefaults.standard.set(true, forKey: "password")
                             UserDefaults.standard.set(Date(), forKey: "tokenExpiry")
                             UserDefaults.standard.set("dark", forKey: "theme")
                         }
                         """],
                        note: "A push token (by its key, whatever the value's name: Habitica's AppDelegate), flags and dates about secrets, a Boolean value, an ordinary preference."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Notes.swift": """
                         import Foundation

                         final class Cache {
                             func set(_ value: String, forKey key: String) {}
                         }

                         func remember(_ notes: [String], token: String) {
                             NSUbiquitousKeyValueStore.default.set(notes, forKey: "AVAILABLE_NOTES")
                             Cache().set(token, forKey: "authToken")
                         }
                         """],
                        note: "The seed's notes in the key-value store; a cache of the app's own is no preference store."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Remember.swift": """
                         import CryptoKit
                         import Foundation

                         func remember(password: String) {
                             let verifier = SHA256.hash(data: Data(password.utf8)).description
                             UserDefaults.standard.set(verifier, forKey: "k1")
                         }
                         """],
                        note: "A hash of the password (sensitive_data_weak_hash judges the hash, not this rule)."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Settings.m": """
                         #import <Foundation/Foundation.h>

                         @implementation Settings
                         - (void)save:(NSData *)deviceToken password:(NSString *)password {
                             NSUserDefaults *defaults = [NSUserDefaults standardUserDefaults];
                             [defaults setObject:deviceToken forKey:@"apnsDeviceToken"];
                             [defaults setBool:YES forKey:@"passwordEnabled"];
                             [defaults setObject:[NSDate date] forKey:@"passwordChangeDate"];
                             NSMutableDictionary *body = [NSMutableDictionary dictionary];
                             [body setObject:password forKey:@"password"];
                         }
                         @end
                         """],
                        note: "Objective-C: a push token, a flag and a date about the password; a request body's dictionary is no preference store."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        SecurityFacts(context).all(Security.preferenceSecret).map { host, fact in
            let u = fact.usage
            let store = u.api.hasPrefix("NSUbiquitousKeyValueStore") ? "the iCloud key-value store, which copies it to every device of the account"
                : "user defaults, a plain property list in the app's container"
            var f = finding("\(host.name) writes what looks like a secret ('\(u.key)') to \(store) (\(UsageReading.describe(u)))",
                            bundle: host.name, at: SecurityFacts.location(u), key: u.key, evidence: [UsageReading.evidenceRef(u)],
                            fix: "Store it in the keychain (SecItemAdd with kSecAttrAccessibleWhenUnlocked or …AfterFirstUnlock for background use) and keep only non-secret state in preferences.",
                            fingerprint: [u.key, SecurityFacts.location(u).path])
            if !fact.direct || SecurityFacts.isPackaged(u) { f.severity = .note }
            return f
        }
    }
}
