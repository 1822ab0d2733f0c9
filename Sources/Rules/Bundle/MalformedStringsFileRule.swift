import Foundation
import Artifacts
import Formats

public struct MalformedStringsFileRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "malformed_strings_file",
        name: "Malformed localization file",
        summary: "A .strings, .stringsdict or .xcstrings file cannot be read.",
        rationale: """
        iOS stops reading a `.strings` table at the first syntax error, so every later key \
        silently falls back to the development language — including permission prompts from \
        `InfoPlist.strings`. Xcode only warns. Fix the syntax at the reported position \
        (a missing `;` is the usual cause).
        """,
        area: .localization, severity: .error, tags: ["localization", "app-review"],
        references: ["https://developer.apple.com/documentation/xcode/localizing-strings-that-contain-plurals"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/de.lproj/InfoPlist.strings": "\"NSCameraUsageDescription\" = \"Belege scannen.\"\n↓\"NSMicrophoneUsageDescription\" = \"Sprachnotizen.\";\n"]),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Localizable.xcstrings": "{ \"sourceLanguage\" : \"en\", \"strings\" : ↓{ "],
                        note: "A string catalog (JSON) cut short."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/de.lproj/InfoPlist.strings": "/* Kamera */\n\"NSCameraUsageDescription\" = \"Belege scannen.\";\n"]),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Localizable.xcstrings": """
                         {
                           "sourceLanguage" : "en",
                           "strings" : {
                             "Scan" : {
                               "localizations" : {
                                 "de" : { "stringUnit" : { "state" : "translated", "value" : "Scannen" } }
                               }
                             }
                           },
                           "version" : "1.0"
                         }
                         """], note: "A complete string catalog."),
        ])

    static let extensions: Set<String> = ["strings", "stringsdict", "xcstrings"]

    public func check(_ context: RuleContext) -> [Finding] {
        context.product.problems.compactMap { p in
            guard case .unreadable(let error) = p.kind, Self.extensions.contains(PathUtil.pathExtension(p.path)) else { return nil }
            return finding("\(p.path) cannot be read: \(error)", bundle: p.bundle,
                           at: FileLocation(path: p.path, position: error.position), fingerprint: [p.path])
        }
    }
}
