import Foundation
import Artifacts
import Evidence

public struct UnknownLocalizedInfoKeyRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "unknown_localized_info_key",
        name: "Unknown purpose key in InfoPlist.strings",
        summary: "InfoPlist.strings translates a key that looks like a purpose string but is not one iOS knows (a typo such as NSCameraUsageUsageDescription).",
        rationale: """
        A misspelled key is never read: the prompt shows the untranslated text of the Info.plist \
        (a warning: users of that language read the prompt in the development language). When \
        the Info.plist has the same typo the app has no purpose string at all, which \
        `missing_purpose_string` reports as the error it is. Use the exact key.

        The rule is about spelling only. A correctly spelled key that iOS no longer reads at \
        the bundle's deployment target (NSBluetoothPeripheralUsageDescription from iOS 13) or \
        that the code never uses is not reported here: `purpose_keys_for_deployment_target`, \
        `localized_purpose_string_without_key` and `unused_purpose_string` say to remove it. A \
        misspelled key is reported whether or not the code uses the resource, because iOS never \
        reads it under any deployment target.
        """,
        area: .localization, severity: .warning, tags: ["privacy", "localization"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>"),
                         "App/de.lproj/InfoPlist.strings": "↓\"NSCameraUsageUsageDescription\" = \"Belege scannen.\";\n"]),
            RuleExample(["App/Info.plist": plistXML("<key>NSPhotoLibraryUsageDescription</key><string>Attach photos of receipts.</string>"),
                         "App/fr.lproj/InfoPlist.strings": "↓\"NSPhotoLibaryUsageDescription\" = \"Joindre des photos de reçus.\";\n"]),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>"),
                         "App/de.lproj/InfoPlist.strings": "\"NSCameraUsageDescription\" = \"Belege scannen.\";\n"]),
            RuleExample(["App/Info.plist": plistXML("<key>MinimumOSVersion</key><string>15.0</string>\n<key>NSBluetoothAlwaysUsageDescription</key><string>Connect to your card reader.</string>\n<key>NSBluetoothPeripheralUsageDescription</key><string>Connect to your card reader.</string>"),
                         "App/de.lproj/InfoPlist.strings": "\"NSBluetoothAlwaysUsageDescription\" = \"Mit dem Kartenleser verbinden.\";\n\"NSBluetoothPeripheralUsageDescription\" = \"Mit dem Kartenleser verbinden.\";\n"],
                        note: "A real key iOS 15 no longer reads is not a typo; purpose_keys_for_deployment_target says to remove it."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for b in context.product.bundles where b.kind.ships {
            let loc = InfoPlistLocalizations(b)
            var reported = Set<String>()
            for lang in loc.languages {
                for (key, at) in (loc.byLanguage[lang] ?? [:]).sorted(by: { $0.key < $1.key }) where key.hasSuffix("UsageDescription") {
                    guard !ProtectedResourceCatalog.standard.knowsPurposeKey(key), reported.insert(key).inserted else { continue }
                    out.append(finding("\(key) in \(lang) InfoPlist.strings of \(b.name) is not a purpose-string key iOS knows: iOS never reads it, so the prompt shows the Info.plist's untranslated text; check the spelling",
                                       bundle: b.name, at: at, key: key,
                                       fix: "Spell the key exactly as in the Info.plist (NS…UsageDescription), in every language's InfoPlist.strings."))
                }
            }
        }
        return out
    }
}
