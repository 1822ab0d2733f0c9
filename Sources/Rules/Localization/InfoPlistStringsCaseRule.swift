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
        Rename the file. A project that references the file as `InfoPlist.strings` copies it \
        under that name, so only the reference is reported (path_case_mismatch).
        """,
        area: .localization, severity: .error, tags: ["localization"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>"),
                         "App/de.lproj/infoPlist.strings↓": "\"NSCameraUsageDescription\" = \"Belege scannen.\";\n"],
                        note: "The finding is about the file's name, so it points at the file, not at a line."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>\n<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>"),
                         "Example": "binary",
                         "fr.lproj/Infoplist.strings↓": "\"NSCameraUsageDescription\" = \"Scanner les reçus.\";\n"], kind: .app,
                        note: "A built app carries the file under the wrong name: French users see the English prompt."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>"),
                         "App/de.lproj/InfoPlist.strings": "\"NSCameraUsageDescription\" = \"Belege scannen.\";\n"]),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"], resources: ["App/de.lproj/InfoPlist.strings"]),
            ]),
                         "App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>"),
                         "App/de.lproj/infoPlist.strings": "\"NSCameraUsageDescription\" = \"Belege scannen.\";\n"],
                        kind: .project,
                        note: "The project references it as InfoPlist.strings, the name the app gets; path_case_mismatch reports the reference (mastodon-ios)."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        // A project that references the file as `InfoPlist.strings` copies it into the app under
        // that name: the app is right, and path_case_mismatch reports the reference.
        var copiedRight = Set<String>()
        for p in context.product.problems {
            if case .caseMismatch(_, let actual) = p.kind, PathUtil.lastComponent(p.path) == "InfoPlist.strings" {
                copiedRight.insert(actual)
            }
        }
        return context.product.bundles.flatMap { b in
            b.localizations.compactMap { f -> Finding? in
                guard f.kind == .infoPlistStrings, f.table != "InfoPlist", !copiedRight.contains(f.path) else { return nil }
                return finding("\(f.path) is never loaded: iOS looks for InfoPlist.strings with exactly that letter case",
                               bundle: b.name, at: FileLocation(path: f.path), fix: "Rename it to InfoPlist.strings.",
                               fingerprint: [f.path])
            }
        }
    }
}
