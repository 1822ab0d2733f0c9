import Foundation
import Artifacts

public struct MissingPurposeStringTranslationRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "missing_purpose_string_translation",
        name: "Purpose string not translated",
        summary: "A purpose string in Info.plist has no translation in some language the bundle localizes its Info.plist for.",
        rationale: """
        When a language has an `InfoPlist.strings` but lacks a purpose key, the permission prompt \
        falls back to the development language in the middle of an otherwise translated app. \
        Reviewers in that storefront read a prompt they may not understand. Add the key to each \
        language's `InfoPlist.strings` (or `InfoPlist.xcstrings`).

        Only prompts a user can see need a translation: a legacy key that iOS no longer reads \
        at the bundle's deployment target (NSCalendarsUsageDescription from iOS 17, \
        NSBluetoothPeripheralUsageDescription from iOS 13, NSLocationAlwaysUsageDescription \
        from iOS 11) is not reported — `purpose_keys_for_deployment_target` says to remove it — \
        and neither is a key whose resource none of the bundle's code uses when Preflight read \
        that code (a built app's binaries, a project's or folder's sources; \
        `unused_purpose_string` notes such keys). A use of any key of the same resource counts \
        (requesting always-location first shows the when-in-use text). When no code of the \
        bundle could be seen (a folder of data files), every declared key is checked. When the \
        bundle's own code was read and does not use the resource but the app also uses code \
        Preflight cannot read (pods, binary frameworks, remote packages), the finding is a \
        note: only that code might ask. Keys no prompt shows (NFCReaderUsageDescription: Core \
        NFC asks no permission) and separate prompts of one resource (the photo library's read \
        and add-only texts, health's share and update texts) are judged one by one.
        """,
        area: .localization, severity: .warning, tags: ["privacy", "localization"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>\n<key>NSLocationWhenInUseUsageDescription</key>↓<string>Show stores near you.</string>"),
                         "App/de.lproj/InfoPlist.strings": "\"NSCameraUsageDescription\" = \"Belege scannen.\";\n",
                         "App/fr.lproj/InfoPlist.strings": "\"NSCameraUsageDescription\" = \"Scanner les reçus.\";\n"],
                        note: "No code to judge by: every declared key is checked."),
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key>↓<string>Scan receipts to add them to your expenses.</string>"),
                         "App/de.lproj/InfoPlist.strings": "\"CFBundleDisplayName\" = \"Belege\";\n",
                         "App/Scanner.m": ExampleCode.cameraScanner],
                        note: "The code asks for the camera, so German users see the English prompt."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NFCReaderUsageDescription</key><string>Read the tag on your membership card.</string>"),
                         "App/de.lproj/InfoPlist.strings": "\"CFBundleDisplayName\" = \"Mitglied\";\n"],
                        note: "Core NFC shows no permission prompt (its scan sheet shows the app's own message), so nobody sees a translation of this key."),
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>"),
                         "App/de.lproj/InfoPlist.strings": "\"NSCameraUsageDescription\" = \"Belege scannen.\";\n",
                         "App/en.lproj/InfoPlist.strings": "\"CFBundleDisplayName\" = \"Receipts\";\n"],
                        note: "The development language (en) falls back to Info.plist by design."),
            RuleExample(["App/Info.plist": plistXML("<key>MinimumOSVersion</key><string>17.0</string>\n<key>NSCalendarsFullAccessUsageDescription</key><string>Add your bookings to your calendar.</string>\n<key>NSCalendarsUsageDescription</key><string>Add your bookings to your calendar.</string>"),
                         "App/de.lproj/InfoPlist.strings": "\"NSCalendarsFullAccessUsageDescription\" = \"Buchungen in den Kalender eintragen.\";\n"],
                        note: "iOS 17 and later never read NSCalendarsUsageDescription: nothing to translate (purpose_keys_for_deployment_target notes it)."),
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>\n<key>NSMicrophoneUsageDescription</key><string>Record voice notes.</string>"),
                         "App/de.lproj/InfoPlist.strings": "\"NSCameraUsageDescription\" = \"Belege scannen.\";\n",
                         "App/Scanner.m": ExampleCode.cameraScanner],
                        note: "None of the code records audio, so the microphone prompt never shows."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        let use = PurposeKeyUse(context)
        var out: [Finding] = []
        for (b, views) in context.bundles where b.kind.ships {
            let loc = InfoPlistLocalizations(b)
            let dev = InfoPlistLocalizations.developmentLanguage(b)
            let languages = loc.languages.filter { $0 != dev && $0 != "Base" && !$0.hasPrefix(dev + "-") }
            guard !languages.isEmpty else { continue }
            // Only prompts iOS can show: keys it reads, for resources the code may use.
            for d in views.declaredPurposeStrings where d.value != nil && use.mayPrompt(d.key, in: b) {
                let missing = languages.filter { loc.byLanguage[$0]?[d.key] == nil }
                guard !missing.isEmpty else { continue }
                var f = finding("\(d.key) of \(b.name) is not translated in \(missing.joined(separator: ", ")) (\(missing.count) of \(languages.count) languages); the prompt falls back to \(dev)",
                                bundle: b.name, at: d.location, key: d.key)
                // The bundle's own code was read and never asks; only packages or pods Preflight
                // cannot read might (GoMap, seafile, element-ios): a note.
                if use.codeUse(of: d.key, in: b) == .unknown && PurposeKeyUse.sawCode(b) { f.severity = .note }
                out.append(f)
            }
        }
        return out
    }
}
