import Foundation
import Artifacts

public struct LocalizedPurposeStringWithoutKeyRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "localized_purpose_string_without_key",
        name: "Purpose string only translated",
        summary: "A purpose string is translated in InfoPlist.strings but the key is missing from Info.plist.",
        rationale: """
        iOS decides whether a purpose string exists by reading Info.plist; translations are only \
        looked up for keys it finds there. A key that exists only in `InfoPlist.strings` counts as \
        missing: if the code asks for the resource the app is terminated and App Store Connect \
        rejects the upload (ITMS-90683). Add the key to Info.plist, or remove the stray \
        translation. When the table is shared with another bundle that does declare the key \
        (an extension using the app's `InfoPlist.strings`), the stray translation is harmless \
        unless this bundle asks for the resource, and the finding is a warning.
        """,
        area: .localization, severity: .error, tags: ["privacy", "localization", "app-review"],
        references: ["ITMS-90683", "https://developer.apple.com/documentation/bundleresources/information_property_list/localizing_keys"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>"),
                         "App/de.lproj/InfoPlist.strings": "\"NSCameraUsageDescription\" = \"Belege scannen.\";\n↓\"NSBluetoothAlwaysUsageDescription\" = \"Mit dem Kartenleser verbinden.\";\n"]),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>"),
                         "App/de.lproj/InfoPlist.strings": "\"NSCameraUsageDescription\" = \"Belege scannen.\";\n\"CFBundleDisplayName\" = \"Belege\";\n"]),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        // Which bundles load each InfoPlist table: a table shared with a bundle that declares
        // the key is that bundle's translation.
        var sharers: [String: [Artifacts.Bundle]] = [:]
        for b in context.product.bundles {
            for f in b.localizations where f.kind == .infoPlistStrings { sharers[f.path, default: []].append(b) }
        }
        // Frameworks' and resource bundles' Info.plists are never read for permission prompts.
        for b in context.product.bundles where b.kind.ships && b.kind != .framework && b.kind != .resourceBundle {
            let loc = InfoPlistLocalizations(b)
            var languagesByKey: [String: [String]] = [:]
            var firstLocation: [String: FileLocation] = [:]
            for lang in loc.languages {
                for (key, at) in loc.byLanguage[lang] ?? [:] where PurposeStrings.isPurposeKey(key) && b.infoValue(key) == nil {
                    languagesByKey[key, default: []].append(lang)
                    if firstLocation[key] == nil || lang < (languagesByKey[key]?.first ?? "") { firstLocation[key] = at }
                }
            }
            for (key, langs) in languagesByKey.sorted(by: { $0.key < $1.key }) {
                let sharedWithDeclarer = firstLocation[key].map { at in
                    (sharers[at.path] ?? []).contains { $0.name != b.name && $0.infoValue(key) != nil }
                } ?? false
                var f = finding("\(key) is translated for \(b.name) in \(langs.sorted().joined(separator: ", ")) but missing from its Info.plist, so iOS treats it as absent; asking for the resource would terminate the app",
                                   bundle: b.name, at: firstLocation[key], key: key,
                                   fix: "Add \(key) to Info.plist.")
                if sharedWithDeclarer { f.severity = .warning }
                out.append(f)
            }
        }
        return out
    }
}
