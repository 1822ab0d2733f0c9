import Foundation
import Artifacts
import Evidence

public struct KeychainAccessibleAlwaysRule: Rule {
    public init() {}
    typealias Security = ProtectedResourceCatalog.Security

    public static let description = RuleDescription(
        identifier: "keychain_accessible_always",
        name: "Deprecated keychain accessibility",
        summary: "Code gives a keychain item kSecAttrAccessibleAlways or kSecAttrAccessibleAlwaysThisDeviceOnly, deprecated since iOS 12: the item is readable while the device is locked, before the first unlock.",
        rationale: """
        The accessibility class decides when the keychain can decrypt an item. `kSecAttrAccessibleAlways` \
        and `kSecAttrAccessibleAlwaysThisDeviceOnly` keep it readable at any time, even before the \
        user first unlocks the device after a restart, so the item is protected by nothing the user \
        knows. Apple deprecated both in iOS 12; use `kSecAttrAccessibleAfterFirstUnlock` (or \
        `…AfterFirstUnlockThisDeviceOnly`) for items background code reads, and \
        `kSecAttrAccessibleWhenUnlocked` — the default when an item names no class — for the rest.

        Severity: an **error** where the constant is certainly an item's class — the value of \
        `kSecAttrAccessible` in a dictionary literal, a `query[kSecAttrAccessible] = …` assignment, \
        `setObject:forKey:`, or the protection argument of `SecAccessControlCreateWithFlags` — in \
        the bundle's own code; a **warning** in a package or pod compiled into it whose code the \
        bundle's own code names; a **note** in linked or shared code it never names (Realm's \
        keychain helper, called only by Realm Sync, in an app that never syncs), and where \
        a binary only imports the constant or source only names it (a keychain wrapper's table of \
        options names every class whether or not the app picks this one). An item that names no \
        class gets the default and is never reported.

        Keychain wrappers count as the class they pass to the keychain: KeychainAccess \
        `Keychain(…).accessibility(.always)`, Valet `Valet.valet(with:accessibility: .always)`, \
        KeychainSwift `set(_:forKey:withAccess: .accessibleAlways)`, SwiftKeychainWrapper \
        `set(_:forKey:withAccessibility: .always)`, SAMKeychain/SSKeychain `setAccessibilityType:`, \
        UICKeyChainStore `UICKeyChainStoreAccessibilityAlways`, Valet `VALAccessibilityAlways` and \
        SimpleKeychain `A0SimpleKeychainItemAccessibleAlways` — where the expression names the \
        wrapper's type (KeychainAccess's generic `Keychain` only in files that import it).
        """,
        area: .storage, severity: .error, tags: ["security", "keychain", "MASVS-STORAGE-1"],
        references: ["https://developer.apple.com/documentation/security/ksecattraccessiblealways",
                     "https://developer.apple.com/documentation/security/restricting-keychain-item-accessibility"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/TokenStore.swift": """
                         import Security

                         func save(_ token: Data) -> OSStatus {
                             let query: [String: Any] = [
                                 kSecClass as String: kSecClassGenericPassword,
                                 kSecAttrAccount as String: "token",
                                 kSecAttrAccessible as String: ↓kSecAttrAccessibleAlways,
                                 kSecValueData as String: token,
                             ]
                             return SecItemAdd(query as CFDictionary, nil)
                         }
                         """],
                        note: "A Swift dictionary literal passed to SecItemAdd."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Vault.m": """
                         #import <Security/Security.h>

                         OSStatus StoreSecret(NSData *secret) {
                             NSMutableDictionary *query = [NSMutableDictionary dictionary];
                             query[(__bridge id)kSecClass] = (__bridge id)kSecClassGenericPassword;
                             query[(__bridge id)kSecAttrAccessible] = (__bridge id)↓kSecAttrAccessibleAlwaysThisDeviceOnly;
                             [query setObject:secret forKey:(__bridge id)kSecValueData];
                             return SecItemAdd((__bridge CFDictionaryRef)query, NULL);
                         }
                         """],
                        note: "Objective-C subscript assignment."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Lock.swift": """
                         import Security

                         func lockedItem() -> SecAccessControl? {
                             var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
                             query[kSecAttrAccessible as String] = ↓kSecAttrAccessibleAlways
                             _ = query
                             return SecAccessControlCreateWithFlags(nil, ↓kSecAttrAccessibleAlwaysThisDeviceOnly, .userPresence, nil)
                         }
                         """],
                        note: "A subscript assignment and the protection argument of SecAccessControlCreateWithFlags."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>App</string>")],
                        binaryFixtures: ["App↓": "Storage/keychain"], kind: .app,
                        note: "A built app whose executable imports _kSecAttrAccessibleAlways: a note, since a binary cannot say which item gets it."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Session.swift": """
                         import KeychainAccess

                         final class Session {
                             private let keychain = Keychain(service: "com.example.app.session").accessibility(↓.always)

                             func save(_ token: String) throws { try keychain.set(token, key: "token") }
                         }
                         """],
                        note: "KeychainAccess: the wrapper passes kSecAttrAccessibleAlways to SecItemAdd."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/AppDelegate.m": """
                         #import <SAMKeychain/SAMKeychain.h>

                         @implementation AppDelegate
                         - (BOOL)application:(UIApplication *)application didFinishLaunchingWithOptions:(NSDictionary *)options {
                             [SAMKeychain setAccessibilityType:↓kSecAttrAccessibleAlwaysThisDeviceOnly];
                             return YES;
                         }
                         @end
                         """],
                        note: "SAMKeychain: every item it writes afterwards gets the class."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/App.swift"], links: ["SyncKit"]),
                ExampleTarget("SyncKit", type: "library.static", sources: ["SyncKit/MetadataKey.m"]),
            ]),
                         "App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.swift": "import UIKit\n",
                         "SyncKit/MetadataKey.m": "#import <Security/Security.h>\n\nCFMutableDictionaryRef MetadataKeyQuery(void) {\n    CFMutableDictionaryRef d = CFDictionaryCreateMutable(NULL, 0, NULL, NULL);\n    CFDictionaryAddValue(d, kSecAttrAccessible, ↓kSecAttrAccessibleAlways);\n    return d;\n}\n"],
                        kind: .project,
                        note: "Linked code the app's own code never names: a note (Realm's keychain helper, which only Realm Sync calls)."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/TokenStore.swift": """
                         import Security

                         func save(_ token: Data) -> OSStatus {
                             let query: [String: Any] = [
                                 kSecClass as String: kSecClassGenericPassword,
                                 kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
                                 kSecValueData as String: token,
                             ]
                             return SecItemAdd(query as CFDictionary, nil)
                         }

                         func savePlain(_ token: Data) -> OSStatus {
                             SecItemAdd([kSecClass: kSecClassGenericPassword, kSecValueData: token] as CFDictionary, nil)
                         }
                         """],
                        note: "The replacement class, and an item with no class (the default, WhenUnlocked)."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Keys.swift": """
                         import Security

                         #if DEBUG
                         let debugQuery: [String: Any] = [kSecAttrAccessible as String: kSecAttrAccessibleAlways]
                         #endif
                         // kSecAttrAccessibleAlways is deprecated: see the docs.
                         let note = "kSecAttrAccessibleAlways"
                         """],
                        note: "Debug-only code, a comment and a string are not uses."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Reminder.swift": """
                         import KeychainAccess

                         enum Repeat { case never, always }
                         struct Reminder { func repeating(_ r: Repeat) -> Reminder { self } }

                         let daily = Reminder().repeating(.always)
                         let store = Keychain(service: "com.example.app").accessibility(.afterFirstUnlock)
                         """],
                        note: "An unrelated .always, and the wrapper given the replacement class."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        let facts = SecurityFacts(context)
        var out: [Finding] = []
        var resolvedLines = Set<String>()
        for (host, fact) in facts.all(Security.keychainAccessible) {
            let u = fact.usage
            guard let replacement = Security.deprecatedAccessibility[u.key] else { continue }
            let place = SecurityFacts.location(u)
            resolvedLines.insert("\(place.path):\(place.position?.line ?? 0)")
            let f = finding("\(host.name) gives a keychain item \(u.key) (\(UsageReading.describe(u))), deprecated since iOS 12: the item is readable before the first unlock",
                            bundle: host.name, at: place, key: u.key, evidence: [UsageReading.evidenceRef(u)],
                            fix: "Use \(replacement) (same availability to background code, protected until the first unlock), or drop kSecAttrAccessible for the default, kSecAttrAccessibleWhenUnlocked.",
                            fingerprint: [u.key, place.path])
            // A package's or pod's code the bundle's own code names: a warning; linked or shared
            // code it never names (Realm's sync-only keychain helper in an app without sync): a note.
            out.append(fact.lowered(f, to: fact.direct ? .warning : .note))
        }
        for (host, fact) in facts.all(Security.keychainAccessibleReference) {
            let u = fact.usage
            let place = SecurityFacts.location(u)
            guard !resolvedLines.contains("\(place.path):\(place.position?.line ?? 0)"),
                  let replacement = Security.deprecatedAccessibility[u.key] else { continue }
            var f = finding("\(host.name) references \(u.key) (\(UsageReading.describe(u))), deprecated since iOS 12; if an item gets it, the item is readable before the first unlock",
                            bundle: host.name, at: place, key: u.key, evidence: [UsageReading.evidenceRef(u)],
                            fix: "Where code gives an item this class, use \(replacement); a keychain wrapper's option table that names it needs no change if the app never picks it.",
                            fingerprint: [u.key, place.path, "reference"])
            f.severity = .note
            out.append(f)
        }
        return out
    }
}
