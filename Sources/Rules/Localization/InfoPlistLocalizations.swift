import Foundation
import Artifacts
import Evidence
import Formats

/// How a bundle localizes its Info.plist: `xx.lproj/InfoPlist.strings` tables and
/// `InfoPlist.xcstrings` catalogs, merged per language.
struct InfoPlistLocalizations {
    /// language → key → where the translation is written
    var byLanguage: [String: [String: FileLocation]] = [:]
    /// The files, for locations of language-level findings.
    var fileByLanguage: [String: String] = [:]

    init(_ bundle: AppBundle) {
        for file in bundle.localizations where file.kind == .infoPlistStrings && file.table == "InfoPlist" {
            guard let lang = file.language, let table = bundle.infoPlistStrings[lang] else { continue }
            fileByLanguage[lang] = file.path
            for e in table.entries {
                byLanguage[lang, default: [:]][e.key] = FileLocation(path: file.path, position: e.keyPosition)
            }
        }
        for (path, catalog) in bundle.stringCatalogs where PathUtil.lastComponent(path) == "InfoPlist.xcstrings" {
            for s in catalog.strings {
                for l in s.localizations where l.value != nil || l.hasVariations {
                    byLanguage[l.language, default: [:]][s.key] = FileLocation(path: path, position: l.position ?? s.position)
                    fileByLanguage[l.language] = path
                }
            }
        }
    }

    var languages: [String] { byLanguage.keys.sorted() }

    /// The development language: translations are optional there (Info.plist is the fallback).
    static func developmentLanguage(_ bundle: AppBundle) -> String {
        let v = bundle.resolvedInfoString("CFBundleDevelopmentRegion") ?? "en"
        let language = v.contains("$(") || v.isEmpty ? (bundle.buildSettings["DEVELOPMENT_LANGUAGE"]?.value ?? "en") : v
        return BundleConventions.legacyLanguageNames[language] ?? language
    }

    /// Whether every localized table of the bundle, the development language's included, has a
    /// value for `key`: then the Info.plist value is never shown.
    static func everyTableTranslates(_ key: String, in bundle: AppBundle, valid: (String) -> Bool) -> Bool {
        var languages = Set<String>()
        for file in bundle.localizations where file.kind == .infoPlistStrings && file.table == "InfoPlist" {
            guard let lang = file.language, let table = bundle.infoPlistStrings[lang] else { return false }
            guard let value = table.entries.last(where: { $0.key == key })?.value, valid(value) else { return false }
            languages.insert(lang)
        }
        return languages.contains(developmentLanguage(bundle)) && bundle.stringCatalogs.isEmpty
    }
}
