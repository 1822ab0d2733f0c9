import Foundation
import Artifacts
import Formats

public struct MalformedEntitlementsRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "malformed_entitlements",
        name: "Malformed entitlements",
        summary: "A bundle's entitlements (file or code signature) cannot be read as a property list.",
        rationale: """
        Code signing embeds the entitlements plist into the binary; a file that does not parse \
        fails signing, and entitlements Preflight cannot read cannot be checked. Fix the syntax.
        """,
        area: .entitlements, severity: .error, tags: ["security"],
        references: ["https://developer.apple.com/documentation/bundleresources/entitlements"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": "<plist><dict>↓<key>aps-environment</key></plist>"],
                        note: "A key without its value."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: [
                "INFOPLIST_FILE": "App/Info.plist", "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"]),
                         "App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("""
                         <key>com.apple.security.application-groups</key>
                         <array>
                         ↓<<<<<<< HEAD
                         \t<string>group.com.example.app</string>
                         =======
                         \t<string>group.com.example.shared</string>
                         >>>>>>> feature/widgets
                         </array>
                         """)], kind: .project,
                        note: "A merge conflict left in the file CODE_SIGN_ENTITLEMENTS names: signing fails, and the app groups cannot be checked."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>aps-environment</key><string>production</string>")]),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: [
                "INFOPLIST_FILE": "App/Info.plist", "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"]),
                         "App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>keychain-access-groups</key>\n<array>\n\t<string>$(AppIdentifierPrefix)com.example.shared</string>\n</array>")],
                        kind: .project, note: "Build-setting references in values are filled in at signing; the file itself is well formed."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        context.product.bundles.compactMap { b in
            guard let file = b.entitlements, let error = file.error else { return nil }
            return finding("entitlements of \(b.name) cannot be read: \(error)", bundle: b.name,
                           at: FileLocation(path: file.path, position: error.position))
        }
    }
}

/// Wraps dictionary content in an XML property list, for rule examples.
public func plistXML(_ body: String) -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n<dict>\n" + body + "\n</dict>\n</plist>\n"
}

/// `plistXML` with the example marker on its root dictionary (line 4, column 1), for rules
/// that point at an Info.plist as a whole: the place of a key it lacks.
public func plistXMLMarkingRoot(_ body: String) -> String {
    plistXML(body).replacingOccurrences(of: "\n<dict>\n", with: "\n↓<dict>\n")
}
