import Foundation
import Artifacts

public struct InvalidDeviceCapabilityRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "invalid_device_capability",
        name: "Unknown required device capability",
        summary: "UIRequiredDeviceCapabilities holds a value that is not one of Apple's capability names, or a dictionary value that is not a Boolean.",
        rationale: """
        The App Store and iOS compare `UIRequiredDeviceCapabilities` with what each device \
        has, by name: `gps`, `arkit`, `nfc`, `telephony`, `metal`, `arm64`… (Apple's "Required \
        device capabilities" list). A misspelt name (`camera`, `location`, `bluetooth`) is a \
        requirement no device meets or one the store ignores, and neither is what the app \
        meant. The key is an array (each name required) or a dictionary whose values are \
        Booleans (true: required, false: the device must not have it); any other value is \
        malformed.

        Fix: use the names of Apple's list, or remove the value. Built apps, projects and \
        Info.plist files.
        """,
        area: .bundle, severity: .warning, tags: ["app-store", "device-capabilities"],
        references: ["https://developer.apple.com/support/required-device-capabilities/",
                     "https://developer.apple.com/documentation/bundleresources/information-property-list/uirequireddevicecapabilities"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>UIRequiredDeviceCapabilities</key>\n<array>\n\t<string>arm64</string>\n\t↓<string>camera</string>\n</array>")],
                        note: "The names are still-camera, video-camera, auto-focus-camera…"),
            RuleExample(["App/Info.plist": plistXML("<key>UIRequiredDeviceCapabilities</key>\n<dict>\n\t↓<key>nfc</key><string>yes</string>\n</dict>")],
                        note: "A dictionary value must be a Boolean."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>UIRequiredDeviceCapabilities</key>\n<array><string>arm64</string><string>gps</string></array>")]),
            RuleExample(["App/Info.plist": plistXML("<key>UIRequiredDeviceCapabilities</key>\n<dict><key>telephony</key><false/><key>metal</key><true/></dict>")]),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for b in context.product.bundles where b.kind.ships {
            guard let (_, entries) = DeviceCapabilities.entries(b) else { continue }
            for e in entries where !e.valid || !DeviceCapabilities.known.contains(e.name) {
                let what = !e.valid ? (e.name.isEmpty ? "a value that is not a string" : "\(e.name) with a value that is not a Boolean")
                    : "\"\(e.name)\", which is not a device capability Apple defines"
                out.append(finding("UIRequiredDeviceCapabilities of \(b.name) holds \(what)",
                                   bundle: b.name, at: e.location, key: "UIRequiredDeviceCapabilities",
                                   fix: "Use a name from Apple's list of required device capabilities, or remove the value.",
                                   fingerprint: [e.name.isEmpty ? "non-string" : e.name]))
            }
        }
        return out
    }
}
