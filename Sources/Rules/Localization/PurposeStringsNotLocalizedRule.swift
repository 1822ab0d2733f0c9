import Foundation
import Artifacts

public struct PurposeStringsNotLocalizedRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "purpose_strings_not_localized",
        name: "Purpose strings never translated",
        summary: "A bundle's interface is localized but its purpose strings are not (no InfoPlist.strings or InfoPlist.xcstrings at all).",
        rationale: """
        Permission prompts are read from Info.plist in the development language unless an \
        `InfoPlist.strings` (or `InfoPlist.xcstrings`) translates them. In an app that is \
        otherwise localized, the prompt — the moment a user decides whether to trust the app — \
        appears in another language. Add an InfoPlist string catalog with the purpose keys.
        """,
        area: .localization, severity: .warning, tags: ["privacy", "localization"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>"),
                         "App/de.lproj/Localizable.strings": "\"Scan\" = \"Scannen\";\n",
                         "App/fr.lproj/Localizable.strings": "\"Scan\" = \"Scanner\";\n"]),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>"),
                         "App/de.lproj/Localizable.strings": "\"Scan\" = \"Scannen\";\n",
                         "App/de.lproj/InfoPlist.strings": "\"NSCameraUsageDescription\" = \"Belege scannen.\";\n"]),
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>")],
                        note: "An app that is not localized at all shows every text in one language."),
        ])

    static let promptKinds: Set<BundleKind> = [.app, .appExtension, .appClip, .watchApp]

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for b in context.product.bundles where Self.promptKinds.contains(b.kind) {
            let declared = PurposeStrings.declared(in: b).filter { $0.value != nil }
            guard let first = declared.first, InfoPlistLocalizations(b).languages.isEmpty,
                  !b.localizations.contains(where: { $0.kind == .infoPlistStrings }) else { continue }
            let dev = InfoPlistLocalizations.developmentLanguage(b)
            var languages = Set(b.localizations.compactMap(\.language))
            for catalog in b.stringCatalogs.values { languages.formUnion(catalog.languages) }
            languages = languages.filter { $0 != dev && $0 != "Base" && !$0.hasPrefix(dev + "-") }
            guard !languages.isEmpty else { continue }
            out.append(finding("\(b.name) is localized in \(languages.count) other language\(languages.count == 1 ? "" : "s") (\(languages.sorted().prefix(8).joined(separator: ", "))\(languages.count > 8 ? ", …" : "")) but its \(declared.count) purpose string\(declared.count == 1 ? " is" : "s are") only in \(dev)",
                               bundle: b.name, at: first.location, key: nil))
        }
        return out
    }
}
