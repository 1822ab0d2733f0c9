import Foundation
import Artifacts
import Formats

public struct FormatSpecifierMismatchRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "format_specifier_mismatch",
        name: "Translation's format specifiers differ",
        summary: "A translated string reads other printf-style arguments than the development language's: another type (%@ for %d), more arguments, or fewer.",
        rationale: """
        `String(format:)` and `String.localizedStringWithFormat` read their arguments as the \
        translated format says. When a translation has `%@` where the original has `%d`, the app \
        reads an integer as an object pointer and crashes — only in that language, so testing in \
        the development language never shows it. A translation that reads an argument the \
        original never passes prints garbage or crashes; one that drops an argument loses \
        information. Positional specifiers (`%2$@ %1$d`) may reorder arguments: they are \
        compared by number.

        One finding per table or catalog lists the languages with such texts and their counts, \
        and quotes the first text that reads a wrong argument (a warning); a table whose \
        translations only drop arguments is a note.

        Each `.strings` value and string catalog entry that contains a format specifier is \
        compared with the development language's (a catalog's source language, whose text is \
        the key when it has no entry of its own). Length modifiers (`%ld`, `%lld`) and integer \
        conversions (`%d`, `%u`, `%x`) count as one kind; `100% free` is text, not a format.
        """,
        area: .localization, severity: .warning, tags: ["localization", "crash"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "App/en.lproj/Localizable.strings": "\"items\" = \"%d items in %@\";\n",
                         "App/de.lproj/Localizable.strings": "\"items\" = ↓\"%@ Artikel in %@\";\n"],
                        note: "German reads the count as an object: a crash in German only."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "App/Localizable.xcstrings": """
                         {
                           "sourceLanguage" : "en",
                           "strings" : {
                             "Sent by %@" : { "localizations" : { ↓"fr" : { "stringUnit" : { "state" : "translated", "value" : "Envoyé par %@ à %@" } } } }
                           },
                           "version" : "1.0"
                         }
                         """],
                        note: "The French text reads a second argument nobody passes."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "App/en.lproj/Localizable.strings": "\"move\" = \"Move %@ to %@\";\n\"count\" = \"%ld photos\";\n\"sale\" = \"100% free\";\n",
                         "App/ja.lproj/Localizable.strings": "\"move\" = \"%2$@に%1$@を移動\";\n\"count\" = \"%lu枚の写真\";\n\"sale\" = \"100 % gratuit\";\n"],
                        note: "Numbered arguments may change order; %ld and %lu read the same integer; a percent sign in text is no format."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "App/en.lproj/Localizable.strings": "\"title\" = \"Settings\";\n",
                         "App/fr.lproj/Localizable.strings": "\"title\" = \"Réglages\";\n\"extra\" = \"%@\";\n"],
                        note: "Keys only in a translation are missing_translations' concern, not compared here."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "App/Localizable.xcstrings": """
                         {
                           "sourceLanguage" : "en",
                           "strings" : {
                             "followers %lld %@" : { "localizations" : {
                               "en" : { "stringUnit" : { "state" : "translated", "value" : "%#@followers@" },
                                        "substitutions" : { "followers" : { "formatSpecifier" : "lld", "variations" : { "plural" : { "other" : { "stringUnit" : { "state" : "translated", "value" : "%2$@ followers" } } } } } } },
                               "ko" : { "stringUnit" : { "state" : "translated", "value" : "팔로워 %2$@명" } } } }
                           },
                           "version" : "1.0"
                         }
                         """],
                        note: "The English text is a plural substitution (%#@followers@), not the argument list: not compared (IceCubesApp)."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        var seen = Set<String>()
        for (b, views) in context.bundles where b.kind.ships {
            let dev = LocalizedTables.normalize(InfoPlistLocalizations.developmentLanguage(b))
            let tables = views.localizedTables
            for name in tables.tables.keys.sorted() {
                let languages = tables.tables[name]!
                guard let ref = LocalizedTables.reference(languages, dev: dev), !ref.table.formats.isEmpty else { continue }
                var found: [Mismatch] = []
                for lang in languages.keys.sorted() where lang != ref.name && lang != "Base" && !LocalizedTables.isPseudo(lang) {
                    let table = languages[lang]!
                    for key in ref.table.formats.keys.sorted() {
                        guard let original = ref.table.formats[key], let translated = table.formats[key] ?? plain(key, table),
                              let m = compare(original.value, translated, key: key, language: lang,
                                              path: translatedPath(key, table), seen: &seen) else { continue }
                        found.append(m)
                    }
                }
                if let f = report(name, found, reference: ref.name, bundle: b.name) { out.append(f) }
            }
            for (path, catalog) in b.stringCatalogs.sorted(by: { $0.key < $1.key }) {
                let source = catalog.sourceLanguage
                var found: [Mismatch] = []
                for s in catalog.strings where s.shouldTranslate && s.localizations.contains(where: { $0.language != source }) {
                    let original = s.localization(source)?.value ?? s.key
                    guard original.contains("%") else { continue }
                    for l in s.localizations where l.language != source && !LocalizedTables.isPseudo(l.language) {
                        guard let value = l.value,
                              let m = compare(original, LocalizedFormat(value, position: l.position), key: s.key, language: l.language,
                                              path: path, seen: &seen) else { continue }
                        found.append(m)
                    }
                }
                if let f = report(PathUtil.removingExtension(PathUtil.lastComponent(path)), found, reference: source, bundle: b.name) {
                    out.append(f)
                }
            }
        }
        return out
    }

    /// One translated text whose specifiers differ from the original's.
    struct Mismatch {
        var key: String
        var language: String
        var difference: String
        var original: String
        var translated: String
        var location: FileLocation
        /// Reads an argument as another type, or one nobody passes: a crash or garbage.
        var crashes: Bool
    }

    /// A translation without `%` of a key whose original has one (all arguments dropped); its
    /// text is not kept, so the finding points at the file.
    func plain(_ key: String, _ table: LocalizedTables.Language) -> LocalizedFormat? {
        table.keys.contains(key) ? LocalizedFormat("") : nil
    }

    func translatedPath(_ key: String, _ table: LocalizedTables.Language) -> String {
        table.paths.sorted().first { $0.hasSuffix(".strings") } ?? table.paths.sorted()[0]
    }

    func compare(_ original: String, _ translated: LocalizedFormat, key: String, language: String, path: String,
                 seen: inout Set<String>) -> Mismatch? {
        let o = FormatSpecifiers(original), t = FormatSpecifiers(translated.value)
        guard !o.isEmpty, !o.hasPluralVariable, !t.hasPluralVariable, !o.inconsistent,
              let difference = FormatSpecifiers.difference(original: o, translation: t) else { return nil }
        guard seen.insert("\(path)\u{0}\(language)\u{0}\(key)").inserted else { return nil }
        // Dropping an argument loses text but never crashes.
        return Mismatch(key: key, language: language, difference: difference, original: o.signature,
                        translated: t.isEmpty ? "none" : t.signature, location: FileLocation(path: path, position: translated.position),
                        crashes: !difference.hasPrefix("uses"))
    }

    /// Languages listed in a message; the rest are counted.
    static let listedLanguages = 8

    /// One finding per table: the languages with mismatches and their counts, located at the
    /// first text that crashes (else the first that drops an argument), which it quotes.
    func report(_ table: String, _ found: [Mismatch], reference: String, bundle: String) -> Finding? {
        guard let first = found.first(where: \.crashes) ?? found.first else { return nil }
        var counts: [String: Int] = [:]
        for m in found { counts[m.language, default: 0] += 1 }
        let ordered = counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
        var parts = ordered.prefix(Self.listedLanguages).map { "\($0.key) \($0.value)" }
        if ordered.count > Self.listedLanguages { parts.append("\(ordered.count - Self.listedLanguages) more") }
        let texts = found.count == 1 ? "1 translated text" : "\(found.count) translated texts"
        var f = finding("\(table): \(texts) in \(counts.count) language\(counts.count == 1 ? "" : "s") read other format arguments than \(reference) (\(parts.joined(separator: ", "))); "
                            + "the \(first.language) text of \"\(first.key)\" \(first.difference) (\(reference): \(first.original); \(first.language): \(first.translated))",
                        bundle: bundle, at: first.location, key: first.key,
                        fix: "Use the same specifiers as the \(reference) text in each listed text; number them (%1$@, %2$d) to change their order.",
                        fingerprint: [table])
        if !found.contains(where: \.crashes) { f.severity = .note }
        return f
    }
}
