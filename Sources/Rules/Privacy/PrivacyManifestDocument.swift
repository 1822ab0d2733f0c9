import Foundation
import Artifacts
import Evidence
import Formats

/// A privacy manifest whose root is a dictionary, as the `privacy_manifest_*` rules read it:
/// typed access to the keys Apple documents, with where each value was written. Values of the
/// wrong type are skipped here (`privacy_manifest_schema` reports them), so each problem is
/// reported once.
struct PrivacyManifestDocument {
    typealias Catalog = PrivacyManifestCatalog

    let bundle: AppBundle
    let path: String
    let root: PlistDictionary
    /// The app, extension or framework root, which App Store Connect has checked since
    /// 2024-05 (ITMS-91056/91064); elsewhere — resource bundles, subfolders — it has checked
    /// since 2024-11-12 under other codes (ITMS-91108/91107).
    let standardLocation: Bool

    /// A string written in an array or as a value, with its position.
    struct Item {
        let value: String
        let index: Int
        let position: SourcePosition?
    }

    /// A dictionary element of `NSPrivacyCollectedDataTypes` or `NSPrivacyAccessedAPITypes`.
    struct Entry {
        let dictionary: PlistDictionary
        let index: Int
        let position: SourcePosition?
        /// `NSPrivacyAccessedAPITypes[2]`.
        let keyPath: String

        /// The entry's string value of `key`, if it is a string.
        func string(_ key: String) -> Item? {
            guard let e = dictionary.entry(key), let s = e.value.string else { return nil }
            return Item(value: s, index: 0, position: e.value.position ?? e.keyPosition)
        }

        /// The strings of the entry's array `key` (other elements skipped).
        func strings(_ key: String) -> [Item] { PrivacyManifestDocument.strings(dictionary.entry(key)) }
    }

    /// The manifests of every shipping bundle (not test bundles) whose root is a dictionary
    /// (those that cannot be read are `malformed_privacy_manifest`'s; other roots are
    /// `privacy_manifest_schema`'s).
    static func all(_ context: RuleContext) -> [PrivacyManifestDocument] {
        let built = [ProductKind.ipa, .app, .xcarchive].contains(context.product.kind)
        return context.product.bundles.filter(\.kind.ships).flatMap { b in
            b.privacyManifests.compactMap { file -> PrivacyManifestDocument? in
                guard let root = file.root?.dictionary else { return nil }
                let rootKind = [BundleKind.app, .appExtension, .framework, .watchApp, .appClip].contains(b.kind)
                let standard = rootKind && (!built || PathUtil.parent(file.path) == b.path)
                return PrivacyManifestDocument(bundle: b, path: file.path, root: root, standardLocation: standard)
            }
        }
    }

    /// The ITMS code of an invalid manifest at this location.
    var invalidCode: String { standardLocation ? "ITMS-91056" : "ITMS-91108" }
    /// The ITMS code of invalid tracking information at this location.
    var trackingCode: String { standardLocation ? "ITMS-91064" : "ITMS-91107" }

    /// "PrivacyInfo.xcprivacy of Example" — how messages name the manifest.
    var name: String { "\(PathUtil.lastComponent(path)) of \(bundle.name)" }

    func location(_ position: SourcePosition?) -> FileLocation { FileLocation(path: path, position: position) }

    /// The dictionary elements of the root array `key`.
    func entries(_ key: String) -> [Entry] {
        guard let items = root[key]?.array else { return [] }
        return items.enumerated().compactMap { i, node in
            node.dictionary.map { Entry(dictionary: $0, index: i, position: node.position, keyPath: "\(key)[\(i)]") }
        }
    }

    /// The strings of the root array `key` (other elements skipped).
    func strings(_ key: String) -> [Item] { Self.strings(root.entry(key)) }

    static func strings(_ entry: PlistEntry?) -> [Item] {
        guard let items = entry?.value.array else { return [] }
        return items.enumerated().compactMap { i, node in node.string.map { Item(value: $0, index: i, position: node.position) } }
    }

    /// The closest of `candidates` to a misspelled `value`: the same letters in another case,
    /// the value with a prefix it lacks (`UserDefaults` for `NSPrivacyAccessedAPICategoryUserDefaults`),
    /// else a candidate at most a quarter of its length (and at least two) edits away, counted
    /// after `prefix`.
    static func suggestion(for value: String, among candidates: [String], prefix: String = "") -> String? {
        guard !value.isEmpty, value.count <= 120 else { return nil }
        let lower = value.lowercased()
        if let same = candidates.first(where: { $0.lowercased() == lower || $0.lowercased() == prefix.lowercased() + lower }) {
            return same
        }
        // Edits are counted on what follows the shared prefix, so `…TypeBody` is not "close" to `…TypeHead`.
        func tail(_ s: String) -> String { !prefix.isEmpty && s.hasPrefix(prefix) ? String(s.dropFirst(prefix.count)) : s }
        var best: (value: String, distance: Int)?
        for candidate in candidates {
            let d = ATSKeys.editDistance(tail(value), tail(candidate))
            if d <= max(2, tail(candidate).count / 4), d < (best?.distance ?? Int.max) { best = (candidate, d) }
        }
        return best?.value
    }

    /// " (did you mean X?)" or nothing.
    static func didYouMean(_ suggestion: String?) -> String { suggestion.map { " (did you mean \($0)?)" } ?? "" }
}

extension PrivacyManifestDocument {
    /// A source folder whose app target has a privacy manifest with `body` as its root
    /// dictionary's content, for the rules' examples.
    static func example(_ body: String) -> [String: String] {
        ["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
         "App/PrivacyInfo.xcprivacy": plistXML(body)]
    }

    /// A built app embedding an SDK resource bundle whose manifest has `body` as its root
    /// dictionary's content (where App Store Connect uses ITMS-91107/91108).
    static func builtExample(_ body: String) -> [String: String] {
        ["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
         "Example": "binary",
         "AdKit_AdKit.bundle/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>AdKit-AdKit-resources</string>"),
         "AdKit_AdKit.bundle/PrivacyInfo.xcprivacy": plistXML(body)]
    }

    /// `NSPrivacyCollectedDataTypes` with one entry per (data type as written, purposes), each
    /// purpose a `<string>` (a leading `↓` stays before it), for the examples.
    static func collectedData(_ entries: [(type: String, purposes: [String])]) -> String {
        let dicts = entries.map { type, purposes -> String in
            let strings = purposes.map { $0.hasPrefix("↓") ? "\t\t\t↓<string>\($0.dropFirst())</string>\n" : "\t\t\t<string>\($0)</string>\n" }
            return "\t<dict>\n\t\t<key>NSPrivacyCollectedDataType</key>\n\t\t\(type)\n"
                + "\t\t<key>NSPrivacyCollectedDataTypeLinked</key>\n\t\t<false/>\n\t\t<key>NSPrivacyCollectedDataTypeTracking</key>\n\t\t<false/>\n"
                + "\t\t<key>NSPrivacyCollectedDataTypePurposes</key>\n\t\t<array>\n" + strings.joined() + "\t\t</array>\n\t</dict>\n"
        }
        return "<key>NSPrivacyCollectedDataTypes</key>\n<array>\n" + dicts.joined() + "</array>"
    }

    /// The content of one `NSPrivacyAccessedAPITypes` entry declaring `category` with `reasons`
    /// (each written as is, so an example can mark one).
    static func accessedAPI(_ category: String, _ reasons: [String]) -> String {
        """
        \t<dict>
        \t\t<key>NSPrivacyAccessedAPIType</key>
        \t\t<string>\(category)</string>
        \t\t<key>NSPrivacyAccessedAPITypeReasons</key>
        \t\t<array>
        \(reasons.map { "\t\t\t\($0)\n" }.joined())\t\t</array>
        \t</dict>
        """
    }
}

extension Rule {
    /// A warning of this rule (whose default severity is error) about a manifest.
    func manifestWarning(_ message: String, _ doc: PrivacyManifestDocument, at position: SourcePosition?, key: String, fix: String,
                         parts: [String]) -> Finding {
        var f = finding(message, bundle: doc.bundle.name, at: doc.location(position), key: key, fix: fix, fingerprint: [doc.path] + parts)
        f.severity = .warning
        return f
    }
}

extension Rule {
    /// `check` run on every manifest of the context, keeping at most `limit` findings a
    /// manifest: a hostile manifest with thousands of bad values makes one more finding that
    /// counts the rest (at the highest severity among them), not thousands.
    func eachManifest(_ context: RuleContext, problems: String, key: String, limit: Int = 25,
                      _ check: (PrivacyManifestDocument) -> [Finding]) -> [Finding] {
        PrivacyManifestDocument.all(context).flatMap { doc -> [Finding] in
            let found = check(doc)
            guard found.count > limit else { return found }
            let rest = found.dropFirst(limit)
            var more = finding("\(doc.name) has \(rest.count) more \(problems) not listed", bundle: doc.bundle.name, at: doc.location(nil),
                               key: key, fix: "Fix the \(problems) listed, then scan again.", fingerprint: [doc.path])
            more.severity = rest.map(\.severity).max() ?? more.severity
            return Array(found.prefix(limit)) + [more]
        }
    }
}
