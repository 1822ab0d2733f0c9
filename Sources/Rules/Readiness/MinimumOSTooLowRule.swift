import Foundation
import Artifacts

public struct MinimumOSTooLowRule: Rule {
    public init() {}

    static let floor = "15.0"

    public static let description = RuleDescription(
        identifier: "minimum_os_version_too_low",
        name: "Deployment target below iOS 15",
        summary: "An iOS app supports versions older than iOS 15.0, which App Store Connect will stop accepting in spring 2027.",
        rationale: """
        Since August 2026 App Store Connect answers uploads of apps whose `MinimumOSVersion` is \
        below 15.0 with ITMS-90068 "MinimumOSVersion too low - … Starting in Spring 2027, all \
        iOS apps must have a MinimumOSVersion of 15.0 or later in order to be uploaded to App \
        Store Connect or submitted for distribution." The upload still succeeds today; from \
        then on it will not. Every device that runs iOS 13 or 14 can run iOS 15.

        Fix: set `IPHONEOS_DEPLOYMENT_TARGET` to 15.0 or later for the app and its extensions \
        (and `platform :ios` in a Podfile). Built apps (`MinimumOSVersion`) and projects \
        (the deployment target); apps only, since the message names the app.
        """,
        area: .bundle, severity: .warning, tags: ["app-store", "versions"],
        references: ["https://developer.apple.com/documentation/bundleresources/information-property-list/minimumosversion"],
        itms: ["ITMS-90068"],
        triggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>\n↓<key>MinimumOSVersion</key><string>13.0</string>")], kind: .app),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist", "↓IPHONEOS_DEPLOYMENT_TARGET": "14.0"])]),
                         "App/Info.plist": plistXML("<key>CFBundleName</key><string>Demo</string>")], kind: .project),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>MinimumOSVersion</key><string>15.0</string>")], kind: .app),
            RuleExample(["Info.plist": plistXML("<key>CFBundleSupportedPlatforms</key><array><string>XROS</string></array>\n<key>MinimumOSVersion</key><string>1.0</string>")],
                        kind: .app, note: "A visionOS app counts its own versions."),
            RuleExample(["App/Info.plist": plistXML("<key>MinimumOSVersion</key><string>12.0</string>")],
                        note: "A folder of files: the deployment target is a build setting."),
            RuleExample(["Info.plist": plistXML("<key>MinimumOSVersion</key><string>7.0</string>")], kind: .app,
                        note: "Below 8.0: invalid_minimum_os reports it once, as refused today."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        guard AppTraits.judges(context.product) else { return [] }
        return context.product.bundles.compactMap { b in
            guard AppTraits.isIOSApp(b), let v = b.minimumOSVersion, Readiness.compareVersions(v, Self.floor) == .orderedAscending else { return nil }
            // Below 8.0 in a built app, invalid_minimum_os reports the value already refused today.
            if Readiness.builtKinds.contains(context.product.kind), b.infoValue("MinimumOSVersion") != nil,
               Readiness.compareVersions(v, "8.0") == .orderedAscending { return nil }
            let at = b.infoValue("MinimumOSVersion")?.location ?? b.buildSettings["IPHONEOS_DEPLOYMENT_TARGET"]?.location ?? AppTraits.infoLocation(b)
            return finding("\(b.name) supports iOS \(v); App Store Connect will require a MinimumOSVersion of \(Self.floor) or later from spring 2027 (ITMS-90068)",
                           bundle: b.name, at: at, key: "MinimumOSVersion",
                           fix: "Set IPHONEOS_DEPLOYMENT_TARGET to \(Self.floor) or later.", fingerprint: ["below-15"])
        }
    }
}
