import Foundation

/// One approved reason for using a required-reason API category, as Apple lists it.
public struct RequiredReason: Sendable, Equatable {
    /// The code a manifest writes in `NSPrivacyAccessedAPITypeReasons` (`C617.1`).
    public let code: String
    /// What the reason allows, in one line.
    public let meaning: String
    /// Only a third-party SDK may declare it (the wrapper reasons `0A2A.1`, `C56D.1`).
    public let sdkOnly: Bool

    public init(_ code: String, _ meaning: String, sdkOnly: Bool = false) {
        self.code = code
        self.meaning = meaning
        self.sdkOnly = sdkOnly
    }
}

/// A required-reason API category (`NSPrivacyAccessedAPIType`) and the reasons valid for it.
public struct RequiredReasonCategory: Sendable, Equatable {
    /// The value a manifest writes (`NSPrivacyAccessedAPICategoryFileTimestamp`).
    public let name: String
    /// What the APIs of the category reach, for messages ("file timestamps").
    public let summary: String
    public let reasons: [RequiredReason]
    /// Apple's documentation of the category.
    public let source: String

    public init(name: String, summary: String, reasons: [RequiredReason], source: String) {
        self.name = name
        self.summary = summary
        self.reasons = reasons
        self.source = source
    }

    public func reason(_ code: String) -> RequiredReason? { reasons.first { $0.code == code } }
}

/// A value of `NSPrivacyCollectedDataType` or `NSPrivacyCollectedDataTypePurposes`, with the
/// label App Store Connect shows for it (its group, for data types).
public struct CollectedDataValue: Sendable, Equatable {
    public let value: String
    public let label: String

    public init(_ value: String, _ label: String) {
        self.value = value
        self.label = label
    }
}

/// The schema of a privacy manifest (`PrivacyInfo.xcprivacy`) and the values Apple allows in
/// it. Source: Apple's "Privacy manifest files", "Describing data use in privacy manifests" and
/// "Describing use of required reason API" pages, as collected (and cross-checked against
/// scanners and Xcode-mirroring tools) in the reference facts `privacy-manifest-schema.json`
/// and `required-reason-apis.json`; App Store Connect's checks are ITMS-91054/91055 (API
/// declarations), 91056/91108 (invalid manifest) and 91064/91107 (tracking).
public enum PrivacyManifestCatalog {
    public static let schemaSource = "https://developer.apple.com/documentation/bundleresources/privacy-manifest-files"
    public static let dataUseSource = "https://developer.apple.com/documentation/bundleresources/describing-data-use-in-privacy-manifests"
    public static let requiredReasonSource = "https://developer.apple.com/documentation/bundleresources/describing-use-of-required-reason-api"

    /// The type a manifest key's value must have.
    public enum ValueType: String, Sendable, Equatable {
        case boolean, string, arrayOfStrings = "array of strings", arrayOfDictionaries = "array of dictionaries"
    }

    /// A key of the manifest, of a collected-data-type dictionary or of an accessed-API dictionary.
    public struct Key: Sendable, Equatable {
        public let name: String
        public let type: ValueType
        /// Apple documents the key as part of every dictionary of its kind.
        public let required: Bool

        public init(_ name: String, _ type: ValueType, required: Bool = false) {
            self.name = name
            self.type = type
            self.required = required
        }
    }

    public static let tracking = "NSPrivacyTracking"
    public static let trackingDomains = "NSPrivacyTrackingDomains"
    public static let collectedDataTypes = "NSPrivacyCollectedDataTypes"
    public static let accessedAPITypes = "NSPrivacyAccessedAPITypes"
    public static let collectedDataType = "NSPrivacyCollectedDataType"
    public static let collectedDataTypeLinked = "NSPrivacyCollectedDataTypeLinked"
    public static let collectedDataTypeTracking = "NSPrivacyCollectedDataTypeTracking"
    public static let collectedDataTypePurposes = "NSPrivacyCollectedDataTypePurposes"
    public static let accessedAPIType = "NSPrivacyAccessedAPIType"
    public static let accessedAPITypeReasons = "NSPrivacyAccessedAPITypeReasons"

    /// Keys of the root dictionary (all optional: an empty manifest is valid).
    public static let rootKeys: [Key] = [
        Key(tracking, .boolean), Key(trackingDomains, .arrayOfStrings),
        Key(collectedDataTypes, .arrayOfDictionaries), Key(accessedAPITypes, .arrayOfDictionaries),
    ]

    /// Keys of each dictionary of `NSPrivacyCollectedDataTypes` (Apple: each dictionary
    /// describes one data type with these four keys).
    public static let collectedDataTypeKeys: [Key] = [
        Key(collectedDataType, .string, required: true), Key(collectedDataTypeLinked, .boolean, required: true),
        Key(collectedDataTypeTracking, .boolean, required: true), Key(collectedDataTypePurposes, .arrayOfStrings, required: true),
    ]

    /// Keys of each dictionary of `NSPrivacyAccessedAPITypes`; an entry without them (an empty
    /// `<dict/>`) was rejected as ITMS-91056.
    public static let accessedAPITypeKeys: [Key] = [
        Key(accessedAPIType, .string, required: true), Key(accessedAPITypeReasons, .arrayOfStrings, required: true),
    ]

    /// Every manifest key, for suggestions.
    public static var allKeys: [Key] { rootKeys + collectedDataTypeKeys + accessedAPITypeKeys }

    /// The five required-reason API categories and their reasons (required-reason-apis.json,
    /// Apple's reason texts shortened).
    public static let categories: [RequiredReasonCategory] = [
        RequiredReasonCategory(name: "NSPrivacyAccessedAPICategoryFileTimestamp", summary: "file timestamp APIs", reasons: [
            RequiredReason("DDA9.1", "Display file timestamps to the person using the device; may not leave the device"),
            RequiredReason("C617.1", "Access timestamps, size or metadata of files inside the app container, app group container or the app's CloudKit container"),
            RequiredReason("3B52.1", "Access timestamps, size or metadata of files or folders the user specifically granted access to (document picker)"),
            RequiredReason("0A2A.1", "Third-party SDK wrapper around file timestamp APIs, used only when the app calls the wrapper", sdkOnly: true),
        ], source: requiredReasonSource + "#4278393"),
        RequiredReasonCategory(name: "NSPrivacyAccessedAPICategorySystemBootTime", summary: "system boot time APIs", reasons: [
            RequiredReason("35F9.1", "Measure elapsed time between in-app events or perform timer calculations"),
            RequiredReason("8FFB.1", "Calculate absolute timestamps for in-app events (UIKit or AVFAudio event timestamps)"),
            RequiredReason("3D61.1", "Include boot time in an optional, user-initiated bug report"),
        ], source: requiredReasonSource + "#4278394"),
        RequiredReasonCategory(name: "NSPrivacyAccessedAPICategoryDiskSpace", summary: "disk space APIs", reasons: [
            RequiredReason("85F4.1", "Display disk space information to the person using the device"),
            RequiredReason("E174.1", "Check there is enough space to write files, or detect low space to delete files"),
            RequiredReason("7D9E.1", "Include disk space in an optional, user-initiated bug report"),
            RequiredReason("B728.1", "Health research app warning participants that low disk space affects data collection"),
        ], source: requiredReasonSource + "#4278397"),
        RequiredReasonCategory(name: "NSPrivacyAccessedAPICategoryActiveKeyboards", summary: "active keyboard APIs", reasons: [
            RequiredReason("3EC4.1", "The app is a custom keyboard app and determines the active keyboards"),
            RequiredReason("54BD.1", "Present the correct customized UI for the active keyboards"),
        ], source: requiredReasonSource + "#4278400"),
        RequiredReasonCategory(name: "NSPrivacyAccessedAPICategoryUserDefaults", summary: "user defaults APIs", reasons: [
            RequiredReason("CA92.1", "Read and write information accessible only to the app itself"),
            RequiredReason("1C8F.1", "Read and write information shared only among apps, extensions and App Clips of the same App Group"),
            RequiredReason("C56D.1", "Third-party SDK wrapper around user defaults APIs, used only when the app calls the wrapper", sdkOnly: true),
            RequiredReason("AC6B.1", "Read com.apple.configuration.managed or set com.apple.feedback.managed (managed app configuration)"),
        ], source: requiredReasonSource + "#4278401"),
    ]

    public static func category(_ name: String) -> RequiredReasonCategory? { categories.first { $0.name == name } }

    /// The categories whose reasons include `code`.
    public static func categories(withReason code: String) -> [RequiredReasonCategory] {
        categories.filter { $0.reason(code) != nil }
    }

    /// The 35 values of `NSPrivacyCollectedDataType`, with Apple's group (note
    /// `PhotosorVideos`, lower-case "or"; `Body` is a group, not a value).
    public static let dataTypes: [CollectedDataValue] = [
        ("Name", "Contact Info"), ("EmailAddress", "Contact Info"), ("PhoneNumber", "Contact Info"),
        ("PhysicalAddress", "Contact Info"), ("OtherUserContactInfo", "Contact Info"),
        ("Health", "Health & Fitness"), ("Fitness", "Health & Fitness"),
        ("PaymentInfo", "Financial Info"), ("CreditInfo", "Financial Info"), ("OtherFinancialInfo", "Financial Info"),
        ("PreciseLocation", "Location"), ("CoarseLocation", "Location"),
        ("SensitiveInfo", "Sensitive Info"), ("Contacts", "Contacts"),
        ("EmailsOrTextMessages", "User Content"), ("PhotosorVideos", "User Content"), ("AudioData", "User Content"),
        ("GameplayContent", "User Content"), ("CustomerSupport", "User Content"), ("OtherUserContent", "User Content"),
        ("BrowsingHistory", "Browsing History"), ("SearchHistory", "Search History"),
        ("UserID", "Identifiers"), ("DeviceID", "Identifiers"), ("PurchaseHistory", "Purchases"),
        ("ProductInteraction", "Usage Data"), ("AdvertisingData", "Usage Data"), ("OtherUsageData", "Usage Data"),
        ("CrashData", "Diagnostics"), ("PerformanceData", "Diagnostics"), ("OtherDiagnosticData", "Diagnostics"),
        ("EnvironmentScanning", "Surroundings"), ("Hands", "Body"), ("Head", "Body"), ("OtherDataTypes", "Other Data"),
    ].map { CollectedDataValue("NSPrivacyCollectedDataType" + $0.0, $0.1) }

    /// The six values of `NSPrivacyCollectedDataTypePurposes`, with App Store Connect's label.
    public static let purposes: [CollectedDataValue] = [
        ("ThirdPartyAdvertising", "Third-Party Advertising"), ("DeveloperAdvertising", "Developer's Advertising or Marketing"),
        ("Analytics", "Analytics"), ("ProductPersonalization", "Product Personalization"),
        ("AppFunctionality", "App Functionality"), ("Other", "Other Purposes"),
    ].map { CollectedDataValue("NSPrivacyCollectedDataTypePurpose" + $0.0, $0.1) }
}
