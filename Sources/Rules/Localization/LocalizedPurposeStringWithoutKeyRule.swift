import Foundation
import Artifacts

public struct LocalizedPurposeStringWithoutKeyRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "localized_purpose_string_without_key",
        name: "Purpose string only translated",
        summary: "A purpose string is translated in InfoPlist.strings but the key is missing from Info.plist.",
        rationale: """
        iOS decides whether a purpose string exists by reading Info.plist; translations are only \
        looked up for keys it finds there. A key that exists only in `InfoPlist.strings` counts as \
        missing: if the code asks for the resource the app is terminated and App Store Connect \
        rejects the upload (ITMS-90683). Add the key to Info.plist, or remove the stray \
        translation.

        How sure the finding is depends on what Preflight knows of the bundle:

        - The bundle's code (or a framework it embeds) uses the resource: an error, add the key \
        (when the use is definite, missing_purpose_string reports it instead: one cause, one \
        finding).
        - No code of the bundle could be seen (a folder of data files): a warning, as the code \
        may ask. When the bundle's own code was read and only code Preflight cannot read (pods, \
        binary frameworks, remote packages) might ask: a note.
        - A table shared with another bundle that declares the key (an extension using the \
        app's `InfoPlist.strings`), unless this bundle's code uses the resource: a warning.
        - A key whose prompt does not exist on the target's platform (Face ID on tvOS): nothing.
        - Preflight read the bundle's code and none uses the resource: a note to remove the \
        stray translation; nothing asks, so nothing is terminated.
        - A legacy key iOS no longer reads at the bundle's deployment target \
        (NSBluetoothPeripheralUsageDescription from iOS 13, NSCalendarsUsageDescription and \
        NSRemindersUsageDescription from iOS 17): a note to remove the translation, never a \
        request to add the key.
        """,
        area: .localization, severity: .error, tags: ["privacy", "localization", "app-review"],
        references: ["ITMS-90683", "https://developer.apple.com/documentation/bundleresources/information_property_list/localizing_keys"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>"),
                         "App/de.lproj/InfoPlist.strings": "\"NSCameraUsageDescription\" = \"Belege scannen.\";\n↓\"NSBluetoothAlwaysUsageDescription\" = \"Mit dem Kartenleser verbinden.\";\n"],
                        note: "No code to judge by: the code may ask for Bluetooth."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.maps</string>"),
                         "App/de.lproj/InfoPlist.strings": "↓\"NSLocationWhenInUseUsageDescription\" = \"Zeigt Läden in Ihrer Nähe.\";\n",
                         "App/Map.swift": "import CoreLocation\n\nlet manager = CLLocationManager()\n"],
                        note: "The code creates a location manager (it may ask), and the translation shows the team meant to declare the key."),
            RuleExample(["App/Info.plist": plistXML("<key>MinimumOSVersion</key><string>15.0</string>\n<key>NSBluetoothAlwaysUsageDescription</key><string>Connect to your card reader.</string>"),
                         "App/de.lproj/InfoPlist.strings": "\"NSBluetoothAlwaysUsageDescription\" = \"Mit dem Kartenleser verbinden.\";\n↓\"NSBluetoothPeripheralUsageDescription\" = \"Mit dem Kartenleser verbinden.\";\n"],
                        note: "iOS 13 and later never read the legacy key: a note to remove the translation."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>"),
                         "App/de.lproj/InfoPlist.strings": "\"NSCameraUsageDescription\" = \"Belege scannen.\";\n\"CFBundleDisplayName\" = \"Belege\";\n"]),
            RuleExample(["App/Info.plist": plistXML("<key>MinimumOSVersion</key><string>12.0</string>\n<key>NSBluetoothPeripheralUsageDescription</key><string>Connect to your card reader.</string>\n<key>NSBluetoothAlwaysUsageDescription</key><string>Connect to your card reader.</string>"),
                         "App/de.lproj/InfoPlist.strings": "\"NSBluetoothPeripheralUsageDescription\" = \"Mit dem Kartenleser verbinden.\";\n\"NSBluetoothAlwaysUsageDescription\" = \"Mit dem Kartenleser verbinden.\";\n",
                         "App/Reader.m": ExampleCode.bluetoothReader],
                        note: "Both keys are in Info.plist; iOS 12 reads the legacy one."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.reader</string>"),
                         "App/de.lproj/InfoPlist.strings": "\"NSBluetoothAlwaysUsageDescription\" = \"Mit dem Kartenleser verbinden.\";\n",
                         "App/Reader.m": ExampleCode.bluetoothReader],
                        note: "The code asks for Bluetooth: missing_purpose_string reports the missing key (one cause, one finding)."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        let use = PurposeKeyUse(context)
        var out: [Finding] = []
        // Which bundles load each InfoPlist table: a table shared with a bundle that declares
        // the key is that bundle's translation.
        var sharers: [String: [AppBundle]] = [:]
        for b in context.product.bundles {
            for f in b.localizations where f.kind == .infoPlistStrings { sharers[f.path, default: []].append(b) }
        }
        // Frameworks' and resource bundles' Info.plists are never read for permission prompts.
        for b in context.product.bundles where b.kind.ships && b.kind != .framework && b.kind != .resourceBundle {
            let loc = InfoPlistLocalizations(b)
            var languagesByKey: [String: [String]] = [:]
            var firstLocation: [String: FileLocation] = [:]
            for lang in loc.languages {
                for (key, at) in loc.byLanguage[lang] ?? [:] where PurposeStrings.isPurposeKey(key) && b.infoValue(key) == nil {
                    languagesByKey[key, default: []].append(lang)
                    if firstLocation[key] == nil || lang < (languagesByKey[key]?.first ?? "") { firstLocation[key] = at }
                }
            }
            for (key, langs) in languagesByKey.sorted(by: { $0.key < $1.key }) {
                let stray = "\(key) is translated for \(b.name) in \(langs.sorted().joined(separator: ", ")) but missing from its Info.plist"
                // A translation nothing can show: a note to remove it, never "add the key".
                let codeUse = use.codeUse(of: key, in: b)
                // One cause, one finding: missing_purpose_string reports the key the code needs.
                if use.definitelyUses(key, in: b) { continue }
                var removal: (why: String, fix: String)?
                // A platform without that prompt never looks the key up (a table shared by iOS and tvOS).
                if !PurposeKeyUse.existsOnPlatform(key, of: b) { continue }
                if !PurposeKeyUse.isRead(key, by: b) {
                    let target = PurposeKeyUse.iOSDeploymentTarget(b) ?? "?", since = PurposeKeyUse.replacedSince(key) ?? "?"
                    removal = ("iOS \(since) and later never read it and the deployment target is iOS \(target), so remove the translation",
                               "Remove \(key) from the InfoPlist.strings files.")
                } else if codeUse == .notUsed {
                    removal = ("none of its code that Preflight read uses the resource, so nothing asks: remove the stray translation (or add the key if a feature needs it)",
                               "Remove \(key) from the InfoPlist.strings files, or add it to Info.plist.")
                }
                if let removal {
                    var f = finding("\(stray); \(removal.why)", bundle: b.name, at: firstLocation[key], key: key, fix: removal.fix)
                    f.severity = .note
                    out.append(f)
                    continue
                }
                let sharedWithDeclarer = firstLocation[key].map { at in
                    (sharers[at.path] ?? []).contains { $0.name != b.name && $0.infoValue(key) != nil }
                } ?? false
                var f = finding("\(stray), so iOS treats it as absent; asking for the resource would terminate the app",
                                   bundle: b.name, at: firstLocation[key], key: key,
                                   fix: "Add \(key) to Info.plist.")
                f.severity = Self.severity(codeUse, sharedWithDeclarer: sharedWithDeclarer, sawCode: PurposeKeyUse.sawCode(b),
                                           definite: use.usesDefinitely(family: key, in: b))
                out.append(f)
            }
        }
        return out
    }

    /// How sure a stray translation's finding is (the rationale's list).
    static func severity(_ codeUse: PurposeKeyUse.CodeUse, sharedWithDeclarer: Bool, sawCode: Bool, definite: Bool) -> Severity {
        switch codeUse {
        // Only indicative evidence (PHPhotoLibrary named by add-only code): it may not ask.
        case .used: return definite ? description.severity : .note
        // Nothing seen asks: a warning when no code was seen, a note when the bundle's own code
        // was read and only packages or pods Preflight cannot read might ask (habitica).
        case .unknown: return sawCode ? .note : .warning
        // A table shared with a bundle that declares the key is that bundle's translation.
        case .notUsed: return sharedWithDeclarer ? .warning : description.severity
        }
    }
}
