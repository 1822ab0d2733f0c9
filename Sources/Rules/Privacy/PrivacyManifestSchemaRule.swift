import Foundation
import Artifacts
import Evidence
import Formats

public struct PrivacyManifestSchemaRule: Rule {
    public init() {}
    typealias Document = PrivacyManifestDocument
    typealias Catalog = PrivacyManifestCatalog

    public static let description = RuleDescription(
        identifier: "privacy_manifest_schema",
        name: "Privacy manifest key or type not in Apple's schema",
        summary: "A PrivacyInfo.xcprivacy key is unknown or misspelled, in the wrong dictionary, of the wrong type, repeated, or missing from an entry.",
        rationale: """
        App Store Connect checks every privacy manifest of the app — the app, its extensions and \
        frameworks (ITMS-91056) and, since 2024-11-12, any other location such as an SDK's \
        resource bundle (ITMS-91108) — and rejects the upload when "keys and values in your \
        app's privacy manifests" are not valid: a key Apple does not define (often a \
        misspelling such as `NSPrivacyAccessedAPITypeReason`), a value of the wrong type \
        (`NSPrivacyAccessedAPITypeReasons` written as one `<string>` instead of an `<array>`, \
        `NSPrivacyTracking` as `<string>NO</string>`), or an `NSPrivacyAccessedAPITypes` entry \
        without its category and reasons (an empty `<dict/>`). These are errors; the finding \
        names the key path and the closest documented key.

        Warnings: a key written twice in one dictionary (only the last value counts), and an \
        `NSPrivacyCollectedDataTypes` entry that lacks one of the four keys Apple documents for \
        it (`NSPrivacyCollectedDataType`, `…Linked`, `…Tracking`, `…Purposes`), which leaves the \
        privacy report Xcode builds from the manifests incomplete.

        An empty manifest (`<dict/>`) is valid, and Apple documents every root key as optional, \
        so a missing root key is not reported (two reports of resource-bundle manifests with \
        only `NSPrivacyTracking` rejected as ITMS-91056 are unconfirmed).
        """,
        area: .privacyManifest, severity: .error, tags: ["privacy", "app-review"],
        references: [PrivacyManifestCatalog.schemaSource, PrivacyManifestCatalog.dataUseSource, "ITMS-91056", "ITMS-91108"],
        itms: ["ITMS-91056", "ITMS-91108"],
        triggering: [
            RuleExample(Document.example("""
                <key>NSPrivacyTracking</key>
                ↓<string>NO</string>
                <key>NSPrivacyAccessedAPITypes</key>
                <array>
                \t<dict>
                \t\t<key>NSPrivacyAccessedAPIType</key>
                \t\t<string>NSPrivacyAccessedAPICategoryUserDefaults</string>
                \t\t↓<key>NSPrivacyAccessedAPITypeReason</key>
                \t\t<array><string>CA92.1</string></array>
                \t</dict>
                \t↓<dict/>
                </array>
                """),
                        note: "A Boolean written as a string, a misspelled key (did you mean NSPrivacyAccessedAPITypeReasons?) and an empty entry: ITMS-91056."),
            RuleExample(Document.builtExample("""
                <key>NSPrivacyAccessedAPITypes</key>
                <array>
                \t<dict>
                \t\t<key>NSPrivacyAccessedAPIType</key>
                \t\t<string>NSPrivacyAccessedAPICategoryFileTimestamp</string>
                \t\t<key>NSPrivacyAccessedAPITypeReasons</key>
                \t\t↓<string>C617.1</string>
                \t</dict>
                </array>
                ↓<key>NSPrivacyCollectedDataType</key>
                <string>NSPrivacyCollectedDataTypeCrashData</string>
                """), kind: .app,
                        note: "An SDK's resource bundle in a built app: reasons as a string instead of an array, and a data-type key outside NSPrivacyCollectedDataTypes (ITMS-91108)."),
            RuleExample(Document.example("""
                <key>NSPrivacyCollectedDataTypes</key>
                <array>
                \t↓<dict>
                \t\t<key>NSPrivacyCollectedDataType</key>
                \t\t<string>NSPrivacyCollectedDataTypeCrashData</string>
                \t\t<key>NSPrivacyCollectedDataTypeLinked</key>
                \t\t<false/>
                \t\t<key>NSPrivacyCollectedDataTypeTracking</key>
                \t\t<false/>
                \t</dict>
                </array>
                <key>NSPrivacyTracking</key>
                <false/>
                ↓<key>NSPrivacyTracking</key>
                <false/>
                """),
                        note: "Warnings: a collected data type without its purposes, and a root key written twice."),
        ],
        nonTriggering: [
            RuleExample(Document.example(""), note: "An empty manifest is valid."),
            RuleExample(Document.example("""
                <key>NSPrivacyTracking</key>
                <false/>
                <key>NSPrivacyTrackingDomains</key>
                <array/>
                \(Document.collectedData([("<string>NSPrivacyCollectedDataTypeCrashData</string>", ["NSPrivacyCollectedDataTypePurposeAppFunctionality"])]))
                <key>NSPrivacyAccessedAPITypes</key>
                <array>
                \(Document.accessedAPI("NSPrivacyAccessedAPICategoryUserDefaults", ["<string>CA92.1</string>"]))
                </array>
                """), note: "All four root keys, each entry complete."),
            RuleExample(MalformedPrivacyManifestRule.appWithSDKManifest(reasons: "<array><string>CA92.1</string></array>"), kind: .app,
                        note: "A framework's manifest in a built app."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for b in context.product.bundles where b.kind.ships {
            for file in b.privacyManifests {
                guard let root = file.root, root.dictionary == nil else { continue }
                out.append(error("\(PathUtil.lastComponent(file.path)) of \(b.name) has a \(root.value.typeName) at its root where Apple's schema has a dictionary; App Store Connect rejects an invalid privacy manifest (ITMS-91056/ITMS-91108)",
                                 bundle: b, at: FileLocation(path: file.path, position: root.position), key: "",
                                 fix: "Make the root a <dict>; an empty <dict/> is a valid manifest.", file: file.path))
            }
        }
        return out + eachManifest(context, problems: "schema problems", key: "") { doc in
            var found = check(doc.root, keys: Catalog.rootKeys, keyPath: "", in: doc)
            for entry in doc.entries(Catalog.collectedDataTypes) {
                found += check(entry, keys: Catalog.collectedDataTypeKeys, in: doc, missingIsError: false)
            }
            for entry in doc.entries(Catalog.accessedAPITypes) {
                found += check(entry, keys: Catalog.accessedAPITypeKeys, in: doc, missingIsError: true)
            }
            return found
        }
    }

    /// An entry of an array of dictionaries: empty, lacking keys, or with keys of its own dictionary checked.
    func check(_ entry: Document.Entry, keys: [Catalog.Key], in doc: Document, missingIsError: Bool) -> [Finding] {
        let required = keys.filter(\.required).map(\.name)
        // A misspelled key is reported as such, not also as missing.
        let names = keys.map(\.name)
        let meant = Set(entry.dictionary.keys.lazy.filter { !names.contains($0) }.prefix(Self.suggestionLimit)
            .compactMap { Document.suggestion(for: $0, among: names) })
        let missing = required.filter { entry.dictionary.entry($0) == nil && !meant.contains($0) }
        var out: [Finding] = []
        if entry.dictionary.entries.isEmpty {
            out.append(error("\(doc.name): \(entry.keyPath) is an empty dictionary; App Store Connect rejects it as an invalid privacy manifest (\(doc.invalidCode))",
                             bundle: doc.bundle, at: doc.location(entry.position), key: entry.keyPath,
                             fix: "Remove the empty <dict/>, or fill it with \(required.joined(separator: " and ")).", file: doc.path))
        } else if !missing.isEmpty {
            let message = "\(doc.name): \(entry.keyPath) lacks \(missing.joined(separator: ", "))"
            let tail = missingIsError ? "; App Store Connect rejects an incomplete declaration as an invalid privacy manifest (\(doc.invalidCode))"
                : "; Apple documents all four keys for each collected data type, and Xcode's privacy report reads them"
            var f = error(message + tail, bundle: doc.bundle, at: doc.location(entry.position), key: entry.keyPath,
                          fix: "Add \(missing.joined(separator: " and ")) to the dictionary.", file: doc.path)
            if !missingIsError { f.severity = .warning }
            out.append(f)
        }
        return out + check(entry.dictionary, keys: keys, keyPath: entry.keyPath + ".", in: doc)
    }

    /// Unknown, misplaced, repeated and mistyped keys of one dictionary of the manifest.
    func check(_ dictionary: PlistDictionary, keys: [Catalog.Key], keyPath: String, in doc: Document) -> [Finding] {
        var out: [Finding] = []
        var last: [String: PlistEntry] = [:]  // one pass, not a search per key: a hostile dictionary repeats thousands
        for entry in dictionary.entries { last[entry.key] = entry }
        for key in dictionary.duplicateKeys {
            var f = error("\(doc.name) sets \(keyPath)\(key) more than once; only the last value is used",
                          bundle: doc.bundle, at: doc.location(last[key]?.keyPosition),
                          key: keyPath + key, fix: "Remove all but one \(key), keeping the value you mean.", file: doc.path)
            f.severity = .warning
            out.append(f)
        }
        var unknown = 0
        for entry in dictionary.entries {
            let path = keyPath + entry.key
            guard let key = keys.first(where: { $0.name == entry.key }) else {
                unknown += 1
                out.append(unknownKey(entry, path: path, keys: keys, in: doc, suggest: unknown <= Self.suggestionLimit))
                continue
            }
            out += typeProblems(entry.value, key: key, path: path, in: doc)
        }
        return out
    }

    /// Unknown keys of one dictionary that get a suggestion; beyond them (only a hostile
    /// manifest has so many) none is computed.
    static let suggestionLimit = 50

    func unknownKey(_ entry: PlistEntry, path: String, keys: [Catalog.Key], in doc: Document, suggest: Bool) -> Finding {
        let location = doc.location(entry.keyPosition ?? entry.value.position)
        if Catalog.allKeys.contains(where: { $0.name == entry.key }) {
            let home = Catalog.rootKeys.contains { $0.name == entry.key } ? "the manifest's root dictionary"
                : Catalog.accessedAPITypeKeys.contains { $0.name == entry.key } ? "each dictionary of NSPrivacyAccessedAPITypes"
                : "each dictionary of NSPrivacyCollectedDataTypes"
            return error("\(doc.name): \(path) belongs in \(home); App Store Connect rejects a key out of place as an invalid privacy manifest (\(doc.invalidCode))",
                         bundle: doc.bundle, at: location, key: path, fix: "Move \(entry.key) into \(home).", file: doc.path)
        }
        let suggestion = !suggest ? nil : Document.suggestion(for: entry.key, among: keys.map(\.name))
            ?? Document.suggestion(for: entry.key, among: Catalog.allKeys.map(\.name))
        let fix = suggestion.map { "Rename \(entry.key) to \($0)." } ?? "Remove \(entry.key); the keys Apple defines here are \(keys.map(\.name).joined(separator: ", "))."
        return error("\(doc.name): \(path) is not a privacy manifest key\(Document.didYouMean(suggestion)); App Store Connect rejects keys Apple does not define (\(doc.invalidCode))",
                     bundle: doc.bundle, at: location, key: path, fix: fix, file: doc.path)
    }

    /// A value of the wrong type, or elements of the wrong type in an array.
    func typeProblems(_ node: PlistNode, key: Catalog.Key, path: String, in doc: Document) -> [Finding] {
        func wrong(_ found: PlistNode, _ path: String, expected: String, fix: String) -> Finding {
            error("\(doc.name): \(path) is a \(found.value.typeName) where Apple's schema has \(expected); App Store Connect rejects an invalid privacy manifest (\(doc.invalidCode))",
                  bundle: doc.bundle, at: doc.location(found.position), key: path, fix: fix, file: doc.path)
        }
        switch key.type {
        case .boolean:
            return node.bool == nil ? [wrong(node, path, expected: "a Boolean", fix: "Write <true/> or <false/>.")] : []
        case .string:
            return node.string == nil ? [wrong(node, path, expected: "a string", fix: "Write the value as one <string>.")] : []
        case .arrayOfStrings, .arrayOfDictionaries:
            let strings = key.type == .arrayOfStrings
            guard let items = node.array else {
                let what = strings ? "<string> elements" : "one <dict> per entry"
                return [wrong(node, path, expected: "an array", fix: "Write the value as an <array> of \(what), even for a single one.")]
            }
            return items.enumerated().compactMap { i, item in
                if strings ? item.string != nil : item.dictionary != nil { return nil }
                return wrong(item, "\(path)[\(i)]", expected: strings ? "a string" : "a dictionary",
                             fix: strings ? "Write each element as a <string>." : "Write each entry as a <dict>.")
            }
        }
    }

    func error(_ message: String, bundle: AppBundle, at location: FileLocation, key: String, fix: String, file: String) -> Finding {
        finding(message, bundle: bundle.name, at: location, key: key, fix: fix, fingerprint: [file])
    }
}
