import Foundation
import Artifacts

public struct InfoPlistStringsCaseRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "infoplist_strings_case",
        name: "InfoPlist.strings with the wrong letter case",
        summary: "A localized Info.plist table is named with other letter case (infoPlist.strings, Infoplist.strings).",
        rationale: """
        iOS looks up exactly `InfoPlist.strings`, and device file systems are case-sensitive: a \
        file named otherwise is never loaded, so every translated prompt shows the development \
        language. It works in the simulator on a case-insensitive Mac, which hides the bug. \
        Rename the file.
        """,
        area: .localization, severity: .error, tags: ["localization"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>"),
                         "App/de.lproj/infoPlist.strings": "\"NSCameraUsageDescription\" = \"Belege scannen.\";\n"]),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>"),
                         "App/de.lproj/InfoPlist.strings": "\"NSCameraUsageDescription\" = \"Belege scannen.\";\n"]),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        context.product.bundles.flatMap { b in
            b.localizations.compactMap { f -> Finding? in
                guard f.kind == .infoPlistStrings, f.table != "InfoPlist" else { return nil }
                return finding("\(f.path) is never loaded: iOS looks for InfoPlist.strings with exactly that letter case",
                               bundle: b.name, at: FileLocation(path: f.path), fix: "Rename it to InfoPlist.strings.",
                               fingerprint: [f.path])
            }
        }
    }
}
