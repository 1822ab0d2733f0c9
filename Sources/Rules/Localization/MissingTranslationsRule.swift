import Foundation
import Artifacts
import Evidence
import Formats

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
        finding per table, listing every language that lacks keys with its count, and a few \
        of the keys.

        Many apps ship some languages deliberately partial (community translations). A language \
        that has at least 90% of the keys probably forgot a few: the table is a warning; a table \
        whose languages are all less complete than that is a note. Keys marked `shouldTranslate: false` or stale in a catalog \
        are not counted; tables without a development-language or `Base` version (text that \
        lives in code or storyboards) are not compared, and neither are `InfoPlist` tables and \
        catalogs (their keys are overridden per language on purpose; \
        `missing_purpose_string_translation` checks the purpose strings).

        Keys whose value needs no translation are not counted: numbers, punctuation, format \
        specifiers alone, URLs and e-mail addresses, and brand names — keys that most languages \
        having them give the development language's very text.

        In a project, a translation of the table that is on disk beside it but shipped by no \
        target (left out of the target's localizations) is reported as such, in languages the \
        bundle ships: the fix is to add the file, not to translate. A file identical to the \
        shipped one of its name (an untranslated copy a translation service wrote) is not.

        Storyboard and xib texts that are placeholders are not counted either: a text the code \
        replaces (its object is connected to an outlet that the code assigns `.text`, `.title` \
        or `.placeholder`, or calls `setTitle` on), Interface Builder's default texts ("Label", \
        "Button", "Title", "Lorem ipsum…"), and catalog entries whose note for translators says \
        not to translate them.

        In a project, keys that no string literal of the bundle's code and no storyboard or xib \
        names are left out (and counted in the message) when the code names some key of the \
        table: nobody sees them, so their translation does not matter. A table none of whose \
        keys the code names (keys built at run time, text used by web content) is compared \
        whole.
        """,
        area: .localization, severity: .warning, tags: ["localization"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "App/en.lproj/Localizable.strings↓": "\"greeting\" = \"Hello\";\n\"farewell\" = \"Goodbye\";\n\"thanks\" = \"Thank you\";\n",
                         "App/fr.lproj/Localizable.strings": "\"greeting\" = \"Bonjour\";\n\"farewell\" = \"Au revoir\";\n",
                         "App/de.lproj/Localizable.strings": "\"greeting\" = \"Hallo\";\n"],
                        note: "French lacks \"thanks\", German two keys: one finding for the table lists both languages with their counts."),
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
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/Greeter.swift"],
                              resources: ["App/en.lproj/Localizable.strings", "App/fr.lproj/Localizable.strings"]),
            ]),
                         "App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "App/Greeter.swift": "let hello = NSLocalizedString(\"greeting\", comment: \"\")\nlet bye = String(localized: \"farewell\")\n",
                         "App/en.lproj/Localizable.strings↓": "\"greeting\" = \"Hello\";\n\"farewell\" = \"Goodbye\";\n\"old_banner\" = \"Try our beta\";\n",
                         "App/fr.lproj/Localizable.strings": "\"greeting\" = \"Bonjour\";\n"],
                        kind: .project,
                        note: "The code names \"farewell\", which French lacks; \"old_banner\", named by no code or interface file, is left out and counted."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"],
                              resources: ["App/en.lproj/Localizable.strings", "App/en.lproj/InfoPlist.strings", "App/de.lproj/InfoPlist.strings"]),
            ]),
                         "App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "App/en.lproj/Localizable.strings↓": "\"greeting\" = \"Hello\";\n",
                         "App/en.lproj/InfoPlist.strings": "\"CFBundleDisplayName\" = \"Notes\";\n",
                         "App/de.lproj/InfoPlist.strings": "\"CFBundleDisplayName\" = \"Notizen\";\n",
                         "App/de.lproj/Localizable.strings": "\"greeting\" = \"Hallo\";\n"],
                        kind: .project,
                        note: "The German table exists but the target copies only the English one: the app is in German, its texts in English."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/GreetingViewController.swift"],
                              resources: ["App/Base.lproj/Main.storyboard", "App/en.lproj/Main.strings", "App/fr.lproj/Main.strings"]),
            ]),
                         "App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "App/Base.lproj/Main.storyboard": "<document><scenes><scene><objects><viewController id=\"VCn-00-aaa\" customClass=\"GreetingViewController\"><view><subviews><label text=\"Welcome\" id=\"Lbl-01-abc\"/><label text=\"Label\" id=\"Def-02-xyz\"/><label text=\"Sign in to sync\" id=\"Syn-03-uvw\"/></subviews></view><connections><outlet property=\"greeting\" destination=\"Lbl-01-abc\" id=\"Out-04-qqq\"/></connections></viewController></objects></scene></scenes></document>",
                         "App/GreetingViewController.swift": "final class GreetingViewController: UIViewController {\n    @IBOutlet var greeting: UILabel!\n    func show() { greeting.textColor = .red }\n}\n",
                         "App/en.lproj/Main.strings↓": "\"Lbl-01-abc.text\" = \"Welcome\";\n\"Def-02-xyz.text\" = \"Label\";\n\"Syn-03-uvw.text\" = \"Sign in to sync\";\n",
                         "App/fr.lproj/Main.strings": "\"Syn-03-uvw.text\" = \"Connectez-vous\";\n"],
                        kind: .project,
                        note: "French lacks the storyboard's \"Welcome\", which the code styles but does not replace (\"Label\", Interface Builder's default text, is not counted)."),
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
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/Greeter.swift"],
                              resources: ["App/en.lproj/Localizable.strings", "App/fr.lproj/Localizable.strings"]),
            ]),
                         "App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "App/Greeter.swift": "let hello = NSLocalizedString(\"greeting\", comment: \"\")\n",
                         "App/en.lproj/Localizable.strings": "\"greeting\" = \"Hello\";\n\"old_banner\" = \"Try our beta\";\n\"promo_2019\" = \"Holiday sale\";\n",
                         "App/fr.lproj/Localizable.strings": "\"greeting\" = \"Bonjour\";\n"],
                        kind: .project,
                        note: "French lacks only keys that no code or interface file names: nobody sees them."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"],
                              resources: ["App/en.lproj/Localizable.strings", "App/en.lproj/InfoPlist.strings", "App/de.lproj/InfoPlist.strings"]),
            ]),
                         "App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "App/en.lproj/Localizable.strings": "\"greeting\" = \"Hello\";\n",
                         "App/en.lproj/InfoPlist.strings": "\"CFBundleDisplayName\" = \"Notes\";\n",
                         "App/de.lproj/InfoPlist.strings": "\"CFBundleDisplayName\" = \"Notizen\";\n",
                         "App/de.lproj/Localizable.strings": "\"greeting\" = \"Hello\";\n"],
                        kind: .project,
                        note: "The German file on disk is a byte-for-byte copy of the English one (a translation service's placeholder): shipping it would change nothing (talk-ios)."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "App/en.lproj/Localizable.strings": "\"title\" = \"Notes\";\n\"site\" = \"https://example.com/help\";\n\"range\" = \"%1$@ – %2$@\";\n\"brand\" = \"Acme Sync\";\n",
                         "App/de.lproj/Localizable.strings": "\"title\" = \"Notizen\";\n\"brand\" = \"Acme Sync\";\n",
                         "App/fr.lproj/Localizable.strings": "\"title\" = \"Notes\";\n\"brand\" = \"Acme Sync\";\n",
                         "App/ja.lproj/Localizable.strings": "\"title\" = \"ノート\";\n"],
                        note: "A URL and a format alone need no translation; \"Acme Sync\", kept as it is by German and French, is a name Japanese may show as it is too."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/GreetingViewController.swift"],
                              resources: ["App/Base.lproj/Main.storyboard", "App/en.lproj/Main.strings", "App/fr.lproj/Main.strings",
                                          "App/Settings.xcstrings"]),
            ]),
                         "App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "App/Base.lproj/Main.storyboard": "<document><scenes><scene><objects><viewController id=\"VCn-00-aaa\" customClass=\"GreetingViewController\"><view><subviews><label text=\"Welcome\" id=\"Lbl-01-abc\"/><label text=\"Label\" id=\"Def-02-xyz\"/><label text=\"Sign in to sync\" id=\"Syn-03-uvw\"/></subviews></view><connections><outlet property=\"greeting\" destination=\"Lbl-01-abc\" id=\"Out-04-qqq\"/></connections></viewController></objects></scene></scenes></document>",
                         "App/GreetingViewController.swift": "final class GreetingViewController: UIViewController {\n    @IBOutlet var greeting: UILabel!\n    func show(_ name: String) { greeting.text = name }\n}\n",
                         "App/en.lproj/Main.strings": "\"Lbl-01-abc.text\" = \"Welcome\";\n\"Def-02-xyz.text\" = \"Label\";\n\"Syn-03-uvw.text\" = \"Sign in to sync\";\n",
                         "App/fr.lproj/Main.strings": "\"Syn-03-uvw.text\" = \"Connectez-vous\";\n",
                         "App/Settings.xcstrings": """
                         {
                           "sourceLanguage" : "en",
                           "strings" : {
                             "Hdr-05-abc.text" : { "comment" : "Class = \\"UILabel\\"; ObjectID = \\"Hdr-05-abc\\"; Note = \\"Placeholder - do not translate\\";",
                                                   "localizations" : { "en" : { "stringUnit" : { "state" : "new", "value" : "Size Label" } } } },
                             "Ttl-06-abc.text" : { "localizations" : { "en" : { "stringUnit" : { "state" : "new", "value" : "Storage" } },
                                                                       "de" : { "stringUnit" : { "state" : "translated", "value" : "Speicher" } } } }
                           },
                           "version" : "1.0"
                         }
                         """],
                        kind: .project,
                        note: "The code sets the label's text (its storyboard text is a placeholder), \"Label\" is Interface Builder's default text, and the catalog entry's note says not to translate it (GoMap): nothing a user sees is missing."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        var seen = Set<String>()
        for (b, views) in context.bundles where b.kind.ships {
            let dev = LocalizedTables.normalize(InfoPlistLocalizations.developmentLanguage(b))
            let tables = views.localizedTables
            for name in tables.tables.keys.sorted() {
                let languages = tables.tables[name]!
                guard let ref = LocalizedTables.reference(languages, dev: dev), !ref.table.keys.isEmpty,
                      let refPath = ref.table.paths.sorted().first, seen.insert(refPath).inserted else { continue }
                let unused = Self.unusedKeys(ref.table.keys, table: name, bundle: b, evidence: context.evidence.localizationKeys)
                let translations = languages.filter { $0.key != ref.name && $0.key != "Base" }.map(\.value)
                let evidence = context.evidence.localizationKeys
                let replaced = evidence.codeSetInterfaceTexts.isEmpty ? []
                    : ref.table.keys.filter { LocalizedTables.isPlaceholder(key: $0, value: nil, evidence: evidence) }
                let counted = ref.table.keys.subtracting(unused).subtracting(replaced)
                    .subtracting(LocalizedTables.sharedWithReference(ref.table, translations: translations))
                var gaps: [Gap] = []
                var leftOut = Set<String>()
                for lang in languages.keys.sorted() where lang != ref.name && lang != "Base" && !LocalizedTables.isDevelopment(lang, dev) && !LocalizedTables.isPseudo(lang) {
                    let keys = languages[lang]!.keys
                    let missing = counted.subtracting(keys).sorted()
                    leftOut.formUnion(unused.subtracting(keys))
                    if !missing.isEmpty { gaps.append(Gap(language: lang, missing: missing)) }
                }
                // Translations of this table on disk that no target ships, in languages the bundle ships.
                let shippedLanguages = Set(b.localizations.compactMap(\.language).map(LocalizedTables.normalize))
                var unshipped: [(language: String, path: String)] = []
                for file in b.unshippedLocalizations where file.table == name {
                    guard let lang = file.language.map(LocalizedTables.normalize), shippedLanguages.contains(lang),
                          !LocalizedTables.isDevelopment(lang, dev), !LocalizedTables.isPseudo(lang), lang != "Base",
                          !unshipped.contains(where: { $0.language == lang }) else { continue }
                    unshipped.append((lang, file.path))
                }
                if var f = report(table: name, gaps: gaps, total: counted.count, reference: ref.name, bundle: b.name, path: refPath,
                                  unshipped: unshipped) {
                    if !leftOut.isEmpty {
                        f.message += " (\(leftOut.count) other missing key\(leftOut.count == 1 ? "" : "s") that no code or interface file names left out)"
                    }
                    out.append(f)
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
                    let text = string.localization(catalog.sourceLanguage)?.value ?? string.key
                    if TranslationNeed.needsNone(text) { continue }
                    if LocalizedTables.isPlaceholder(key: string.key, value: text, comment: string.comment,
                                                     evidence: context.evidence.localizationKeys) { continue }
                    let others = string.localizations.filter { $0.language != catalog.sourceLanguage }
                    let same = others.filter { $0.value == text }.count
                    if same >= 2, same * 2 > others.count { continue }  // a brand name
                    total += 1
                    let have = Set(string.localizations.map { LocalizedTables.normalize($0.language) })
                    for lang in targets where !have.contains(lang) { missing[lang, default: []].append(string.key) }
                }
                let gaps = targets.compactMap { lang in missing[lang].map { Gap(language: lang, missing: $0.sorted()) } }
                if let f = report(table: PathUtil.removingExtension(PathUtil.lastComponent(path)), gaps: gaps, total: total,
                                  reference: source, bundle: b.name, path: path) {
                    out.append(f)
                }
            }
        }
        return out
    }

    /// Keys of a table no source literal or interface file names, when the bundle's code
    /// was read and names some key of the table (else the table is used in ways not seen:
    /// keys built at run time, web content, a storyboard's own table).
    static func unusedKeys(_ keys: Set<String>, table: String, bundle: AppBundle, evidence: LocalizationKeyEvidence.Result) -> Set<String> {
        guard evidence.scannedBundles.contains(bundle.name),
              !bundle.interfaceFiles.contains(where: { PathUtil.removingExtension(PathUtil.lastComponent($0)) == table }) else { return [] }
        let named = keys.filter(evidence.referenced.contains)
        return named.isEmpty ? [] : keys.subtracting(named)
    }

    struct Gap {
        var language: String
        var missing: [String]
    }

    /// Languages listed in a finding's message; the rest are counted.
    static let listedLanguages = 8

    /// One finding per table: every language that lacks keys, with its count. A language with
    /// at least 90% of the keys probably forgot a few (a warning, listed first, with examples);
    /// one with less is deliberately partial (a note, when no language forgot any).
    func report(table: String, gaps allGaps: [Gap], total: Int, reference: String, bundle: String, path: String,
                unshipped: [(language: String, path: String)] = []) -> Finding? {
        let notShipped = Set(unshipped.map(\.language))
        let gaps = allGaps.filter { !notShipped.contains($0.language) }
        guard !gaps.isEmpty || !unshipped.isEmpty else { return nil }
        func forgotten(_ g: Gap) -> Bool { g.missing.count * 10 <= total }
        let ordered = gaps.filter(forgotten).sorted { ($0.missing.count, $0.language) < ($1.missing.count, $1.language) }
            + gaps.filter { !forgotten($0) }.sorted { ($0.missing.count, $0.language) < ($1.missing.count, $1.language) }
        let anyForgotten = ordered.first.map(forgotten) ?? false
        var message: [String] = [], fixes: [String] = []
        if !unshipped.isEmpty {
            let files = unshipped.map(\.path)
            message.append("\(LocalizedTables.examples(files)) \(files.count == 1 ? "is" : "are") on disk beside the \(reference) table, "
                           + "but no target ships \(files.count == 1 ? "it" : "them"): users of \(unshipped.map(\.language).joined(separator: ", ")) see the \(reference) text instead")
            fixes.append("Add the translated file\(files.count == 1 ? "" : "s") to the bundle's target (the Localization checkboxes of \(table) in the file inspector).")
        }
        if let first = ordered.first {
            var parts = ordered.prefix(Self.listedLanguages).map { "\($0.language) \($0.missing.count)" }
            if ordered.count > Self.listedLanguages { parts.append("\(ordered.count - Self.listedLanguages) more") }
            let what = anyForgotten ? "" : " (partial translations)"
            message.append("\(table) lacks keys of its \(total) in \(gaps.count) language\(gaps.count == 1 ? "" : "s")\(what): \(parts.joined(separator: ", ")); "
                           + "\(first.language) lacks \(LocalizedTables.examples(first.missing)), and users of these languages see the \(reference) text there")
            fixes.append(anyForgotten
                ? "Translate the missing keys (\(first.language): \(LocalizedTables.examples(first.missing))), or remove the languages the app does not support."
                : "Finish or remove the partial languages; keep them only if showing \(reference) text for the rest is intended.")
        }
        var f = finding(message.joined(separator: "; "), bundle: bundle, at: FileLocation(path: path), key: table,
                        fix: fixes.joined(separator: " "), fingerprint: [table])
        if !anyForgotten && unshipped.isEmpty { f.severity = .note }
        return f
    }
}
