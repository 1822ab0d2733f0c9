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
        it and how the user benefits: "Scan receipts to add them to your expenses." The rule \
        reports a string, in Info.plist or in a translation, only when every word of it asks for \
        access or names the resource (the app's own name is no reason either), in \
        one of the languages it knows (English and twelve others); any other word, such as a \
        feature or an action, lets the string pass, and languages it does not know are not judged.
        """,
        area: .privacy, severity: .warning, tags: ["privacy", "app-review"],
        references: ["https://developer.apple.com/app-store/review/guidelines/#5.1.1",
                     "https://developer.apple.com/design/human-interface-guidelines/privacy#Requesting-permission"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key>\n↓<string>This app needs access to your camera.</string>")]),
            RuleExample(["App/Info.plist": plistXML("<key>NSLocationWhenInUseUsageDescription</key>\n↓<string>Location access required</string>")]),
            RuleExample(["App/Info.plist": plistXML("<key>NSMicrophoneUsageDescription</key>\n↓<string>Access to microphone</string>")],
                        note: "A bare noun phrase names the permission, not what it is for."),
            RuleExample(["App/Info.plist": plistXML("<key>NSLocationWhenInUseUsageDescription</key>\n↓<string>Location</string>")]),
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key>\n↓<string>Die App benötigt Zugriff auf deine Kamera.</string>")],
                        note: "Requests are recognized in English, German, French, Spanish, Portuguese, Italian, Dutch, Norwegian, Danish, Swedish, Turkish, Russian and Polish."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleDisplayName</key><string>Snapshot</string>\n<key>NSCameraUsageDescription</key>\n↓<string>Allow Snapshot to access your camera.</string>")],
                        note: "The app's own name says nothing about the purpose."),
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>"),
                         "App/fr.lproj/InfoPlist.strings": "\"NSCameraUsageDescription\" = ↓\"Cette application a besoin d’accéder à votre caméra.\";\n"],
                        note: "Translations in InfoPlist.strings are checked too."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>")]),
            RuleExample(["App/Info.plist": plistXML("<key>NSLocationWhenInUseUsageDescription</key><string>Your location is used to show nearby stores.</string>")]),
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Used to scan QR codes.</string>")],
                        note: "Short is fine when it names the feature."),
            RuleExample(["App/Info.plist": plistXML("<key>NSLocationWhenInUseUsageDescription</key><string>Tu ubicación se usa para mostrar las tiendas cercanas.</string>")],
                        note: "A complete explanation passes in any language."),
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>QR 코드를 스캔하기 위해 카메라를 사용합니다.</string>")],
                        note: "Languages without a vocabulary (Korean, Japanese, Chinese, …) are not judged."),
            RuleExample(["App/Info.plist": plistXML("<key>NSFaceIDUsageDescription</key><string>Face ID is used to access your app.</string>")],
                        note: "Access to the app itself is what Face ID is for."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleDisplayName</key><string>Vault</string>\n<key>NSFaceIDUsageDescription</key><string>Use Face ID to unlock Vault.</string>"),
                         "App/ru.lproj/InfoPlist.strings": "\"NSFaceIDUsageDescription\" = \"Использовать Face ID для доступа к Vault\";\n"]),
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>"),
                         "App/de.lproj/InfoPlist.strings": "\"NSCameraUsageDescription\" = \"Belege scannen, um sie zu deinen Ausgaben hinzuzufügen.\";\n"]),
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>TODO</string>")],
                        note: "Placeholders are reported by placeholder_purpose_string instead."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        func isGeneric(_ value: String, names: Set<String>) -> Bool {
            PurposeStrings.defect(value) == nil && PurposeStrings.isGeneric(value, names: names)
        }
        for (b, views) in context.bundles where b.kind.ships {
            // The app's names are not a purpose: "Allow Snapshot to access your camera."
            let names = [b.name.split(separator: ".").first.map(String.init) ?? b.name]
                + BundleConventions.appNameKeys.compactMap { b.resolvedInfoString($0) }.filter { !$0.contains("$(") }
            let nameWords = PurposeStrings.nameWords(names)
            for d in views.declaredPurposeStrings {
                guard let v = d.value, isGeneric(v, names: nameWords) else { continue }
                out.append(finding("\(d.key) of \(b.name) (\"\(v)\") only names the permission; say which feature uses it and why",
                                   bundle: b.name, at: d.location, key: d.key))
            }
            // Translations are what most people read.
            for l in views.localizedPurposeStrings {
                let localNames = BundleConventions.appNameKeys.compactMap { b.infoPlistStrings[l.language]?[$0] }
                let words = localNames.isEmpty ? nameWords : nameWords.union(PurposeStrings.nameWords(localNames))
                guard isGeneric(l.value, names: words) else { continue }
                out.append(finding("\(l.key) of \(b.name) in \(l.language) (\"\(l.value)\") only names the permission; say which feature uses it and why",
                                   bundle: b.name, at: l.location, key: l.key, fingerprint: [l.language]))
            }
        }
        return out
    }
}
