import Foundation
import Artifacts
import Evidence
import Formats

/// Shared knowledge of purpose strings for the privacy rules.
enum PurposeStrings {
    static let catalogKeys: Set<String> = Set(ProtectedResourceCatalog.standard.resources.map(\.key))

    static func isPurposeKey(_ key: String) -> Bool {
        catalogKeys.contains(key) || key.hasSuffix("UsageDescription")
    }

    /// Every purpose string a bundle declares, as the built Info.plist will have it.
    static func declared(in bundle: Artifacts.Bundle) -> [(key: String, value: String?, location: FileLocation)] {
        bundle.infoKeys.filter(isPurposeKey).compactMap { key in
            guard let v = bundle.infoValue(key) else { return nil }
            // Point at the value (what is wrong), else at the key or the generating build setting.
            let at = FileLocation(path: v.location.path, position: v.node.position ?? v.location.position)
            return (key, v.node.string.map(bundle.expandingBuildSettings), at)
        }
    }

    /// Localized values from every `InfoPlist.strings` of the bundle.
    static func localized(in bundle: Artifacts.Bundle) -> [(language: String, key: String, value: String, location: FileLocation)] {
        var out: [(String, String, String, FileLocation)] = []
        for file in bundle.localizations where file.kind == .infoPlistStrings {
            guard let lang = file.language, let table = bundle.infoPlistStrings[lang] else { continue }
            for e in table.entries where isPurposeKey(e.key) {
                out.append((lang, e.key, e.value, FileLocation(path: file.path, position: e.valuePosition ?? e.keyPosition)))
            }
        }
        return out
    }

    static let placeholders: Set<String> = [
        "todo", "tbd", "fixme", "test", "testing", "description", "placeholder", "xxx", "xx", "x",
        "usage description", "purpose", "purpose string", "n/a", "na", "none", "null", "nil", "string",
        "your description here", "add description", "description here", "enter description", "text",
    ]

    /// Why a purpose string is unusable (empty, placeholder, unresolved), or nil. References
    /// to build settings are only a defect where the settings are known: in built apps and in
    /// Xcode projects (a source folder without a project cannot resolve `$(PRODUCT_NAME)`).
    static func defect(_ value: String, settingsKnown: Bool = false) -> String? {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return value.isEmpty ? "is empty" : "is only white space" }
        if trimmed.contains("$(") || trimmed.contains("${") {
            return settingsKnown ? "contains an unresolved build setting (\(trimmed))" : nil
        }
        let folded = trimmed.lowercased().trimmingCharacters(in: CharacterSet.punctuationCharacters.union(.whitespaces))
        if placeholders.contains(folded) || folded.hasPrefix("lorem ipsum") || folded.hasPrefix("todo:") || folded.hasPrefix("todo ")
            || folded.hasPrefix("fixme") || trimmed.allSatisfy({ $0 == "." || $0 == "-" || $0 == "_" || $0 == "?" }) {
            return "is a placeholder (\"\(trimmed)\")"
        }
        // The key's own name (or Xcode's label for it) copied into the value, as a generated
        // InfoPlist.strings does before anyone translates it.
        if (isPurposeKey(trimmed) && !trimmed.contains(" ")) || (folded.hasPrefix("privacy - ") && folded.hasSuffix("usage description")) {
            return "is the key's name, not a description (\"\(trimmed)\")"
        }
        return nil
    }

    /// Words that only restate that a permission is asked for.
    static let fillerWords: Set<String> = [
        "this", "the", "app", "application", "needs", "need", "requires", "require", "required", "uses", "use",
        "wants", "want", "access", "to", "your", "you", "we", "our", "us", "permission", "permissions", "for",
        "allow", "allows", "please", "is", "would", "like", "will", "be", "a", "an", "of", "and", "or", "in",
        "grant", "enable", "request", "requests", "requesting", "usage", "privacy", "accessing", "it", "app's",
        "device", "device's", "my", "can", "may", "must", "should", "has", "have", "used", "with", "on",
    ]

    /// Nouns that name a protected resource; a string made only of these and filler says nothing.
    static let resourceWords: Set<String> = [
        "camera", "cameras", "photo", "photos", "library", "gallery", "pictures", "images", "location", "locations",
        "gps", "position", "microphone", "mic", "audio", "contacts", "contact", "address", "book", "calendar",
        "calendars", "events", "reminders", "bluetooth", "motion", "fitness", "health", "data", "speech",
        "recognition", "face", "id", "faceid", "touch", "biometrics", "biometric", "nfc", "tracking", "track",
        "media", "music", "homekit", "home", "siri", "network", "local", "always", "when", "whenever", "background",
        "information", "info", "services", "service", "store", "save", "saving", "read", "write", "add",
    ]

    /// True when the string only says that access is needed, not why.
    static func isGeneric(_ value: String) -> Bool {
        let words = value.lowercased().split { !$0.isLetter && $0 != "'" }.map(String.init)
        guard !words.isEmpty else { return false }
        return words.allSatisfy { fillerWords.contains($0) || resourceWords.contains($0) }
    }
}
