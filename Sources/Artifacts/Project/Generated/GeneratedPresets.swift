import Foundation

/// The settings a generator writes before a spec's own (XcodeGen's "setting presets", Tuist's
/// default settings), reduced to those that decide what Preflight reads: the SDK, deployment
/// target, device family, DEBUG in debug configurations.
enum GeneratedPresets {
    static func sdk(forPlatform platform: String) -> String {
        switch platform.lowercased() {
        case "watchos": return "watchos"
        case "tvos": return "appletvos"
        case "macos": return "macosx"
        case "visionos": return "xros"
        default: return "iphoneos"
        }
    }

    static func deploymentSetting(forPlatform platform: String) -> String {
        switch platform.lowercased() {
        case "watchos": return "WATCHOS_DEPLOYMENT_TARGET"
        case "tvos": return "TVOS_DEPLOYMENT_TARGET"
        case "macos": return "MACOSX_DEPLOYMENT_TARGET"
        case "visionos": return "XROS_DEPLOYMENT_TARGET"
        default: return "IPHONEOS_DEPLOYMENT_TARGET"
        }
    }

    /// Project level, per configuration type (`debug` / `release`).
    static func project(configType: String) -> [GeneratedSetting] {
        guard configType.lowercased() == "debug" else { return [] }
        return [GeneratedSetting(key: "SWIFT_ACTIVE_COMPILATION_CONDITIONS", value: "DEBUG"),
                GeneratedSetting(key: "GCC_PREPROCESSOR_DEFINITIONS", value: "$(inherited) DEBUG=1")]
    }

    /// Target level, from its platform.
    static func target(platform: String) -> [GeneratedSetting] {
        var out = [GeneratedSetting(key: "SDKROOT", value: sdk(forPlatform: platform))]
        if platform.lowercased() == "ios" { out.append(GeneratedSetting(key: "TARGETED_DEVICE_FAMILY", value: "1,2")) }
        return out
    }
}
