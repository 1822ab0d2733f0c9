import Foundation
import Artifacts
import Evidence
import Formats

public struct PrivacyManifestReasonRule: Rule {
    public init() {}
    typealias Document = PrivacyManifestDocument
    typealias Catalog = PrivacyManifestCatalog

    public static let description = RuleDescription(
        identifier: "privacy_manifest_reason",
        name: "Invalid required-reason API declaration",
        summary: "An `NSPrivacyAccessedAPITypes` entry names a category Apple does not define, or a reason code that is not valid for its category.",
        rationale: """
        Each `NSPrivacyAccessedAPITypes` entry declares one of Apple's five required-reason API \
        categories (`NSPrivacyAccessedAPICategoryFileTimestamp`, `…SystemBootTime`, \
        `…DiskSpace`, `…ActiveKeyboards`, `…UserDefaults`) and reasons from that category's own \
        list. App Store Connect rejects the upload for a category it does not know — a bare \
        `UserDefaults`, a misspelling — with ITMS-91054, and for a reason that belongs to another \
        category or to none — `C617.1` (a file timestamp reason) under DiskSpace, `CA92.1` under \
        FileTimestamp — with ITMS-91055. The finding names the category a misplaced code belongs \
        to and lists the codes valid where it was written, each with what it allows.

        Warnings: the same category declared in two entries, the same reason twice in an entry, \
        and an entry with an empty reason list. Choose reasons by what the code does — Apple \
        reviews them against the app.
        """,
        area: .privacyManifest, severity: .error, tags: ["privacy", "app-review"],
        references: [PrivacyManifestCatalog.requiredReasonSource, "ITMS-91054", "ITMS-91055"],
        itms: ["ITMS-91054", "ITMS-91055"],
        triggering: [
            RuleExample(Document.example("""
                <key>NSPrivacyAccessedAPITypes</key>
                <array>
                \(Document.accessedAPI("NSPrivacyAccessedAPICategoryDiskSpace", ["<string>E174.1</string>", "↓<string>C617.1</string>"]))
                \(Document.accessedAPI("NSPrivacyAccessedAPICategoryFileTimestamp", ["↓<string>c617.1</string>"]))
                </array>
                """),
                        note: "C617.1 is a file timestamp reason, not a disk space one; codes are case-sensitive (ITMS-91055)."),
            RuleExample(Document.example("""
                <key>NSPrivacyAccessedAPITypes</key>
                <array>
                \t<dict>
                \t\t<key>NSPrivacyAccessedAPIType</key>
                \t\t↓<string>UserDefaults</string>
                \t\t<key>NSPrivacyAccessedAPITypeReasons</key>
                \t\t<array><string>CA92.1</string></array>
                \t</dict>
                </array>
                """),
                        note: "A bare category name (did you mean NSPrivacyAccessedAPICategoryUserDefaults?): ITMS-91054."),
            RuleExample(Document.builtExample("""
                <key>NSPrivacyAccessedAPITypes</key>
                <array>
                \(Document.accessedAPI("NSPrivacyAccessedAPICategorySystemBootTime", ["<string>35F9.1</string>"]))
                \t<dict>
                \t\t<key>NSPrivacyAccessedAPIType</key>
                \t\t↓<string>NSPrivacyAccessedAPICategorySystemBootTime</string>
                \t\t<key>NSPrivacyAccessedAPITypeReasons</key>
                \t\t↓<array/>
                \t</dict>
                </array>
                """), kind: .app,
                        note: "Warnings in an SDK's resource bundle: the category declared twice, once with no reason."),
        ],
        nonTriggering: [
            RuleExample(Document.example("""
                <key>NSPrivacyAccessedAPITypes</key>
                <array>
                \(Document.accessedAPI("NSPrivacyAccessedAPICategoryFileTimestamp", ["<string>C617.1</string>", "<string>3B52.1</string>"]))
                \(Document.accessedAPI("NSPrivacyAccessedAPICategoryDiskSpace", ["<string>E174.1</string>"]))
                \(Document.accessedAPI("NSPrivacyAccessedAPICategoryUserDefaults", ["<string>CA92.1</string>", "<string>1C8F.1</string>"]))
                </array>
                """)),
            RuleExample(Document.example("""
                <key>NSPrivacyAccessedAPITypes</key>
                <array>
                \t<dict>
                \t\t<key>NSPrivacyAccessedAPIType</key>
                \t\t<string>NSPrivacyAccessedAPICategoryActiveKeyboards</string>
                \t\t<key>NSPrivacyAccessedAPITypeReasons</key>
                \t\t<string>54BD.1</string>
                \t</dict>
                </array>
                """), note: "Reasons written as a string are privacy_manifest_schema's finding, not this rule's."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        eachManifest(context, problems: "invalid API declarations", key: Catalog.accessedAPITypes, check)
    }

    func check(_ doc: Document) -> [Finding] {
        var out: [Finding] = []
        var declared: [String: String] = [:]  // category → key path of its first entry
        for entry in doc.entries(Catalog.accessedAPITypes) {
            guard let type = entry.string(Catalog.accessedAPIType) else { continue }
            let typePath = entry.keyPath + "." + Catalog.accessedAPIType
            guard let category = Catalog.category(type.value) else {
                let suggestion = Document.suggestion(for: type.value, among: Catalog.categories.map(\.name),
                                                     prefix: "NSPrivacyAccessedAPICategory")
                out.append(finding("\(doc.name): \(typePath) is \"\(type.value)\", not one of Apple's five required-reason API categories\(Document.didYouMean(suggestion)); App Store Connect rejects the upload (ITMS-91054, invalid API category declaration)",
                                   bundle: doc.bundle.name, at: doc.location(type.position), key: typePath,
                                   fix: suggestion.map { "Write \($0)." } ?? "Write one of \(Catalog.categories.map(\.name).joined(separator: ", ")).",
                                   fingerprint: [doc.path, type.value]))
                continue
            }
            if let first = declared[category.name] {
                out.append(manifestWarning("\(doc.name): \(typePath) declares \(category.name) again (first in \(first)); declare each category once, with all its reasons",
                                   doc, at: type.position, key: typePath, fix: "Merge the reasons into the entry of \(first) and remove this one.",
                                   parts: [category.name]))
            } else {
                declared[category.name] = entry.keyPath
            }
            out += reasons(of: entry, category: category, in: doc)
        }
        return out
    }

    func reasons(of entry: Document.Entry, category: RequiredReasonCategory, in doc: Document) -> [Finding] {
        var out: [Finding] = []
        let reasonsPath = entry.keyPath + "." + Catalog.accessedAPITypeReasons
        let valid = category.reasons.map { "\($0.code) (\($0.meaning))" }.joined(separator: "; ")
        if let list = entry.dictionary.entry(Catalog.accessedAPITypeReasons), list.value.array?.isEmpty == true {
            out.append(manifestWarning("\(doc.name): \(reasonsPath) lists no reason for \(category.name); the declaration does not say why the app uses \(category.summary)",
                               doc, at: list.value.position ?? list.keyPosition, key: reasonsPath,
                               fix: "Add the reasons that apply: \(valid).", parts: [category.name]))
        }
        var seen = Set<String>()
        for reason in entry.strings(Catalog.accessedAPITypeReasons) {
            let path = "\(reasonsPath)[\(reason.index)]"
            guard category.reason(reason.value) != nil else {
                out.append(invalid(reason, path: path, category: category, valid: valid, in: doc))
                continue
            }
            if !seen.insert(reason.value).inserted {
                out.append(manifestWarning("\(doc.name): \(path) repeats reason \(reason.value) of \(category.name)", doc, at: reason.position,
                                   key: path, fix: "Remove the repeated \(reason.value).", parts: [category.name, reason.value]))
            }
        }
        return out
    }

    /// A reason code that is not valid for `category`: another category's, a misspelling, or no code at all.
    func invalid(_ reason: Document.Item, path: String, category: RequiredReasonCategory, valid: String, in doc: Document) -> Finding {
        let others = Catalog.categories(withReason: reason.value)
        let what: String
        var fix = "Use a reason of \(category.name): \(valid)."
        if let other = others.first {
            what = "\(reason.value) is a reason for \(other.summary) (\(other.name)), not for \(category.summary)"
            fix += " If the code uses \(other.summary), declare \(reason.value) in an \(other.name) entry instead."
        } else if let spelled = Self.spelling(of: reason.value, in: category) {
            what = "\"\(reason.value)\" is not a reason code (codes are matched exactly; did you mean \(spelled)?)"
            fix = "Write \(spelled)."
        } else {
            what = "\"\(reason.value)\" is not one of Apple's reason codes for \(category.summary)"
        }
        return finding("\(doc.name): \(path): \(what); App Store Connect rejects the upload (ITMS-91055, invalid API reason declaration)",
                       bundle: doc.bundle.name, at: doc.location(reason.position), key: path, fix: fix,
                       fingerprint: [doc.path, category.name, reason.value])
    }

    /// The code of `category` that `value` spells another way: lower case, without `.1`, with spaces.
    static func spelling(of value: String, in category: RequiredReasonCategory) -> String? {
        var normal = value.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
        if !normal.contains(".") { normal += ".1" }
        return category.reason(normal)?.code
    }
}
