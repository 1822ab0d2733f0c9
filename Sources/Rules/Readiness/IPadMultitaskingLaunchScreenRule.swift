import Foundation
import Artifacts

public struct IPadMultitaskingLaunchScreenRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "ipad_multitasking_launch_screen",
        name: "iPad app without a launch storyboard",
        summary: "An iOS app that runs on iPad and takes part in multitasking has no launch storyboard or UILaunchScreen, or names a launch storyboard it does not ship.",
        rationale: """
        iPad multitasking needs a launch screen the system can draw at any window size: a \
        launch storyboard (`UILaunchStoryboardName`) or the Info.plist launch screen \
        (`UILaunchScreen`, iOS 14). Launch images do not count. App Store Connect rejects an \
        iPad app without one unless it sets `UIRequiresFullScreen` (ITMS-90475 "iPad \
        Multitasking support requires launch story board in bundle"). A \
        `UILaunchStoryboardName` that names no storyboard of the bundle is as good as none: \
        iOS shows a blank screen, and the validator looks for the compiled storyboard.

        Fix: add a `LaunchScreen.storyboard` to the app target and set \
        `UILaunchStoryboardName` to its name (without extension), or add a `UILaunchScreen` \
        dictionary (`INFOPLIST_KEY_UILaunchScreen_Generation = YES`).

        Built apps (the `.storyboardc` or `.nib` must be in the bundle) and projects (the \
        `.storyboard` or `.xib` must be a resource of the app target).
        """,
        area: .bundle, severity: .error, tags: ["app-store", "ipad", "launch-screen"],
        references: ["https://developer.apple.com/documentation/bundleresources/information-property-list/uilaunchstoryboardname",
                     "https://developer.apple.com/documentation/bundleresources/information-property-list/uilaunchscreen"],
        itms: ["ITMS-90475"],
        triggering: [
            RuleExample(["Info.plist": plistXMLMarkingRoot("""
                         <key>UIDeviceFamily</key><array><integer>1</integer><integer>2</integer></array>
                         <key>UILaunchImages</key><array/>
                         """)], kind: .app, note: "Launch images only."),
            RuleExample(["Info.plist": plistXML("""
                         <key>UIDeviceFamily</key><array><integer>2</integer></array>
                         <key>UILaunchStoryboardName</key>↓<string>LaunchScreen</string>
                         """), "Base.lproj/Main.storyboardc/Info.plist": plistXML("")],
                        kind: .app, note: "The named storyboard is not in the bundle."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [ExampleTarget("App", settings: [
                "GENERATE_INFOPLIST_FILE": "YES", "TARGETED_DEVICE_FAMILY": "1,2", "↓INFOPLIST_KEY_UILaunchStoryboardName": "Launch Screen"],
                resources: ["App/Main.storyboard"])]), "App/Main.storyboard": "<document/>"],
                        kind: .project, note: "A project whose app target copies no such storyboard."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("""
                         <key>UIDeviceFamily</key><array><integer>1</integer><integer>2</integer></array>
                         <key>UILaunchStoryboardName</key><string>LaunchScreen</string>
                         """), "Base.lproj/LaunchScreen.storyboardc/Info.plist": plistXML("")], kind: .app),
            RuleExample(["Info.plist": plistXML("""
                         <key>UIDeviceFamily</key><array><integer>1</integer><integer>2</integer></array>
                         <key>UILaunchStoryboardName</key><string>LaunchScreen</string>
                         """), "LaunchScreen.nib": "nib"], kind: .app, note: "A launch screen made from a xib."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [ExampleTarget("App", settings: [
                "GENERATE_INFOPLIST_FILE": "YES", "TARGETED_DEVICE_FAMILY": "1,2", "INFOPLIST_KEY_UILaunchScreen_Generation": "YES"])])],
                        kind: .project, note: "The UILaunchScreen dictionary Xcode generates."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [ExampleTarget("App", settings: [
                "GENERATE_INFOPLIST_FILE": "YES", "TARGETED_DEVICE_FAMILY": "1,2", "INFOPLIST_KEY_UILaunchStoryboardName": "LaunchScreen"],
                resources: ["App/Base.lproj/LaunchScreen.storyboard"])]), "App/Base.lproj/LaunchScreen.storyboard": "<document/>"],
                        kind: .project),
            RuleExample(["Info.plist": plistXML("""
                         <key>UIDeviceFamily</key><array><integer>1</integer><integer>2</integer></array>
                         <key>UIRequiresFullScreen</key><true/>
                         """)], kind: .app, note: "Opted out of multitasking (see missing_launch_screen and requires_full_screen_deprecated)."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        guard AppTraits.judges(context.product) else { return [] }
        var out: [Finding] = []
        for b in context.product.bundles where AppTraits.isIOSApp(b) && AppTraits.supportsIPad(b) && AppTraits.requiresFullScreen(b) == nil {
            switch AppTraits.launchScreen(b, device: "ipad") {
            case .plist: continue
            case .none:
                let images = AppTraits.hasLaunchImages(b, in: context.product) ? " (launch images do not count)" : ""
                out.append(finding("\(b.name) runs on iPad but has no launch storyboard or UILaunchScreen\(images); iPad multitasking requires one (ITMS-90475)",
                                   bundle: b.name, at: AppTraits.infoLocation(b), key: "UILaunchStoryboardName",
                                   fix: "Add a LaunchScreen.storyboard to the app target and set UILaunchStoryboardName, or add a UILaunchScreen dictionary.",
                                   fingerprint: ["none"]))
            case .storyboard(let key, let names, let value):
                for s in AppTraits.unshippedStoryboards(context.product, b, key: key, names: names, value: value) {
                    out.append(finding("\(b.name) names launch storyboard \"\(s.name)\" in \(key), \(s.reason); iPad multitasking requires the launch storyboard in the bundle (ITMS-90475)",
                                       bundle: b.name, at: s.location, key: key,
                                       fix: "Add \(s.name).storyboard to the app target's resources, or set \(key) to the launch storyboard it has.",
                                       fingerprint: ["missing", s.name]))
                }
            }
        }
        return out
    }
}
