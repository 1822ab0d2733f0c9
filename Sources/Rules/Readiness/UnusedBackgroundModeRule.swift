import Foundation
import Artifacts
import Evidence

public struct UnusedBackgroundModeRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "unused_background_mode",
        name: "Background mode without the code it needs",
        summary: "An app declares a background mode in UIBackgroundModes, but none of its code that Preflight saw uses the API the mode is for.",
        rationale: """
        Each background mode lets iOS keep or wake the app for one purpose: `audio` for \
        playback, `location` for Core Location, `voip` for PushKit/CallKit, `fetch` and \
        `processing` for BGTaskScheduler, `remote-notification` for silent pushes after \
        `registerForRemoteNotifications`, `bluetooth-*` for Core Bluetooth… App Review asks \
        apps to declare only the modes they use (guideline 2.5.4) and rejects apps whose \
        declared modes have no feature behind them; a mode left over from a removed feature or \
        a template is a common cause.

        Reported only where Preflight saw the app's code: the binaries of a built app (not \
        App Store encrypted) with its frameworks, or a project target's sources and linked code \
        when the project uses no pods, binary frameworks or remote packages. Never for a folder \
        of files. The API lists are broad (any audio playback, web views, Core Location) so \
        that a use in an SDK still counts. Fix: remove the mode, or keep it if the code that \
        needs it lives where Preflight cannot see (a script runtime, a downloaded plugin).
        """,
        area: .bundle, severity: .warning, tags: ["app-review", "background"],
        references: ["https://developer.apple.com/app-store/review/guidelines/#2.5.4",
                     "https://developer.apple.com/documentation/xcode/configuring-background-execution-modes"],
        triggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/Player.swift"]),
                         "App/Info.plist": plistXML("<key>UIBackgroundModes</key>\n<array>\n\t<string>audio</string>\n\t↓<string>location</string>\n</array>"),
                         "App/Player.swift": "import AVFoundation\nfinal class Player { let player = AVPlayer() }\n"],
                        kind: .project, note: "Audio is used; location is not."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/Sync.m"]),
                         "App/Info.plist": plistXML("<key>BGTaskSchedulerPermittedIdentifiers</key><array><string>com.example.sync</string></array>\n<key>UIBackgroundModes</key>\n<array>↓<string>processing</string></array>"),
                         "App/Sync.m": "#import <Foundation/Foundation.h>\nvoid sync(void) { NSLog(@\"sync\"); }\n"],
                        kind: .project, note: "Identifiers are listed, but no code schedules a task."),
        ],
        nonTriggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/Sync.swift"]),
                         "App/Info.plist": plistXML("<key>UIBackgroundModes</key>\n<array><string>fetch</string><string>processing</string></array>"),
                         "App/Sync.swift": "import BackgroundTasks\nfunc schedule() { try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: \"sync\")) }\n"],
                        kind: .project),
            RuleExample(["App/Info.plist": plistXML("<key>UIBackgroundModes</key><array><string>audio</string></array>")],
                        note: "A folder of files shows no code to judge by."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/Push.swift"]),
                         "App/Info.plist": plistXML("<key>UIBackgroundModes</key>\n<array><string>remote-notification</string><string>newsstand-content</string></array>"),
                         "App/Push.swift": "import UIKit\nfunc register() { UIApplication.shared.registerForRemoteNotifications() }\n"],
                        kind: .project, note: "Registered for pushes; newsstand-content is unknown_background_mode's."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        let use = FeatureUse(context)
        var out: [Finding] = []
        for b in context.product.bundles where b.kind == .app || b.kind == .appClip {
            guard let modes = b.infoValue("UIBackgroundModes"), use.sawAllCode(of: b) else { continue }
            let nodes = modes.node.array ?? []
            for (i, mode) in AppTraits.strings(modes).enumerated() {
                guard let need = BackgroundModes.needs[mode], use.use(in: b, where: need.capabilities) == nil else { continue }
                let position = i < nodes.count && nodes[i].string == mode ? nodes[i].position : nil
                out.append(finding("\(b.name) declares the \(mode) background mode but none of its code that Preflight saw uses \(need.what)",
                                   bundle: b.name, at: FileLocation(path: modes.location.path, position: position ?? modes.node.position ?? modes.location.position),
                                   key: "UIBackgroundModes",
                                   fix: "Remove \(mode) from UIBackgroundModes unless code Preflight cannot see needs it.", fingerprint: [mode]))
            }
        }
        return out
    }
}
