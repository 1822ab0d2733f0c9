import Foundation
import Evidence

/// The values of `UIBackgroundModes` (facts/info-plist.json, Apple's "UIBackgroundModes" page)
/// and the code each one needs.
enum BackgroundModes {
    typealias F = ProtectedResourceCatalog.FeatureAPI

    /// Mode → what it needs of the code (any of these capabilities), and how to say so.
    static let needs: [String: (what: String, capabilities: @Sendable (String) -> Bool)] = [
        "audio": ("audio playback, recording or web content (AVFoundation, Media Player, Audio Toolbox, WKWebView)", { $0 == F.audio }),
        "location": ("Core Location", { $0.hasPrefix("location.") }),
        "voip": ("PushKit or CallKit", { $0 == F.voip }),
        "external-accessory": ("the External Accessory framework", { $0 == F.externalAccessory }),
        "bluetooth-central": ("Core Bluetooth", { $0 == "bluetooth" || $0 == "bluetooth.legacy" }),
        "bluetooth-peripheral": ("Core Bluetooth", { $0 == "bluetooth" || $0 == "bluetooth.legacy" }),
        "fetch": ("BGTaskScheduler or setMinimumBackgroundFetchInterval", { $0 == F.backgroundTasks || $0 == F.backgroundFetch }),
        "remote-notification": ("registerForRemoteNotifications", { $0 == F.remoteNotifications }),
        "processing": ("BGTaskScheduler", { $0 == F.backgroundTasks }),
        "nearby-interaction": ("Nearby Interaction", { $0.hasPrefix("nearby_interaction") }),
        "network-authentication": ("NEHotspotHelper", { $0 == F.networkAuthentication }),
        "push-to-talk": ("the PushToTalk framework", { $0 == F.pushToTalk }),
    ]

    /// Valid values with no code requirement Preflight checks.
    static let otherValid: Set<String> = ["newsstand-content"]

    static var valid: Set<String> { Set(needs.keys).union(otherValid) }
}
