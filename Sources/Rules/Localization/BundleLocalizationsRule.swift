import Foundation
import Artifacts

public struct BundleLocalizationsRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "bundle_localizations_not_shipped",
        name: "Declared language not shipped",
        summary: "CFBundleLocalizations names a language, or CFBundleDevelopmentRegion a development language, for which the built bundle has no .lproj folder while it ships other languages.",
        rationale: """
        iOS picks the app's language among the `.lproj` folders the bundle ships, the languages \
        `CFBundleLocalizations` declares and the development region. A declared language with no \
        folder makes iOS choose it and then find none of its resources: storyboards and strings \
        fall back to the development language or to the raw keys. A development region without \
        a folder (nor `Base.lproj`) means users of that language, and every user whose language \
        is not shipped, see the keys of tables that exist only in other languages.

        Only built apps are checked (their folders are known), and only bundles that ship at \
        least one language folder: a Flutter or React Native app that lists its languages in \
        `CFBundleLocalizations` and translates in its own code ships none, on purpose. Both \
        are notes: the text may come from the keys themselves.
        """,
        area: .localization, severity: .note, tags: ["localization"],
        triggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>\n↓<key>CFBundleLocalizations</key><array><string>en</string><string>de</string><string>fr</string></array>"),
                         "en.lproj/Localizable.strings": "\"title\" = \"Settings\";\n",
                         "de.lproj/Localizable.strings": "\"title\" = \"Einstellungen\";\n"],
                        kind: .app, note: "French is declared but not shipped."),
            RuleExample(["Info.plist": plistXML("↓<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "de.lproj/Localizable.strings": "\"title\" = \"Einstellungen\";\n",
                         "fr.lproj/Localizable.strings": "\"title\" = \"Réglages\";\n"],
                        kind: .app, note: "No en.lproj and no Base.lproj: English users see the keys."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>\n<key>CFBundleLocalizations</key><array><string>en</string><string>de</string></array>"),
                         "Base.lproj/Main.storyboardc/Info.plist": plistXML("<key>UIViewControllerIdentifiersToNibNames</key><dict/>"),
                         "de.lproj/Main.strings": "\"abc-12-xyz.text\" = \"Einstellungen\";\n"],
                        kind: .app, note: "Base.lproj holds the development language's storyboards."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>\n<key>CFBundleLocalizations</key><array><string>en</string><string>de</string><string>ja</string></array>")],
                        kind: .app, note: "No language folder at all: the app translates in its own code (Flutter, React Native)."),
        ])

    static func matches(_ a: String, _ b: String) -> Bool {
        let x = LocalizedTables.normalize(a).lowercased().replacingOccurrences(of: "_", with: "-")
        let y = LocalizedTables.normalize(b).lowercased().replacingOccurrences(of: "_", with: "-")
        return x == y
    }

    public func check(_ context: RuleContext) -> [Finding] {
        guard Readiness.builtKinds.contains(context.product.kind) else { return [] }
        var out: [Finding] = []
        for b in context.product.bundles where b.kind.ships {
            let languages = b.lprojFolders.filter { $0 != "Base" }
            guard !languages.isEmpty else { continue }
            let shipped = b.lprojFolders
            // Base.lproj holds the development language's resources.
            let dev = b.infoValue("CFBundleDevelopmentRegion")?.node.string ?? "en"
            if let declared = b.infoValue("CFBundleLocalizations"), let list = declared.node.array {
                let missing = list.compactMap(\.string).filter { l in
                    !shipped.contains { Self.matches($0, l) } && !(shipped.contains("Base") && Self.matches(l, dev))
                }
                if !missing.isEmpty {
                    out.append(finding("CFBundleLocalizations of \(b.name) declares \(missing.joined(separator: ", ")) but the bundle ships no .lproj folder for \(missing.count == 1 ? "it" : "them") (it ships \(shipped.joined(separator: ", ")))",
                                       bundle: b.name, at: declared.location, key: "CFBundleLocalizations",
                                       fix: "Remove the languages the app does not translate, or add their .lproj folders.",
                                       fingerprint: ["localizations"] + missing))
                }
            }
            if let region = b.infoValue("CFBundleDevelopmentRegion"), let dev = region.node.string, !dev.isEmpty,
               !shipped.contains(where: { Self.matches($0, dev) || $0 == "Base" }) {
                out.append(finding("CFBundleDevelopmentRegion of \(b.name) is \(dev) but the bundle ships no \(dev).lproj or Base.lproj (it ships \(shipped.joined(separator: ", ")))",
                                   bundle: b.name, at: region.location, key: "CFBundleDevelopmentRegion",
                                   fix: "Set CFBundleDevelopmentRegion to the language the app is written in, and ship its .lproj folder.",
                                   fingerprint: ["region", dev]))
            }
        }
        return out
    }
}
