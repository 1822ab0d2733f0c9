import Foundation
import Artifacts
import Evidence

public struct GenericPurposeStringRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "generic_purpose_string",
        name: "Purpose string does not say why",
        summary: "A purpose string only restates the permission (\"This app needs camera access\") instead of explaining what it is for.",
        rationale: """
        Guideline 5.1.1 asks that purpose strings clearly and completely describe the use of the \
        data; App Review rejects strings that merely name the permission. Say which feature uses \
        it and how the user benefits: "Scan receipts to add them to your expenses."
        """,
        area: .privacy, severity: .warning, tags: ["privacy", "app-review"],
        references: ["https://developer.apple.com/app-store/review/guidelines/#5.1.1",
                     "https://developer.apple.com/design/human-interface-guidelines/privacy#Requesting-permission"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key>\n↓<string>This app needs access to your camera.</string>")]),
            RuleExample(["App/Info.plist": plistXML("<key>NSLocationWhenInUseUsageDescription</key>\n↓<string>Location access required</string>")]),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>")]),
            RuleExample(["App/Info.plist": plistXML("<key>NSLocationWhenInUseUsageDescription</key><string>Your location is used to show nearby stores.</string>")]),
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>TODO</string>")],
                        note: "Placeholders are reported by placeholder_purpose_string instead."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for b in context.product.bundles where b.kind.ships {
            for d in PurposeStrings.declared(in: b) {
                guard let v = d.value, PurposeStrings.defect(v) == nil, PurposeStrings.isGeneric(v) else { continue }
                out.append(finding("\(d.key) of \(b.name) (\"\(v)\") only names the permission; say which feature uses it and why",
                                   bundle: b.name, at: d.location, key: d.key))
            }
        }
        return out
    }
}
