/// Facts about how Apple's platforms find a bundle's files and name it, which rules compare a
/// bundle with. Each list names its sources.
public enum BundleConventions {
    /// File and folder names the system or Foundation looks a bundle's file up by, whatever a
    /// project calls it: the Info.plist and its localizations
    /// (https://developer.apple.com/documentation/bundleresources/information-property-list/localizing-keys),
    /// Foundation's default string table `Localizable`
    /// (https://developer.apple.com/documentation/foundation/nslocalizedstring(_:tablename:bundle:value:comment:)),
    /// the privacy manifest
    /// (https://developer.apple.com/documentation/bundleresources/privacy-manifest-files), and the
    /// Settings bundle with its root page
    /// (https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/UserDefaults/Preferences/Preferences.html).
    public static let namesLookedUpByThePlatform: Set<String> = [
        "Info.plist", "InfoPlist.strings", "InfoPlist.stringsdict", "InfoPlist.xcstrings", "Localizable.strings",
        "Localizable.stringsdict", "Localizable.xcstrings", "PrivacyInfo.xcprivacy", "Settings.bundle", "Root.plist",
        "Root.strings",
    ]

    /// Language names older projects give their development region and `.lproj` folders
    /// (`English`), and the language codes iOS matches them with
    /// (https://developer.apple.com/documentation/bundleresources/information-property-list/cfbundledevelopmentregion).
    public static let legacyLanguageNames: [String: String] = [
        "English": "en", "French": "fr", "German": "de", "Japanese": "ja", "Spanish": "es", "Italian": "it", "Dutch": "nl",
    ]

    /// Info.plist keys that hold the name people see for the app: the display name, then the
    /// short name (https://developer.apple.com/documentation/bundleresources/information-property-list/cfbundledisplayname,
    /// https://developer.apple.com/documentation/bundleresources/information-property-list/cfbundlename).
    public static let appNameKeys: [String] = ["CFBundleDisplayName", "CFBundleName"]
}
