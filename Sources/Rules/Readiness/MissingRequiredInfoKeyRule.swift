import Foundation
import Artifacts

public struct MissingRequiredInfoKeyRule: Rule {
    public init() {}

    /// Keys App Store Connect requires per bundle kind, with the upload error it answers.
    static let required: [(kind: Set<BundleKind>, key: String, itms: String)] = [
        ([.app, .appExtension, .appClip, .watchApp, .framework], "CFBundleIdentifier", "ITMS-90360"),
        ([.app, .appClip], "CFBundleName", "ITMS-90784"),
        ([.appExtension], "CFBundleDisplayName", "ITMS-90360"),
        ([.framework], "MinimumOSVersion", "ITMS-90360"),
    ]

    public static let description = RuleDescription(
        identifier: "missing_required_info_key",
        name: "Required Info.plist key missing",
        summary: "A bundle of a built app lacks an Info.plist key App Store Connect requires for its kind: CFBundleIdentifier, CFBundleName (apps), CFBundleDisplayName (extensions), MinimumOSVersion (frameworks).",
        rationale: """
        App Store Connect validates the Info.plist of every bundle in the upload and rejects it \
        when a required key is missing or empty (ITMS-90360 "Missing Info.plist value", \
        ITMS-90784 "Missing bundle name"). The keys differ per kind: every bundle needs \
        `CFBundleIdentifier`; the app its `CFBundleName`; app extensions a \
        `CFBundleDisplayName` (the name shown in share sheets and settings); embedded \
        frameworks a `MinimumOSVersion`. Xcode writes them for its own targets \
        (from `PRODUCT_NAME`, `IPHONEOS_DEPLOYMENT_TARGET`…): a missing one points at a \
        hand-written Info.plist, usually a vendored framework's. The executable key is \
        `missing_bundle_executable`'s; the versions `invalid_bundle_version`'s.

        Only built apps are checked: in a project the keys may still come from build settings.
        """,
        area: .bundle, severity: .error, tags: ["app-store", "identity"],
        references: ["https://developer.apple.com/documentation/bundleresources/information_property_list/bundle_configuration"],
        itms: ["ITMS-90360", "ITMS-90784"],
        triggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>\n<key>CFBundleName</key><string>Example</string>"),
                         "Frameworks/Vendor.framework/Info.plist": plistXMLMarkingRoot("<key>CFBundleIdentifier</key><string>com.vendor.sdk</string>")],
                        kind: .app, note: "A vendored framework without MinimumOSVersion."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>\n<key>CFBundleName</key><string>Example</string>"),
                         "PlugIns/Share.appex/Info.plist": plistXMLMarkingRoot("<key>CFBundleIdentifier</key><string>com.example.app.share</string>\n<key>MinimumOSVersion</key><string>15.0</string>")],
                        kind: .app, note: "An extension without a display name."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>\n↓<key>CFBundleName</key><string></string>")],
                        kind: .app, note: "An empty value counts as missing."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>\n<key>CFBundleName</key><string>Example</string>"),
                         "PlugIns/Share.appex/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app.share</string>\n<key>CFBundleDisplayName</key><string>Share</string>\n<key>MinimumOSVersion</key><string>15.0</string>"),
                         "Frameworks/Kit.framework/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.kit</string>\n<key>MinimumOSVersion</key><string>15.0</string>"),
                         "Kit.bundle/Info.plist": plistXML("<key>CFBundleName</key><string>Kit</string>")],
                        kind: .app, note: "Resource bundles are not validated."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleName</key><string>$(PRODUCT_NAME)</string>")],
                        note: "Source folders are built first; Xcode adds the keys."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        guard Readiness.builtKinds.contains(context.product.kind) else { return [] }
        var out: [Finding] = []
        for b in context.product.bundles where Readiness.hasReadableInfoPlist(b) {
            for r in Self.required where r.kind.contains(b.kind) {
                let value = b.infoValue(r.key)
                if let v = value, v.node.string.map({ !$0.trimmingCharacters(in: .whitespaces).isEmpty }) ?? true { continue }
                out.append(finding("\(b.name) has \(value == nil ? "no" : "an empty") \(r.key) (\(r.itms)); App Store Connect requires it in every \(b.kind.rawValue) bundle",
                                   bundle: b.name, at: Readiness.location(of: r.key, in: b), key: r.key,
                                   fix: "Add \(r.key) to \(b.name)'s Info.plist.", fingerprint: [r.key]))
            }
        }
        return out
    }
}
