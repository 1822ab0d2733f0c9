import Foundation
import TestSupport
import XCTest

@testable import PreflightKit

/// ITMS-91053 in a project: uses in a local Swift package and in a pod count for the app
/// that links them, with their provenance, as notes (each may ship a manifest of its own).
final class RequiredReasonProjectTests: XCTestCase {
    static let classic = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Projects/Classic")

    func project() throws -> URL {
        let root = try Scratch.folder("rr-project").appendingPathComponent("Classic")
        try FileManager.default.copyItem(at: Self.classic, to: root)
        let ios = root.appendingPathComponent("ios")
        let xcconfig = ios.appendingPathComponent("Configs/App.xcconfig")
        let settings = try String(contentsOf: xcconfig, encoding: .utf8) + "\nPODS_ROOT = $(SRCROOT)/Pods\nOTHER_LDFLAGS = $(inherited) -framework \"Tracker\"\n"
        try Data(settings.utf8).write(to: xcconfig)
        try FileManager.default.createDirectory(at: ios.appendingPathComponent("Pods/Tracker"), withIntermediateDirectories: true)
        try Data("#include <sys/stat.h>\nint tracker_age(const char *p) { struct stat s; return stat(p, &s); }\n".utf8)
            .write(to: ios.appendingPathComponent("Pods/Tracker/Tracker.m"))
        try Data("import Foundation\npublic enum Prefs { public static func theme() -> String? { UserDefaults.standard.string(forKey: \"t\") } }\n".utf8)
            .write(to: ios.appendingPathComponent("Packages/Core/Sources/Core/Prefs.swift"))
        return root
    }

    func findings(_ root: URL) throws -> [Finding] {
        try PreflightScanner.scan(root.path).findings.filter { $0.rule == "required_reason_api_undeclared" }
    }

    func testPodAndPackageUsesCountForTheAppAsNotes() throws {
        let root = try project()
        // The app's manifest declares user defaults: the package's use is covered; the pod's
        // file timestamps are not, and the pod may declare them itself.
        let first = try findings(root)
        XCTAssertEqual(first.map { "\($0.severity) \($0.bundle ?? "") \($0.key ?? "")" }, ["note App NSPrivacyAccessedAPICategoryFileTimestamp"])
        XCTAssertTrue(first[0].message.contains("in pod Tracker"), first[0].message)
        XCTAssertEqual(first[0].evidence.map { "\($0)" }.count, 1)

        // Without the app's declaration, the package's UserDefaults use shows too, named by its package.
        let manifest = root.appendingPathComponent("ios/App/PrivacyInfo.xcprivacy")
        try Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict/></plist>\n".utf8).write(to: manifest)
        let second = try findings(root)
        let defaults = try XCTUnwrap(second.first { $0.key == "NSPrivacyAccessedAPICategoryUserDefaults" }, "\(second.map(\.message))")
        XCTAssertEqual(defaults.severity, .note)
        XCTAssertTrue(defaults.message.contains("in package Core"), defaults.message)
    }
}
