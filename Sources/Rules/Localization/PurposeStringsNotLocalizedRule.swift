import Foundation
import Artifacts

public struct PurposeStringsNotLocalizedRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "purpose_strings_not_localized",
        name: "Purpose strings never translated",
        summary: "A bundle's interface is localized but its purpose strings are not (no InfoPlist.strings or InfoPlist.xcstrings at all).",
        rationale: """
        Permission prompts are read from Info.plist in the development language unless an \
        `InfoPlist.strings` (or `InfoPlist.xcstrings`) translates them. In an app that is \
        otherwise localized, the prompt — the moment a user decides whether to trust the app — \
        appears in another language. Add an InfoPlist string catalog with the purpose keys.

        Only purpose strings a user can see count: keys iOS reads at the bundle's deployment \
        target (not NSBluetoothPeripheralUsageDescription from iOS 13, nor \
        NSCalendarsUsageDescription and NSRemindersUsageDescription from iOS 17), for resources \
        the bundle's code uses. When Preflight read the bundle's code (a built app's binaries, \
        a project's or folder's sources) and none uses a key's resource, that prompt never \
        shows; when no code could be seen, or the app also uses code Preflight cannot read, \
        every declared key counts.
        """,
        area: .localization, severity: .warning, tags: ["privacy", "localization"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key>↓<string>Scan receipts to add them to your expenses.</string>"),
                         "App/de.lproj/Localizable.strings": "\"Scan\" = \"Scannen\";\n",
                         "App/fr.lproj/Localizable.strings": "\"Scan\" = \"Scanner\";\n"],
                        note: "No code to judge by: every declared key counts."),
            RuleExample(["App/Info.plist": plistXML("<key>NSMicrophoneUsageDescription</key><string>Record voice notes.</string>\n<key>NSCameraUsageDescription</key>↓<string>Scan receipts to add them to your expenses.</string>"),
                         "App/de.lproj/Localizable.strings": "\"Scan\" = \"Scannen\";\n",
                         "App/Scanner.m": ExampleCode.cameraScanner],
                        note: "The code asks for the camera; the finding points at its purpose string."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>"),
                         "App/de.lproj/Localizable.strings": "\"Scan\" = \"Scannen\";\n",
                         "App/de.lproj/InfoPlist.strings": "\"NSCameraUsageDescription\" = \"Belege scannen.\";\n"]),
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>")],
                        note: "An app that is not localized at all shows every text in one language."),
            RuleExample(["App/Info.plist": plistXML("<key>MinimumOSVersion</key><string>15.0</string>\n<key>NSBluetoothPeripheralUsageDescription</key><string>Connect to your card reader.</string>"),
                         "App/de.lproj/Localizable.strings": "\"Connect\" = \"Verbinden\";\n"],
                        note: "iOS 13 and later never read the legacy key, so no prompt shows it (purpose_keys_for_deployment_target notes it)."),
            RuleExample(["App/Info.plist": plistXML("<key>NSMicrophoneUsageDescription</key><string>Record voice notes.</string>"),
                         "App/de.lproj/Localizable.strings": "\"Scan\" = \"Scannen\";\n",
                         "App/Scanner.m": ExampleCode.cameraScanner],
                        note: "None of the code records audio, so the microphone prompt never shows."),
        ])

    static let promptKinds: Set<BundleKind> = [.app, .appExtension, .appClip, .watchApp]

    public func check(_ context: RuleContext) -> [Finding] {
        let use = PurposeKeyUse(context)
        var out: [Finding] = []
        for (b, views) in context.bundles where Self.promptKinds.contains(b.kind) {
            // Only prompts iOS can show: keys it reads, for resources the code may use.
            let declared = views.declaredPurposeStrings.filter { $0.value != nil && use.mayPrompt($0.key, in: b) }
            guard let first = declared.first, InfoPlistLocalizations(b).languages.isEmpty,
                  !b.localizations.contains(where: { $0.kind == .infoPlistStrings }) else { continue }
            let dev = InfoPlistLocalizations.developmentLanguage(b)
            var languages = Set(b.localizations.compactMap(\.language))
            for catalog in b.stringCatalogs.values { languages.formUnion(catalog.languages) }
            languages = languages.filter { $0 != dev && $0 != "Base" && !$0.hasPrefix(dev + "-") }
            guard !languages.isEmpty else { continue }
            out.append(finding("\(b.name) is localized in \(languages.count) other language\(languages.count == 1 ? "" : "s") (\(languages.sorted().prefix(8).joined(separator: ", "))\(languages.count > 8 ? ", …" : "")) but its \(declared.count) purpose string\(declared.count == 1 ? " is" : "s are") only in \(dev)",
                               bundle: b.name, at: first.location, key: nil))
        }
        return out
    }
}
