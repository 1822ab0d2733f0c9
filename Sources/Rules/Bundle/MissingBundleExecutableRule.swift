import Foundation
import Artifacts

public struct MissingBundleExecutableRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "missing_bundle_executable",
        name: "Bundle executable missing",
        summary: "A built app, extension or framework has no CFBundleExecutable, or the file it names is not in the bundle.",
        rationale: """
        iOS launches the file named by `CFBundleExecutable`; App Store Connect rejects bundles \
        without it (ITMS-90062/90085 family). It usually means a broken copy phase, a renamed \
        product, or an archive assembled by hand.
        """,
        area: .bundle, severity: .error, tags: ["app-review"],
        references: ["https://developer.apple.com/documentation/bundleresources/information_property_list/cfbundleexecutable"],
        itms: ["ITMS-90207"],
        triggering: [
            RuleExample(["Info.plist": plistXML("↓<key>CFBundleExecutable</key><string>Example</string>")], kind: .app,
                        note: "The finding points at the key that names the missing file."),
            RuleExample(["Info.plist": plistXMLMarkingRoot("<key>CFBundlePackageType</key><string>APPL</string>")], kind: .app,
                        note: "An app without the key cannot launch."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "Example": "binary",
                         "PlugIns/Share.appex/Info.plist": plistXML("↓<key>CFBundleExecutable</key><string>Share</string>\n<key>CFBundlePackageType</key><string>XPC!</string>")],
                        kind: .app, note: "An extension whose executable was not copied; the app's is there."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "Example": "binary"], kind: .app),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundlePackageType</key><string>APPL</string>")],
                        note: "Source folders have no built executable."),
        ])

    static let executableKinds: Set<BundleKind> = [.app, .appExtension, .appClip, .watchApp, .framework]

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = context.product.problems.compactMap { p in
            guard case .missingExecutable(let name) = p.kind else { return nil }
            return finding("\(p.bundle ?? "bundle") names executable \"\(name)\" in CFBundleExecutable, but the bundle has no such file",
                           bundle: p.bundle, at: p.referencedFrom ?? FileLocation(path: p.path), key: "CFBundleExecutable")
        }
        let built: Set<ProductKind> = [.ipa, .app, .xcarchive]
        guard built.contains(context.product.kind) else { return out }
        for b in context.product.bundles where Self.executableKinds.contains(b.kind) {
            guard let info = b.infoPlist, info.error == nil, b.infoValue("CFBundleExecutable") == nil else { continue }
            out.append(finding("Info.plist of \(b.name) has no CFBundleExecutable", bundle: b.name,
                               at: FileLocation(path: info.path, position: info.root?.position), key: "CFBundleExecutable"))
        }
        return out
    }
}
