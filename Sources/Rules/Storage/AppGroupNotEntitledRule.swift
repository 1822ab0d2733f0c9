import Foundation
import Artifacts
import Evidence

public struct AppGroupNotEntitledRule: Rule {
    public init() {}
    typealias Security = ProtectedResourceCatalog.Security

    public static let description = RuleDescription(
        identifier: "app_group_not_entitled",
        name: "App group not entitled",
        summary: "Code opens an app group (UserDefaults(suiteName:), containerURL(forSecurityApplicationGroupIdentifier:)) that the bundle's com.apple.security.application-groups entitlement does not list.",
        rationale: """
        A process reaches an app group's shared container only if its own entitlements list the \
        group. Apple's documentation of `containerURL(forSecurityApplicationGroupIdentifier:)` says \
        the identifier "should exactly match one of the strings in the app's \
        com.apple.security.application-groups" entitlement, and that on iOS the call returns nil \
        when it does not: the app crashes on a force-unwrap, or silently writes nowhere. \
        `UserDefaults(suiteName:)` with a group the process is not entitled to opens a private \
        preferences domain instead of the shared one: what the app writes, its widget or \
        extension never reads. The usual cause is a target (most often an extension or widget) \
        that was never given the App Groups capability, or a typo in the group name.

        Add the group to the App Groups capability of every target whose code uses it (each app \
        and extension has its own entitlements), or use the group the entitlements name.

        Reported for a string literal, or a constant the same file binds to one, in the `group.` \
        form iOS requires, in bundles whose entitlements are known (a signature, a \
        `CODE_SIGN_ENTITLEMENTS` file), in code the bundle certainly runs: an **error** in its own \
        code, a **warning** in a package its code calls into. A shared framework or package the \
        bundle links but never calls often names every group of the product (each extension \
        touching only its own): it is not judged. A suite name not starting with `group.` is a \
        private defaults domain and is not judged; a name built at run time says nothing.
        """,
        area: .entitlements, severity: .error, tags: ["security", "app-groups", "entitlements"],
        references: ["https://developer.apple.com/documentation/xcode/configuring-app-groups",
                     "https://developer.apple.com/documentation/foundation/filemanager/containerurl(forsecurityapplicationgroupidentifier:)",
                     "https://developer.apple.com/documentation/bundleresources/entitlements/com.apple.security.application-groups"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>com.apple.security.application-groups</key><array><string>group.com.example.app</string></array>"),
                         "App/SharedStore.swift": """
                         import Foundation

                         let shared = UserDefaults(suiteName: ↓"group.com.example.shared")
                         let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: ↓"group.com.example.shared")
                         """],
                        note: "The code uses a group the entitlements do not list."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>aps-environment</key><string>production</string>"),
                         "App/Constants.swift": """
                         import Foundation

                         enum AppGroup {
                             static let identifier: String = "group.com.example.app"
                             static var defaults: UserDefaults? { UserDefaults(suiteName: ↓Self.identifier) }
                         }
                         """,
                         "App/Store.m": """
                         #import <Foundation/Foundation.h>

                         NSURL *SharedContainer(void) {
                             return [[NSFileManager defaultManager] containerURLForSecurityApplicationGroupIdentifier:↓@"group.com.example.app"];
                         }
                         """],
                        note: "A constant of the same file, and Objective-C; the bundle has no App Groups capability at all."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>com.apple.security.application-groups</key><array><string>group.$(PRODUCT_BUNDLE_IDENTIFIER)</string><string>group.com.example.shared</string></array>"),
                         "App/SharedStore.swift": """
                         import Foundation

                         let shared = UserDefaults(suiteName: "group.com.example.shared")
                         let own = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.app")
                         let settings = UserDefaults(suiteName: "com.example.settings")
                         """],
                        note: "Listed groups (a build setting in the entitlements stands for its value); a suite without `group.` is a private domain."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/SharedStore.swift": """
                         import Foundation

                         let group = Bundle.main.object(forInfoDictionaryKey: "AppGroup") as? String ?? ""
                         let shared = UserDefaults(suiteName: group)
                         let other = UserDefaults(suiteName: "group.com.example.other")
                         """],
                        note: "A group read at run time says nothing; without a known entitlements file the bundle is not judged."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                            ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist", "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"],
                                          sources: ["App/App.swift"], links: ["Kit"], embeds: ["Kit", "Widget"]),
                            ExampleTarget("Widget", type: "app-extension",
                                          settings: ["INFOPLIST_FILE": "Widget/Info.plist", "CODE_SIGN_ENTITLEMENTS": "Widget/Widget.entitlements"],
                                          sources: ["Widget/Provider.swift"], links: ["Kit"]),
                            ExampleTarget("Kit", type: "framework", sources: ["Kit/Stores.swift"]),
                         ]),
                         "App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>com.apple.security.application-groups</key><array><string>group.com.example.app</string><string>group.com.example.widget</string></array>"),
                         "App/App.swift": "import Kit\n\nlet store = AppStore()\n",
                         "Widget/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app.widget</string>\n<key>NSExtension</key><dict/>"),
                         "Widget/Widget.entitlements": plistXML("<key>com.apple.security.application-groups</key><array><string>group.com.example.widget</string></array>"),
                         "Widget/Provider.swift": "import Foundation\n\nlet cache = UserDefaults(suiteName: \"group.com.example.widget\")\n",
                         "Kit/Stores.swift": "import Foundation\n\npublic struct AppStore {\n    public init() {}\n    public let defaults = UserDefaults(suiteName: \"group.com.example.app\")\n}\n"],
                        kind: .project,
                        note: "The widget links the shared framework but never calls the code that opens the app's group."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for (host, facts) in SecurityFacts(context).byHost(Security.appGroup) {
            guard let entitlements = BundleEntitlements(host) else { continue }
            let identifier = host.identifier.flatMap { $0.contains("$") ? nil : $0 }
            let granted = entitlements.strings("com.apple.security.application-groups")
            let normalizedGranted = granted.map { TeamPrefixed.normalized($0, bundleIdentifier: identifier, team: Signing.team(of: host)) }
            var reported = Set<String>()
            for fact in facts where fact.direct {
                let u = fact.usage
                if normalizedGranted.contains(where: { TeamPrefixed.matches($0, u.key) }) { continue }
                let place = SecurityFacts.location(u)
                guard reported.insert("\(u.key)|\(place.path)|\(place.position?.line ?? 0)").inserted else { continue }
                let lists = granted.isEmpty ? "lists no app group" : "lists \(granted.sorted().joined(separator: ", "))"
                var f = finding("\(host.name) uses the app group '\(u.key)' (\(UsageReading.describe(u))) that its entitlements do not list: \(entitlements.file.path) \(lists); the shared container is nil and the shared defaults are private to this process",
                                bundle: host.name, at: place, key: u.key, evidence: [UsageReading.evidenceRef(u)],
                                fix: "Add \(u.key) to the App Groups capability (com.apple.security.application-groups) of \(host.name), or use a group it lists.",
                                fingerprint: [u.key])
                if SecurityFacts.isPackaged(u) { f.severity = .warning }
                out.append(f)
            }
        }
        return out
    }
}
