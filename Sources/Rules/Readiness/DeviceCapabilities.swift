import Foundation
import Artifacts
import Evidence
import Formats

/// `UIRequiredDeviceCapabilities` read in either form, with Apple's list of values
/// (facts/info-plist.json; Apple's "Required device capabilities" page).
enum DeviceCapabilities {
    static let known: Set<String> = [
        "accelerometer", "arkit", "armv6", "armv7", "arm64", "arm64e", "auto-focus-camera", "bluetooth-le", "camera-flash",
        "driverkit", "front-facing-camera", "gamekit", "gps", "gyroscope", "healthkit", "ipad-minimum-performance-m1",
        "iphone-ipad-minimum-performance-a12", "iphone-performance-gaming-tier", "location-services", "magnetometer", "metal",
        "microphone", "nfc", "opengles-1", "opengles-2", "opengles-3", "peer-peer", "sms", "still-camera", "telephony",
        "video-camera", "wifi",
    ]

    struct Entry {
        var name: String
        /// True: required; false: the device must not have it (dictionary form).
        var required: Bool
        /// False when the value is neither a string (array form) nor a Boolean (dictionary form).
        var valid: Bool
        var location: FileLocation
    }

    /// Each value of the key, array or dictionary form (a generated key: space-separated names).
    static func entries(_ b: AppBundle) -> (value: InfoValue, entries: [Entry])? {
        guard let v = b.infoValue("UIRequiredDeviceCapabilities") else { return nil }
        func at(_ p: SourcePosition?) -> FileLocation { FileLocation(path: v.location.path, position: p ?? v.location.position) }
        if let d = v.node.dictionary {
            return (v, d.entries.map { e in
                Entry(name: e.key, required: e.value.bool ?? true, valid: e.value.bool != nil, location: at(e.keyPosition))
            })
        }
        if let a = v.node.array {
            return (v, a.map { n in Entry(name: n.string ?? "", required: true, valid: n.string != nil, location: at(n.position)) })
        }
        return (v, AppTraits.strings(v).map { Entry(name: $0, required: true, valid: true, location: v.location) })
    }

    /// Required capability → the code that needs it (any of these capabilities), for the note
    /// on capabilities nothing uses. Only capabilities whose code Preflight can recognise:
    /// not `bluetooth-le`, which Exposure Notification and accessory frameworks need without
    /// Core Bluetooth (found on corona-warn-app).
    static let evidence: [String: (what: String, capabilities: @Sendable (String) -> Bool)] = [
        "gps": ("Core Location", { $0.hasPrefix("location.") }),
        "location-services": ("Core Location", { $0.hasPrefix("location.") }),
        "arkit": ("ARKit", { $0 == ProtectedResourceCatalog.FeatureAPI.arkit }),
        "healthkit": ("HealthKit", { $0.hasPrefix("health.") }),
        "nfc": ("Core NFC", { $0 == "nfc" }),
        "still-camera": ("the camera", { $0 == "camera" }),
        "video-camera": ("the camera", { $0 == "camera" }),
        "auto-focus-camera": ("the camera", { $0 == "camera" }),
        "front-facing-camera": ("the camera", { $0 == "camera" }),
        "microphone": ("the microphone", { $0 == "microphone" }),
    ]
}
