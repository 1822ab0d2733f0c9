import Foundation
import Artifacts

public struct MissingLaunchScreenRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "missing_launch_screen",
        name: "App without a launch screen",
        summary: "An iPhone app has no launch storyboard, UILaunchScreen or launch images (by key or as `Default*.png` files), or names a launch storyboard it does not ship.",
        rationale: """
        iOS sizes an app's window from its launch screen: an app with no launch storyboard \
        (`UILaunchStoryboardName`), no Info.plist launch screen (`UILaunchScreen`) and no launch \
        image for the device runs letterboxed at the size of an old iPhone. App Store Connect \
        once rejected such uploads as not optimized for the 4-inch screen (ITMS-90096, from the \
        days of launch images), and Apple asks every app for a launch storyboard. A \
        `UILaunchStoryboardName` naming a storyboard the bundle does not ship leaves the launch \
        screen blank. iPad apps that take part in multitasking are \
        `ipad_multitasking_launch_screen`'s (an error there).

        Fix: add a `LaunchScreen.storyboard` and set `UILaunchStoryboardName`, or add a \
        `UILaunchScreen` dictionary. Built apps and projects.
        """,
        area: .bundle, severity: .warning, tags: ["app-store", "launch-screen"],
        references: ["https://developer.apple.com/documentation/bundleresources/information-property-list/uilaunchscreen",
                     "https://developer.apple.com/documentation/xcode/specifying-your-apps-launch-screen"],
        itms: ["ITMS-90096"],
        triggering: [
            RuleExample(["Info.plist": plistXMLMarkingRoot("<key>UIDeviceFamily</key><array><integer>1</integer></array>\n<key>CFBundleName</key><string>Demo</string>")],
                        kind: .app, note: "No launch screen at all."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [ExampleTarget("App", settings: [
                "INFOPLIST_FILE": "App/Info.plist", "TARGETED_DEVICE_FAMILY": "1"])]),
                         "App/Info.plist": plistXML("<key>UILaunchStoryboardName</key>↓<string>LaunchScreen</string>")],
                        kind: .project, note: "The target copies no LaunchScreen storyboard."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>UIDeviceFamily</key><array><integer>1</integer></array>\n<key>UILaunchScreen</key><dict/>")], kind: .app),
            RuleExample(["Info.plist": plistXML("<key>UIDeviceFamily</key><array><integer>1</integer></array>\n<key>UILaunchImages</key><array/>")],
                        kind: .app, note: "Launch images still size the window (a legacy way)."),
            RuleExample(["Info.plist": plistXML("<key>UIDeviceFamily</key><array><integer>1</integer></array>"),
                         "Default.png": "png", "Default-568h@2x.png": "png"],
                        kind: .app, note: "Launch images found by file name, with no Info.plist key (apps built before launch storyboards)."),
            RuleExample(["Info.plist": plistXML("<key>UIDeviceFamily</key><array><integer>1</integer><integer>2</integer></array>")],
                        kind: .app, note: "An iPad app in multitasking: ipad_multitasking_launch_screen's error."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleName</key><string>Demo</string>")],
                        note: "A folder of files: the project that builds it may generate the key."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        guard AppTraits.judges(context.product) else { return [] }
        var out: [Finding] = []
        for b in context.product.bundles where AppTraits.isIOSApp(b) {
            // iPad multitasking apps are the error rule's.
            if AppTraits.supportsIPad(b), AppTraits.requiresFullScreen(b) == nil { continue }
            switch AppTraits.launchScreen(b, device: "iphone") {
            case .plist: continue
            case .none:
                guard !AppTraits.hasLaunchImages(b, in: context.product) else { continue }
                out.append(finding("\(b.name) has no launch storyboard, UILaunchScreen or launch image; iOS runs it letterboxed at an old iPhone's size (ITMS-90096)",
                                   bundle: b.name, at: AppTraits.infoLocation(b), key: "UILaunchStoryboardName",
                                   fix: "Add a LaunchScreen.storyboard to the app target and set UILaunchStoryboardName, or add a UILaunchScreen dictionary.",
                                   fingerprint: ["none"]))
            case .storyboard(let key, let names, let value):
                for s in AppTraits.unshippedStoryboards(context.product, b, key: key, names: names, value: value) {
                    out.append(finding("\(b.name) names launch storyboard \"\(s.name)\" in \(key), \(s.reason); the launch screen will be blank",
                                       bundle: b.name, at: s.location, key: key,
                                       fix: "Add \(s.name).storyboard to the app target's resources, or set \(key) to the launch storyboard it has.",
                                       fingerprint: ["missing", s.name]))
                }
            }
        }
        return out
    }
}
