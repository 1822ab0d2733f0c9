import Foundation
import Formats

extension AppBundle {
    /// Expands `$(NAME)` references (with operators) in a value taken from the bundle's
    /// Info.plist or entitlements against its resolved build settings, as Xcode does when it
    /// processes those files: `$(PRODUCT_BUNDLE_IDENTIFIER)` becomes the identifier,
    /// `$(PRODUCT_NAME:rfc1034identifier)` the sanitized name. References the settings do not
    /// define stay as written. Built apps have no build settings, so their values come back
    /// unchanged.
    public func expandingBuildSettings(in value: String) -> String {
        guard !buildSettings.isEmpty, value.contains("$") else { return value }
        let definitions = buildSettings.keys.sorted().map { SettingDefinition(key: $0, value: buildSettings[$0]!.value) }
        return BuildSettingsResolver(levels: [definitions], context: SettingsContext()).expand(value)
    }
}
