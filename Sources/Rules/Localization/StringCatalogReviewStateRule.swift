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

        One finding per catalog lists the languages with such entries and their counts, and a \
        few keys; keys marked `shouldTranslate: false` and stale keys (no longer in the code) \
        are not counted, nor storyboard placeholders: entries whose note says not to translate \
        them, Interface Builder's default texts ("Label", "Button"…) and texts the code replaces \
        (see `missing_translations`).
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
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "App/mul.lproj/Settings.xcstrings": """
                         {
                           "sourceLanguage" : "en",
                           "strings" : {
                             "Dtl-01-abc.text" : { "comment" : "Class = \\"UILabel\\"; Note = \\"Placeholder - do not translate\\";",
                                                   "localizations" : { "de" : { "stringUnit" : { "state" : "new", "value" : "Size Label" } } } },
                             "Btn-02-abc.normalTitle" : { "localizations" : { "en" : { "stringUnit" : { "state" : "new", "value" : "Button" } },
                                                                              "de" : { "stringUnit" : { "state" : "new", "value" : "Button" } } } }
                           },
                           "version" : "1.0"
                         }
                         """], note: "A storyboard's placeholders: an entry whose note says not to translate it, and Interface Builder's default button title (GoMap)."),
        ])

    static let unreviewed: Set<String> = ["needs_review", "new"]
    /// Languages listed in a message; the rest are counted.
    static let listedLanguages = 8

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
                    // Placeholders (a note says not to translate, Interface Builder's default
                    // text, a text the code replaces): their review does not matter.
                    if LocalizedTables.isPlaceholder(key: s.key, value: source, comment: s.comment,
                                                     evidence: context.evidence.localizationKeys) { continue }
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
                // One finding per catalog, at the first entry of the language with the most.
                let ordered = byLanguage.sorted { ($1.value.keys.count, $0.key) < ($0.value.keys.count, $1.key) }
                guard let top = ordered.first else { continue }
                let lang = top.key, first = top.value
                let total = ordered.reduce(0) { $0 + $1.value.keys.count }
                var parts = ordered.prefix(Self.listedLanguages).map { "\($0.key) \($0.value.keys.count)" }
                if ordered.count > Self.listedLanguages { parts.append("\(ordered.count - Self.listedLanguages) more") }
                let name = PathUtil.lastComponent(path)
                out.append(finding("\(total) translation\(total == 1 ? "" : "s") of \(name) in \(ordered.count) language\(ordered.count == 1 ? "" : "s") \(total == 1 ? "is" : "are") marked needs_review or new, or empty (\(parts.joined(separator: ", ")); \(lang): \(LocalizedTables.examples(first.keys)))",
                                   bundle: b.name, at: FileLocation(path: path, position: first.position), key: lang,
                                   fix: "Review these translations in Xcode's string catalog editor and mark them translated.",
                                   fingerprint: [name]))
            }
        }
        return out
    }
}
