import Foundation
import Artifacts

public struct ExtensionVersionMismatchRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "extension_version_mismatch",
        name: "Extension version differs from its app",
        summary: "An app extension, App Clip or watch app has a CFBundleShortVersionString or CFBundleVersion different from the app that contains it.",
        rationale: """
        App Store Connect expects every extension, App Clip and watch app to carry the same \
        `CFBundleShortVersionString` and `CFBundleVersion` as the app that contains it, and \
        answers a mismatch with a warning e-mail after the upload ("The CFBundleShortVersionString \
        value of extension … does not match its containing iOS application"). The usual cause is \
        a version bumped in the app target only: set `MARKETING_VERSION` and \
        `CURRENT_PROJECT_VERSION` once, at the project level or in a shared xcconfig, and let \
        every target inherit them.

        Values that still name a build setting Preflight could not resolve are not compared.
        """,
        area: .bundle, severity: .warning, tags: ["app-store", "versions"],
        references: ["https://developer.apple.com/documentation/bundleresources/information_property_list/cfbundleshortversionstring"],
        triggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleShortVersionString</key><string>2.1</string>\n<key>CFBundleVersion</key><string>42</string>"),
                         "PlugIns/Share.appex/Info.plist": plistXML("↓<key>CFBundleShortVersionString</key><string>2.0</string>\n<key>CFBundleVersion</key><string>42</string>")],
                        kind: .app, note: "The app was bumped to 2.1, its share extension was not."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                            ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist", "MARKETING_VERSION": "3.0", "CURRENT_PROJECT_VERSION": "7"], embeds: ["Widget"]),
                            ExampleTarget("Widget", type: "app-extension", settings: ["INFOPLIST_FILE": "Widget/Info.plist", "MARKETING_VERSION": "3.0", "↓CURRENT_PROJECT_VERSION": "6"]),
                         ]),
                         "App/Info.plist": plistXML("<key>CFBundleShortVersionString</key><string>$(MARKETING_VERSION)</string>\n<key>CFBundleVersion</key><string>$(CURRENT_PROJECT_VERSION)</string>"),
                         "Widget/Info.plist": plistXML("<key>CFBundleShortVersionString</key><string>$(MARKETING_VERSION)</string>\n<key>CFBundleVersion</key><string>$(CURRENT_PROJECT_VERSION)</string>\n<key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.widgetkit-extension</string></dict>")],
                        kind: .project, note: "The build number set per target drifted; the setting is reported."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleShortVersionString</key><string>2.1</string>\n<key>CFBundleVersion</key><string>42</string>"),
                         "PlugIns/Share.appex/Info.plist": plistXML("<key>CFBundleShortVersionString</key><string>2.1</string>\n<key>CFBundleVersion</key><string>42</string>"),
                         "Frameworks/Kit.framework/Info.plist": plistXML("<key>CFBundleShortVersionString</key><string>5.3.1</string>\n<key>CFBundleVersion</key><string>1</string>")],
                        kind: .app, note: "Frameworks keep their own versions."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                            ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist", "MARKETING_VERSION": "3.0", "CURRENT_PROJECT_VERSION": "7"], embeds: ["Widget"]),
                            ExampleTarget("Widget", type: "app-extension", settings: ["INFOPLIST_FILE": "Widget/Info.plist", "MARKETING_VERSION": "3.0"]),
                         ]),
                         "App/Info.plist": plistXML("<key>CFBundleShortVersionString</key><string>$(MARKETING_VERSION)</string>\n<key>CFBundleVersion</key><string>$(CURRENT_PROJECT_VERSION)</string>"),
                         "Widget/Info.plist": plistXML("<key>CFBundleShortVersionString</key><string>$(MARKETING_VERSION)</string>\n<key>CFBundleVersion</key><string>$(CURRENT_PROJECT_VERSION)</string>")],
                        kind: .project, note: "The widget's build number is set by a script Preflight cannot see: not compared."),
        ])

    static let checkedKinds: Set<BundleKind> = [.appExtension, .appClip, .watchApp]

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for b in context.product.bundles where Self.checkedKinds.contains(b.kind) {
            guard let app = Readiness.containingApp(of: b, in: context.product) else { continue }
            for key in InvalidBundleVersionRule.keys {
                guard let mine = resolved(key, b), let theirs = resolved(key, app), mine.value != theirs.value else { continue }
                out.append(finding("\(key) of \(b.name) is \(mine.value) but its containing app \(app.name) has \(theirs.value); App Store Connect expects them to match",
                                   bundle: b.name, at: mine.location, key: key,
                                   fix: "Set \(key) of \(b.name) to \(theirs.value), ideally by inheriting one MARKETING_VERSION / CURRENT_PROJECT_VERSION.",
                                   fingerprint: [key, mine.value, theirs.value]))
            }
        }
        return out
    }

    /// The key's value as the build writes it, and where to fix it; nil when unknown.
    func resolved(_ key: String, _ b: AppBundle) -> (value: String, location: FileLocation?)? {
        guard let raw = b.infoValue(key), let written = raw.node.string else { return nil }
        let value = b.expandingBuildSettings(in: written).trimmingCharacters(in: .whitespaces)
        guard !value.isEmpty, !Readiness.isUnresolved(value) else { return nil }
        var location: FileLocation? = raw.location
        if let setting = InvalidBundleVersionRule.settingName(written), let loc = b.buildSettings[setting]?.location { location = loc }
        return (value, location)
    }
}
