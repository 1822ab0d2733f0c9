import Foundation
import Artifacts
import Evidence

public struct KeychainSynchronizableDeviceOnlyRule: Rule {
    public init() {}
    typealias Security = ProtectedResourceCatalog.Security

    public static let description = RuleDescription(
        identifier: "keychain_synchronizable_device_only",
        name: "Synchronizable device-only keychain item",
        summary: "A keychain item asks for iCloud Keychain sync (kSecAttrSynchronizable true) and for a …ThisDeviceOnly class, which never leaves the device: the two contradict each other.",
        rationale: """
        A `…ThisDeviceOnly` class keeps an item out of backups and off other devices; \
        `kSecAttrSynchronizable` asks iCloud Keychain to copy it to the user's other devices. \
        Security's `SecItem.h` says items stored with `kSecAttrSynchronizable` \
        "may not also specify a kSecAttrAccessible value which is incompatible with syncing \
        (namely, those whose names end with ThisDeviceOnly)": the code asks for something the \
        keychain does not do. Decide which one the item needs: drop `kSecAttrSynchronizable` for a \
        device-bound secret, or use `kSecAttrAccessibleAfterFirstUnlock`/`…WhenUnlocked` for one \
        that should follow the user.

        Reported where both are written in one dictionary literal, or assigned to one dictionary \
        variable in one function, as constants; or given to one keychain wrapper call or chain \
        (KeychainAccess `.synchronizable(true).accessibility(…ThisDeviceOnly)`, SwiftKeychainWrapper \
        `set(…, withAccessibility:isSynchronizable: true)`, SimpleKeychain `SimpleKeychain(accessibility:synchronizable:)`).
        """,
        area: .storage, severity: .warning, tags: ["security", "keychain"],
        references: ["https://developer.apple.com/documentation/security/ksecattrsynchronizable"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Sync.swift": """
                         import Security

                         func add(_ data: Data) -> OSStatus {
                             let attributes: [CFString: Any] = [
                                 kSecClass: kSecClassGenericPassword,
                                 kSecAttrSynchronizable: ↓kCFBooleanTrue!,
                                 kSecAttrAccessible: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                                 kSecValueData: data,
                             ]
                             return SecItemAdd(attributes as CFDictionary, nil)
                         }
                         """]),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Sync.swift": """
                         import Security

                         func add(_ data: Data) -> OSStatus {
                             var query = [String: Any]()
                             query[kSecClass as String] = kSecClassGenericPassword
                             query[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
                             query[kSecAttrSynchronizable as String] = ↓true
                             query[kSecValueData as String] = data
                             return SecItemAdd(query as CFDictionary, nil)
                         }
                         """],
                        note: "Assignments to one dictionary in one function."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Tokens.swift": """
                         import KeychainAccess

                         let tokens = Keychain(service: "com.example.tokens")
                             .synchronizable(↓true)
                             .accessibility(.afterFirstUnlockThisDeviceOnly)
                         """],
                        note: "A KeychainAccess chain."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Sync.swift": """
                         import Security

                         func add(_ data: Data) -> OSStatus {
                             SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrSynchronizable: true,
                                         kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock, kSecValueData: data] as CFDictionary, nil)
                         }

                         func addLocal(_ data: Data) -> OSStatus {
                             SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrSynchronizable: false,
                                         kSecAttrAccessible: kSecAttrAccessibleWhenUnlockedThisDeviceOnly, kSecValueData: data] as CFDictionary, nil)
                         }
                         """],
                        note: "A synchronizable item with a class that syncs; a device-only item that does not sync."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Sync.swift": """
                         import Security

                         func find() -> [String: Any] {
                             [kSecClass as String: kSecClassGenericPassword, kSecAttrSynchronizable as String: kSecAttrSynchronizableAny]
                         }

                         func add(_ data: Data) -> OSStatus {
                             SecItemAdd([kSecClass: kSecClassGenericPassword,
                                         kSecAttrAccessible: kSecAttrAccessibleWhenUnlockedThisDeviceOnly, kSecValueData: data] as CFDictionary, nil)
                         }
                         """],
                        note: "A query for items of either kind (kSecAttrSynchronizableAny) is no item; the device-only item is in another function."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Tokens.swift": """
                         import KeychainAccess

                         let synced = Keychain(service: "com.example.sync").synchronizable(true).accessibility(.afterFirstUnlock)
                         let local = Keychain(service: "com.example.local").synchronizable(false).accessibility(.afterFirstUnlockThisDeviceOnly)
                         """],
                        note: "KeychainAccess: a synced item with a class that syncs, a device-only item that does not sync."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        SecurityFacts(context).all(Security.keychainSynchronizableThisDeviceOnly).map { host, fact in
            let u = fact.usage
            var f = finding("\(host.name) adds a keychain item with kSecAttrSynchronizable true and \(u.key) (\(UsageReading.describe(u))): a device-only item never syncs",
                            bundle: host.name, at: SecurityFacts.location(u), key: u.key, evidence: [UsageReading.evidenceRef(u)],
                            fix: "Drop kSecAttrSynchronizable for a secret bound to this device, or use a class without ThisDeviceOnly (kSecAttrAccessibleAfterFirstUnlock, kSecAttrAccessibleWhenUnlocked) for one that should sync.",
                            fingerprint: [u.key, SecurityFacts.location(u).path])
            if !fact.direct { f.severity = .note }
            return f
        }
    }
}
