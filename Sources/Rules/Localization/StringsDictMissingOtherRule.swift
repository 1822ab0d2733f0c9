import Foundation
import Artifacts

public struct StringsDictMissingOtherRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "stringsdict_missing_other",
        name: "Plural rule without `other`",
        summary: "A `.stringsdict` plural variable has no `other` form.",
        rationale: """
        `other` is the one plural category every language uses, and the form iOS falls back to \
        for any count a language's rules do not name. Without it, counts outside the forms \
        given (in English, every count but 1 when only `one` is written) show the format key \
        itself. Add an `other` form to each plural variable.
        """,
        area: .localization, severity: .warning, tags: ["localization"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "App/en.lproj/Localizable.stringsdict": plistXML("↓<key>files</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@n@</string><key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string><key>NSStringFormatValueTypeKey</key><string>d</string><key>one</key><string>1 file</string><key>many</key><string>%d files</string></dict></dict>")],
                        note: "`many` is not English's general form: 2 files shows nothing sensible."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "App/ru.lproj/Localizable.stringsdict": plistXML("↓<key>days</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@d@</string><key>d</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string><key>NSStringFormatValueTypeKey</key><string>d</string><key>one</key><string>%d день</string><key>few</key><string>%d дня</string></dict></dict>")],
                        note: "Russian with one and few only: 5 days shows the raw format."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "App/en.lproj/Localizable.stringsdict": plistXML("<key>files</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@n@</string><key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string><key>NSStringFormatValueTypeKey</key><string>d</string><key>one</key><string>1 file</string><key>other</key><string>%d files</string></dict></dict>")]),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "App/en.lproj/Localizable.stringsdict": plistXML("<key>title</key><dict><key>NSStringVariableWidthRuleType</key><dict><key>20</key><string>Settings</string><key>40</key><string>Application settings</string></dict></dict>")],
                        note: "Width variants have no plural forms."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>"),
                         "App/ru.lproj/Localizable.stringsdict": plistXML("<key>digits</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@COUNT@</string><key>COUNT</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string><key>NSStringFormatValueTypeKey</key><string>d</string><key>one</key><string>%d цифра</string><key>few</key><string>%d цифры</string><key>many</key><string>%d цифр</string></dict></dict>")],
                        note: "Russian one/few/many of an integer cover every count; other is for fractions (element-x-ios)."),
        ])

    /// `one`, `few` and `many` of an integer cover every integer in the Slavic languages that
    /// use them (Russian, Ukrainian, Belarusian, Polish): `other` is only for fractions there.
    static func coversEveryInteger(_ p: PluralWithoutOther) -> Bool {
        let integer = p.valueType.map { t in ["d", "i", "u", "o", "x", "X"].contains(String(t.last ?? " ")) } ?? false
        return integer && Set(["one", "few", "many"]).isSubset(of: p.categories)
    }

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        var seen = Set<String>()
        for b in context.product.bundles where b.kind.ships {
            for file in b.localizations where file.kind == .stringsdict && seen.insert(file.path).inserted {
                guard let table = b.localizedTables[file.path] else { continue }
                for p in table.pluralsWithoutOther where !Self.coversEveryInteger(p) {
                    out.append(finding("Plural variable \(p.name) in \(file.path) has no \"other\" form (only \(p.categories.joined(separator: ", "))); counts its forms do not cover show the raw format",
                                       bundle: b.name, at: FileLocation(path: file.path, position: p.position), key: p.name,
                                       fix: "Add <key>other</key><string>…</string> to the variable.", fingerprint: [p.name]))
                }
            }
        }
        return out
    }
}
