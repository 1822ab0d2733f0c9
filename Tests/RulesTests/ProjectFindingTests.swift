import XCTest
import Artifacts
@testable import Rules

/// Project problems: one finding per cause, what is not a missing file, and fix texts.
final class ProjectFindingTests: XCTestCase {
    static let app = plistXML("<key>CFBundlePackageType</key><string>APPL</string>")

    func findings(_ rule: any Rule.Type, _ files: [String: String]) throws -> [Finding] {
        try RuleExampleTests.run(rule, files: files, example: RuleExample(files, kind: .project))
    }

    func project(_ targets: [ExampleTarget]) -> String { exampleProject(targets: targets) }

    func testOneMissingFileInTenTargetsIsOneFinding() throws {
        let names = (1...10).map { "Flavor\($0)" }
        let targets = names.map { ExampleTarget($0, settings: ["INFOPLIST_FILE": "App/Info.plist"], resources: ["App/Config.plist"]) }
        let found = try findings(MissingProjectReferenceRule.self, ["App.xcodeproj/project.pbxproj": project(targets), "App/Info.plist": Self.app])
        XCTAssertEqual(found.count, 1)
        let f = try XCTUnwrap(found.first)
        XCTAssertEqual(f.bundle, "Flavor1")
        XCTAssertEqual(f.alsoInBundles, names.sorted().dropFirst().map { $0 })
        XCTAssertEqual(f.severity, .warning)
        XCTAssertTrue(f.message.hasPrefix("PBXFileReference of 10 targets: Flavor1, Flavor10, Flavor2"), f.message)

        // The same project with its targets in another order: the same finding, the same fingerprint.
        let reordered = try findings(MissingProjectReferenceRule.self, ["App.xcodeproj/project.pbxproj": project(targets.reversed()),
                                                                          "App/Info.plist": Self.app])
        XCTAssertEqual(reordered.map(\.fingerprint), [f.fingerprint])
        XCTAssertEqual(reordered.map(\.message), [f.message])
        XCTAssertEqual(reordered.map(\.alsoInBundles), [f.alsoInBundles])
    }

    func testSameSettingInEachTargetIsOneFindingPerTarget() throws {
        // Each target writes its own setting: two places to edit, two findings.
        let targets = ["App", "Widget"].map { ExampleTarget($0, settings: ["INFOPLIST_FILE": "App/Info.plist", "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"]) }
        let found = try findings(MissingProjectReferenceRule.self, ["App.xcodeproj/project.pbxproj": project(targets), "App/Info.plist": Self.app])
        XCTAssertEqual(found.map(\.bundle), ["App", "Widget"])
        XCTAssertEqual(found.map(\.alsoInBundles), [[], []])
        XCTAssertNotEqual(found[0].fingerprint, found[1].fingerprint)
    }

    func testFingerprintOfAGroupDoesNotDependOnBundleOrder() {
        var a = Finding(rule: "r", severity: .error, message: "m", bundle: "B")
        a.alsoInBundles = ["A", "C"]
        var b = Finding(rule: "r", severity: .error, message: "m", bundle: "C")
        b.alsoInBundles = ["B", "A"]
        XCTAssertEqual(a.fingerprint, b.fingerprint)
        XCTAssertEqual(a.fingerprint, Finding(rule: "r", severity: .error, message: "m", bundle: "A").fingerprint)
    }

    // MARK: - What the non-triggering examples exclude would be reported without the exclusion

    func testExclusionsAreWhatSilencesTheExamples() throws {
        let plain = ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"],
                                  sources: ["App/Secrets.swift", "App/R.generated.swift", "App/Docs.docc"],
                                  resources: ["App/GoogleService-Info.plist"])
        let base = ["App.xcodeproj/project.pbxproj": project([plain]), "App/Info.plist": Self.app]
        XCTAssertEqual(Set(try findings(MissingProjectReferenceRule.self, base).map { $0.message.components(separatedBy: " names ")[1] }),
                       ["App/Secrets.swift, which does not exist", "App/R.generated.swift, which does not exist",
                        "App/GoogleService-Info.plist, which does not exist"],
                       "a missing .docc is never reported")
        var ignored = base
        ignored[".gitignore"] = "Secrets.swift\n/App/GoogleService-Info.plist\n"
        var generated = plain
        generated.scripts = [ExampleScript("\"${PODS_ROOT}/R.swift/rswift\" generate --access-level public \"${SRCROOT}/App/R.generated.swift\"")]
        ignored["App.xcodeproj/project.pbxproj"] = project([generated])
        XCTAssertEqual(try findings(MissingProjectReferenceRule.self, ignored).map(\.message), [])

        // A negation re-includes the file: reported again.
        ignored[".gitignore"] = "*.swift\n!Secrets.swift\n/App/GoogleService-Info.plist\n"
        XCTAssertEqual(try findings(MissingProjectReferenceRule.self, ignored).map(\.message),
                       ["PBXFileReference of App names App/Secrets.swift, which does not exist"])
    }

    func testFilesOfSubmodulesThatAreNotCheckedOutAreNotReported() throws {
        let target = ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"],
                                   sources: ["Vendor/SDK/Sources/Client.swift", "Checked/Out/Missing.swift"])
        let files = ["App.xcodeproj/project.pbxproj": project([target]), "App/Info.plist": Self.app,
                     ".gitmodules": "[submodule \"sdk\"]\n\tpath = Vendor/SDK\n\turl = https://example.com/sdk.git\n[submodule \"other\"]\n\tpath = Checked/Out\n",
                     "Checked/Out/Present.swift": "let x = 1\n"]
        XCTAssertEqual(try findings(MissingProjectReferenceRule.self, files).map(\.message),
                       ["PBXFileReference of App names Checked/Out/Missing.swift, which does not exist"],
                       "a submodule that is checked out is judged like any folder")
    }

    func testMembershipExceptionForAMissingFileIsNotReported() throws {
        let targets = [ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"], synchronizedFolders: ["App"])]
            + (1...24).map { ExampleTarget("Widget\($0)", settings: ["INFOPLIST_FILE": "App/Info.plist"], exceptions: ["App": ["Gone.swift", "AppMain.swift"]]) }
        let files = ["App.xcodeproj/project.pbxproj": project(targets), "App/Info.plist": Self.app, "App/AppMain.swift": "@main struct AppMain {}\n"]
        XCTAssertEqual(try findings(MissingProjectReferenceRule.self, files).map(\.message), [])
        // The exception that exists still adds its file to each widget.
        let loaded = try ProductLoader.load(source: MemorySource(name: "Example", files: files.mapValues { Data($0.utf8) }), kind: .project)
        XCTAssertEqual(loaded.product.bundle(named: "Widget7")?.sourceFiles, ["App/AppMain.swift"])
    }

    func testScriptOutputsWithSettingsAndFileLists() throws {
        let target = ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist", "GEN": "$(SRCROOT)/App/Gen"],
                                   sources: ["App/Gen/One.swift", "App/Gen/Deep/Two.swift", "App/Listed.swift", "App/Other.swift"],
                                   scripts: [ExampleScript("./gen.sh", outputPaths: ["$(GEN)"]),
                                             ExampleScript("./list.sh", outputFileListPaths: ["${SRCROOT}/outputs.xcfilelist", "$(SRCROOT)/absent.xcfilelist"])])
        let files = ["App.xcodeproj/project.pbxproj": project([target]), "App/Info.plist": Self.app,
                     "outputs.xcfilelist": "$(SRCROOT)/App/Listed.swift\n\n"]
        XCTAssertEqual(try findings(MissingProjectReferenceRule.self, files).map(\.message),
                       ["PBXFileReference of App names App/Other.swift, which does not exist"])
    }

    func testSwiftGenAndSourceryConfigurations() throws {
        let target = ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"],
                                   sources: ["Gen/Strings.swift", "Gen/Mocks.generated.swift", "App/Not.swift"],
                                   scripts: [ExampleScript("if which swiftgen >/dev/null; then\n  swiftgen\nfi"),
                                             ExampleScript("\"$PODS_ROOT/Sourcery/bin/sourcery\" --config tools/sourcery.yml")])
        let files = ["App.xcodeproj/project.pbxproj": project([target]), "App/Info.plist": Self.app,
                     "swiftgen.yml": "strings:\n  inputs: App/en.lproj\n  outputs:\n    templateName: structured-swift5\n    output: Gen/Strings.swift # generated\n",
                     "tools/sourcery.yml": "sources:\n  - ../App\noutput:\n  path: ../Gen/Mocks.generated.swift\n"]
        XCTAssertEqual(try findings(MissingProjectReferenceRule.self, files).map(\.message),
                       ["PBXFileReference of App names App/Not.swift, which does not exist"])
    }

    // MARK: - path_case_mismatch fix

    func testCaseMismatchFixDependsOnWhichNameIsRight() throws {
        // A copied resource: the app looks up the project's name; rename the file.
        XCTAssertEqual(PathCaseMismatchRule.authority(setting: "PBXFileReference", reference: "App/Logo.png", actual: "App/logo.png"), .reference)
        XCTAssertEqual(PathCaseMismatchRule.fix(setting: "PBXFileReference", reference: "App/Logo.png", actual: "App/logo.png"),
                       "Rename the file App/logo.png to App/Logo.png: the app looks it up under the name the project gives it, so do not edit the project. On a case-insensitive disk rename in two steps: git mv 'App/logo.png' 'App/logo.png.tmp' && git mv 'App/logo.png.tmp' 'App/Logo.png'.")
        // The disk has the name iOS looks up: the project is wrong.
        XCTAssertEqual(PathCaseMismatchRule.authority(setting: "PBXFileReference", reference: "App/en.lproj/infoPlist.strings",
                                                      actual: "App/en.lproj/InfoPlist.strings"), .disk)
        XCTAssertEqual(PathCaseMismatchRule.authority(setting: "PBXFileReference", reference: "App/privacyinfo.xcprivacy",
                                                      actual: "App/PrivacyInfo.xcprivacy"), .disk)
        // Build settings, sources, folders: the name never reaches the app; edit the project.
        XCTAssertEqual(PathCaseMismatchRule.fix(setting: "INFOPLIST_FILE", reference: "App/info.plist", actual: "App/Info.plist"),
                       "Write the path exactly as App/Info.plist in the project.")
        XCTAssertEqual(PathCaseMismatchRule.authority(setting: "PBXFileReference", reference: "App/main.swift", actual: "App/Main.swift"), .disk)
        XCTAssertEqual(PathCaseMismatchRule.authority(setting: "PBXFileReference", reference: "app/Logo.png", actual: "App/Logo.png"), .disk)

        // End to end: one resource copied by two targets, one finding with the rename.
        let targets = ["App", "AppDev"].map { ExampleTarget($0, settings: ["INFOPLIST_FILE": "App/Info.plist"], resources: ["App/Images/Logo.png"]) }
        let found = try findings(PathCaseMismatchRule.self, ["App.xcodeproj/project.pbxproj": project(targets), "App/Info.plist": Self.app,
                                                              "App/Images/logo.png": "png"])
        XCTAssertEqual(found.count, 1)
        XCTAssertEqual(found.first?.alsoInBundles, ["AppDev"])
        XCTAssertEqual(found.first?.fix?.hasPrefix("Rename the file App/Images/logo.png to App/Images/Logo.png"), true, found.first?.fix ?? "")
    }
}
