import Foundation
import Artifacts
import Formats

public struct EntitlementsConfigurationMismatchRule: Rule {
    public init() {}

    static let info = plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>")

    public static let description = RuleDescription(
        identifier: "entitlements_configuration_mismatch",
        name: "Entitlements differ by configuration",
        summary: "Another build configuration's entitlements file claims capabilities that the entitlements of the configuration that ships lack.",
        rationale: """
        A target can name a different `CODE_SIGN_ENTITLEMENTS` file per build configuration. \
        When Debug's file has a capability that Release's lacks (or Release names no file at \
        all), the feature works in every build a developer runs and is missing from the build \
        that ships: push registration fails, the App Group container is nil, universal links \
        open Safari, keychain sharing returns errSecMissingEntitlement.

        Preflight reads the configuration that ships (Release, or the one given with \
        `--configuration`) and compares the other configurations' files with it, key by key. \
        Values that legitimately differ are not compared — `aps-environment` development in \
        Debug and production in Release is expected, and so are staging domains — and \
        `get-task-allow` and keys set to `false` or an empty list are ignored. A capability \
        only the shipping configuration has is not reported either.

        - **warning**: the shipping configuration names no entitlements file at all while \
        another configuration's file has capabilities: every one of them is missing from the \
        shipped app;
        - **note**: both name a file and another configuration's has keys the shipping one \
        lacks. Test-only entitlements (`…exposure-notification-test`) and projects that ship \
        from another configuration than Release (pass `--configuration`) make this legitimate \
        often enough that it is only noted.

        Fix: add the capability to the shipping configuration's entitlements file (Xcode's \
        Signing & Capabilities tab edits the file of the configuration selected in "All", \
        "Debug" or "Release"), or use one file for all configurations.
        """,
        area: .entitlements, severity: .warning, tags: ["signing", "project"],
        references: ["https://developer.apple.com/documentation/xcode/adding-capabilities-to-your-app"],
        triggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: [
                "INFOPLIST_FILE": "App/Info.plist", "CODE_SIGN_ENTITLEMENTS": "App/Release.entitlements"],
                                                                        debugSettings: ["CODE_SIGN_ENTITLEMENTS": "App/Debug.entitlements"]),
                         "App/Info.plist": info,
                         "App/Release.entitlements↓": plistXML("<key>aps-environment</key>\n<string>production</string>"),
                         "App/Debug.entitlements": plistXML("""
                         <key>aps-environment</key>
                         <string>development</string>
                         <key>com.apple.security.application-groups</key>
                         <array>
                         \t<string>group.com.example.app</string>
                         </array>
                         """)], kind: .project,
                        note: "The App Group exists only in Debug: the shipping app's shared container is nil. The aps-environment values differ as they should."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist"],
                                                                        debugSettings: ["CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"]),
                         "App/Info.plist": info,
                         "App/App.entitlements↓": plistXML("<key>com.apple.developer.associated-domains</key>\n<array>\n\t<string>applinks:example.com</string>\n</array>")],
                        kind: .project, note: "Only Debug names an entitlements file: Release ships without associated domains."),
        ],
        nonTriggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: [
                "INFOPLIST_FILE": "App/Info.plist", "CODE_SIGN_ENTITLEMENTS": "App/Release.entitlements"],
                                                                        debugSettings: ["CODE_SIGN_ENTITLEMENTS": "App/Debug.entitlements"]),
                         "App/Info.plist": info,
                         "App/Release.entitlements": plistXML("<key>aps-environment</key>\n<string>production</string>\n<key>com.apple.developer.associated-domains</key>\n<array>\n\t<string>applinks:example.com</string>\n</array>"),
                         "App/Debug.entitlements": plistXML("<key>aps-environment</key>\n<string>development</string>\n<key>get-task-allow</key>\n<true/>\n<key>com.apple.developer.associated-domains</key>\n<array>\n\t<string>applinks:staging.example.com?mode=developer</string>\n</array>")],
                        kind: .project, note: "The same capabilities with development values in Debug."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: [
                "INFOPLIST_FILE": "App/Info.plist", "CODE_SIGN_ENTITLEMENTS": "App/Release.entitlements"],
                                                                        debugSettings: ["CODE_SIGN_ENTITLEMENTS": ""]),
                         "App/Info.plist": info,
                         "App/Release.entitlements": plistXML("<key>com.apple.security.application-groups</key>\n<array>\n\t<string>group.com.example.app</string>\n</array>")],
                        kind: .project, note: "Debug without entitlements has less than Release, which is not a shipping problem."),
        ])

    /// Keys whose presence in only a debug configuration is expected.
    static let debugOnly: Set<String> = ["get-task-allow", "com.apple.security.get-task-allow"]

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for b in context.product.bundles where b.kind.ships && !b.otherConfigurationEntitlements.isEmpty {
            // The shipping configuration's entitlements: none when it names no file; unknown when unreadable.
            let shipping: PlistDictionary?
            if b.entitlementsPath == nil {
                shipping = nil
            } else {
                guard let d = b.entitlements?.root?.dictionary else { continue }
                shipping = d
            }
            let shippingName = b.configuration ?? "shipping"
            for other in b.otherConfigurationEntitlements {
                guard let file = other.file, let entries = file.root?.dictionary else { continue }
                let extra = entries.keys.filter { key in
                    guard !Self.debugOnly.contains(key), shipping?[key] == nil, let value = entries[key] else { return false }
                    return EntitlementsNotInProfileRule.claimsSomething(value)
                }
                guard !extra.isEmpty else { continue }
                let list = extra.prefix(5).joined(separator: ", ") + (extra.count > 5 ? " and \(extra.count - 5) more" : "")
                let place: FileLocation?
                let lacking: String
                if let path = b.entitlementsPath {
                    place = FileLocation(path: path)
                    lacking = "the \(shippingName) configuration's \(path) lacks"
                } else {
                    place = FileLocation(path: file.path)
                    lacking = "the \(shippingName) configuration names no entitlements file at all"
                }
                var f = finding("\(b.name): the \(other.configuration) configuration's entitlements (\(file.path)) have \(list), which \(lacking): the capability works in \(other.configuration) builds and is missing from the app that ships",
                                bundle: b.name, at: place, key: extra.first,
                                fix: "Add the same capabilities to the \(shippingName) configuration's entitlements, or name one entitlements file for all configurations.",
                                fingerprint: [other.configuration] + extra.sorted())
                if shipping != nil { f.severity = .note }
                out.append(f)
            }
        }
        return out
    }
}
