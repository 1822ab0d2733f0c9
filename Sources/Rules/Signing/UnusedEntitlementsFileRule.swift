import Foundation
import Artifacts
import Formats

public struct UnusedEntitlementsFileRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "unused_entitlements_file",
        name: "Unused entitlements file",
        summary: "A project folder holds an .entitlements file that no target's CODE_SIGN_ENTITLEMENTS names.",
        rationale: """
        Only the file a target's `CODE_SIGN_ENTITLEMENTS` names is signed into the app. An \
        entitlements file nothing names has no effect: capabilities added to it (often by hand, \
        or left behind when a target was renamed or a configuration added) are not in the \
        build, and reviewers reading it are misled about what the app can do.

        The file counts as used when any configuration of any target names it, when a build \
        settings file or project names it in a `CODE_SIGN_ENTITLEMENTS` line (including \
        conditional settings such as `CODE_SIGN_ENTITLEMENTS[sdk=macosx*]`), or when a \
        generator spec (XcodeGen, Tuist) or a build script (Fastfile, shell, Ruby, Python) \
        mentions its name. Files under Pods, Carthage, build folders and package checkouts are \
        not looked at.

        Fix: delete the file, or set it as the `CODE_SIGN_ENTITLEMENTS` of the target that should \
        have its capabilities.
        """,
        area: .entitlements, severity: .note, tags: ["project"],
        references: ["https://developer.apple.com/documentation/xcode/build-settings-reference#Code-Signing-Entitlements"],
        triggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: [
                "INFOPLIST_FILE": "App/Info.plist", "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"]),
                         "App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>aps-environment</key>\n<string>production</string>"),
                         "App/AppRelease.entitlements↓": plistXML("<key>aps-environment</key>\n<string>production</string>\n<key>com.apple.developer.siri</key>\n<true/>")],
                        kind: .project, note: "A second file with Siri that no configuration uses: the app ships without Siri."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist"]),
                         "App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "Widget/Widget.entitlements↓": plistXML("<key>com.apple.security.application-groups</key>\n<array>\n\t<string>group.com.example.app</string>\n</array>")],
                        kind: .project, note: "Left behind by a widget target that was removed."),
        ],
        nonTriggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: [
                "INFOPLIST_FILE": "App/Info.plist", "CODE_SIGN_ENTITLEMENTS": "App/Release.entitlements"],
                                                                        debugSettings: ["CODE_SIGN_ENTITLEMENTS": "App/Debug.entitlements"]),
                         "App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Release.entitlements": plistXML("<key>aps-environment</key>\n<string>production</string>"),
                         "App/Debug.entitlements": plistXML("<key>aps-environment</key>\n<string>development</string>")],
                        kind: .project, note: "Each file is named by a configuration."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: [
                "INFOPLIST_FILE": "App/Info.plist", "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"]),
                         "App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>aps-environment</key>\n<string>production</string>"),
                         "Config/Mac.xcconfig": "CODE_SIGN_ENTITLEMENTS[sdk=macosx*] = App/App-macOS.entitlements\n",
                         "App/App-macOS.entitlements": plistXML("<key>com.apple.security.app-sandbox</key>\n<true/>"),
                         "Pods/Firebase/Firebase.entitlements": plistXML("")],
                        kind: .project, note: "A Mac Catalyst file named by a conditional setting, and a file inside Pods."),
            RuleExample(["mail-project.yml": "name: mail\ninclude: [common.yml]\ntargets:\n  Mail:\n    type: application\n"
                            + "    platform: iOS\n    settings:\n      groups: [signing]\n      base: {INFOPLIST_FILE: Mail/Info.plist}\n",
                         "common.yml": "configs: {Debug: debug, Release: release}\nsettingGroups:\n  signing:\n"
                            + "    CODE_SIGN_ENTITLEMENTS: Mail/$(TARGET_NAME)$(CONFIGURATION).entitlements\n",
                         "Mail/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.mail</string>"),
                         "Mail/MailDebug.entitlements": plistXML("<key>aps-environment</key>\n<string>development</string>"),
                         "Mail/MailRelease.entitlements": plistXML("<key>aps-environment</key>\n<string>production</string>"),
                         "SDK/project.yml": "name: SDK\ntargets:\n  SDK: {type: framework, platform: iOS}\n"],
                        kind: .project, note: "Beside an SDK's project.yml, an XcodeGen spec under another name (found by its content) names one file per configuration through $(TARGET_NAME)$(CONFIGURATION)."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        context.product.unreferencedEntitlementsFiles.map { path in
            finding("\(path) is named by no target's CODE_SIGN_ENTITLEMENTS in any configuration: its entitlements are not signed into any app",
                    bundle: nil, at: FileLocation(path: path),
                    fix: "Delete the file, or set it as CODE_SIGN_ENTITLEMENTS of the target that should have these capabilities.",
                    fingerprint: [path])
        }
    }
}
