import Foundation
import Artifacts

public struct IPadMultitaskingOrientationsRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "ipad_multitasking_orientations",
        name: "iPad app without all four orientations",
        summary: "An iOS app that runs on iPad and takes part in multitasking does not list all four interface orientations for iPad.",
        rationale: """
        An app whose `UIDeviceFamily` includes iPad (2) takes part in iPad multitasking (Split \
        View, Slide Over, Stage Manager) unless it sets `UIRequiresFullScreen`, and App Store \
        Connect then requires every orientation in `UISupportedInterfaceOrientations~ipad` (or \
        `UISupportedInterfaceOrientations` when there is no iPad variant): Portrait, \
        PortraitUpsideDown, LandscapeLeft and LandscapeRight (ITMS-90474 "Invalid Bundle. iPad \
        Multitasking support requires these orientations"). Add the missing ones for iPad (the \
        iPhone list can stay as it is), and limit rotation in the view controllers if a screen \
        needs it. `UIRequiresFullScreen` avoids the check but is deprecated in iPadOS 26 (see \
        `requires_full_screen_deprecated`).

        Built apps and projects (`TARGETED_DEVICE_FAMILY`, generated `INFOPLIST_KEY_*` \
        settings). An app that declares no orientation list at all is not reported.
        """,
        area: .bundle, severity: .error, tags: ["app-store", "ipad"],
        references: ["https://developer.apple.com/documentation/bundleresources/information-property-list/uisupportedinterfaceorientations"],
        itms: ["ITMS-90474"],
        triggering: [
            RuleExample(["Info.plist": plistXML("""
                         <key>UIDeviceFamily</key><array><integer>1</integer><integer>2</integer></array>
                         <key>UILaunchStoryboardName</key><string>LaunchScreen</string>
                         <key>UISupportedInterfaceOrientations</key>
                         ↓<array><string>UIInterfaceOrientationPortrait</string></array>
                         """), "Base.lproj/LaunchScreen.storyboardc/Info.plist": plistXML("")],
                        kind: .app, note: "A portrait-only app that runs on iPad."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [ExampleTarget("App", settings: [
                "GENERATE_INFOPLIST_FILE": "YES", "TARGETED_DEVICE_FAMILY": "1,2", "INFOPLIST_KEY_UILaunchScreen_Generation": "YES",
                "↓INFOPLIST_KEY_UISupportedInterfaceOrientations_iPad": "UIInterfaceOrientationPortrait UIInterfaceOrientationLandscapeLeft UIInterfaceOrientationLandscapeRight"])])],
                        kind: .project, note: "The iPad list Xcode generates from a build setting lacks upside-down."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("""
                         <key>UIDeviceFamily</key><array><integer>1</integer><integer>2</integer></array>
                         <key>UISupportedInterfaceOrientations</key><array><string>UIInterfaceOrientationPortrait</string></array>
                         <key>UISupportedInterfaceOrientations~ipad</key><array>
                         <string>UIInterfaceOrientationPortrait</string><string>UIInterfaceOrientationPortraitUpsideDown</string>
                         <string>UIInterfaceOrientationLandscapeLeft</string><string>UIInterfaceOrientationLandscapeRight</string></array>
                         """)], kind: .app, note: "Portrait on iPhone, every orientation on iPad."),
            RuleExample(["Info.plist": plistXML("""
                         <key>UIDeviceFamily</key><array><integer>1</integer></array>
                         <key>UISupportedInterfaceOrientations</key><array><string>UIInterfaceOrientationPortrait</string></array>
                         """)], kind: .app, note: "iPhone only."),
            RuleExample(["Info.plist": plistXML("""
                         <key>UIDeviceFamily</key><array><integer>1</integer><integer>2</integer></array>
                         <key>UIRequiresFullScreen</key><true/>
                         <key>UISupportedInterfaceOrientations</key><array><string>UIInterfaceOrientationPortrait</string></array>
                         """)], kind: .app, note: "Opted out of multitasking (requires_full_screen_deprecated says the opt-out is deprecated)."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        guard AppTraits.judges(context.product) else { return [] }
        return context.product.bundles.compactMap { b in
            guard AppTraits.isIOSApp(b), AppTraits.supportsIPad(b), AppTraits.requiresFullScreen(b) == nil,
                  let (key, value) = AppTraits.iPadOrientations(b) else { return nil }
            let declared = Set(AppTraits.strings(value))
            let missing = AppTraits.allOrientations.filter { !declared.contains($0) }
            guard !missing.isEmpty else { return nil }
            let short = missing.map { String($0.dropFirst("UIInterfaceOrientation".count)) }
            return finding("\(b.name) runs on iPad but \(key) lacks \(short.joined(separator: ", ")); iPad multitasking requires all four orientations (ITMS-90474)",
                           bundle: b.name, at: FileLocation(path: value.location.path, position: value.node.position ?? value.location.position), key: key,
                           fix: "Add \(missing.joined(separator: ", ")) to UISupportedInterfaceOrientations~ipad.",
                           fingerprint: [key] + short)
        }
    }
}
