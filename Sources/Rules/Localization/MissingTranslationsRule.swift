import Foundation
import Artifacts

public struct MissingTranslationsRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "missing_translations",
        name: "Strings missing in a language",
        summary: "A strings table (.strings/.stringsdict, or a string catalog) lacks keys of the development language in some language the bundle ships.",
        rationale: """
        When a key is missing from a language's table, iOS shows the development language's \
        text (or the bare key) in the middle of a translated screen. Preflight compares each \
        language's table with the development language's (`CFBundleDevelopmentRegion`, else \
        `Base`), reading `Table.strings` and `Table.stringsdict` of a language together as iOS \
        does, and each string catalog's languages with its source language. It reports one \
        finding per table and language, with the count and a few of the keys.

        Many apps ship some languages deliberately partial (community translations). A language \
        that has at least 90% of the keys probably forgot a few — a warning; a language with \
        less is reported as a note. Keys marked `shouldTranslate: false` or stale in a catalog \
        are not counted; tables without a development-language or `Base` version (text that \
        lives in code or storyboards) are not compared, and neither are `InfoPlist` tables and \
        catalogs (their keys are overridden per language on purpose; \
        `missing_purpose_string_translation` checks the purpose strings).
        """,
        area: .localization, severity: .warning, tags: ["localization"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "App/en.lproj/Localizable.strings": "\"greeting\" = \"Hello\";\n\"farewell\" = \"Goodbye\";\n\"thanks\" = \"Thank you\";\n",
                         "App/fr.lproj/Localizable.strings↓": "\"greeting\" = \"Bonjour\";\n\"farewell\" = \"Au revoir\";\n"],
                        note: "French lacks \"thanks\": French users see the English text."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "App/Localizable.xcstrings↓": """
                         {
                           "sourceLanguage" : "en",
                           "strings" : {
                             "Save" : { "localizations" : { "de" : { "stringUnit" : { "state" : "translated", "value" : "Sichern" } } } },
                             "Cancel" : { }
                           },
                           "version" : "1.0"
                         }
                         """],
                        note: "A catalog key with no German entry."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "App/en.lproj/Localizable.strings": "\"greeting\" = \"Hello\";\n",
                         "App/en.lproj/Localizable.stringsdict": plistXML("<key>files</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@n@</string><key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string><key>NSStringFormatValueTypeKey</key><string>d</string><key>one</key><string>1 file</string><key>other</key><string>%d files</string></dict></dict>"),
                         "App/fr.lproj/Localizable.strings": "\"greeting\" = \"Bonjour\";\n\"files\" = \"%d fichiers\";\n"],
                        note: "French puts the plural key in its .strings file: iOS reads both files of a table as one."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "App/Base.lproj/Main.strings": "\"abc-12-xyz.text\" = \"Title\";\n",
                         "App/en-GB.lproj/Main.strings": "\"def-34-uvw.text\" = \"Colour\";\n",
                         "App/qqq.lproj/Main.strings": "\"xyz-00-abc.text\" = \"Documentation for translators\";\n",
                         "App/InfoPlist.xcstrings": """
                         {
                           "sourceLanguage" : "en",
                           "strings" : {
                             "CFBundleDisplayName" : { "localizations" : { "de" : { "stringUnit" : { "state" : "translated", "value" : "Karte" } } } },
                             "CFBundleGetInfoString" : { }
                           },
                           "version" : "1.0"
                         }
                         """,
                         "App/Localizable.xcstrings": """
                         {
                           "sourceLanguage" : "en",
                           "strings" : {
                             "%lld items" : { "shouldTranslate" : false },
                             "Old" : { "extractionState" : "stale" },
                             "Save" : { "localizations" : { "de" : { "stringUnit" : { "state" : "translated", "value" : "Sichern" } } } }
                           },
                           "version" : "1.0"
                         }
                         """],
                        note: "Regional variants of the development language may override a few keys; qqq (translatewiki's notes for translators) is no language; InfoPlist catalogs override only some keys (GoMap); untranslatable and stale catalog keys are not counted."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        var seen = Set<String>()
        for (b, views) in context.bundles where b.kind.ships {
            let dev = LocalizedTables.normalize(InfoPlistLocalizations.developmentLanguage(b))
            let tables = views.localizedTables
            for name in tables.tables.keys.sorted() {
                let languages = tables.tables[name]!
                guard let ref = LocalizedTables.reference(languages, dev: dev), !ref.table.keys.isEmpty else { continue }
                for lang in languages.keys.sorted() where lang != ref.name && lang != "Base" && !LocalizedTables.isDevelopment(lang, dev) && !LocalizedTables.isPseudo(lang) {
                    let table = languages[lang]!
                    let path = table.paths.sorted().first { $0.hasSuffix(".strings") } ?? table.paths.sorted()[0]
                    guard seen.insert(path).inserted else { continue }
                    let missing = ref.table.keys.subtracting(table.keys).sorted()
                    guard !missing.isEmpty else { continue }
                    out.append(report(table: name, language: lang, missing: missing, total: ref.table.keys.count,
                                      reference: ref.name, bundle: b.name, path: path))
                }
            }
            // InfoPlist catalogs hold keys only some languages override (names, purpose strings:
            // missing_purpose_string_translation judges those), as InfoPlist.strings tables do.
            for (path, catalog) in b.stringCatalogs.sorted(by: { $0.key < $1.key })
            where PathUtil.lastComponent(path) != "InfoPlist.xcstrings" && seen.insert(path).inserted {
                let source = LocalizedTables.normalize(catalog.sourceLanguage)
                // The languages to compare, before any per-string work: most catalogs of a
                // 100,000-key file have one language only.
                var seenLanguages = Set<String>()
                for string in catalog.strings { for l in string.localizations { seenLanguages.insert(l.language) } }
                let targets = seenLanguages.map(LocalizedTables.normalize)
                    .filter { !LocalizedTables.isDevelopment($0, source) && !LocalizedTables.isPseudo($0) }.sorted()
                guard !targets.isEmpty else { continue }
                var missing: [String: [String]] = [:]
                var total = 0
                for string in catalog.strings where string.shouldTranslate && string.extractionState != "stale" && !string.key.isEmpty {
                    total += 1
                    let have = Set(string.localizations.map { LocalizedTables.normalize($0.language) })
                    for lang in targets where !have.contains(lang) { missing[lang, default: []].append(string.key) }
                }
                for lang in targets {
                    guard let keys = missing[lang], !keys.isEmpty else { continue }
                    out.append(report(table: PathUtil.removingExtension(PathUtil.lastComponent(path)), language: lang, missing: keys.sorted(),
                                      total: total, reference: source, bundle: b.name, path: path))
                }
            }
        }
        return out
    }

    func report(table: String, language: String, missing: [String], total: Int, reference: String, bundle: String, path: String) -> Finding {
        // At least 90% translated: a few keys forgotten. Less: a deliberately partial language.
        let forgotten = missing.count * 10 <= total
        var f = finding("\(table) has no \(language) text for \(missing.count) of \(total) keys (\(LocalizedTables.examples(missing))); \(language) users see the \(reference) text\(forgotten ? "" : " — a partial translation")",
                        bundle: bundle, at: FileLocation(path: path), key: table,
                        fix: "Translate the missing keys into \(language), or remove the language if it is not supported.",
                        fingerprint: [table, language])
        if !forgotten { f.severity = .note }
        return f
    }
}
