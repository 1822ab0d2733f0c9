import Foundation
import Artifacts
import Evidence

public struct PlaceholderPurposeStringRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "placeholder_purpose_string",
        name: "Empty or placeholder purpose string",
        summary: "A purpose string (NS…UsageDescription) is empty, white space, a placeholder such as \"TODO\", or an unresolved $(SETTING).",
        rationale: """
        iOS shows the purpose string in the permission prompt. App Store Connect rejects empty \
        ones at upload (ITMS-90683 family) and App Review rejects placeholders under guideline \
        5.1.1, which asks that the text explain clearly why the app needs the data. Write a full \
        sentence that names the feature, in Info.plist and in every `InfoPlist.strings`.
        """,
        area: .privacy, severity: .error, tags: ["privacy", "app-review"],
        references: ["https://developer.apple.com/app-store/review/guidelines/#5.1.1", "ITMS-90683",
                     "https://developer.apple.com/documentation/bundleresources/information_property_list/protected_resources"],
        itms: ["ITMS-90738"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key>\n↓<string></string>")]),
            RuleExample(["App/Info.plist": plistXML("<key>NSLocationWhenInUseUsageDescription</key>\n↓<string>TODO</string>")]),
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>"),
                         "App/de.lproj/InfoPlist.strings": "\"NSCameraUsageDescription\" = ↓\"  \";\n"],
                        note: "A translation can be a placeholder too."),
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>"),
                         "App/fr.lproj/InfoPlist.strings": "\"NSCameraUsageDescription\" = ↓\"NSCameraUsageDescription\";\n"],
                        note: "The key's own name as the value, as a generated strings file has it before translation."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: [
                "INFOPLIST_FILE": "App/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.app"]),
                         "App/Info.plist": plistXML("<key>NSMicrophoneUsageDescription</key>↓<string>$(MIC_PURPOSE)</string>")],
                        kind: .project, note: "A build setting that no configuration defines stays unresolved in the built app."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>")]),
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>$(PRODUCT_NAME) scans receipts to add them to your expenses.</string>")],
                        note: "Without a project the build settings are unknown, so references are not reported."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: [
                "INFOPLIST_FILE": "App/Info.plist", "MIC_PURPOSE": "Record voice memos for your notes."]),
                         "App/Info.plist": plistXML("<key>NSMicrophoneUsageDescription</key><string>$(MIC_PURPOSE)</string>")],
                        kind: .project),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleDevelopmentRegion</key><string>en</string>\n<key>NSCameraUsageDescription</key><string>NSCameraUsageDescription</string>"),
                         "App/en.lproj/InfoPlist.strings": "\"NSCameraUsageDescription\" = \"Take a photo to send in the chat.\";\n",
                         "App/de.lproj/InfoPlist.strings": "\"NSCameraUsageDescription\" = \"Ein Foto für den Chat aufnehmen.\";\n"],
                        note: "Every table, the development language's included, replaces the Info.plist value, so no user sees it."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        let settingsKnown = context.product.kind != .folder
        // Targets built as flavours share their tables: judge each distinct string once.
        var memo: [String: String?] = [:]
        func defect(_ value: String) -> String? {
            if let known = memo[value] { return known }
            let found = PurposeStrings.defect(value, settingsKnown: settingsKnown)
            memo[value] = found
            return found
        }
        for (b, views) in context.bundles where b.kind.ships {
            for d in views.declaredPurposeStrings {
                // NSLocationTemporaryUsageDescriptionDictionary and the like are dictionaries.
                if d.value == nil, d.key.hasSuffix("Dictionary") { continue }
                guard let problem = d.value.map(defect) ?? "is not a string" else { continue }
                // Every table, the development language's too, replaces it: users never see it.
                if d.value != nil, InfoPlistLocalizations.everyTableTranslates(d.key, in: b, valid: { defect($0) == nil }) { continue }
                out.append(finding("\(d.key) of \(b.name) \(problem); the permission prompt will not explain why the app asks",
                                   bundle: b.name, at: d.location, key: d.key,
                                   fix: "Describe the feature that needs the data, as a full sentence."))
            }
            for l in views.localizedPurposeStrings {
                guard let problem = defect(l.value) else { continue }
                out.append(finding("\(l.key) of \(b.name) in \(l.language) \(problem)", bundle: b.name, at: l.location, key: l.key,
                                   fingerprint: [l.language]))
            }
        }
        return out
    }
}
