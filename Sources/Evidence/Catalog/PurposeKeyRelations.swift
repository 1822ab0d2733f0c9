/// Purpose keys that guard one resource: a use of any of them may show the prompt of another
/// (requesting Always location first shows the when-in-use text; a Bluetooth manager needs the
/// legacy key below iOS 13 and the current one from it).
public struct PurposeKeyFamily: Sendable, Hashable {
    /// What the keys guard, for people.
    public let resource: String
    public let keys: [String]
    public let source: String
}

/// A legacy purpose key that iOS stopped reading at a version, and the keys it reads instead.
public struct PurposeKeyReplacement: Sendable, Hashable {
    public let legacy: String
    /// The keys iOS reads from `sinceIOS` on; any one of them replaces the legacy key.
    public let current: [String]
    /// The first iOS version that reads only `current` (the legacy entry's `neededOnlyBelowIOS`).
    public let sinceIOS: String
    /// What the keys guard, as a message names it ("calendars", "Bluetooth").
    public let resource: String
    public let source: String
}

extension ProtectedResourceCatalog {
    /// Resources guarded by several keys. Separate prompts are not families: health's share and
    /// update texts (reading only never shows the update text), and the photo library's read and
    /// add-only texts (saving a photo never asks for read access).
    public static let keyFamilies: [PurposeKeyFamily] = [
        PurposeKeyFamily(
            resource: "location",
            keys: ["NSLocationWhenInUseUsageDescription", "NSLocationAlwaysAndWhenInUseUsageDescription",
                   "NSLocationAlwaysUsageDescription", "NSLocationUsageDescription"],
            source: "https://developer.apple.com/documentation/corelocation/requesting-authorization-to-use-location-services"),
        PurposeKeyFamily(
            resource: "calendars",
            keys: ["NSCalendarsUsageDescription", "NSCalendarsFullAccessUsageDescription", "NSCalendarsWriteOnlyAccessUsageDescription"],
            source: eventKitMigrationNote),
        PurposeKeyFamily(
            resource: "reminders",
            keys: ["NSRemindersUsageDescription", "NSRemindersFullAccessUsageDescription"],
            source: eventKitMigrationNote),
        PurposeKeyFamily(
            resource: "Bluetooth",
            keys: ["NSBluetoothAlwaysUsageDescription", "NSBluetoothPeripheralUsageDescription"],
            source: "https://developer.apple.com/documentation/bundleresources/information-property-list/nsbluetoothalwaysusagedescription"),
    ]

    /// Legacy keys replaced by other keys within the deployment targets current Xcode builds
    /// for. NSLocationAlwaysUsageDescription (replaced in iOS 11) is not one: its successor also
    /// needs the when-in-use key, a requirement of its own.
    public static let keyReplacements: [PurposeKeyReplacement] = [
        PurposeKeyReplacement(
            legacy: "NSCalendarsUsageDescription",
            current: ["NSCalendarsFullAccessUsageDescription", "NSCalendarsWriteOnlyAccessUsageDescription"],
            sinceIOS: "17.0", resource: "calendars", source: eventKitMigrationNote),
        PurposeKeyReplacement(
            legacy: "NSRemindersUsageDescription", current: ["NSRemindersFullAccessUsageDescription"],
            sinceIOS: "17.0", resource: "reminders", source: eventKitMigrationNote),
        PurposeKeyReplacement(
            legacy: "NSBluetoothPeripheralUsageDescription", current: ["NSBluetoothAlwaysUsageDescription"],
            sinceIOS: "13.0", resource: "Bluetooth",
            source: "https://developer.apple.com/documentation/bundleresources/information-property-list/nsbluetoothalwaysusagedescription"),
    ]

    /// Keys iOS requires but shows in no permission prompt, with why: a translation of them is
    /// never seen.
    public static let keysWithoutPrompt: [String: String] = [
        "NFCReaderUsageDescription":
            "Core NFC asks no permission; its scan sheet shows the session's alertMessage "
            + "(https://developer.apple.com/documentation/corenfc/nfcreadersession/alertmessage).",
    ]

    /// The keys that ask for Always location authorization, the current one first
    /// (NSLocationAlwaysUsageDescription is the iOS 8–10 key). From iOS 11 either needs
    /// NSLocationWhenInUseUsageDescription too.
    public static let alwaysLocationKeys: [String] = [
        "NSLocationAlwaysAndWhenInUseUsageDescription", "NSLocationAlwaysUsageDescription",
    ]

    /// Purpose-string keys that exist but have neither an entry nor a place in
    /// `excludedPurposeStringKeys` (which takes only high- and medium-confidence keys of the
    /// reference data): key → source. Rules use them only to tell a real key from a typo.
    static let otherPurposeStringKeys: [String: String] = [
        "NSFileProviderPresenceUsageDescription":
            "https://developer.apple.com/documentation/bundleresources/information-property-list/nsfileproviderpresenceusagedescription (macOS; low confidence in the reference data)",
        "NSMainCameraUsageDescription":
            "https://developer.apple.com/documentation/bundleresources/information-property-list/nsmaincamerausagedescription (visionOS 26 enterprise API)",
        "NSEnterpriseMCAMUsageDescription":
            "https://developer.apple.com/documentation/bundleresources/information-property-list/nsenterprisemcamusagedescription (visionOS 2–2.3 enterprise API)",
        "NSVoIPUsageDescription":
            "https://developer.apple.com/documentation/bundleresources/information-property-list/nsvoipusagedescription (CallKit)",
        "NSCrossWebsiteTrackingUsageDescription":
            "named in third-party Info.plist key lists; no Apple page found",
        "NSContactlessPaymentUsageDescription":
            "named in third-party Info.plist key lists; no Apple page found",
    ]

    /// Whether `key` is a purpose-string key Apple's platforms know: an entry of the catalog, a
    /// key excluded from it, or one of `otherPurposeStringKeys`.
    public func knowsPurposeKey(_ key: String) -> Bool {
        resource(forKey: key) != nil || excludedKeys[key] != nil || Self.otherPurposeStringKeys[key] != nil
    }

    /// Capability ids that code outside the catalog's entries compares uses with.
    public enum Capability {
        /// An App Tracking Transparency authorization request (NSUserTrackingUsageDescription's entry).
        public static let tracking = "tracking"
        /// A recording audio session set up while the app launches: a signal with no key of its
        /// own, which SwiftSourceScan's LaunchRecordingVisitor reports under this id.
        public static let recordingAtLaunch = "signal.recordingAtLaunch"
    }
}
