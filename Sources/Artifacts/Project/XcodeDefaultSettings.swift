import Foundation
import Formats

/// The lowest level of build settings: what Xcode defines for every target before any project
/// file says anything, limited to what a real project refers to.
///
/// Paths: the project folder is represented by `srcRootMarker`, an absolute-looking prefix, so
/// that a value such as `$(SRCROOT)/App/Info.plist` can be told apart from a path relative to
/// the project folder; `ProjectPaths.display` turns the marker back into the folder's path
/// relative to the input root ("." for the root itself).
enum XcodeDefaultSettings {
    static let srcRootMarker = "/\u{1}SRCROOT"

    struct Target {
        var projectName: String
        var targetName: String
        var productType: String
        var configuration: String
        var platform: String
    }

    static func definitions(_ t: Target) -> [SettingDefinition] {
        let kind = ProjectTarget.bundleKind(forProductType: t.productType)
        let wrapper: String
        let packageType: String
        switch kind {
        case .app, .watchApp, .appClip: wrapper = "app"; packageType = "APPL"
        case .appExtension:
            wrapper = "appex"; packageType = "XPC!"
        case .framework: wrapper = "framework"; packageType = "FMWK"
        case .unitTests, .uiTests: wrapper = "xctest"; packageType = "BNDL"
        case .resourceBundle: wrapper = "bundle"; packageType = "BNDL"
        case .other, nil: wrapper = ""; packageType = ""
        }
        let effective = t.platform == "macosx" ? "" : "-" + t.platform
        let display: String
        switch t.platform {
        case "watchos": display = "watchOS"
        case "appletvos": display = "tvOS"
        case "xros": display = "visionOS"
        case "macosx": display = "macOS"
        default: display = "iOS"
        }
        let root = srcRootMarker
        var pairs: [(String, String)] = [
            ("SRCROOT", root), ("PROJECT_DIR", root), ("SOURCE_ROOT", root),
            ("PROJECT_FILE_PATH", root + "/" + t.projectName + ".xcodeproj"),
            ("PROJECT_NAME", t.projectName), ("PROJECT", t.projectName),
            ("TARGET_NAME", t.targetName), ("TARGETNAME", t.targetName),
            ("PRODUCT_NAME", "$(TARGET_NAME)"),
            ("PRODUCT_MODULE_NAME", "$(PRODUCT_NAME:c99extidentifier)"),
            ("EXECUTABLE_PREFIX", ""), ("EXECUTABLE_SUFFIX", ""),
            ("EXECUTABLE_NAME", "$(EXECUTABLE_PREFIX)$(PRODUCT_NAME)$(EXECUTABLE_SUFFIX)"),
            ("CONFIGURATION", t.configuration),
            ("PLATFORM_NAME", t.platform), ("SDKROOT", t.platform), ("SDK_NAME", t.platform),
            ("EFFECTIVE_PLATFORM_NAME", effective), ("PLATFORM_DISPLAY_NAME", display),
            ("CURRENT_ARCH", "arm64"), ("ARCHS", "arm64"), ("NATIVE_ARCH", "arm64"),
            ("CURRENT_VARIANT", "normal"),
            ("DEVELOPMENT_LANGUAGE", "en"),
            ("PRODUCT_TYPE", t.productType),
            ("WRAPPER_EXTENSION", wrapper),
            ("WRAPPER_SUFFIX", wrapper.isEmpty ? "" : "." + wrapper),
            ("WRAPPER_NAME", "$(PRODUCT_NAME)$(WRAPPER_SUFFIX)"),
            ("FULL_PRODUCT_NAME", "$(WRAPPER_NAME)"),
            ("PRODUCT_BUNDLE_PACKAGE_TYPE", packageType),
            ("GENERATE_INFOPLIST_FILE", "NO"),
        ]
        if !wrapper.isEmpty {
            pairs.append(("CONTENTS_FOLDER_PATH", "$(WRAPPER_NAME)"))
            pairs.append(("INFOPLIST_PATH", "$(CONTENTS_FOLDER_PATH)/Info.plist"))
        }
        return pairs.map { SettingDefinition(key: $0.0, value: $0.1) }
    }

    /// Platform name for an SDKROOT value (`iphoneos`, `iphoneos17.0`, `watchos`, a path…);
    /// iphoneos when it names none.
    static func platform(forSDKRoot sdk: String) -> String {
        let name = MacroOperators.lastComponent(sdk).lowercased()
        for p in ["iphoneos", "watchos", "appletvos", "xros", "macosx"] where name.hasPrefix(p) { return p }
        return "iphoneos"
    }
}

/// Converting resolved setting values to paths and display values.
enum ProjectPaths {
    /// The value with the SRCROOT marker replaced by the project folder.
    static func display(_ value: String, projectDir: String) -> String {
        // The marker holds U+0001, which settings written by people never do: test that byte
        // first (`contains` of a string goes through NSString on Linux).
        guard value.utf8.contains(1), value.contains(XcodeDefaultSettings.srcRootMarker) else { return value }
        return value.replacingOccurrences(of: XcodeDefaultSettings.srcRootMarker, with: projectDir.isEmpty ? "." : projectDir)
    }

    /// A setting that names a file (INFOPLIST_FILE, CODE_SIGN_ENTITLEMENTS): relative to the
    /// project folder unless it starts with `$(SRCROOT)`-like prefixes; nil when absolute
    /// (outside the input).
    static func inputPath(_ value: String, projectDir: String) -> String? {
        let v = value.trimmingWhitespace()
        if v.hasPrefix(XcodeDefaultSettings.srcRootMarker) {
            return join(projectDir, String(v.dropFirst(XcodeDefaultSettings.srcRootMarker.count).drop { $0 == "/" }))
        }
        if v.hasPrefix("~") { return nil }
        return join(projectDir, v)
    }

    /// `relative` resolved against `base` (both relative to the input root); nil when it is
    /// absolute or climbs out of the input with `..`, so that a reference outside the input is
    /// never mistaken for a file inside it (`PathUtil.join` clamps `..` at the root).
    static func join(_ base: String, _ relative: String) -> String? {
        if relative.hasPrefix("/") { return nil }
        var parts = base.split(separator: "/").map(String.init)
        for c in relative.split(separator: "/", omittingEmptySubsequences: true) {
            if c == "." { continue }
            if c == ".." {
                if parts.isEmpty || parts.last == ".." { return nil }
                parts.removeLast()
            } else {
                parts.append(String(c))
            }
        }
        return parts.joined(separator: "/")
    }
}
