/// Data-at-rest and authentication facts (keychain, iCloud key-value store, file protection,
/// local authentication): what a bundle's code does with them, as usages whose capability
/// starts with `security.` and whose key is the resolved value (a constant's name, an access
/// group, a preference key). `EvidenceIndex` keeps them apart in `securityUsages`.
///
/// Binaries and Objective-C sources see the imported constants and classes listed here
/// (`securityResources`); the Swift scanner resolves the dictionaries and calls itself, and
/// the Objective-C scanner adds what it can resolve from the tokens around a constant.
extension ProtectedResourceCatalog {
    public enum Security {
        public static let capabilityPrefix = "security."

        /// The value of `kSecAttrAccessible` in an item's attributes, or the protection class
        /// given to `SecAccessControlCreateWithFlags`. Key: the constant's name.
        public static let keychainAccessible = "security.keychain.accessible"
        /// A deprecated accessibility constant referenced where its use is not resolved (a
        /// binary's import, a mapping table). Key: the constant's name.
        public static let keychainAccessibleReference = "security.keychain.accessible_reference"
        /// Attributes with `kSecAttrSynchronizable` true and a `…ThisDeviceOnly` class. Key: the class.
        public static let keychainSynchronizableThisDeviceOnly = "security.keychain.synchronizable_this_device_only"
        /// A literal `kSecAttrAccessGroup` value. Key: the group.
        public static let keychainAccessGroup = "security.keychain.access_group"
        /// An item protected by user presence or biometry (`SecAccessControlCreateWithFlags` with
        /// such flags, `kSecUseAuthenticationContext`). Key: what was seen.
        public static let keychainUserPresence = "security.keychain.user_presence"
        /// `NSUbiquitousKeyValueStore` referenced. Key: the class.
        public static let kvStore = "security.kvstore"
        /// A secret (by key name or by the stored value's name) written to the key-value store
        /// or to user defaults. Key: the preference key.
        public static let preferenceSecret = "security.preferences.secret"
        /// A file protection class written in code. Key: `none`, `complete`, `completeUnlessOpen`,
        /// `completeUntilFirstUserAuthentication`.
        public static let fileProtection = "security.file_protection"
        /// `LAContext.evaluatePolicy` called. Key: the policy (`deviceOwnerAuthenticationWithBiometrics`, …).
        public static let biometricPolicy = "security.biometrics.policy"
        /// A biometrics-only `evaluatePolicy` whose reply never reads its error. Key: the policy.
        public static let biometricErrorIgnored = "security.biometrics.error_ignored"
        /// CloudKit used (`CKContainer`). Key: a literal container identifier, or `default`.
        public static let cloudKit = "security.icloud.cloudkit"
        /// An iCloud document container asked for (`url(forUbiquityContainerIdentifier:)`). Key:
        /// the literal identifier, or `default` for nil.
        public static let ubiquityContainer = "security.icloud.documents"

        public static func isSecurity(_ capability: String) -> Bool { capability.hasPrefix(capabilityPrefix) }

        /// The deprecated accessibility constants and their replacements (iOS 12 deprecation).
        public static let deprecatedAccessibility: [String: String] = [
            "kSecAttrAccessibleAlways": "kSecAttrAccessibleAfterFirstUnlock",
            "kSecAttrAccessibleAlwaysThisDeviceOnly": "kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly",
        ]

        /// Every `kSecAttrAccessible…` class constant.
        public static let accessibilityConstants: Set<String> = [
            "kSecAttrAccessibleWhenUnlocked", "kSecAttrAccessibleWhenUnlockedThisDeviceOnly",
            "kSecAttrAccessibleAfterFirstUnlock", "kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly",
            "kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly",
            "kSecAttrAccessibleAlways", "kSecAttrAccessibleAlwaysThisDeviceOnly",
        ]

        /// Foundation's protection constants, by the class they name (`none`, `complete`, …).
        public static let fileProtectionConstants: [String: String] = [
            "NSFileProtectionNone": "none", "NSURLFileProtectionNone": "none", "NSDataWritingFileProtectionNone": "none",
            "NSFileProtectionComplete": "complete", "NSURLFileProtectionComplete": "complete",
            "NSDataWritingFileProtectionComplete": "complete",
            "NSFileProtectionCompleteUnlessOpen": "completeUnlessOpen", "NSURLFileProtectionCompleteUnlessOpen": "completeUnlessOpen",
            "NSDataWritingFileProtectionCompleteUnlessOpen": "completeUnlessOpen",
            "NSFileProtectionCompleteUntilFirstUserAuthentication": "completeUntilFirstUserAuthentication",
            "NSURLFileProtectionCompleteUntilFirstUserAuthentication": "completeUntilFirstUserAuthentication",
            "NSDataWritingFileProtectionCompleteUntilFirstUserAuthentication": "completeUntilFirstUserAuthentication",
        ]
    }

    static let keychainPage = "https://developer.apple.com/documentation/security/item-attribute-keys-and-values"
    static let fileProtectionPage = "https://developer.apple.com/documentation/foundation/fileprotectiontype"

    /// What binaries and Objective-C sources show of these facts by name alone. Swift's
    /// `Data.WritingOptions` are inlined numbers, invisible in a binary.
    public static let securityResources: [ProtectedResource] = {
        let all: Set<ApplePlatform> = Set(ApplePlatform.allCases)
        var out = Security.deprecatedAccessibility.keys.sorted().map { name in
            ProtectedResource(key: name, capability: Security.keychainAccessibleReference, resource: "deprecated keychain accessibility",
                              platforms: all, triggers: Triggers(cFunctions: [.definite("_" + name)]),
                              source: keychainPage, confidence: .high)
        }
        out.append(ProtectedResource(key: "NSUbiquitousKeyValueStore", capability: Security.kvStore, resource: "iCloud key-value store",
                                     platforms: all, triggers: Triggers(objcClasses: [.definite("NSUbiquitousKeyValueStore")]),
                                     source: "https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestore",
                                     confidence: .high))
        let byClass = Dictionary(grouping: Security.fileProtectionConstants, by: \.value)
        for (protection, names) in byClass.sorted(by: { $0.key < $1.key }) {
            out.append(ProtectedResource(key: protection, capability: Security.fileProtection, resource: "file protection",
                                         platforms: all, triggers: Triggers(cFunctions: names.map { .definite("_" + $0.key) }.sorted { $0.name < $1.name }),
                                         source: fileProtectionPage, confidence: .high))
        }
        out.append(ProtectedResource(key: "kSecUseAuthenticationContext", capability: Security.keychainUserPresence,
                                     resource: "keychain item bound to local authentication", platforms: all,
                                     triggers: Triggers(cFunctions: [.definite("_SecAccessControlCreateWithFlags"),
                                                                     .definite("_kSecUseAuthenticationContext")]),
                                     source: keychainPage, confidence: .high))
        out.append(ProtectedResource(key: "evaluatePolicy", capability: Security.biometricPolicy, resource: "local authentication",
                                     platforms: all,
                                     triggers: Triggers(selectors: [.definite("evaluatePolicy:localizedReason:reply:", with: "LAContext")]),
                                     source: "https://developer.apple.com/documentation/localauthentication/lacontext/evaluatepolicy(_:localizedreason:reply:)",
                                     confidence: .high))
        out.append(ProtectedResource(key: "CKContainer", capability: Security.cloudKit, resource: "CloudKit", platforms: all,
                                     triggers: Triggers(objcClasses: [.definite("CKContainer")]),
                                     source: "https://developer.apple.com/documentation/cloudkit/ckcontainer", confidence: .high))
        return out
    }()
}
