import Foundation
import Artifacts

public struct DuplicateBundleIdentifierRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "duplicate_bundle_identifier",
        name: "Bundle identifier used twice",
        summary: "Two bundles of a built app (app, extensions, App Clip, watch app, frameworks) have the same CFBundleIdentifier.",
        rationale: """
        Every bundle in an upload needs its own `CFBundleIdentifier`. App Store Connect rejects \
        an app in which two bundles share one (ITMS-90685 "CFBundleIdentifier Collision"), and \
        warns when the copies are the same framework built for two platforms, such as an iOS \
        and a watchOS copy (ITMS-90806). It usually comes from a framework embedded twice (in \
        the app and again in an extension) or an extension target duplicated without a new \
        identifier. Give each bundle its own identifier, and embed a shared framework once, in \
        the app.
        """,
        area: .bundle, severity: .error, tags: ["app-store", "identity"],
        references: ["https://developer.apple.com/documentation/bundleresources/information_property_list/cfbundleidentifier"],
        itms: ["ITMS-90685", "ITMS-90806"],
        triggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "PlugIns/Share.appex/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app.share</string>"),
                         "PlugIns/Today.appex/Info.plist": plistXML("↓<key>CFBundleIdentifier</key><string>com.example.app.share</string>")],
                        kind: .app, note: "An extension target duplicated without a new identifier."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "Frameworks/Kit.framework/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.kit</string>"),
                         "Watch/Watch.app/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app.watchkitapp</string>"),
                         "Watch/Watch.app/Frameworks/Kit.framework/Info.plist": plistXML("↓<key>CFBundleIdentifier</key><string>com.example.kit</string>")],
                        kind: .app, note: "The iOS and watchOS copies of one framework (ITMS-90806, a warning)."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "PlugIns/Share.appex/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app.share</string>"),
                         "Frameworks/Kit.framework/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.kit</string>")],
                        kind: .app),
            RuleExample(["Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "Frameworks/Kit.framework/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.kit</string>"),
                         "Frameworks/Kit.framework/Strings.bundle/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.kit</string>")],
                        kind: .app, note: "Resource bundles are not checked: App Store Connect does not validate them."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        guard Readiness.builtKinds.contains(context.product.kind) else { return [] }
        var first: [String: AppBundle] = [:]
        var out: [Finding] = []
        for b in context.product.bundles where Readiness.validatedKinds.contains(b.kind) {
            guard let id = b.identifier, !id.isEmpty, !Readiness.isUnresolved(id) else { continue }
            guard let other = first[id] else { first[id] = b; continue }
            let crossPlatform = watchRoot(b, context.product) != watchRoot(other, context.product)
            var f = finding("\(b.name) has the CFBundleIdentifier \(id) of \(other.name) (\(crossPlatform ? "ITMS-90806: the same framework for two platforms" : "ITMS-90685"))",
                            bundle: b.name, at: Readiness.location(of: "CFBundleIdentifier", in: b), key: "CFBundleIdentifier",
                            fix: "Give \(b.name) its own identifier, or embed it only once.", fingerprint: [id])
            if crossPlatform { f.severity = .warning }
            out.append(f)
        }
        return out
    }

    /// The watch app that contains a bundle, if any (its platform differs from the iOS app's).
    func watchRoot(_ b: AppBundle, _ product: Product) -> String? {
        var current: AppBundle? = b
        var seen = Set<String>()
        while let c = current, seen.insert(c.id).inserted {
            if c.kind == .watchApp { return c.id }
            current = product.parent(of: c)
        }
        return nil
    }
}
