import Foundation
import Artifacts
import Evidence

public struct LocationKeysRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "location_always_without_when_in_use",
        name: "Always location without When In Use",
        summary: "Info.plist asks for Always location (NSLocationAlwaysAndWhenInUseUsageDescription or the legacy NSLocationAlwaysUsageDescription) without NSLocationWhenInUseUsageDescription.",
        rationale: """
        Since iOS 11 an app that requests Always authorization must also provide the When In \
        Use purpose string: users can always choose When In Use, and without the key iOS never \
        shows the prompt (the request fails silently) and App Store Connect rejects the upload \
        (ITMS-90683). Add NSLocationWhenInUseUsageDescription.
        """,
        area: .privacy, severity: .error, tags: ["privacy", "app-review"],
        references: ["ITMS-90683", "https://developer.apple.com/documentation/corelocation/requesting-authorization-to-use-location-services"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("↓<key>NSLocationAlwaysAndWhenInUseUsageDescription</key><string>Track your runs in the background.</string>")]),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.runs</string>\n↓<key>NSLocationAlwaysUsageDescription</key><string>Track your runs in the background.</string>")],
                        note: "Only the iOS 8–10 Always key: since iOS 11 the when-in-use key is needed as well."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSLocationAlwaysAndWhenInUseUsageDescription</key><string>Track your runs in the background.</string>\n<key>NSLocationWhenInUseUsageDescription</key><string>Show your position on the map.</string>")]),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: [
                "INFOPLIST_FILE": "App/Info.plist", "GENERATE_INFOPLIST_FILE": "YES",
                "INFOPLIST_KEY_NSLocationWhenInUseUsageDescription": "Show your position on the map."]),
                         "App/Info.plist": plistXML("<key>NSLocationAlwaysAndWhenInUseUsageDescription</key><string>Track your runs in the background.</string>")],
                        kind: .project, note: "Xcode adds the when-in-use key from the target's INFOPLIST_KEY_ build setting."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        context.product.bundles.compactMap { b in
            // Extensions cannot ask for location authorization; they use the containing app's.
            guard b.kind.ships, b.kind != .appExtension, b.infoValue("NSLocationWhenInUseUsageDescription") == nil else { return nil }
            let always = ProtectedResourceCatalog.alwaysLocationKeys.first { b.infoValue($0) != nil }
            guard let key = always, let at = b.infoValue(key)?.location else { return nil }
            return finding("\(b.name) declares \(key) but not NSLocationWhenInUseUsageDescription; iOS will not show the location prompt",
                           bundle: b.name, at: at, key: "NSLocationWhenInUseUsageDescription",
                           fix: "Add NSLocationWhenInUseUsageDescription.")
        }
    }
}
