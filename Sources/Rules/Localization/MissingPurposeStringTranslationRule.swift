import Foundation
import Artifacts

public struct MissingPurposeStringTranslationRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "missing_purpose_string_translation",
        name: "Purpose string not translated",
        summary: "A purpose string in Info.plist has no translation in some language the bundle localizes its Info.plist for.",
        rationale: """
        When a language has an `InfoPlist.strings` but lacks a purpose key, the permission prompt \
        falls back to the development language in the middle of an otherwise translated app. \
        Reviewers in that storefront read a prompt they may not understand. Add the key to each \
        language's `InfoPlist.strings` (or `InfoPlist.xcstrings`).
        """,
        area: .localization, severity: .warning, tags: ["privacy", "localization"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>\n<key>NSLocationWhenInUseUsageDescription</key><string>Show stores near you.</string>"),
                         "App/de.lproj/InfoPlist.strings": "\"NSCameraUsageDescription\" = \"Belege scannen.\";\n",
                         "App/fr.lproj/InfoPlist.strings": "\"NSCameraUsageDescription\" = \"Scanner les reçus.\";\n"]),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>"),
                         "App/de.lproj/InfoPlist.strings": "\"NSCameraUsageDescription\" = \"Belege scannen.\";\n",
                         "App/en.lproj/InfoPlist.strings": "\"CFBundleDisplayName\" = \"Receipts\";\n"],
                        note: "The development language (en) falls back to Info.plist by design."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for b in context.product.bundles where b.kind.ships {
            let loc = InfoPlistLocalizations(b)
            let dev = InfoPlistLocalizations.developmentLanguage(b)
            let languages = loc.languages.filter { $0 != dev && $0 != "Base" && !$0.hasPrefix(dev + "-") }
            guard !languages.isEmpty else { continue }
            for d in PurposeStrings.declared(in: b) where d.value != nil {
                let missing = languages.filter { loc.byLanguage[$0]?[d.key] == nil }
                guard !missing.isEmpty else { continue }
                out.append(finding("\(d.key) of \(b.name) is not translated in \(missing.joined(separator: ", ")) (\(missing.count) of \(languages.count) languages); the prompt falls back to \(dev)",
                                   bundle: b.name, at: d.location, key: d.key))
            }
        }
        return out
    }
}
