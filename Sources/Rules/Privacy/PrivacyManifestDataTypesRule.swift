import Foundation
import Artifacts
import Evidence
import Formats

public struct PrivacyManifestDataTypesRule: Rule {
    public init() {}
    typealias Document = PrivacyManifestDocument
    typealias Catalog = PrivacyManifestCatalog

    public static let description = RuleDescription(
        identifier: "privacy_manifest_data_types",
        name: "Unknown collected data type or purpose",
        summary: "An `NSPrivacyCollectedDataTypes` entry names a data type or purpose that is not one of Apple's values, or repeats one.",
        rationale: """
        `NSPrivacyCollectedDataType` takes one of Apple's 35 data-type values (grouped as in App \
        Store Connect's privacy questions: contact info, health and fitness, location, \
        identifiers, usage data, diagnostics…) and `NSPrivacyCollectedDataTypePurposes` values \
        from Apple's six purposes. App Store Connect rejects a manifest whose values are not \
        valid (ITMS-91056, or ITMS-91108 outside the app, extension and framework roots). \
        Values are matched exactly: Apple spells `NSPrivacyCollectedDataTypePhotosorVideos` \
        with a lower-case "or", and "Body" is a group whose values are \
        `NSPrivacyCollectedDataTypeHands` and `…Head`. The finding suggests the closest value.

        Warnings: the same data type in two entries (merge their purposes) and the same \
        purpose twice in one entry.
        """,
        area: .privacyManifest, severity: .error, tags: ["privacy", "app-review"],
        references: [PrivacyManifestCatalog.dataUseSource, "ITMS-91056", "ITMS-91108"],
        triggering: [
            RuleExample(Document.example(Document.collectedData([
                ("↓<string>NSPrivacyCollectedDataTypePhotosOrVideos</string>", ["NSPrivacyCollectedDataTypePurposeAppFunctionality"]),
                ("<string>NSPrivacyCollectedDataTypeCrashData</string>", ["↓NSPrivacyCollectedDataTypePurposeAnalytic"]),
            ])),
                        note: "The data type's case differs from Apple's (PhotosorVideos), and a purpose misspelled: ITMS-91056."),
            RuleExample(Document.builtExample(Document.collectedData([
                ("<string>NSPrivacyCollectedDataTypeDeviceID</string>", ["NSPrivacyCollectedDataTypePurposeAnalytics", "↓NSPrivacyCollectedDataTypePurposeAnalytics"]),
                ("↓<string>NSPrivacyCollectedDataTypeDeviceID</string>", ["NSPrivacyCollectedDataTypePurposeThirdPartyAdvertising"]),
                ("↓<string>NSPrivacyCollectedDataTypeBody</string>", ["NSPrivacyCollectedDataTypePurposeAppFunctionality"]),
            ])), kind: .app,
                        note: "An SDK's resource bundle: a group name used as a value (ITMS-91108), a data type in two entries and a purpose twice (warnings)."),
        ],
        nonTriggering: [
            RuleExample(Document.example(Document.collectedData([
                ("<string>NSPrivacyCollectedDataTypePhotosorVideos</string>", ["NSPrivacyCollectedDataTypePurposeAppFunctionality"]),
                ("<string>NSPrivacyCollectedDataTypeHands</string>", ["NSPrivacyCollectedDataTypePurposeAppFunctionality", "NSPrivacyCollectedDataTypePurposeAnalytics"]),
            ]))),
            RuleExample(Document.example("<key>NSPrivacyCollectedDataTypes</key>\n<array/>"), note: "Collects nothing."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        eachManifest(context, problems: "invalid collected data types or purposes", key: Catalog.collectedDataTypes, check)
    }

    func check(_ doc: Document) -> [Finding] {
        var out: [Finding] = []
        var declared: [String: String] = [:]  // data type → key path of its first entry
        for entry in doc.entries(Catalog.collectedDataTypes) {
            if let type = entry.string(Catalog.collectedDataType) {
                let path = entry.keyPath + "." + Catalog.collectedDataType
                if !Catalog.dataTypes.contains(where: { $0.value == type.value }) {
                    out.append(invalid(type, path: path, kind: "data type", values: Catalog.dataTypes, prefix: "NSPrivacyCollectedDataType", in: doc))
                } else if let first = declared[type.value] {
                    out.append(manifestWarning("\(doc.name): \(path) declares \(type.value) again (first in \(first))", doc, at: type.position,
                                               key: path, fix: "Merge this entry's purposes into the entry of \(first) and remove this one.",
                                               parts: [type.value]))
                } else {
                    declared[type.value] = entry.keyPath
                }
            }
            var seen = Set<String>()
            for purpose in entry.strings(Catalog.collectedDataTypePurposes) {
                let path = "\(entry.keyPath).\(Catalog.collectedDataTypePurposes)[\(purpose.index)]"
                if !Catalog.purposes.contains(where: { $0.value == purpose.value }) {
                    out.append(invalid(purpose, path: path, kind: "purpose", values: Catalog.purposes, prefix: "NSPrivacyCollectedDataTypePurpose", in: doc))
                } else if !seen.insert(purpose.value).inserted {
                    out.append(manifestWarning("\(doc.name): \(path) repeats purpose \(purpose.value)", doc, at: purpose.position, key: path,
                                               fix: "Remove the repeated \(purpose.value).", parts: [entry.keyPath, purpose.value]))
                }
            }
        }
        return out
    }

    /// The values to choose from: those of the group `value` names (`…Body`: Hands, Head), all
    /// of them when they are few (purposes), else where Apple lists them.
    static func choices(for value: String, kind: String, values: [CollectedDataValue], prefix: String) -> String {
        func squeeze(_ s: String) -> String { s.lowercased().filter { $0.isLetter } }
        let named = squeeze(value.hasPrefix(prefix) ? String(value.dropFirst(prefix.count)) : value)
        let group = values.filter { !named.isEmpty && squeeze($0.label).hasPrefix(named) }
        if !group.isEmpty {
            return "\(group[0].label) is a group of Apple's data types, not a value; write one of \(group.map(\.value).joined(separator: ", "))."
        }
        if values.count <= 10 {
            return "Write one of Apple's \(kind) values: \(values.map { "\($0.value) (\($0.label))" }.joined(separator: ", "))."
        }
        return "Write one of the \(values.count) \(kind) values Apple lists in \(PrivacyManifestCatalog.dataUseSource)."
    }

    func invalid(_ item: Document.Item, path: String, kind: String, values: [CollectedDataValue], prefix: String, in doc: Document) -> Finding {
        let suggestion = Document.suggestion(for: item.value, among: values.map(\.value), prefix: prefix)
        let fix = suggestion.map { "Write \($0)." } ?? Self.choices(for: item.value, kind: kind, values: values, prefix: prefix)
        return finding("\(doc.name): \(path) is \"\(item.value.prefix(200))\", not one of Apple's \(kind) values\(Document.didYouMean(suggestion)); App Store Connect rejects a privacy manifest whose values are not valid (\(doc.invalidCode))",
                       bundle: doc.bundle.name, at: doc.location(item.position), key: path, fix: fix,
                       fingerprint: [doc.path, item.value])
    }
}
