import Foundation

/// Every App Store Connect upload error in Preflight's facts (`itms-errors.json`, from Apple's
/// messages quoted in public issues), for the coverage table of docs/rules/README.md: a code is
/// covered by the rules whose `itms` names it; the others say why not.
public struct ITMSCode: Sendable {
    public var code: String
    public var title: String
    /// Why no rule finds it: it cannot be known before the upload. Nil: not covered yet.
    public var status: String?

    public init(_ code: String, _ title: String, status: String? = nil) {
        self.code = code
        self.title = title
        self.status = status
    }
}

public enum ITMSCoverage {
    public static let codes: [ITMSCode] = [
        ITMSCode("ITMS-90683", "Missing purpose string in Info.plist"),
        ITMSCode("ITMS-90738", "Invalid purpose string value"),
        ITMSCode("ITMS-91053", "Missing API declaration"),
        ITMSCode("ITMS-91054", "Invalid API category declaration"),
        ITMSCode("ITMS-91055", "Invalid API reason declaration"),
        ITMSCode("ITMS-91056", "Invalid privacy manifest"),
        ITMSCode("ITMS-91108", "Invalid privacy manifest (any location)"),
        ITMSCode("ITMS-91064", "Invalid tracking information"),
        ITMSCode("ITMS-91107", "Invalid tracking information (any location)"),
        ITMSCode("ITMS-91061", "Missing privacy manifest"),
        ITMSCode("ITMS-91065", "Missing signature"),
        ITMSCode("ITMS-90809", "Deprecated API usage (UIWebView)"),
        ITMSCode("ITMS-90338", "Non-public API usage", status: "not yet: Apple publishes no list of private symbols, and leading-underscore selectors collide with apps' own names (FLEX#730, SwiftTrace#45, fmdb#739); only a sourced list of certainly private symbols would be defensible"),
        ITMSCode("ITMS-90078", "Missing Push Notification Entitlement (missing potentially required entitlement)"),
        ITMSCode("ITMS-90713", "Missing Info.plist value CFBundleIconName"),
        ITMSCode("ITMS-90704", "Missing App Icon (1024x1024)"),
        ITMSCode("ITMS-90717", "Invalid App Store Icon"),
        ITMSCode("ITMS-90022", "Missing required icon file (iPhone)"),
        ITMSCode("ITMS-90023", "Missing required icon file (iPad)"),
        ITMSCode("ITMS-90032", "Invalid Image Path: no image found at the path a CFBundleIconFiles entry names"),
        ITMSCode("ITMS-90892", "Missing recommended icon"),
        ITMSCode("ITMS-90396", "Invalid Icon (watch)"),
        ITMSCode("ITMS-90474", "Invalid bundle: iPad multitasking orientations"),
        ITMSCode("ITMS-90475", "Invalid bundle: iPad multitasking requires launch storyboard"),
        ITMSCode("ITMS-90096", "Binary not optimized for iPhone 5 (legacy)"),
        ITMSCode("ITMS-90771", "Missing BGTaskSchedulerPermittedIdentifiers"),
        ITMSCode("ITMS-90109", "UIRequiredDeviceCapabilities restricts previously supported devices", status: "cannot be detected from one build: it needs the capabilities of the previously shipped build"),
        ITMSCode("ITMS-90060", "Invalid CFBundleShortVersionString"),
        ITMSCode("ITMS-90062", "Version must be higher than previously approved/uploaded", status: "cannot be detected before upload: it needs the last version App Store Connect accepted for the app"),
        ITMSCode("ITMS-90056", "Missing CFBundleVersion"),
        ITMSCode("ITMS-90057", "Missing CFBundleShortVersionString"),
        ITMSCode("ITMS-90360", "Missing Info.plist value"),
        ITMSCode("ITMS-90784", "Missing bundle name"),
        ITMSCode("ITMS-90783", "Missing bundle display name", status: "not detected: its only report (2019) names no condition Preflight can check, and Apple documents CFBundleDisplayName as optional for apps; an extension without one is missing_required_info_key's (ITMS-90360)"),
        ITMSCode("ITMS-90208", "Invalid bundle: framework doesn't support the app's minimum OS"),
        ITMSCode("ITMS-90362", "Invalid MinimumOSVersion value"),
        ITMSCode("ITMS-90530", "Invalid MinimumOSVersion (64-bit only)"),
        ITMSCode("ITMS-90068", "MinimumOSVersion too low"),
        ITMSCode("ITMS-90725", "SDK version issue"),
        ITMSCode("ITMS-90502", "Invalid bundle: arm64-only without arm64 capability"),
        ITMSCode("ITMS-90087", "Unsupported architectures"),
        ITMSCode("ITMS-90482", "Invalid executable: contains bitcode"),
        ITMSCode("ITMS-90205", "Invalid bundle: disallowed nested bundles"),
        ITMSCode("ITMS-90206", "Invalid bundle: disallowed file 'Frameworks'"),
        ITMSCode("ITMS-90171", "Invalid bundle structure: standalone binary not permitted"),
        ITMSCode("ITMS-90685", "CFBundleIdentifier collision"),
        ITMSCode("ITMS-90806", "CFBundleIdentifier collision (across platforms)"),
        ITMSCode("ITMS-90511", "CFBundleIdentifier collision with another app", status: "cannot be detected offline: the collision is with another developer's app on App Store Connect"),
        ITMSCode("ITMS-90036", "Bundle invalid: Info.plist missing/unreadable"),
        ITMSCode("ITMS-90207", "Invalid bundle: no bundle executable"),
        ITMSCode("ITMS-90034", "Missing or invalid signature"),
        ITMSCode("ITMS-90035", "Invalid signature"),
        ITMSCode("ITMS-90045", "Invalid code signing entitlements (unsupported key)", status: "not yet: it needs Apple's list of entitlement keys each platform accepts, which Preflight's facts do not hold; a key the embedded profile does not grant is reported as ITMS-90164"),
        ITMSCode("ITMS-90046", "Invalid code signing entitlements (bad value)"),
        ITMSCode("ITMS-90164", "Entitlements don't match provisioning profile"),
        ITMSCode("ITMS-90179", "Invalid code signing: wrong certificate"),
        ITMSCode("ITMS-90786", "Invalid entitlement requiring newer SDK", status: "not yet: facts/entitlements.json has no minimum SDK per entitlement, and a guessed table would raise false errors"),
    ]

    /// The Markdown table: each code, its title, and the rules that find it or why none does.
    public static func markdown(rules: [RuleDescription]) -> String {
        var out = "## App Store Connect upload errors\n\nEach upload error of Preflight's facts, with the rules that find it before the upload, or why none does.\n\n| code | error | found by |\n|---|---|---|\n"
        for c in codes {
            let ids = rules.filter { $0.itms.contains(c.code) }.map(\.identifier).sorted()
            let by = !ids.isEmpty ? ids.map { "[`\($0)`](\($0).md)" }.joined(separator: ", ") : c.status ?? "not yet"
            out += "| \(c.code) | \(c.title) | \(by) |\n"
        }
        return out
    }
}
