import Foundation
import Artifacts

public struct MissingProjectReferenceRule: Rule {
    public init() {}

    static let app = plistXML("<key>CFBundlePackageType</key><string>APPL</string>")

    public static let description = RuleDescription(
        identifier: "missing_project_reference",
        name: "Build setting names a missing file",
        summary: "A target's INFOPLIST_FILE, CODE_SIGN_ENTITLEMENTS or similar setting, or a file its build phases use, names a file that does not exist.",
        rationale: """
        Xcode fails the build ("Build input file cannot be found"), or — for entitlements in \
        some setups — signs without them, so capabilities silently disappear. Point the setting \
        at the real file, or remove it. A file of a build phase is a warning rather than an \
        error: it is often generated or kept out of the repository on purpose \
        (GoogleService-Info.plist).

        One mistake is one finding. A path that several targets reach through the same place — \
        a file reference built by ten targets, an xcconfig or project-level setting they all \
        inherit — is reported once, on the first target by name, listing the others; its \
        fingerprint does not change when targets are reordered. The same path set separately in \
        two targets' own settings is two findings, since each needs its own edit. When \
        INFOPLIST_FILE names a missing file, what other rules would say about that Info.plist \
        (a purpose string "missing" from a file that is not there) is one mistake too: those \
        findings are folded into this one, which names them.

        Not reported, because the checkout is expected to lack them:
        - paths in a synchronized folder's `membershipExceptions` that no longer exist (Xcode \
        ignores them until the folder is next edited);
        - files a Run Script phase produces: its output paths, the paths listed in its output \
        file lists when those are in the input, and the outputs of SwiftGen (`--output`, or \
        the `output`s of `swiftgen.yml`), R.swift (`rswift generate OUTPUT`) and Sourcery \
        (`--output`, or `.sourcery.yml`) invocations in its script;
        - paths that a `.gitignore` of the input excludes (downloaded or generated at build \
        time), with git's matching rules (nested files, `!`, anchoring, `**`, classes);
        - files of git submodules that are not checked out (`.gitmodules` names them, their \
        folder is empty);
        - documentation catalogs (`.docc`), which never reach the app;
        - anything under `Pods/` or `Carthage/` when that folder itself is absent.

        Test targets: a problem that concerns only unit-test and UI-test targets is left out of \
        reports unless `--include-tests` (or `include_tests: true`) is given, and then it is a \
        warning at most; a problem shared by a test target and a shipping one is reported.
        """,
        area: .project, severity: .error, tags: ["app-review"],
        references: ["https://developer.apple.com/documentation/xcode/build-settings-reference"],
        triggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [ExampleTarget("App", settings: [
                "INFOPLIST_FILE": "App/Info.plist", "↓CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"])]),
                         "App/Info.plist": app], kind: .project),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: (1...10).map {
                ExampleTarget("Flavor\($0)", settings: ["INFOPLIST_FILE": "App/Info.plist"], resources: ["↓App/Config.plist"])
            }), "App/Info.plist": app], kind: .project,
                        note: "Ten targets copy one missing file: one finding (a warning) listing the ten targets."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"], resources: ["↓App/Colors.json"],
                              scripts: [ExampleScript("swiftgen", outputPaths: ["$(SRCROOT)/App/Generated/Strings.swift"])])]),
                         "App/Info.plist": app], kind: .project,
                        note: "A script that produces other files does not excuse this one."),
        ],
        nonTriggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: [
                "INFOPLIST_FILE": "App/Info.plist", "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"]),
                         "App/Info.plist": app,
                         "App/App.entitlements": plistXML("")], kind: .project),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"], synchronizedFolders: ["App"]),
                ExampleTarget("Widget", settings: ["INFOPLIST_FILE": "App/Info.plist"], exceptions: ["App": ["Removed.swift"]]),
            ]), "App/Info.plist": app, "App/AppMain.swift": "@main struct AppMain {}\n"], kind: .project,
                        note: "A synchronized folder's exception set names a file that is gone: Xcode ignores it."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"],
                              sources: ["App/Generated/Assets.swift", "App/R.generated.swift", "App/AutoMockable.generated.swift", "App/Build.swift"],
                              resources: ["App/Licenses.plist"],
                              scripts: [ExampleScript("\"$PODS_ROOT/SwiftGen/bin/swiftgen\" config run --config swiftgen.yml"),
                                        ExampleScript("\"$PODS_ROOT/R.swift/rswift\" generate \"$SRCROOT/App/R.generated.swift\""),
                                        ExampleScript("sourcery --sources App --templates Templates --output App/AutoMockable.generated.swift"),
                                        ExampleScript("./make-build-info.sh", outputPaths: ["$(SRCROOT)/App/Build.swift"]),
                                        ExampleScript("./licenses.sh", outputFileListPaths: ["$(SRCROOT)/licenses.xcfilelist"])])]),
                         "App/Info.plist": app,
                         "swiftgen.yml": "output_dir: App/Generated\nxcassets:\n  inputs: App/Assets.xcassets\n  outputs:\n    - templateName: swift5\n      output: Assets.swift\n",
                         "licenses.xcfilelist": "# generated by licenses.sh\n$(SRCROOT)/App/Licenses.plist\n"], kind: .project,
                        note: "Files that Run Script phases produce: output paths, output file lists, SwiftGen, R.swift and Sourcery."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"],
                              sources: ["App/Secrets.swift", "App/Docs.docc"], resources: ["App/GoogleService-Info.plist"])]),
                         "App/Info.plist": app,
                         ".gitignore": "# keys are fetched at build time\nSecrets.swift\n",
                         "App/.gitignore": "/GoogleService-*.plist\n"], kind: .project,
                        note: "Files the repository's .gitignore excludes, and a documentation catalog."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        ProblemGroup.group(context.product.problems).compactMap { g in
            guard case .missingReference(let setting) = g.problem.kind else { return nil }
            let path = g.problem.path
            // A file of a build phase is often generated or kept out of the repository on purpose
            // (GoogleService-Info.plist); a build setting that names nothing is a broken build.
            let isBuildFile = setting == "PBXFileReference" || setting == "PBXBuildFile"
            let fix = isBuildFile
                ? "Correct the file's path in the project or add the file; if a build step creates it, list it in that Run Script phase's output files, or in .gitignore if it is downloaded."
                : "Correct the path in the build setting or add the file."
            var f = finding(for: g, message: "\(setting) of \(g.targetList) names \(path), which does not exist",
                            key: setting, fix: fix, fingerprint: [path])
            if isBuildFile { f.severity = .warning }
            return f
        }
    }
}
