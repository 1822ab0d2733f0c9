import XCTest
import Artifacts
@testable import Rules

/// The severity policy of missing_purpose_string over a target's code closure, on its examples.
final class CodeClosureSeverityTests: XCTestCase {
    func findings(triggering index: Int) throws -> [Finding] {
        let example = MissingPurposeStringRule.description.triggering[index]
        let (files, _) = RuleExampleTests.stripMarkers(example.files)
        return try RuleExampleTests.run(MissingPurposeStringRule.self, files: files, example: example)
    }

    func testAnExtensionReachingAFrameworkItLinksIsAnError() throws {
        let found = try findings(triggering: 1)
        XCTAssertEqual(found.map { "\($0.bundle ?? "-") \($0.severity) \($0.key ?? "-")" }, ["Share error NSFaceIDUsageDescription"])
        XCTAssertTrue(found[0].message.contains("in linked target AuthKit"), found[0].message)
    }

    func testLinkedCodeNobodyNamesIsANote() throws {
        let found = try findings(triggering: 2)
        XCTAssertEqual(found.map { "\($0.bundle ?? "-") \($0.severity) \($0.key ?? "-")" }, ["App note NSLocationWhenInUseUsageDescription"])
    }
}
