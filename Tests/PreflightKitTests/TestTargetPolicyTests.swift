import XCTest
import TestSupport
import Foundation
import PreflightKit

/// Findings that concern only test bundles are left out unless asked for, and then are
/// warnings at most; the decision is the pipeline's, not each rule's.
final class TestTargetPolicyTests: XCTestCase {
    /// An app whose Info.plist exists, a unit-test and a UI-test target whose INFOPLIST_FILE
    /// names nothing, and a missing resource both the app and its tests copy.
    func fixture() throws -> URL {
        let dir = try Scratch.folder("tests-policy")
        let project = exampleProject(targets: [
            ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"], resources: ["App/Shared.json"]),
            ExampleTarget("AppTests", type: "bundle.unit-test", settings: ["INFOPLIST_FILE": "AppTests/Info.plist"],
                          resources: ["App/Shared.json"]),
            ExampleTarget("AppUITests", type: "bundle.ui-testing", settings: ["INFOPLIST_FILE": "AppUITests/Info.plist"]),
        ])
        let files = [
            "App.xcodeproj/project.pbxproj": project,
            "App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
        ]
        for (path, text) in files {
            let url = dir.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return dir
    }

    func missing(_ result: ScanResult) -> [Finding] { result.findings.filter { $0.rule == "missing_project_reference" } }

    func testTestOnlyFindingsAreDroppedByDefault() throws {
        let found = missing(try PreflightScanner.scan(try fixture().path))
        // Only the resource shared with the app remains, still naming the test target.
        XCTAssertEqual(found.map(\.file), ["App.xcodeproj/project.pbxproj"])
        XCTAssertEqual(found.map(\.bundle), ["App"])
        XCTAssertEqual(found.map(\.alsoInBundles), [["AppTests"]])
        XCTAssertTrue(found[0].message.contains("App/Shared.json"), found[0].message)
    }

    func testIncludeTestsKeepsThemAsWarnings() throws {
        var config = Configuration()
        config.includeTests = true
        let found = missing(try PreflightScanner.scan(try fixture().path, configuration: config))
        XCTAssertEqual(found.map(\.bundle).sorted { ($0 ?? "") < ($1 ?? "") }, ["App", "AppTests", "AppUITests"])
        for f in found where f.bundle != "App" {
            XCTAssertEqual(f.key, "INFOPLIST_FILE")
            XCTAssertEqual(f.severity, .warning, "an error in a test target is a warning at most")
        }
        // A severity override does not lift a test-only finding above a warning either.
        config.severityOverrides["missing_project_reference"] = .error
        let overridden = missing(try PreflightScanner.scan(try fixture().path, configuration: config))
        XCTAssertEqual(overridden.filter { $0.bundle == "App" }.map(\.severity), [.error])
        XCTAssertEqual(overridden.filter { $0.bundle != "App" }.map(\.severity), [.warning, .warning])
    }

    func testConfigurationFileAndCommandLine() throws {
        XCTAssertTrue(try Configuration.parse(yaml: "include_tests: true").includeTests)
        XCTAssertFalse(try Configuration.parse(yaml: "fail_on: warning").includeTests)
        XCTAssertThrowsError(try Configuration.parse(yaml: "include_tests: sometimes")) { error in
            XCTAssertEqual("\(error)", ".preflight.yml:1: include_tests must be true or false")
        }

        let dir = try fixture()
        let quiet = try CLITests.run(["scan", dir.path, "--format", "json"])
        XCTAssertFalse(quiet.stdout.contains("AppUITests/Info.plist"), quiet.stdout)
        // The JSON lists the other bundles of a grouped finding.
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(quiet.stdout.utf8)) as? [String: Any])
        let shared = (json["findings"] as? [[String: Any]] ?? []).filter { ($0["message"] as? String)?.contains("App/Shared.json") == true }
        XCTAssertEqual(shared.map { $0["alsoInBundles"] as? [String] }, [["AppTests"]])
        let loud = try CLITests.run(["scan", dir.path, "--format", "json", "--include-tests"])
        XCTAssertTrue(loud.stdout.contains("AppUITests/Info.plist"), loud.stdout)
        try Data("include_tests: true\n".utf8).write(to: dir.appendingPathComponent(".preflight.yml"))
        let configured = try CLITests.run(["scan", dir.path, "--format", "json"], cwd: dir)
        XCTAssertTrue(configured.stdout.contains("AppUITests/Info.plist"), configured.stdout)
    }
}

/// One cause seen by two rules is one finding.
final class OneCauseTests: XCTestCase {
    func testPurposeStringsOfAMissingInfoPlistFoldIntoItsFinding() throws {
        let dir = try Scratch.folder("one-cause")
        let files = [
            "App.xcodeproj/project.pbxproj": exampleProject(targets: [
                ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/Camera.swift"]),
                ExampleTarget("Widget", type: "app-extension",
                              settings: ["INFOPLIST_FILE": "Widget/Info.plist"], sources: ["App/Camera.swift"]),
            ]),
            "App/Camera.swift": "import AVFoundation\nfunc ask() { AVCaptureDevice.requestAccess(for: .video) { _ in } }\n",
            "Widget/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app.widget</string>"),
        ]
        for (path, text) in files {
            let url = dir.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let found = try PreflightScanner.scan(dir.path).findings
        let app = found.filter { $0.bundle == "App" }
        XCTAssertEqual(app.map(\.rule), ["missing_project_reference"], "\(app.map(\.message))")
        XCTAssertTrue(app[0].message.hasSuffix("so these are not reported: missing_purpose_string (NSCameraUsageDescription)"), app[0].message)
        // The widget has its Info.plist: its own missing purpose string is reported.
        XCTAssertEqual(found.filter { $0.bundle == "Widget" }.map(\.rule), ["missing_purpose_string"])
    }
}
