import Foundation
import Artifacts
import Evidence
import Formats

public struct RequiredReasonUnfitRule: Rule {
    public init() {}
    typealias Document = PrivacyManifestDocument
    typealias Catalog = PrivacyManifestCatalog

    public static let description = RuleDescription(
        identifier: "required_reason_unfit",
        name: "Declared reason misses App Group use",
        summary: "The manifest declares user defaults with reasons for the app's own defaults only, while the bundle's code reads a defaults suite and the bundle belongs to an App Group.",
        rationale: """
        Apple reviews the declared reasons against what the app does. `CA92.1` covers defaults \
        only the app itself reads and writes; sharing defaults among the apps, extensions and \
        App Clips of an App Group — `UserDefaults(suiteName: "group.…")` — is `1C8F.1`. When a \
        bundle has the `com.apple.security.application-groups` entitlement, its shipping code \
        creates a defaults suite and its manifest's user-defaults entry lacks `1C8F.1`, the \
        declaration probably does not describe the sharing. A note: a suite can also be a \
        private domain of the app, which `CA92.1` covers.
        """,
        area: .privacyManifest, severity: .note, tags: ["privacy", "app-review", "privacy-manifest"],
        references: [PrivacyManifestCatalog.requiredReasonSource],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>com.apple.security.application-groups</key><array><string>group.com.example</string></array>"),
                         "App/PrivacyInfo.xcprivacy": plistXML("<key>NSPrivacyAccessedAPITypes</key>\n<array>\n"
                             + "\t<dict>\n\t\t<key>NSPrivacyAccessedAPIType</key>\n\t\t<string>NSPrivacyAccessedAPICategoryUserDefaults</string>\n"
                             + "\t\t<key>NSPrivacyAccessedAPITypeReasons</key>\n\t\t↓<array>\n\t\t\t<string>CA92.1</string>\n\t\t</array>\n\t</dict>\n</array>"),
                         "App/Shared.swift": "import Foundation\n\nlet shared = UserDefaults(suiteName: \"group.com.example\")\n"],
                        note: "A shared suite in an App Group, declared as the app's own defaults."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>com.apple.security.application-groups</key><array><string>group.com.example</string></array>"),
                         "App/PrivacyInfo.xcprivacy": plistXML("<key>NSPrivacyAccessedAPITypes</key>\n<array>\n"
                             + "\t<dict>\n\t\t<key>NSPrivacyAccessedAPIType</key>\n\t\t<string>NSPrivacyAccessedAPICategoryUserDefaults</string>\n"
                             + "\t\t<key>NSPrivacyAccessedAPITypeReasons</key>\n\t\t↓<array>\n\t\t\t<string>CA92.1</string>\n\t\t\t<string>AC6B.1</string>\n\t\t</array>\n\t</dict>\n</array>"),
                         "App/Widget.swift": "import Foundation\n\nenum Store {\n    static let defaults = UserDefaults(suiteName: Config.group)!\n}\n"],
                        note: "The suite name comes from a constant: the App Group entitlement says what it is."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>com.apple.security.application-groups</key><array><string>group.com.example</string></array>"),
                         "App/PrivacyInfo.xcprivacy": plistXML("<key>NSPrivacyAccessedAPITypes</key>\n<array>\n"
                             + Document.accessedAPI("NSPrivacyAccessedAPICategoryUserDefaults", ["<string>CA92.1</string>", "<string>1C8F.1</string>"])
                             + "\n</array>"),
                         "App/Shared.swift": "import Foundation\n\nlet shared = UserDefaults(suiteName: \"group.com.example\")\n"],
                        note: "1C8F.1 declared."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/PrivacyInfo.xcprivacy": plistXML("<key>NSPrivacyAccessedAPITypes</key>\n<array>\n"
                             + Document.accessedAPI("NSPrivacyAccessedAPICategoryUserDefaults", ["<string>CA92.1</string>"])
                             + "\n</array>"),
                         "App/Settings.swift": "import Foundation\n\nlet theme = UserDefaults.standard.string(forKey: \"theme\")\nlet debug = UserDefaults(suiteName: \"com.example.debug\")\n"],
                        note: "No App Group entitlement: a suite is a private domain of the app."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        let suiteUsers = Set(context.evidence.requiredReasonUsages.filter {
            $0.ships && $0.strength == .definite && $0.key == Self.userDefaults && $0.api.contains("suiteName:")
        }.map(\.bundle))
        var out: [Finding] = []
        for doc in Document.all(context) where suiteUsers.contains(doc.bundle.name) && Self.hasAppGroup(doc.bundle) {
            for entry in doc.entries(Catalog.accessedAPITypes) where entry.string(Catalog.accessedAPIType)?.value == Self.userDefaults {
                let reasons = entry.strings(Catalog.accessedAPITypeReasons).map(\.value)
                guard !reasons.isEmpty, !reasons.contains(Self.appGroupReason) else { continue }
                let list = entry.dictionary.entry(Catalog.accessedAPITypeReasons)
                out.append(finding("\(doc.name): the user-defaults entry declares \(reasons.joined(separator: ", ")) but \(doc.bundle.name)'s code reads a defaults suite and the bundle is in an App Group; sharing defaults in an App Group is \(Self.appGroupReason)",
                                   bundle: doc.bundle.name, at: doc.location(list?.value.position ?? entry.position),
                                   key: Self.userDefaults,
                                   fix: "If the suite is the App Group's, add \(Self.appGroupReason) to NSPrivacyAccessedAPITypeReasons; if it is a private domain of the app, nothing is needed.",
                                   fingerprint: [doc.path]))
            }
        }
        return out
    }

    static let userDefaults = "NSPrivacyAccessedAPICategoryUserDefaults"
    static let appGroupReason = "1C8F.1"

    static func hasAppGroup(_ b: AppBundle) -> Bool {
        guard let groups = b.entitlements?.root?.dictionary?["com.apple.security.application-groups"]?.array else { return false }
        return !groups.isEmpty
    }
}
