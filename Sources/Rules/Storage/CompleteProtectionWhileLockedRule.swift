import Foundation
import Artifacts
import Evidence

public struct CompleteProtectionWhileLockedRule: Rule {
    public init() {}
    static let key = "com.apple.developer.default-data-protection"

    /// Background modes whose code runs while the device may be locked.
    static let lockedModes: Set<String> = ["fetch", "processing", "remote-notification", "location", "audio", "voip",
                                           "bluetooth-central", "bluetooth-peripheral", "external-accessory", "push-to-talk",
                                           "nearby-interaction"]
    /// Extension points whose code runs while the device may be locked.
    static let lockedExtensionPoints: [String: String] = [
        "com.apple.usernotifications.service": "a notification service extension (runs when a push arrives)",
        "com.apple.callkit.call-directory": "a call directory extension",
        "com.apple.networkextension.packet-tunnel": "a packet tunnel",
    ]

    public static let description = RuleDescription(
        identifier: "complete_protection_while_locked",
        name: "Complete protection in locked code",
        summary: "A bundle whose files default to NSFileProtectionComplete runs code while the device is locked (background modes, a notification service extension): that code cannot read or write its files.",
        rationale: """
        With `com.apple.developer.default-data-protection` set to `NSFileProtectionComplete`, \
        every file the bundle creates is encrypted with a key iOS discards about ten seconds \
        after the device locks; until the next unlock, opening such a file fails. Apple's \
        *Encrypting Your App's Files* warns that a background fetch, a push handled in the \
        background, location updates, audio or a notification service extension can run exactly \
        then: the database or cache they need is unreadable, and writes fail or create files \
        that cannot be read back. Keep `NSFileProtectionComplete` for the files that need it, \
        written explicitly, and give the default (or the files background code touches) \
        `completeUntilFirstUserAuthentication`, or `completeUnlessOpen` for a file created while \
        locked.
        """,
        area: .storage, severity: .warning, tags: ["data-protection", "background"],
        references: ["https://developer.apple.com/documentation/uikit/encrypting-your-app-s-files",
                     "https://developer.apple.com/documentation/bundleresources/entitlements/com.apple.developer.default-data-protection"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>\n<key>UIBackgroundModes</key><array><string>fetch</string><string>remote-notification</string></array>"),
                         "App/App.entitlements": plistXML("<key>com.apple.developer.default-data-protection</key>↓<string>NSFileProtectionComplete</string>")]),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>com.apple.developer.default-data-protection</key><string>NSFileProtectionCompleteUntilFirstUserAuthentication</string>"),
                         "App/NotificationService/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app.service</string>\n<key>CFBundlePackageType</key><string>XPC!</string>\n<key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.usernotifications.service</string></dict>"),
                         "App/NotificationService/NotificationService.entitlements": plistXML("<key>com.apple.developer.default-data-protection</key>↓<string>NSFileProtectionComplete</string>")],
                        note: "The notification service extension runs when a push arrives, locked or not."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>\n<key>UIBackgroundModes</key><array><string>fetch</string></array>"),
                         "App/App.entitlements": plistXML("<key>com.apple.developer.default-data-protection</key><string>NSFileProtectionCompleteUntilFirstUserAuthentication</string>")],
                        note: "Background fetch with the system default class."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>com.apple.developer.default-data-protection</key><string>NSFileProtectionComplete</string>")],
                        note: "Complete protection in an app that runs only while unlocked."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist", "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"],
                                                                          sources: ["App/App.swift"]),
                         "App/App.swift": "import UIKit\n\nfinal class AppDelegate: UIResponder, UIApplicationDelegate {}\n",
                         "App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>\n<key>UIBackgroundModes</key><array><string>fetch</string></array>"),
                         "App/App.entitlements": plistXML("<key>com.apple.developer.default-data-protection</key><string>NSFileProtectionComplete</string>")],
                        kind: .project, note: "A background mode no code of the app uses runs nothing while locked (unused_background_mode reports the mode)."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        let use = FeatureUse(context)
        for b in context.product.bundles where b.kind.ships && EmbeddingChains.hostKinds.contains(b.kind) {
            guard let entitlements = BundleEntitlements(b), entitlements.root[Self.key]?.string == "NSFileProtectionComplete" else { continue }
            var reasons: [String] = []
            // A mode no code of the bundle uses runs nothing while locked (unused_background_mode
            // says so); weakening protection for it would be the wrong fix.
            let sawAll = use.sawAllCode(of: b)
            let modes = (b.infoValue("UIBackgroundModes")?.node.strings ?? []).filter(Self.lockedModes.contains).filter { mode in
                guard sawAll, let need = BackgroundModes.needs[mode] else { return true }
                return use.use(in: b, where: need.capabilities) != nil
            }
            if !modes.isEmpty { reasons.append("background modes \(modes.joined(separator: ", "))") }
            if let point = b.infoValue("NSExtension")?.node.dictionary?["NSExtensionPointIdentifier"]?.string,
               let what = Self.lockedExtensionPoints[point] {
                reasons.append("it is \(what)")
            }
            guard !reasons.isEmpty else { continue }
            out.append(finding("\(b.name) defaults its files to NSFileProtectionComplete and runs code while the device may be locked (\(reasons.joined(separator: "; "))): that code cannot open its files until the next unlock",
                               bundle: b.name, at: entitlements.location(Self.key), key: Self.key,
                               fix: "Set \(Self.key) to NSFileProtectionCompleteUntilFirstUserAuthentication (or remove it) and give complete protection explicitly to the files only foreground code reads (.completeFileProtection).",
                               fingerprint: [Self.key]))
        }
        return out
    }
}
