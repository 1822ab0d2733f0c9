import Foundation
import Artifacts

public struct MissingInfoPlistRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "missing_info_plist",
        name: "Bundle without Info.plist",
        summary: "An app, app extension, App Clip, watch app or framework bundle has no Info.plist.",
        rationale: """
        Every executable bundle needs an Info.plist at its root; App Store Connect rejects the \
        upload (ITMS-90049 family) and iOS will not install or load the bundle. Check the \
        target's `INFOPLIST_FILE` or `GENERATE_INFOPLIST_FILE` setting and the copy phases.
        """,
        area: .bundle, severity: .error, tags: ["app-review"],
        references: ["https://developer.apple.com/documentation/bundleresources/placing_content_in_a_bundle"],
        itms: ["ITMS-90036"],
        triggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundlePackageType</key><string>APPL</string>"),
                         "PlugIns/Share.appex↓/Share": "binary"], kind: .app,
                        note: "The finding names the extension's folder, since the file it lacks is not there to point at."),
            RuleExample(["Info.plist": plistXML("<key>CFBundlePackageType</key><string>APPL</string>"),
                         "Frameworks/Analytics.framework↓/Analytics": "binary"], kind: .app,
                        note: "A vendored framework copied without its Info.plist."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundlePackageType</key><string>APPL</string>"),
                         "PlugIns/Share.appex/Info.plist": plistXML("<key>CFBundlePackageType</key><string>XPC!</string>")], kind: .app),
            RuleExample(["Info.plist": plistXML("<key>CFBundlePackageType</key><string>APPL</string>"),
                         "Settings.bundle/Root.plist": plistXML("<key>PreferenceSpecifiers</key><array/>")], kind: .app,
                        note: "Resource bundles such as Settings.bundle need no Info.plist."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        context.product.problems.compactMap { p in
            guard case .missingInfoPlist = p.kind else { return nil }
            if PathUtil.pathExtension(p.path) == "framework" {
                return finding("framework \(p.bundle ?? p.path) has no Info.plist: App Store Connect rejects a framework without one (ITMS-90036), and iOS cannot load it as a bundle",
                               bundle: p.bundle, at: FileLocation(path: p.path),
                               fix: "Embed the framework as its vendor ships it (with its Info.plist), or add an Info.plist with CFBundleExecutable, CFBundleIdentifier, CFBundlePackageType FMWK and the versions.")
            }
            return finding("bundle \(p.bundle ?? p.path) has no Info.plist", bundle: p.bundle,
                           at: FileLocation(path: p.path), fix: "Add an Info.plist at the root of the bundle.")
        }
    }
}
