import Foundation
import Artifacts
import Evidence

public struct UnusedDeviceCapabilityRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "unused_device_capability",
        name: "Required capability the code never uses",
        summary: "An app requires a device capability (gps, location-services, arkit, nfc, healthkit, a camera, the microphone) that none of its code Preflight saw uses.",
        rationale: """
        Every required capability keeps the app off the devices that lack it: `gps` excludes \
        Wi-Fi-only iPads and iPod touch, `nfc` and `arkit` older iPhones. A requirement the \
        code does not need (`gps` with no Core Location, a template's leftover) only costs \
        users. Dropping it in an update is allowed (updates may relax requirements, never add \
        them: ITMS-90109). \
        This is a note: the code may live where Preflight cannot see.

        Reported only where Preflight saw the app's code (a built app's binaries, not App Store \
        encrypted, with its frameworks; a project target's sources when the project uses no \
        pods, binary frameworks or remote packages), and only for capabilities whose APIs \
        Preflight recognises.
        """,
        area: .bundle, severity: .note, tags: ["device-capabilities"],
        references: ["https://developer.apple.com/support/required-device-capabilities/"],
        triggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/Map.swift"]),
                         "App/Info.plist": plistXML("<key>UIRequiredDeviceCapabilities</key>\n<array>\n\t<string>arm64</string>\n\t↓<string>gps</string>\n</array>"),
                         "App/Map.swift": "import UIKit\nfinal class MapScreen: UIViewController {}\n"],
                        kind: .project, note: "gps, but no Core Location."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/Tag.swift"]),
                         "App/Info.plist": plistXML("<key>UIRequiredDeviceCapabilities</key>\n<dict>\n\t↓<key>nfc</key><true/>\n</dict>"),
                         "App/Tag.swift": "import UIKit\nfunc scan() {}\n"],
                        kind: .project),
        ],
        nonTriggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/Map.swift"]),
                         "App/Info.plist": plistXML("<key>NSLocationWhenInUseUsageDescription</key><string>Show where you are on the map.</string>\n<key>UIRequiredDeviceCapabilities</key>\n<array><string>gps</string><string>telephony</string></array>"),
                         "App/Map.swift": "import CoreLocation\nlet manager = CLLocationManager()\nfunc start() { manager.requestWhenInUseAuthorization() }\n"],
                        kind: .project, note: "telephony is not among the capabilities Preflight can tie to code."),
            RuleExample(["App/Info.plist": plistXML("<key>UIRequiredDeviceCapabilities</key><array><string>gps</string></array>")],
                        note: "A folder of files shows no code."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/Map.swift"]),
                         "App/Info.plist": plistXML("<key>UIRequiredDeviceCapabilities</key>\n<dict><key>gps</key><false/></dict>"),
                         "App/Map.swift": "import UIKit\nfunc show() {}\n"],
                        kind: .project, note: "false excludes devices that have it; no code is needed for that."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        let use = FeatureUse(context)
        var out: [Finding] = []
        for b in context.product.bundles where b.kind == .app || b.kind == .appClip {
            guard let (_, entries) = DeviceCapabilities.entries(b), use.sawAllCode(of: b) else { continue }
            for e in entries where e.valid && e.required {
                guard let need = DeviceCapabilities.evidence[e.name], use.use(in: b, where: need.capabilities) == nil else { continue }
                out.append(finding("\(b.name) requires the \(e.name) capability but none of its code that Preflight saw uses \(need.what); devices without it cannot install the app",
                                   bundle: b.name, at: e.location, key: "UIRequiredDeviceCapabilities",
                                   fix: "Remove \(e.name) from UIRequiredDeviceCapabilities unless code Preflight cannot see needs it.",
                                   fingerprint: [e.name]))
            }
        }
        return out
    }
}
