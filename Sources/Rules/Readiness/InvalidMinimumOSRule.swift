import Foundation
import Artifacts

public struct InvalidMinimumOSRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "invalid_minimum_os_version",
        name: "MinimumOSVersion empty, malformed or below iOS 8",
        summary: "A bundle of a built app has a MinimumOSVersion that is empty, not a version, or lower than 8.0.",
        rationale: """
        App Store Connect rejects a bundle whose `MinimumOSVersion` is empty or not a version \
        (ITMS-90530: 64-bit apps must declare a deployment target of 8.0 or later) and an \
        embedded framework whose value is below the minimum it accepts (ITMS-90362 "The \
        minimum value is 8.0"). Such values come from hand-written Info.plists of old vendored \
        frameworks (`MinimumOSVersion` 4.3, 6.0). Set the value to the framework's real \
        deployment target (the `minos` of its binary), at least the app's.
        """,
        area: .bundle, severity: .error, tags: ["app-store", "versions"],
        references: ["https://developer.apple.com/documentation/bundleresources/information_property_list/minimumosversion"],
        itms: ["ITMS-90362", "ITMS-90530"],
        triggering: [
            RuleExample(["Info.plist": plistXML("<key>MinimumOSVersion</key><string>15.0</string>"),
                         "Frameworks/Legacy.framework/Info.plist": plistXML("↓<key>MinimumOSVersion</key><string>6.0</string>")],
                        kind: .app, note: "An old vendored framework (ITMS-90362)."),
            RuleExample(["Info.plist": plistXML("↓<key>MinimumOSVersion</key><string></string>")],
                        kind: .app, note: "An empty value (ITMS-90530)."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>MinimumOSVersion</key><string>15.0</string>"),
                         "Frameworks/Kit.framework/Info.plist": plistXML("<key>MinimumOSVersion</key><string>12.0</string>")],
                        kind: .app),
            RuleExample(["App/Info.plist": plistXML("<key>MinimumOSVersion</key><string>$(IPHONEOS_DEPLOYMENT_TARGET)</string>")],
                        note: "Source folders are built first; Xcode writes the value."),
            RuleExample(["Info.plist": plistXML("<key>MinimumOSVersion</key><string>11.0</string>"),
                         "Watch/Watch.app/Info.plist": plistXML("<key>MinimumOSVersion</key><string>4.0</string>"),
                         "Watch/Watch.app/PlugIns/Ext.appex/Info.plist": plistXML("<key>MinimumOSVersion</key><string>4.0</string>\n<key>CFBundleSupportedPlatforms</key><array><string>WatchOS</string></array>")],
                        kind: .app, note: "A WatchKit extension's MinimumOSVersion is a watchOS version (ipa_analyzer's test_app_2.ipa)."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        guard Readiness.builtKinds.contains(context.product.kind) else { return [] }
        var out: [Finding] = []
        for b in context.product.bundles where Readiness.validatedKinds.contains(b.kind)
            && !Readiness.runsOnWatchOS(b, in: context.product) {
            guard let v = b.infoValue("MinimumOSVersion"), let value = v.node.string else { continue }
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || Readiness.versionComponents(trimmed) == nil {
                out.append(finding("MinimumOSVersion of \(b.name) is \(trimmed.isEmpty ? "empty" : "\"\(value)\", not a version") (ITMS-90530)",
                                   bundle: b.name, at: v.location, key: "MinimumOSVersion",
                                   fix: "Set MinimumOSVersion to the bundle's deployment target, such as 15.0.", fingerprint: ["malformed"]))
            } else if Readiness.compareVersions(trimmed, "8.0") == .orderedAscending {
                out.append(finding("MinimumOSVersion of \(b.name) is \(trimmed); App Store Connect accepts no value below 8.0 (ITMS-90362)",
                                   bundle: b.name, at: v.location, key: "MinimumOSVersion",
                                   fix: "Set MinimumOSVersion to the framework's real deployment target (the minos of its binary).",
                                   fingerprint: ["low", trimmed]))
            }
        }
        return out
    }
}
