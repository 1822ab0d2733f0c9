import Foundation
import Artifacts

public struct RequiresFullScreenDeprecatedRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "requires_full_screen_deprecated",
        name: "UIRequiresFullScreen is deprecated",
        summary: "An iOS app that runs on iPad opts out of multitasking with UIRequiresFullScreen, which iPadOS 26 deprecates and a later release will ignore.",
        rationale: """
        `UIRequiresFullScreen` kept an iPad app out of Split View and Slide Over, and spared it \
        the multitasking checks of App Store Connect (all four orientations, ITMS-90474; a \
        launch storyboard, ITMS-90475). Apple deprecated the key in iPadOS 26 and says a \
        future release will ignore it (TN3192): the app will then be resized like any other, \
        and uploads will need what multitasking needs. \
        `UIRequiresFullScreenIgnoredStartingWithVersion` (iPadOS 26.2) tells the system from \
        which version to ignore it while the app migrates.

        Fix: support resizing (size classes, scenes), add the missing orientations and a \
        launch storyboard, then remove the key. Built apps and projects; apps that do not run \
        on iPad are not reported.
        """,
        area: .bundle, severity: .warning, tags: ["ipad", "deprecation"],
        references: ["https://developer.apple.com/documentation/technotes/tn3192-migrating-your-app-from-the-deprecated-uirequiresfullscreen-key",
                     "https://developer.apple.com/documentation/bundleresources/information-property-list/uirequiresfullscreen"],
        triggering: [
            RuleExample(["Info.plist": plistXML("""
                         <key>UIDeviceFamily</key><array><integer>1</integer><integer>2</integer></array>
                         ↓<key>UIRequiresFullScreen</key><true/>
                         <key>UISupportedInterfaceOrientations</key><array><string>UIInterfaceOrientationPortrait</string></array>
                         """)], kind: .app, note: "A portrait-only iPad app that relies on the key."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [ExampleTarget("App", settings: [
                "GENERATE_INFOPLIST_FILE": "YES", "TARGETED_DEVICE_FAMILY": "1,2", "↓INFOPLIST_KEY_UIRequiresFullScreen": "YES"])])],
                        kind: .project),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("""
                         <key>UIDeviceFamily</key><array><integer>1</integer></array>
                         <key>UIRequiresFullScreen</key><true/>
                         """)], kind: .app, note: "iPhone only: the key means nothing there."),
            RuleExample(["Info.plist": plistXML("""
                         <key>UIDeviceFamily</key><array><integer>1</integer><integer>2</integer></array>
                         <key>UIRequiresFullScreen</key><false/>
                         """)], kind: .app),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        guard AppTraits.judges(context.product) else { return [] }
        return context.product.bundles.compactMap { b in
            guard AppTraits.isIOSApp(b), AppTraits.supportsIPad(b), let (key, value) = AppTraits.requiresFullScreen(b) else { return nil }
            var needs: [String] = []
            if let (_, o) = AppTraits.iPadOrientations(b), !Set(AppTraits.allOrientations).isSubset(of: AppTraits.strings(o)) {
                needs.append("all four orientations (ITMS-90474)")
            }
            if case .none = AppTraits.launchScreen(b, device: "ipad") { needs.append("a launch storyboard (ITMS-90475)") }
            let then = needs.isEmpty ? "" : "; without it the app needs " + needs.joined(separator: " and ")
            return finding("\(b.name) sets \(key), deprecated in iPadOS 26 and to be ignored in a future release\(then)",
                           bundle: b.name, at: value.location, key: key,
                           fix: "Support resizing on iPad, then remove \(key) (TN3192).", fingerprint: [key])
        }
    }
}
