import Foundation
import Artifacts
import Formats

public struct MalformedInfoPlistRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "malformed_info_plist",
        name: "Malformed Info.plist",
        summary: "A bundle's Info.plist cannot be read as a property list.",
        rationale: """
        iOS and App Store Connect read every bundle's Info.plist; one that does not parse is \
        rejected at upload (ITMS-90049/90057) and no other check of that bundle can be trusted. \
        Fix the syntax at the reported position (`plutil -lint` confirms).
        """,
        area: .bundle, severity: .error, tags: ["app-review"],
        references: ["https://developer.apple.com/documentation/bundleresources/information_property_list"],
        itms: ["ITMS-90036"],
        triggering: [
            RuleExample(["App/Info.plist": "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n  <key>CFBundleIdentifier</key>\n  <string>com.example.app↓</dict>\n</plist>\n"]),
            RuleExample(["App/Info.plist": "{ CFBundleIdentifier = com.example.app ↓"],
                        note: "An old-style (OpenStep) property list cut short."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "Example": "binary",
                         "PlugIns/Share.appex/Info.plist": plistXML("<key>CFBundleExecutable</key><string>Share</string>\n<key>CFBundleDisplayName</key><string>Save ↓& Share</string>"),
                         "PlugIns/Share.appex/Share": "binary"], kind: .app,
                        note: "An extension's Info.plist in a built app, with an unescaped `&`: the extension, and so the upload, is rejected."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n  <key>CFBundleIdentifier</key>\n  <string>com.example.app</string>\n</dict>\n</plist>\n"]),
            RuleExample(["App/Info.plist": "{\n    CFBundleIdentifier = com.example.app;\n    CFBundleDisplayName = \"Save & Share\";\n}\n"],
                        note: "The old-style (OpenStep) format is a property list too."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        context.product.bundles.compactMap { b in
            guard let file = b.infoPlist, let error = file.error else { return nil }
            return finding("Info.plist of \(b.name) cannot be read: \(error)", bundle: b.name,
                           at: FileLocation(path: file.path, position: error.position),
                           fix: "Fix the property list syntax; `plutil -lint` shows the same position.")
        }
    }
}

extension FormatError {
    /// The line and column of a text-format error, when the reader knows them.
    public var position: SourcePosition? {
        guard let line else { return nil }
        return SourcePosition(line: line, column: column ?? 1)
    }
}
