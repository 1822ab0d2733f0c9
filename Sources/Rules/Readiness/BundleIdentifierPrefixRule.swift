import Foundation
import Artifacts

public struct BundleIdentifierPrefixRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "bundle_identifier_prefix",
        name: "Extension identifier not prefixed by the app's",
        summary: "An app extension, App Clip or watch app's CFBundleIdentifier does not start with its containing app's identifier followed by a period.",
        rationale: """
        iOS installs an embedded extension, App Clip or watch app only when its bundle \
        identifier extends the containing app's (`com.example.app.share` inside \
        `com.example.app`): otherwise installation fails ("Embedded binary's bundle identifier \
        is not prefixed with the parent app's bundle identifier") and App Store Connect refuses \
        the upload. It happens when the app's identifier is changed (a white-label build, a new \
        team) but not its extensions'. Derive the extension identifiers from the app's, e.g. \
        `$(APP_BUNDLE_ID).share` from a shared setting.

        Identifiers that still name a build setting Preflight could not resolve are not compared.
        """,
        area: .bundle, severity: .error, tags: ["app-store", "identity"],
        references: ["https://developer.apple.com/documentation/bundleresources/information_property_list/cfbundleidentifier"],
        triggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "PlugIns/Share.appex/Info.plist": plistXML("↓<key>CFBundleIdentifier</key><string>com.example.share</string>")],
                        kind: .app, note: "A sibling identifier, not a child."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                            ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.acme.app"], embeds: ["Widget"]),
                            ExampleTarget("Widget", type: "app-extension", settings: ["INFOPLIST_FILE": "Widget/Info.plist", "↓PRODUCT_BUNDLE_IDENTIFIER": "com.example.app.widget"]),
                         ]),
                         "App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>"),
                         "Widget/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>")],
                        kind: .project, note: "The app was renamed for a new company; the widget kept the old prefix."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "PlugIns/Share.appex/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app.share</string>"),
                         "Frameworks/Kit.framework/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>org.vendor.kit</string>")],
                        kind: .app, note: "Frameworks keep their own identifiers."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "Watch/Watch.app/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app.watchkitapp</string>"),
                         "Watch/Watch.app/PlugIns/Ext.appex/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app.watchkitapp.watchkitextension</string>")],
                        kind: .app, note: "A watch extension extends the watch app's identifier."),
        ])

    static let checkedKinds: Set<BundleKind> = [.appExtension, .appClip, .watchApp]

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for b in context.product.bundles where Self.checkedKinds.contains(b.kind) {
            guard let parent = Readiness.containingApp(of: b, in: context.product) ?? nearestHost(b, context.product),
                  let mine = b.identifier, let theirs = parent.identifier,
                  !mine.isEmpty, !theirs.isEmpty, !Readiness.isUnresolved(mine), !Readiness.isUnresolved(theirs),
                  !mine.hasPrefix(theirs + ".") else { continue }
            var location = Readiness.location(of: "CFBundleIdentifier", in: b)
            if let written = b.infoValue("CFBundleIdentifier")?.node.string, let setting = InvalidBundleVersionRule.settingName(written),
               let loc = b.buildSettings[setting]?.location { location = loc }
            out.append(finding("\(b.name)'s identifier \(mine) does not start with \(parent.name)'s \(theirs)., so iOS will not install it inside the app",
                               bundle: b.name, at: location, key: "CFBundleIdentifier",
                               fix: "Use an identifier such as \(theirs).\(mine.split(separator: ".").last.map(String.init) ?? "extension").",
                               fingerprint: [mine, theirs]))
        }
        return out
    }

    /// A watch extension's host is its watch app; an extension's in a project, the target that embeds it.
    func nearestHost(_ b: AppBundle, _ product: Product) -> AppBundle? {
        guard let p = product.parent(of: b), EmbeddingChains.hostKinds.contains(p.kind) else { return nil }
        return p
    }
}
