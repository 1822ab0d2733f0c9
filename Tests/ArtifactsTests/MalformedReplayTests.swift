import Foundation
import XCTest
@testable import Artifacts
import Formats
import FuzzHarness

/// Replays every input under Tests/Fixtures/Malformed/XcodeProject/<name> the way
/// Fuzz/Targets/FuzzXcodeProject.swift does (`FuzzHarness.loadProject`: as
/// `ios/X.xcodeproj/project.pbxproj` next to a few fixed files, with the target's limits) and compares the outcome with <name>.expected:
/// `ok`, or the exact description of the error thrown. The other reader folders are replayed
/// by FormatsTests.MalformedReplayTests.
final class MalformedReplayTests: XCTestCase {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Malformed/XcodeProject")

    /// The outcome FuzzXcodeProject sees: `ok` or the description of the error thrown.
    static func outcome(_ pbxproj: Data, configuration: String?) -> String {
        do {
            try FuzzHarness.loadProject(pbxproj, configuration: configuration)
            return "ok"
        } catch {
            return String(describing: error)
        }
    }

    func testEveryMalformedProjectGivesItsExpectedOutcome() throws {
        let fm = FileManager.default
        // A missing or empty folder would make this test pass without replaying anything.
        XCTAssertTrue(fm.fileExists(atPath: Self.folder.path), "no fixture folder \(Self.folder.path)")
        guard fm.fileExists(atPath: Self.folder.path) else { return }
        let names = try fm.contentsOfDirectory(atPath: Self.folder.path).sorted()
            .filter { !$0.hasPrefix(".") && !$0.hasSuffix(".expected") }
        XCTAssertFalse(names.isEmpty, "no malformed project to replay in \(Self.folder.path)")
        for name in names {
            let input = Self.folder.appendingPathComponent(name)
            guard let text = try? String(contentsOf: input.appendingPathExtension("expected"), encoding: .utf8) else {
                XCTFail("XcodeProject/\(name): missing \(name).expected")
                continue
            }
            let data = try Data(contentsOf: input)
            XCTAssertEqual(Self.outcome(data, configuration: nil), text.trimmingCharacters(in: .newlines), "XcodeProject/\(name)")
            // The fuzz target also loads the Debug configuration; it must not crash either.
            _ = Self.outcome(data, configuration: "Debug")
        }
    }
}
