import XCTest
import TestSupport
import Foundation

/// Runs the real `preflight` executable, as users and CI do.
final class CLITests: XCTestCase {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let demo = packageRoot.appendingPathComponent("Examples/DemoApp").path

    static var executable: URL { BuiltProducts.preflight(fallback: packageRoot.appendingPathComponent(".build/debug/preflight")) }

    struct Run { var status: Int32; var stdout: String; var stderr: String }

    static func run(_ args: [String], cwd: URL? = nil, environment: [String: String] = [:]) throws -> Run {
        let p = Process()
        p.executableURL = executable
        p.arguments = args
        p.currentDirectoryURL = cwd ?? FileManager.default.temporaryDirectory
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        env["GITHUB_STEP_SUMMARY"] = nil
        env.merge(environment) { _, new in new }
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Run(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    func cleanApp() throws -> String {
        let dir = try Scratch.folder("cli").appendingPathComponent("Clean.app")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>CFBundleIdentifier</key><string>com.example.clean</string>
        <key>CFBundleExecutable</key><string>Clean</string>
        <key>CFBundleName</key><string>Clean</string>
        <key>CFBundleShortVersionString</key><string>1.0</string>
        <key>CFBundleVersion</key><string>1</string>
        <key>DTSDKName</key><string>iphoneos26.0</string>
        <key>NSLocationWhenInUseUsageDescription</key><string>Your position is shown on the trail map.</string>
        <key>NSCameraUsageDescription</key><string>Scan the marker at a trailhead.</string>
        <key>CFBundleIcons</key><dict><key>CFBundlePrimaryIcon</key><dict><key>CFBundleIconName</key><string>AppIcon</string></dict></dict>
        <key>CFBundleIconName</key><string>AppIcon</string>
        <key>UILaunchScreen</key><dict/>
        </dict></plist>
        """.utf8).write(to: dir.appendingPathComponent("Info.plist"))
        try FileManager.default.copyItem(at: Self.packageRoot.appendingPathComponent("Tests/Fixtures/AssetCatalog/AppIcon-complete.car"),
                                         to: dir.appendingPathComponent("Assets.car"))
        // A real iOS executable linked by ld64.lld (Tests/Fixtures/MachO/make-fixtures.sh).
        try FileManager.default.copyItem(at: Self.packageRoot.appendingPathComponent("Tests/Fixtures/MachO/App"),
                                         to: dir.appendingPathComponent("Clean"))
        return dir.path
    }

    func testScanDemoReportsFindingsAndExitsTwo() throws {
        let r = try Self.run(["scan", Self.demo, "--format", "json"])
        XCTAssertEqual(r.status, 2, r.stderr)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(doc["schemaVersion"] as? Int, 1)
        XCTAssertEqual((doc["input"] as? [String: Any])?["kind"] as? String, "project")
        let findings = try XCTUnwrap(doc["findings"] as? [[String: Any]])
        let rules = Set(findings.compactMap { $0["rule"] as? String })
        XCTAssertTrue(rules.contains("malformed_privacy_manifest"), "\(rules)")
        for f in findings {
            for key in ["rule", "severity", "message", "bundle", "file", "line", "column", "key", "evidence", "fingerprint"] {
                XCTAssertTrue(f.keys.contains(key), "finding lacks \(key): \(f)")
            }
        }
    }

    /// `--timings` leaves the report as it is and says on standard error where the time went:
    /// every phase of the demo project, with how many source files were parsed, and its rules.
    func testTimingsGoToStandardError() throws {
        let plain = try Self.run(["scan", Self.demo, "--format", "json"])
        let timed = try Self.run(["scan", Self.demo, "--format", "json", "--timings"])
        XCTAssertEqual(timed.status, plain.status)
        XCTAssertEqual(timed.stdout, plain.stdout)
        XCTAssertFalse(plain.stderr.contains("timings"), plain.stderr)
        for phase in ["load", "sources: read, byte facts, URLs", "sources: parse and visit candidates", "evidence: binaries and signals", "rules ("] {
            XCTAssertTrue(timed.stderr.contains(phase), "no \(phase) in \(timed.stderr)")
        }
        XCTAssertTrue(timed.stderr.contains("  rule "), timed.stderr)
    }

    func testXcodeFormatLines() throws {
        let r = try Self.run(["scan", Self.demo])
        XCTAssertEqual(r.status, 2)
        let lines = r.stdout.split(separator: "\n")
        XCTAssertTrue(lines.last?.hasPrefix("Preflight: ") ?? false)
        let pattern = try NSRegularExpression(pattern: #"^/.+?(:\d+(:\d+)?)?: (error|warning|note): .+ \[[a-z_]+\]"#)
        for line in lines.dropLast() {
            let s = String(line)
            XCTAssertNotNil(pattern.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)), "not an Xcode diagnostic: \(s)")
        }
    }

    func testSarifIsVersion210WithRulesAndFingerprints() throws {
        let out = try Scratch.file("report.sarif")
        let r = try Self.run(["scan", Self.demo, "--format", "sarif", "--output", out.path])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stdout, "")
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: out)) as? [String: Any])
        XCTAssertEqual(doc["version"] as? String, "2.1.0")
        let run = try XCTUnwrap((doc["runs"] as? [[String: Any]])?.first)
        let driver = try XCTUnwrap((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let ruleIDs = (driver["rules"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        let results = try XCTUnwrap(run["results"] as? [[String: Any]])
        XCTAssertFalse(results.isEmpty)
        for result in results {
            let id = try XCTUnwrap(result["ruleId"] as? String)
            XCTAssertEqual(ruleIDs[try XCTUnwrap(result["ruleIndex"] as? Int)], id)
            XCTAssertNotNil((result["partialFingerprints"] as? [String: String])?["preflightFingerprint/v1"])
        }
    }

    func testCleanInputExitsZeroAndFailOnThreshold() throws {
        let app = try cleanApp()
        let r = try Self.run(["scan", app])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertEqual(r.stdout, "Preflight: 0 errors, 0 warnings, 0 notes in \(app).\n")
    }

    func testUnreadableInputExitsOne() throws {
        let r = try Self.run(["scan", "/nonexistent/App.ipa"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "preflight: error: /nonexistent/App.ipa: no such file or folder\n")
        let junk = try Scratch.file("junk.ipa")
        try Data("hello".utf8).write(to: junk)
        let j = try Self.run(["scan", junk.path])
        XCTAssertEqual(j.status, 1)
        XCTAssertEqual(j.stderr, "preflight: error: \(junk.path): not an .ipa (ZIP archive), .app, .xcarchive, .xcframework, Xcode project folder or Mach-O file\n")
    }

    func testUsageErrorsExitSixtyFour() throws {
        XCTAssertEqual(try Self.run(["scan", Self.demo, "--format", "yaml"]).status, 64)
        XCTAssertEqual(try Self.run(["scan", Self.demo, "--disable", "no_such_rule"]).status, 64)
        XCTAssertEqual(try Self.run(["explain", "no_such_rule"]).status, 64)
        XCTAssertEqual(try Self.run(["scan", Self.demo, "--limit", "max-nothing=3"]).status, 64)
    }

    func testRulesAndExplain() throws {
        let list = try Self.run(["rules"])
        XCTAssertEqual(list.status, 0)
        XCTAssertTrue(list.stdout.contains("duplicate_plist_key"))
        let explain = try Self.run(["explain", "duplicate_plist_key"])
        XCTAssertEqual(explain.status, 0)
        XCTAssertTrue(explain.stdout.contains("\nTriggers\n--------\n"), explain.stdout)
        XCTAssertTrue(explain.stdout.contains("\nDoes not trigger\n----------------\n"), explain.stdout)
        let source = try Self.run(["explain", "duplicate_plist_key", "--markdown"])
        XCTAssertTrue(source.stdout.contains("## Triggers"))
        XCTAssertTrue(source.stdout.contains("## Does not trigger"))
    }

    func testConfigurationFileDisablesRules() throws {
        let dir = try Scratch.folder("cfg")
        try Data("disabled_rules:\n  - malformed_privacy_manifest\n".utf8).write(to: dir.appendingPathComponent(".preflight.yml"))
        let r = try Self.run(["scan", Self.demo, "--format", "json"], cwd: dir)
        XCTAssertFalse(r.stdout.contains("malformed_privacy_manifest"))
        try Data("disabled_rules: [nope]\n".utf8).write(to: dir.appendingPathComponent(".preflight.yml"))
        let bad = try Self.run(["scan", Self.demo], cwd: dir)
        XCTAssertEqual(bad.status, 1)
        XCTAssertEqual(bad.stderr, "preflight: error: .preflight.yml:1: disabled_rules names unknown rule 'nope'\n")
    }
}
