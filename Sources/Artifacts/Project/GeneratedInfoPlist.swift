import Foundation
import Formats

/// The Info.plist keys Xcode generates when `GENERATE_INFOPLIST_FILE = YES`.
enum GeneratedInfoPlist {
    /// `INFOPLIST_KEY_<Key>` → `<Key>` (`_iPad`/`_iPhone` suffixes become `~ipad`/`~iphone`;
    /// `<Key>_Generation = YES` generates `<Key>`, e.g. UILaunchScreen, with the value as written),
    /// plus the keys Xcode always derives from build settings.
    static func keys(resolver: BuildSettingsResolver, projectDir: String, fallback: FileLocation) -> [String: SettingValue] {
        var out: [String: SettingValue] = [:]
        func value(_ key: String) -> String? {
            resolver.value(key).map { ProjectPaths.display($0, projectDir: projectDir) }
        }
        for key in resolver.keys where key.hasPrefix("INFOPLIST_KEY_") {
            var plistKey = String(key.dropFirst("INFOPLIST_KEY_".count))
            guard !plistKey.isEmpty, let v = value(key), !v.isEmpty else { continue }
            if plistKey.hasSuffix("_Generation") {
                guard v == "YES" else { continue }
                plistKey = String(plistKey.dropLast("_Generation".count))
            } else if plistKey.hasSuffix("_iPad") {
                plistKey = String(plistKey.dropLast("_iPad".count)) + "~ipad"
            } else if plistKey.hasSuffix("_iPhone") {
                plistKey = String(plistKey.dropLast("_iPhone".count)) + "~iphone"
            }
            out[plistKey] = SettingValue(v, location: resolver.definition(key)?.location ?? fallback)
        }
        let derived: [(String, String, Bool)] = [
            ("CFBundleIdentifier", "PRODUCT_BUNDLE_IDENTIFIER", false),
            ("CFBundleShortVersionString", "MARKETING_VERSION", false),
            ("CFBundleVersion", "CURRENT_PROJECT_VERSION", false),
            ("CFBundleExecutable", "EXECUTABLE_NAME", true),
            ("CFBundleName", "PRODUCT_NAME", true),
            ("CFBundleDevelopmentRegion", "DEVELOPMENT_LANGUAGE", true),
            ("CFBundlePackageType", "PRODUCT_BUNDLE_PACKAGE_TYPE", false),
        ]
        for (plistKey, setting, always) in derived where out[plistKey] == nil {
            guard let v = value(setting), always || !v.isEmpty, !v.isEmpty else { continue }
            out[plistKey] = SettingValue(v, location: resolver.definition(setting)?.location ?? fallback)
        }
        return out
    }
}
