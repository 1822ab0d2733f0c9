/// Required-reason APIs (`NSPrivacyAccessedAPITypes`): the APIs of each category as the
/// detectors see them — Mach-O imports and Objective-C references in binaries, identifiers in
/// Objective-C sources, and (through `SwiftAPITable`) Swift spellings. Each category is a
/// `ProtectedResource` whose key is the category name and whose capability starts with
/// `api.`, so the same detectors find them; `EvidenceIndex` keeps their uses apart from the
/// purpose-string uses. Facts: `reference/facts/required-reason-apis.json`.
extension ProtectedResourceCatalog {
    public enum RequiredReasonAPI {
        /// Capabilities of required-reason categories start with this.
        public static let capabilityPrefix = "api."
        public static let fileTimestamp = "api.file_timestamp"
        public static let systemBootTime = "api.system_boot_time"
        public static let diskSpace = "api.disk_space"
        public static let activeKeyboards = "api.active_keyboards"
        public static let userDefaults = "api.user_defaults"

        public static func isRequiredReason(_ capability: String) -> Bool { capability.hasPrefix(capabilityPrefix) }
    }

    static let requiredReasonPage =
        "https://developer.apple.com/documentation/bundleresources/describing-use-of-required-reason-api"

    /// Apple asks for the declarations on iOS, iPadOS, tvOS, visionOS and watchOS, not macOS.
    static let requiredReasonPlatforms: Set<ApplePlatform> = [.iOS, .tvOS, .visionOS, .watchOS]

    public static let requiredReasonResources: [ProtectedResource] = [
        ProtectedResource(
            key: "NSPrivacyAccessedAPICategoryFileTimestamp", capability: RequiredReasonAPI.fileTimestamp,
            resource: "file timestamps", platforms: requiredReasonPlatforms,
            triggers: Triggers(cFunctions: [
                .definite("_stat"), .definite("_fstat"), .definite("_fstatat"), .definite("_lstat"),
                .definite("_getattrlist", note: "Listed under file timestamps and disk space: the attribute bits decide, a binary cannot tell."),
                .definite("_getattrlistbulk"), .definite("_fgetattrlist"), .definite("_getattrlistat"),
                .definite("_NSFileCreationDate"), .definite("_NSFileModificationDate"),
                .definite("_NSURLContentModificationDateKey"), .definite("_NSURLCreationDateKey"),
            ]),
            notes: "UIDocument.fileModificationDate is matched in Swift sources.",
            source: requiredReasonPage + "#4278393", confidence: .high),

        ProtectedResource(
            key: "NSPrivacyAccessedAPICategorySystemBootTime", capability: RequiredReasonAPI.systemBootTime,
            resource: "system boot time", platforms: requiredReasonPlatforms,
            triggers: Triggers(
                selectors: [.definite("systemUptime", with: "NSProcessInfo")],
                cFunctions: [.definite("_mach_absolute_time")]),
            notes: "CACurrentMediaTime, clock_gettime and mach_continuous_time are not on Apple's list.",
            source: requiredReasonPage + "#4278394", confidence: .high),

        ProtectedResource(
            key: "NSPrivacyAccessedAPICategoryDiskSpace", capability: RequiredReasonAPI.diskSpace,
            resource: "disk space", platforms: requiredReasonPlatforms,
            triggers: Triggers(cFunctions: [
                .definite("_statfs"), .definite("_statvfs"), .definite("_fstatfs"), .definite("_fstatvfs"),
                .definite("_getattrlist", note: "Listed under file timestamps and disk space: the attribute bits decide, a binary cannot tell."),
                .definite("_fgetattrlist"), .definite("_getattrlistat"),
                .definite("_NSURLVolumeAvailableCapacityKey"), .definite("_NSURLVolumeAvailableCapacityForImportantUsageKey"),
                .definite("_NSURLVolumeAvailableCapacityForOpportunisticUsageKey"), .definite("_NSURLVolumeTotalCapacityKey"),
                .definite("_NSFileSystemFreeSize"), .definite("_NSFileSystemSize"),
            ]),
            source: requiredReasonPage + "#4278397", confidence: .high),

        ProtectedResource(
            key: "NSPrivacyAccessedAPICategoryActiveKeyboards", capability: RequiredReasonAPI.activeKeyboards,
            resource: "active keyboards", platforms: requiredReasonPlatforms,
            triggers: Triggers(selectors: [.definite("activeInputModes", with: "UITextInputMode")]),
            source: requiredReasonPage + "#4278400", confidence: .high),

        ProtectedResource(
            key: "NSPrivacyAccessedAPICategoryUserDefaults", capability: RequiredReasonAPI.userDefaults,
            resource: "user defaults", platforms: requiredReasonPlatforms,
            triggers: Triggers(
                objcClasses: [.definite("NSUserDefaults", note: "UserDefaults in Swift.")],
                swiftSymbols: [.swift("7SwiftUI10AppStorageV", "SwiftUI.AppStorage", .indicative,
                                      note: "@AppStorage reads and writes UserDefaults.standard unless given another store; the binary need not reference NSUserDefaults itself.")]),
            notes: "CFPreferences shares the store but is not on Apple's list. @SceneStorage is not UserDefaults.",
            source: requiredReasonPage + "#4278401", confidence: .high),
    ]

    /// What the detectors look for: the purpose-string resources, the required-reason
    /// categories, the features Info.plist declarations need (`FeatureAPIs`) and the
    /// data-at-rest facts (`Security`).
    public static let detection = ProtectedResourceCatalog(
        resources: standard.resources + requiredReasonResources + featureResources + securityResources,
        lookAlikes: standard.lookAlikes, excludedKeys: standard.excludedKeys)

    /// The required-reason categories alone, by capability or category name.
    public static let requiredReason = ProtectedResourceCatalog(resources: requiredReasonResources)
}
