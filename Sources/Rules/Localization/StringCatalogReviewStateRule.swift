import Foundation
import Artifacts
import Formats

public struct StringCatalogReviewStateRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "string_catalog_unreviewed",
        name: "Catalog translations not reviewed",
        summary: "A string catalog has translations marked `needs_review` or `new`, or translated entries with an empty value.",
        rationale: """
        Xcode marks a translation `needs_review` when its source text changed after it was \
        translated, and `new` when it was added but never translated; an empty translated value \
        shows nothing at all. Such entries ship as they are: users read an outdated text, the \
        source language, or a blank label. Review them in the catalog editor before release.

        One finding per catalog and language, with the count and a few keys; keys marked \
        `shouldTranslate: false` and stale keys (no longer in the code) are not counted.
        """,
        area: .localization, severity: .note, tags: ["localization"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "App/Localizable.xcstrings": """
                         {
                           "sourceLanguage" : "en",
                           "strings" : {
                             "Delete" : { "localizations" : { ↓"de" : { "stringUnit" : { "state" : "needs_review", "value" : "Entfernen" } } } }
                           },
                           "version" : "1.0"
                         }
                         """], note: "The English text changed after the German was written."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "App/Localizable.xcstrings": """
                         {
                           "sourceLanguage" : "en",
                           "strings" : {
                             "Archive" : { "localizations" : { ↓"fr" : { "stringUnit" : { "state" : "translated", "value" : "" } } } },
                             "Delete" : { "localizations" : { "fr" : { "stringUnit" : { "state" : "translated", "value" : "Supprimer" } } } }
                           },
                           "version" : "1.0"
                         }
                         """], note: "An empty translation shows a blank label."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "App/Localizable.xcstrings": """
                         {
                           "sourceLanguage" : "en",
                           "strings" : {
                             "Delete" : { "localizations" : { "de" : { "stringUnit" : { "state" : "translated", "value" : "Löschen" } } } },
                             "Old" : { "extractionState" : "stale", "localizations" : { "de" : { "stringUnit" : { "state" : "needs_review", "value" : "Alt" } } } },
                             "" : { "localizations" : { "de" : { "stringUnit" : { "state" : "translated", "value" : "" } } } }
                           },
                           "version" : "1.0"
                         }
                         """], note: "Stale keys are no longer used; an empty source text is rightly translated by an empty one (IceCubesApp)."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "App/Localizable.xcstrings": """
                         {
                           "sourceLanguage" : "en",
                           "strings" : {
                             "%lld files" : { "localizations" : { "de" : { "variations" : { "plural" : { "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld Datei" } }, "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld Dateien" } } } } } } }
                           },
                           "version" : "1.0"
                         }
                         """], note: "Plural variations carry their own values."),
        ])

    static let unreviewed: Set<String> = ["needs_review", "new"]

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        var seen = Set<String>()
        for b in context.product.bundles where b.kind.ships {
            for (path, catalog) in b.stringCatalogs.sorted(by: { $0.key < $1.key }) where seen.insert(path).inserted {
                // language → keys and the first entry's position
                var byLanguage: [String: (keys: [String], position: SourcePosition?)] = [:]
                for s in catalog.strings where s.shouldTranslate && s.extractionState != "stale" {
                    // An empty source text (the key "") is rightly translated by an empty one.
                    let source = s.localization(catalog.sourceLanguage)?.value ?? s.key
                    for l in s.localizations where l.language != catalog.sourceLanguage {
                        let unreviewed = l.state.map(Self.unreviewed.contains) == true
                        let empty = !l.hasVariations && l.value?.trimmingCharacters(in: .whitespaces).isEmpty == true
                            && !source.trimmingCharacters(in: .whitespaces).isEmpty
                        guard unreviewed || empty else { continue }
                        var entry = byLanguage[l.language] ?? ([], l.position)
                        entry.keys.append(s.key)
                        byLanguage[l.language] = entry
                    }
                }
                for lang in byLanguage.keys.sorted() {
                    let (keys, position) = byLanguage[lang]!
                    out.append(finding("\(keys.count) \(lang) translation\(keys.count == 1 ? "" : "s") of \(PathUtil.lastComponent(path)) \(keys.count == 1 ? "is" : "are") marked needs_review or new, or empty (\(LocalizedTables.examples(keys)))",
                                       bundle: b.name, at: FileLocation(path: path, position: position), key: lang,
                                       fix: "Review the \(lang) translations in Xcode's string catalog editor and mark them translated.",
                                       fingerprint: [lang]))
                }
            }
        }
        return out
    }
}
