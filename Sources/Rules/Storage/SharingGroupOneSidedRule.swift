import Foundation
import Artifacts
import Evidence

public struct SharingGroupOneSidedRule: Rule {
    public init() {}
    typealias Security = ProtectedResourceCatalog.Security

    public static let description = RuleDescription(
        identifier: "sharing_group_one_sided",
        name: "Sharing group entitled on one side only",
        summary: "An extension, App Clip or watch app (or its app) uses an app group or keychain group that only the other side's entitlements declare, and has no entitlements file at all: nothing is shared.",
        rationale: """
        An app and its extensions, App Clip or watch app are separate processes with separate \
        containers and keychain groups. They share data only through an app group or a keychain \
        access group that **each** of them lists in its own entitlements: "Apps can belong to one \
        or more app groups. You can also use an app group to share data between an app extension \
        or App Clip and its host app" (Configuring app groups), and an app may share keychain \
        items only "among a collection of apps" that all name the group in \
        `keychain-access-groups` (Sharing access to keychain items among a collection of apps). \
        When the widget's code writes `UserDefaults(suiteName: "group.x")` but only the app's \
        target has the App Groups capability, the widget gets a private defaults domain and a \
        nil shared container; a keychain query with the group fails with \
        errSecMissingEntitlement. The symptom is a widget or extension that never sees what the \
        app saved.

        Reported, as a warning at the use, when a bundle's shipping code names a group (a \
        literal, or a constant of the same file) that its partner's entitlements declare, and the \
        bundle's target sets no `CODE_SIGN_ENTITLEMENTS` in any configuration (a project input: \
        its entitlements are then known to be empty). A bundle that has an entitlements file \
        without the group is reported by `app_group_not_entitled` and \
        `keychain_access_group_not_entitled`. A group declared by one bundle and named by no code \
        of its partner is not reported: it may be shared with another app of the team. Group \
        names built at run time cannot be matched and are not judged.

        Fix: add the App Groups (or Keychain Sharing) capability with the same group to the \
        target that lacks it.
        """,
        area: .entitlements, severity: .warning, tags: ["security", "app-groups", "keychain", "entitlements"],
        references: ["https://developer.apple.com/documentation/xcode/configuring-app-groups",
                     "https://developer.apple.com/documentation/security/sharing-access-to-keychain-items-among-a-collection-of-apps"],
        triggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                            ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist", "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"],
                                          sources: ["App/App.swift"], embeds: ["Widget"]),
                            ExampleTarget("Widget", type: "app-extension", settings: ["INFOPLIST_FILE": "Widget/Info.plist"],
                                          sources: ["Widget/Provider.swift"]),
                         ]),
                         "App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>com.apple.security.application-groups</key><array><string>group.com.example.app</string></array>"),
                         "App/App.swift": "import Foundation\n\nlet shared = UserDefaults(suiteName: \"group.com.example.app\")\n",
                         "Widget/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app.widget</string>\n<key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.widgetkit-extension</string></dict>"),
                         "Widget/Provider.swift": "import Foundation\n\nlet score = UserDefaults(suiteName: ↓\"group.com.example.app\")?.integer(forKey: \"score\")\n"],
                        kind: .project, note: "The widget reads the app's group but its target has no entitlements: it reads its own, empty defaults."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                            ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"],
                                          sources: ["App/Token.swift"], embeds: ["Share"]),
                            ExampleTarget("Share", type: "app-extension",
                                          settings: ["INFOPLIST_FILE": "Share/Info.plist", "CODE_SIGN_ENTITLEMENTS": "Share/Share.entitlements"],
                                          sources: ["Share/Share.swift"]),
                         ]),
                         "App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Token.swift": """
                         import Security

                         func saveToken(_ data: Data) -> OSStatus {
                             SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccessGroup: ↓"ABCDE12345.com.example.shared",
                                         kSecValueData: data] as CFDictionary, nil)
                         }
                         """,
                         "Share/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app.share</string>\n<key>NSExtension</key><dict/>"),
                         "Share/Share.entitlements": plistXML("<key>keychain-access-groups</key><array><string>$(AppIdentifierPrefix)com.example.shared</string></array>"),
                         "Share/Share.swift": "import Foundation\n"],
                        kind: .project, note: "The app saves the token in a keychain group only the share extension declares."),
        ],
        nonTriggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                            ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist", "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"],
                                          sources: ["App/App.swift"], embeds: ["Widget"]),
                            ExampleTarget("Widget", type: "app-extension",
                                          settings: ["INFOPLIST_FILE": "Widget/Info.plist", "CODE_SIGN_ENTITLEMENTS": "Widget/Widget.entitlements"],
                                          sources: ["Widget/Provider.swift"]),
                         ]),
                         "App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>com.apple.security.application-groups</key><array><string>group.com.example.app</string></array>"),
                         "App/App.swift": "import Foundation\n\nlet shared = UserDefaults(suiteName: \"group.com.example.app\")\n",
                         "Widget/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app.widget</string>\n<key>NSExtension</key><dict/>"),
                         "Widget/Widget.entitlements": plistXML("<key>com.apple.security.application-groups</key><array><string>group.com.example.app</string></array>"),
                         "Widget/Provider.swift": "import Foundation\n\nlet score = UserDefaults(suiteName: \"group.com.example.app\")?.integer(forKey: \"score\")\n"],
                        kind: .project, note: "Both targets declare the group they share."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                            ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist", "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"],
                                          sources: ["App/App.swift"], embeds: ["Widget"]),
                            ExampleTarget("Widget", type: "app-extension", settings: ["INFOPLIST_FILE": "Widget/Info.plist"],
                                          sources: ["Widget/Provider.swift"]),
                         ]),
                         "App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>com.apple.security.application-groups</key><array><string>group.com.example.suite</string></array>"),
                         "App/App.swift": "import Foundation\n\nlet shared = UserDefaults(suiteName: \"group.com.example.suite\")\n",
                         "Widget/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app.widget</string>\n<key>NSExtension</key><dict/>"),
                         "Widget/Provider.swift": "import Foundation\n\nlet group = Bundle.main.object(forInfoDictionaryKey: \"AppGroup\") as? String ?? \"\"\nlet score = UserDefaults(suiteName: group)\n"],
                        kind: .project, note: "The app shares its group with another app of the team; the widget's code names no group it could match."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                            ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"],
                                          sources: ["App/Token.swift"], embeds: ["Share"]),
                            ExampleTarget("Share", type: "app-extension",
                                          settings: ["INFOPLIST_FILE": "Share/Info.plist", "CODE_SIGN_ENTITLEMENTS": "Share/Share.entitlements"],
                                          sources: ["Share/Share.swift"]),
                         ]),
                         "App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Token.swift": """
                         import Security

                         func saveToken(_ data: Data) -> OSStatus {
                             SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccessGroup: "ABCDE12345.com.example.app",
                                         kSecValueData: data] as CFDictionary, nil)
                         }
                         """,
                         "Share/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app.share</string>\n<key>NSExtension</key><dict/>"),
                         "Share/Share.entitlements": plistXML("<key>keychain-access-groups</key><array><string>$(AppIdentifierPrefix)com.example.app</string></array>"),
                         "Share/Share.swift": "import Foundation\n"],
                        kind: .project, note: "The app's own application identifier is its keychain group without an entitlements file; the extension joins it."),
        ])

    static let partnerKinds: Set<BundleKind> = [.appExtension, .appClip, .watchApp]

    public func check(_ context: RuleContext) -> [Finding] {
        guard context.product.kind == .project else { return [] }
        let facts = SecurityFacts(context)
        var uses: [String: [SecurityFacts.Fact]] = [:]
        for capability in [Security.appGroup, Security.keychainAccessGroup] {
            for (host, list) in facts.byHost(capability) { uses[host.name, default: []] += list.filter(\.direct) }
        }
        var out: [Finding] = []
        for partner in context.product.bundles where Self.partnerKinds.contains(partner.kind) {
            guard let app = Readiness.containingApp(of: partner, in: context.product) else { continue }
            for (user, other) in [(partner, app), (app, partner)] where Self.hasNoEntitlements(user) {
                guard let declared = BundleEntitlements(other) else { continue }
                let otherIdentifier = other.identifier.flatMap { $0.contains("$") ? nil : $0 }
                var reported = Set<String>()
                for fact in uses[user.name] ?? [] {
                    let u = fact.usage
                    let keys = u.capability == Security.appGroup ? ["com.apple.security.application-groups"]
                        : ["keychain-access-groups", "com.apple.security.application-groups"]
                    let granted = keys.flatMap { declared.strings($0) }.map { TeamPrefixed.normalized($0, bundleIdentifier: otherIdentifier, team: Signing.team(of: other)) }
                    let group = TeamPrefixed.normalized(u.key, bundleIdentifier: otherIdentifier, team: Signing.team(of: other))
                    // Only an exact declaration: a setting or wildcard in the partner's file proves nothing.
                    guard granted.contains(group) || granted.contains(TeamPrefixed.placeholder + group) else { continue }
                    // A bundle's own application identifier is its keychain group without any file.
                    if u.capability == Security.keychainAccessGroup, Self.mayBeOwnIdentifier(group, of: user) { continue }
                    let place = SecurityFacts.location(u)
                    guard reported.insert("\(u.key)|\(place.path)|\(place.position?.line ?? 0)").inserted else { continue }
                    let what = u.capability == Security.appGroup ? "app group" : "keychain access group"
                    out.append(finding("\(user.name) uses the \(what) '\(u.key)' (\(UsageReading.describe(u))) that \(other.name) declares in \(declared.file.path), but the \(user.name) target has no entitlements file: the two do not share it",
                                       bundle: user.name, at: place, key: u.key, evidence: [UsageReading.evidenceRef(u)],
                                       fix: "Add the \(u.capability == Security.appGroup ? "App Groups" : "Keychain Sharing") capability with \(u.key) to the \(user.name) target (Signing & Capabilities), as \(other.name) has it.",
                                       fingerprint: [u.key, other.name]))
                }
            }
        }
        return out
    }

    /// Whether a keychain group is, or may be, `TEAMID.<the bundle's identifier>`.
    static func mayBeOwnIdentifier(_ group: String, of bundle: AppBundle) -> Bool {
        let bare = group.hasPrefix(TeamPrefixed.placeholder) ? String(group.dropFirst(TeamPrefixed.placeholder.count)) : group
        guard let identifier = bundle.identifier, !identifier.contains("$") else { return group.hasPrefix(TeamPrefixed.placeholder) }
        return bare == identifier
    }

    /// A project target that sets no `CODE_SIGN_ENTITLEMENTS` in any configuration: it is signed
    /// without app groups or keychain groups of its own.
    static func hasNoEntitlements(_ bundle: AppBundle) -> Bool {
        bundle.entitlements == nil && bundle.entitlementsPath == nil && bundle.entitlementsSource == nil
            && bundle.otherConfigurationEntitlements.isEmpty && bundle.buildSettings["CODE_SIGN_ENTITLEMENTS"] == nil
    }
}
