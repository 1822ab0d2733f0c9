import XCTest
import Foundation
@testable import PreflightKit
@testable import PreflightCLI

/// The finding model: shared-file findings merge by structure, never by message text, and the
/// reporters depend on the finding module alone.
final class FindingModelTests: XCTestCase {
    func finding(_ bundle: String, line: Int = 5, key: String = "NSCameraUsageDescription") -> Finding {
        Finding(rule: "placeholder_purpose_string", severity: .warning,
                message: "\(key) of \(bundle) is empty", bundle: bundle, file: "Shared/Info.plist", line: line, column: 9, key: key)
    }

    func testSharedFileFindingsMergeEvenWhenABundleNameIsInsideAnotherMessage() {
        // "Camera" is inside "NSCameraUsageDescription", "App" inside "AppPro": replacing the
        // bundle's name in the message (as the merge once did) told these apart.
        let merged = PreflightScanner.mergeSharedFileFindings([finding("App"), finding("Camera"), finding("AppPro")])
        XCTAssertEqual(merged.count, 1)
        XCTAssertEqual(merged[0].bundle, "App")
        XCTAssertEqual(merged[0].alsoInBundles, ["Camera", "AppPro"])
        XCTAssertEqual(merged[0].message, "NSCameraUsageDescription of App is empty (also AppPro, Camera, which share this file)")
    }

    func testDifferentPlacesKeysOrPartsStaySeparate() {
        var translated = finding("Widget")
        translated.fingerprintParts = ["de"]
        let findings = [finding("App"), finding("Widget", line: 6), finding("Widget", key: "NSMicrophoneUsageDescription"), translated]
        XCTAssertEqual(PreflightScanner.mergeSharedFileFindings(findings).count, 4)
        XCTAssertTrue(PreflightScanner.mergeSharedFileFindings(findings).allSatisfy { $0.alsoInBundles.isEmpty })
    }

    func testOneBundlesTwoFindingsAtOnePlaceAreNotMergedIntoEachOther() {
        let merged = PreflightScanner.mergeSharedFileFindings([finding("App"), finding("App")])
        XCTAssertEqual(merged.count, 2)
        XCTAssertTrue(merged.allSatisfy { $0.alsoInBundles.isEmpty })
    }

    func testFindingsWithoutAFileAreNeverMerged() {
        var a = finding("App"), b = finding("Widget")
        a.file = nil
        b.file = nil
        XCTAssertEqual(PreflightScanner.mergeSharedFileFindings([a, b]).count, 2)
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func imports(in folder: String) throws -> Set<String> {
        let dir = Self.root.appendingPathComponent(folder)
        var found = Set<String>()
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) where name.hasSuffix(".swift") {
            let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                if let i = words.firstIndex(of: "import"), i + 1 < words.count, words[..<i].allSatisfy({ $0.hasPrefix("@") }) {
                    found.insert(String(words[i + 1]))
                }
            }
        }
        XCTAssertFalse(found.isEmpty, "no Swift files read in \(folder)")
        return found
    }

    func testReportersImportOnlyTheFindingModule() throws {
        XCTAssertEqual(try imports(in: "Sources/Reports"), ["Foundation", "Findings"])
        XCTAssertEqual(try imports(in: "Sources/Findings"), ["Foundation"])
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        XCTAssertTrue(manifest.contains(#".target(name: "Reports", dependencies: ["Findings"])"#), "Reports depends on Findings only")
        XCTAssertTrue(manifest.contains(#".target(name: "Findings")"#), "Findings depends on nothing")
    }

    func testTheLibraryRunsThePipelineTheCommandLineRuns() throws {
        let demo = Self.root.appendingPathComponent("Examples/DemoApp").path
        let report = try Pipeline.scan([demo], configuration: Configuration())
        XCTAssertEqual(report.exitStatus, .findings)
        let direct = try PreflightScanner.scan(demo).findings
        XCTAssertEqual(report.results.flatMap(\.findings), direct)
        let json = try report.render(format: "json")
        XCTAssertTrue(json.contains("\"schemaVersion\" : 1"))
        XCTAssertThrowsError(try report.render(format: "pdf"))
        var lenient = Configuration()
        lenient.failOn = .error
        lenient.disabledRules = Set(RuleRegistry.all.map { $0.description.identifier })
        XCTAssertEqual(try Pipeline.scan([demo], configuration: lenient).exitStatus, .clean)
    }

    func testAnUnreadableInputNamesItself() {
        XCTAssertThrowsError(try Pipeline.scan(["/nonexistent/App.ipa"], configuration: Configuration())) { error in
            XCTAssertEqual((error as? InputFailure)?.message, "/nonexistent/App.ipa: no such file or folder")
        }
    }
}

/// The library streams each input's findings, and the command line's progress line stays out
/// of CI logs and pipes.
final class PipelineStreamingTests: XCTestCase {
    func testFindingsArriveInputByInputAsTheReportHasThem() throws {
        let demo = FindingModelTests.root.appendingPathComponent("Examples/DemoApp").path
        var heard: [String] = [], streamed: [Finding] = []
        let report = try Pipeline.scan([demo, demo], configuration: Configuration(), progress: { heard.append($0) }, onFinding: { streamed.append($0) })
        XCTAssertEqual(heard, [demo, demo])
        XCTAssertEqual(streamed, report.results.flatMap(\.findings))
        XCTAssertFalse(streamed.isEmpty)
    }

    func testNoProgressLineInCIOrWithoutATerminal() {
        XCTAssertFalse(ProgressLine(environment: ["CI": "true"]).enabled)
        XCTAssertFalse(ProgressLine(environment: [:]).enabled, "the tests' standard error is not a terminal")
    }
}
