import Foundation
import Artifacts

public struct PurposeStringStyleRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "purpose_string_style",
        name: "Purpose string is not a complete sentence",
        summary: "A purpose string does not start with a capital letter or does not end with a period, as the Human Interface Guidelines recommend.",
        rationale: """
        The HIG asks for purpose strings that are complete sentences in sentence case, ending \
        with a period, so the prompt reads like the rest of the system. Opt in with \
        `--enable purpose_string_style`.
        """,
        area: .privacy, severity: .note, optIn: true, tags: ["privacy", "style"],
        references: ["https://developer.apple.com/design/human-interface-guidelines/privacy#Requesting-permission"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key>\n↓<string>scan receipts to add them to your expenses</string>")]),
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>\n<key>NSPhotoLibraryUsageDescription</key>\n↓<string>Attach photos of receipts</string>")],
                        note: "Capitalized, but the sentence does not end."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>")]),
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses!</string>")]),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for (b, views) in context.bundles where b.kind.ships {
            for d in views.declaredPurposeStrings {
                guard let v = d.value?.trimmingCharacters(in: .whitespacesAndNewlines), !v.isEmpty,
                      PurposeStrings.defect(v) == nil, !v.contains("$(") else { continue }
                var problems: [String] = []
                if let first = v.first, first.isLetter, first.isLowercase { problems.append("start with a capital letter") }
                if let last = v.last, !".!?。！？…)\"”".contains(last) { problems.append("end with a period") }
                guard !problems.isEmpty else { continue }
                out.append(finding("\(d.key) of \(b.name) should \(problems.joined(separator: " and ")) (HIG: complete sentences)",
                                   bundle: b.name, at: d.location, key: d.key))
            }
        }
        return out
    }
}
