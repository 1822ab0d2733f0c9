import Foundation
import Artifacts
import Evidence
import Formats

/// A bundle's `.strings` and `.stringsdict` tables (InfoPlist excluded) merged per table name
/// and language, as iOS looks them up: `NSLocalizedString` reads `Table.stringsdict` and
/// `Table.strings` of one language as one table.
struct LocalizedTables: Sendable {
    struct Language {
        var keys = Set<String>()
        var formats: [String: LocalizedFormat] = [:]
        var untranslatable = Set<String>()
        var digests: [String: UInt64] = [:]
        /// The files, for findings about the table as a whole.
        var paths: [String] = []
    }

    /// table → language (normalized) → merged content
    var tables: [String: [String: Language]] = [:]

    init(_ bundle: AppBundle) {
        for file in bundle.localizations where file.kind == .strings || file.kind == .stringsdict {
            guard let lang = file.language, let t = bundle.localizedTables[file.path] else { continue }
            let language = Self.normalize(lang)
            // Taken out of the dictionary so that it is changed in place, not copied.
            var merged = tables[file.table]?.removeValue(forKey: language) ?? Language()
            if merged.paths.isEmpty {
                // The first file of a table and language (most often the only one): its sets are shared, not rebuilt.
                merged.keys = Set(t.keys)
                merged.formats = t.formats
                merged.untranslatable = t.untranslatable
                merged.digests = t.digests
            } else {
                merged.keys.formUnion(t.keys)
                for (k, f) in t.formats { merged.formats[k] = f }
                merged.untranslatable.formUnion(t.untranslatable)
                for (k, d) in t.digests { merged.digests[k] = d }
            }
            merged.paths.append(file.path)
            tables[file.table, default: [:]][language] = merged
        }
    }

    /// A text no user sees as written, so its translation does not matter: a catalog entry
    /// whose note says not to translate it, Interface Builder's default text of a storyboard
    /// key (`abc-12-xyz.text` = "Label"), or a storyboard object whose text the code replaces
    /// (`LocalizationKeyEvidence.codeSetInterfaceTexts`).
    static func isPlaceholder(key: String, value: String?, comment: String? = nil, evidence: LocalizationKeyEvidence.Result) -> Bool {
        if TranslationNeed.saysDoNotTranslate(comment) { return true }
        if let value, TranslationNeed.isInterfacePlaceholder(key: key, value: value) { return true }
        return TranslationNeed.interfaceObjectID(key) != nil && evidence.codeReplaces(key: key)
    }

    /// Pseudo-languages no user can pick: translatewiki's message documentation (`qqq`) and
    /// Windows-style pseudo-locales. Their values describe or stretch the text, not translate it.
    static func isPseudo(_ language: String) -> Bool {
        language == "qqq" || language.hasPrefix("qps-") || language == "en-XA" || language == "ar-XB"
    }

    /// `English` → `en`; other names as written.
    static func normalize(_ language: String) -> String {
        BundleConventions.legacyLanguageNames[language] ?? language
    }

    /// Whether `language` is the development language or one of its regional variants.
    static func isDevelopment(_ language: String, _ dev: String) -> Bool {
        let l = language.lowercased().replacingOccurrences(of: "_", with: "-")
        let d = dev.lowercased().replacingOccurrences(of: "_", with: "-")
        return l == d || l.hasPrefix(d + "-") || d.hasPrefix(l + "-")
    }

    /// The reference a translation is compared with: the development language's table, else
    /// `Base`'s; nil when neither exists (the text then lives in code or storyboards).
    static func reference(_ languages: [String: Language], dev: String) -> (name: String, table: Language)? {
        if let t = languages[dev] { return (dev, t) }
        if let name = languages.keys.sorted().first(where: { isDevelopment($0, dev) }), let t = languages[name] { return (name, t) }
        if let t = languages["Base"] { return ("Base", t) }
        return nil
    }

    /// Keys a translation may leave to the reference text: values that need no translation,
    /// and brand names — keys most of the languages that have them give the reference's
    /// very text (at least two such languages, and more than half).
    static func sharedWithReference(_ reference: Language, translations: [Language]) -> Set<String> {
        var out = reference.untranslatable
        for (key, digest) in reference.digests where !out.contains(key) {
            var have = 0, same = 0
            for t in translations {
                guard let d = t.digests[key] else { continue }
                have += 1
                if d == digest { same += 1 }
            }
            if same >= 2, same * 2 > have { out.insert(key) }
        }
        return out
    }

    /// A few keys for a message, quoted, with "…" when there are more.
    static func examples(_ keys: [String], limit: Int = 3) -> String {
        let shown = keys.prefix(limit).map { "\"\($0.count > 60 ? String($0.prefix(57)) + "..." : $0)\"" }
        return shown.joined(separator: ", ") + (keys.count > limit ? ", …" : "")
    }
}
