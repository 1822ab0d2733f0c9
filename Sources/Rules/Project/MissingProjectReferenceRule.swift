import Foundation
import Artifacts

public struct MissingProjectReferenceRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "missing_project_reference",
        name: "Build setting names a missing file",
        summary: "A target's INFOPLIST_FILE, CODE_SIGN_ENTITLEMENTS or similar setting names a file that does not exist.",
        rationale: """
        Xcode fails the build ("Build input file cannot be found"), or — for entitlements in \
        some setups — signs without them, so capabilities silently disappear. Point the setting \
        at the real file, or remove it.
        """,
        area: .project, severity: .error, tags: ["app-review"],
        references: ["https://developer.apple.com/documentation/xcode/build-settings-reference"],
        triggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: [
                "INFOPLIST_FILE": "App/Info.plist", "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"]),
                         "App/Info.plist": plistXML("<key>CFBundlePackageType</key><string>APPL</string>")], kind: .project),
        ],
        nonTriggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: [
                "INFOPLIST_FILE": "App/Info.plist", "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"]),
                         "App/Info.plist": plistXML("<key>CFBundlePackageType</key><string>APPL</string>"),
                         "App/App.entitlements": plistXML("")], kind: .project),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        context.product.problems.compactMap { p in
            guard case .missingReference(let setting) = p.kind else { return nil }
            var f = finding("\(setting) of \(p.bundle ?? "a target") names \(p.path), which does not exist",
                            bundle: p.bundle, at: p.referencedFrom ?? FileLocation(path: p.path), key: setting,
                            fix: "Correct the path in the build setting or add the file.", fingerprint: [p.path])
            // A file of a build phase is often generated or kept out of the repository on purpose
            // (GoogleService-Info.plist); a build setting that names nothing is a broken build.
            if setting == "PBXFileReference" || setting == "PBXBuildFile" { f.severity = .warning }
            return f
        }
    }
}
