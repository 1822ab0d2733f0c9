import Foundation
import Artifacts
import Evidence

public struct BackgroundLocationRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "background_location_without_always",
        name: "Location background mode without Always",
        summary: "UIBackgroundModes contains `location` but the bundle has no Always purpose string.",
        rationale: """
        The location background mode keeps an app running for continuous updates. With only \
        When In Use authorization that works only for sessions the user started in the \
        foreground (iOS shows the blue indicator); anything else — region monitoring, significant \
        changes, visits — needs Always and NSLocationAlwaysAndWhenInUseUsageDescription. App \
        Review also asks apps with this mode to justify it. A note: check which the feature needs.
        """,
        area: .privacy, severity: .note, tags: ["privacy", "app-review"],
        references: ["https://developer.apple.com/documentation/corelocation/handling-location-updates-in-the-background"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSLocationWhenInUseUsageDescription</key><string>Show your position on the map.</string>\n<key>UIBackgroundModes</key>\n↓<array><string>location</string></array>")]),
            RuleExample(["Info.plist": plistXML("""
                         <key>CFBundleExecutable</key>
                         <string>Example</string>
                         <key>NSLocationWhenInUseUsageDescription</key>
                         <string>Show your position on the map.</string>
                         <key>UIBackgroundModes</key>
                         ↓<array>
                         \t<string>remote-notification</string>
                         \t<string>location</string>
                         </array>
                         """), "Example": "binary"], kind: .app,
                        note: "A built app with location among other background modes."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSLocationWhenInUseUsageDescription</key><string>Show your position on the map.</string>\n<key>NSLocationAlwaysAndWhenInUseUsageDescription</key><string>Record your runs in the background.</string>\n<key>UIBackgroundModes</key><array><string>location</string></array>")]),
            RuleExample(["App/Info.plist": plistXML("<key>NSLocationWhenInUseUsageDescription</key><string>Show your position on the map.</string>\n<key>UIBackgroundModes</key><array><string>audio</string><string>fetch</string></array>")],
                        note: "Other background modes need no Always key."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        context.product.bundles.compactMap { b in
            guard b.kind.ships, let modes = b.infoValue("UIBackgroundModes"), modes.node.strings.contains("location"),
                  !ProtectedResourceCatalog.alwaysLocationKeys.contains(where: { b.infoValue($0) != nil }) else { return nil }
            return finding("\(b.name) runs in the background for location but declares no Always purpose string; only foreground-started sessions will deliver updates",
                           bundle: b.name, at: FileLocation(path: modes.location.path, position: modes.node.position ?? modes.location.position),
                           key: "UIBackgroundModes")
        }
    }
}
