import Foundation
import Artifacts
import Evidence

public struct UnusedPurposeStringRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "unused_purpose_string",
        name: "Purpose string without a use",
        summary: "A bundle declares a purpose string but none of its code that Preflight can see uses the resource.",
        rationale: """
        Apple asks apps to request only the data they need (guideline 5.1.1), and a purpose \
        string for a feature that was removed invites reviewer questions. This is a note, not a \
        verdict: SDKs Preflight cannot read, web content and system pickers can also ask. It is \
        only reported where Preflight saw the bundle's code (binaries of built apps, sources of \
        Xcode projects) and the project uses no binary SDKs or dependency managers.
        """,
        area: .privacy, severity: .note, tags: ["privacy"],
        references: ["https://developer.apple.com/app-store/review/guidelines/#5.1.1"],
        triggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/Scanner.m"]),
                         "App/Info.plist": plistXML("<key>NSCameraUsageDescription</key>\n<string>Scan receipts to add them to your expenses.</string>\n<key>NSMicrophoneUsageDescription</key>\n↓<string>Record voice notes.</string>"),
                         "App/Scanner.m": "void scan(void) { [AVCaptureDevice requestAccessForMediaType:AVMediaTypeVideo completionHandler:nil]; }\n"],
                        kind: .project),
        ],
        nonTriggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/Scanner.m"]),
                         "App/Info.plist": plistXML("<key>NSCameraUsageDescription</key>\n<string>Scan receipts to add them to your expenses.</string>"),
                         "App/Scanner.m": "void scan(void) { [AVCaptureDevice requestAccessForMediaType:AVMediaTypeVideo completionHandler:nil]; }\n"],
                        kind: .project),
            RuleExample(["App/Info.plist": plistXML("<key>NSMicrophoneUsageDescription</key><string>Record voice notes.</string>")],
                        note: "A folder without a project or binaries shows no code to judge by."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        let product = context.product
        guard product.kind != .folder, !product.usesExternalCode else { return [] }
        // Uses in a bundle's own code or in frameworks it embeds (which run in its process).
        var usedKeys: [String: Set<String>] = [:]
        for u in context.evidence.usages where u.ships {
            var name: String? = u.bundle
            while let n = name, let b = product.bundle(named: n) {
                usedKeys[b.name, default: []].insert(u.key)
                name = b.parent
                if b.kind != .framework && b.kind != .resourceBundle { break }
            }
        }
        var out: [Finding] = []
        for b in product.bundles where MissingPurposeStringRule.hostKinds.contains(b.kind) {
            let sawCode = !b.sourceFiles.isEmpty || b.binaries.contains { $0.macho != nil }
            guard sawCode else { continue }
            let used = usedKeys[b.name] ?? []
            for d in PurposeStrings.declared(in: b) where d.value != nil && ProtectedResourceCatalog.standard.resource(forKey: d.key) != nil {
                guard !used.contains(d.key), !Self.coveredByRelatedUse(d.key, used) else { continue }
                out.append(finding("\(b.name) declares \(d.key) but none of its code that Preflight read uses it; remove it if the feature is gone (SDKs and web content can also ask)",
                                   bundle: b.name, at: d.location, key: d.key))
            }
        }
        return out
    }

    /// Keys that go together: declaring one of a pair is needed when the other is used.
    static func coveredByRelatedUse(_ key: String, _ used: Set<String>) -> Bool {
        let families: [[String]] = [
            ["NSLocationWhenInUseUsageDescription", "NSLocationAlwaysAndWhenInUseUsageDescription", "NSLocationAlwaysUsageDescription", "NSLocationUsageDescription"],
            ["NSCalendarsUsageDescription", "NSCalendarsFullAccessUsageDescription", "NSCalendarsWriteOnlyAccessUsageDescription"],
            ["NSRemindersUsageDescription", "NSRemindersFullAccessUsageDescription"],
            ["NSBluetoothAlwaysUsageDescription", "NSBluetoothPeripheralUsageDescription"],
            ["NSPhotoLibraryUsageDescription", "NSPhotoLibraryAddUsageDescription"],
            ["NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription"],
        ]
        return families.contains { $0.contains(key) && !used.isDisjoint(with: $0) }
    }
}
