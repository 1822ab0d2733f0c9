import Foundation
import Artifacts
import Evidence
import Formats

public struct MissingPushEntitlementRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "missing_push_entitlement",
        name: "Push without aps-environment",
        summary: "An app registers for remote notifications or declares the remote-notification background mode, but its entitlements have no aps-environment.",
        rationale: """
        An app receives pushes only when its signature carries the `aps-environment` \
        entitlement (added by the Push Notifications capability, from a provisioning profile \
        with push enabled); without it `registerForRemoteNotifications` fails and silent \
        pushes never arrive. App Store Connect warns after the upload (ITMS-90078 "Missing Push \
        Notification Entitlement - Your app appears to register with the Apple Push \
        Notification service, but the app signature's entitlements do not include the \
        'aps-environment' entitlement").

        Built apps: read from the code signature (an unsigned app is not judged). Projects: the \
        target's `CODE_SIGN_ENTITLEMENTS` file, or none. Evidence of registration is \
        `registerForRemoteNotifications` in the app's code or its frameworks, or \
        `remote-notification` in `UIBackgroundModes`. Fix: enable Push Notifications for the \
        target, or remove the registration and the mode if the app does not use pushes.
        """,
        area: .entitlements, severity: .warning, tags: ["app-store", "push"],
        references: ["https://developer.apple.com/documentation/bundleresources/entitlements/aps-environment"],
        itms: ["ITMS-90078"],
        triggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist", "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"]),
                         "App/Info.plist": plistXML("<key>UIBackgroundModes</key>\n↓<array><string>remote-notification</string></array>"),
                         "App/App.entitlements": plistXML("<key>com.apple.developer.associated-domains</key><array><string>applinks:example.com</string></array>"),
                         "Podfile": "target 'App' do\n  pod 'Firebase/Messaging'\nend\n"],
                        kind: .project, note: "The mode, and an entitlements file without push; pods Preflight cannot read may register."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/Push.swift"]),
                         "App/Info.plist": plistXML("<key>CFBundleName</key><string>Demo</string>"),
                         "App/Push.swift": "import UIKit\nfunc register() { ↓UIApplication.shared.registerForRemoteNotifications() }\n"],
                        kind: .project, note: "Registration in the code, no entitlements file."),
        ],
        nonTriggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist", "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"]),
                         "App/Info.plist": plistXML("<key>UIBackgroundModes</key><array><string>remote-notification</string></array>"),
                         "App/App.entitlements": plistXML("<key>aps-environment</key><string>development</string>")],
                        kind: .project),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>\n<key>UIBackgroundModes</key><array><string>remote-notification</string></array>")],
                        kind: .app, note: "An unsigned built app: its entitlements are unknown."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist", "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"],
                                                                          sources: ["App/App.swift"]),
                         "App/Info.plist": plistXML("<key>UIBackgroundModes</key><array><string>remote-notification</string></array>"),
                         "App/App.swift": "import UIKit\n\nfinal class AppDelegate: UIResponder, UIApplicationDelegate {}\n",
                         "App/App.entitlements": plistXML("<key>com.apple.developer.associated-domains</key><array><string>applinks:example.com</string></array>")],
                        kind: .project, note: "The mode alone, and all the code seen uses no push: unused_background_mode's warning (remove the mode)."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        guard AppTraits.judges(context.product) else { return [] }
        let use = FeatureUse(context)
        var out: [Finding] = []
        for b in context.product.bundles where b.kind == .app {
            let isProject = AppTraits.isProjectTarget(b)
            // A built app without a signature (or one without entitlements) says nothing.
            guard isProject || b.entitlements != nil else { continue }
            if let e = b.entitlements, e.error != nil || e.root?.dictionary == nil { continue }
            if b.entitlements?.root?.dictionary?.entry("aps-environment") != nil { continue }
            let mode = b.infoValue("UIBackgroundModes").flatMap { AppTraits.strings($0).contains("remote-notification") ? $0 : nil }
            let registration = use.uses(ProtectedResourceCatalog.FeatureAPI.remoteNotifications, in: b).flatMap {
                $0.strength == .definite && UsageReading.isDirect($0, host: b) ? $0 : nil
            }
            guard mode != nil || registration != nil else { continue }
            // A mode no code uses is unused_background_mode's warning, with the fix that fits it
            // (remove the mode); this one would repeat it with the opposite fix.
            if registration == nil, let need = BackgroundModes.needs["remote-notification"],
               use.sawAllCode(of: b), use.use(in: b, where: need.capabilities) == nil { continue }
            let signature = b.entitlements == nil ? "has no entitlements file (CODE_SIGN_ENTITLEMENTS)"
                : isProject ? "has no aps-environment in \(b.entitlementsSource ?? "its entitlements")" : "is signed without aps-environment"
            let why = registration.map { "registers for remote notifications (\(UsageReading.describe($0)))" } ?? "declares the remote-notification background mode"
            let at: FileLocation
            if let mode { at = FileLocation(path: mode.location.path, position: mode.node.position ?? mode.location.position) } else if let r = registration {
                switch r.location {
                case .source(let p, let l, let c): at = FileLocation(path: p, position: SourcePosition(line: l, column: c))
                case .binary(let p, _): at = FileLocation(path: p)
                }
            } else { continue }
            out.append(finding("\(b.name) \(why) but \(signature); pushes will not arrive (ITMS-90078)",
                               bundle: b.name, at: at, key: mode != nil ? "UIBackgroundModes" : nil,
                               evidence: registration.map { [UsageReading.evidenceRef($0)] } ?? [],
                               fix: "Enable the Push Notifications capability for \(b.name) (aps-environment), or remove the registration and the mode.",
                               fingerprint: ["aps-environment"]))
        }
        return out
    }
}
