import Foundation
import Artifacts
import Evidence

public struct PathCaseMismatchRule: Rule {
    public init() {}

    static let app = plistXML("<key>CFBundlePackageType</key><string>APPL</string>")

    public static let description = RuleDescription(
        identifier: "path_case_mismatch",
        name: "Path differs only in letter case",
        summary: "A build setting or file reference names a file whose path differs from the real one only in letter case.",
        rationale: """
        macOS file systems usually ignore case, so the build works on a developer's Mac — and \
        fails on a case-sensitive volume or CI runner. A warning: on the default disk the build \
        and the app work (a copied resource takes the project's name), so it breaks only where \
        case matters.

        The fix depends on which name is right:
        - A resource the app copies (a file of a Resources phase) gets the name the project \
        gives it, and that is the name the app's code and iOS look up: rename the file on \
        disk to the project's name, do not edit the project. On a case-insensitive disk a \
        case-only rename needs two steps: `git mv a/logo.png a/logo.png.tmp && git mv \
        a/logo.png.tmp a/Logo.png`.
        - When the file on disk has a name iOS itself looks up (`InfoPlist.strings`, \
        `Localizable.strings`, `PrivacyInfo.xcprivacy`, `Settings.bundle`, `Root.plist`…), \
        the project is wrong: write the path exactly as on disk.
        - For build settings (INFOPLIST_FILE, CODE_SIGN_ENTITLEMENTS, xcconfigs), source files \
        and folders the name never reaches the app: write the path exactly as on disk.

        One mistake is one finding, listing every target it affects (see \
        missing_project_reference). Test targets: a mismatch that concerns only unit-test and \
        UI-test targets is left out unless `--include-tests` is given, and is then a warning.
        """,
        area: .project, severity: .warning,
        triggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [ExampleTarget("App", settings: ["↓INFOPLIST_FILE": "App/info.plist"])]),
                         "App/Info.plist": app], kind: .project,
                        note: "The setting is wrong: write App/Info.plist."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"], resources: ["↓App/Images/Logo.png"]),
                ExampleTarget("AppDev", settings: ["INFOPLIST_FILE": "App/Info.plist"], resources: ["↓App/Images/Logo.png"]),
            ]), "App/Info.plist": app, "App/Images/logo.png": "png"], kind: .project,
                        note: "The app looks up Logo.png, the name the project copies it under: rename the file. One finding for both targets."),
        ],
        nonTriggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist"]),
                         "App/Info.plist": app], kind: .project),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"], resources: ["App/Images/Logo.png"]),
            ]), "App/Info.plist": app, "App/Images/Logo.png": "png"], kind: .project),
        ])

    /// Which side holds the right name, and so what to change.
    enum Authority: Equatable {
        /// The project's reference: rename the file on disk.
        case reference
        /// The file on disk: edit the project.
        case disk
    }

    static func authority(setting: String, reference: String, actual: String) -> Authority {
        let refName = PathUtil.lastComponent(reference), diskName = PathUtil.lastComponent(actual)
        // Only a folder differs: folders of a project's files never reach the app.
        if refName == diskName { return .disk }
        // Settings, sources and folders only feed the build; a resource is copied under the
        // project's name, which the app's code looks up — unless the disk has the platform's name.
        let copied = (setting == "PBXFileReference" || setting == "PBXBuildFile") && !ProjectFileRole.isSource(reference)
        guard copied, !BundleConventions.namesLookedUpByThePlatform.contains(diskName) else { return .disk }
        return .reference
    }

    static func fix(setting: String, reference: String, actual: String) -> String {
        switch authority(setting: setting, reference: reference, actual: actual) {
        case .disk:
            return "Write the path exactly as \(actual) in the project."
        case .reference:
            let target = PathUtil.join(PathUtil.parent(actual), PathUtil.lastComponent(reference))
            let temporary = actual + ".tmp"
            return "Rename the file \(actual) to \(target): the app looks it up under the name the project gives it, so do not edit the project. On a case-insensitive disk rename in two steps: git mv '\(actual)' '\(temporary)' && git mv '\(temporary)' '\(target)'."
        }
    }

    public func check(_ context: RuleContext) -> [Finding] {
        ProblemGroup.group(context.product.problems).compactMap { g in
            guard case .caseMismatch(let setting, let actual) = g.problem.kind else { return nil }
            let path = g.problem.path
            return finding(for: g, message: "\(setting) of \(g.targetList) names \(path), but the file is \(actual); case-sensitive file systems will not find it",
                           key: setting, fix: Self.fix(setting: setting, reference: path, actual: actual), fingerprint: [path])
        }
    }
}
