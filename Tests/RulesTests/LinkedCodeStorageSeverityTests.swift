import XCTest
import Artifacts
@testable import Rules

/// Storage rules over a target's code closure: code the bundle links but never names is a note,
/// as for missing_purpose_string (isowords' App Clip and its package's DeviceId, Rocket.Chat and
/// Realm's Sync-only keychain helper).
final class LinkedCodeStorageSeverityTests: XCTestCase {
    func severities<R: Rule>(_ rule: R.Type, triggering index: Int) throws -> [String] {
        let example = R.description.triggering[index]
        let (files, _) = RuleExampleTests.stripMarkers(example.files)
        return try RuleExampleTests.run(R.self, files: files, example: example).map { "\($0.bundle ?? "-") \($0.severity)" }
    }

    func testKeyValueStoreInLinkedCodeNobodyNamesIsANote() throws {
        let examples = KeyValueStoreEntitlementRule.description.triggering
        let index = try XCTUnwrap(examples.firstIndex { $0.note?.contains("never names") == true })
        XCTAssertEqual(try severities(KeyValueStoreEntitlementRule.self, triggering: index), ["App note"])
        XCTAssertEqual(try severities(KeyValueStoreEntitlementRule.self, triggering: 0), ["App error"], "the app's own code stays an error")
    }

    func testAccessibleAlwaysInLinkedCodeNobodyNamesIsANote() throws {
        let examples = KeychainAccessibleAlwaysRule.description.triggering
        let index = try XCTUnwrap(examples.firstIndex { $0.note?.contains("never names") == true })
        XCTAssertEqual(try severities(KeychainAccessibleAlwaysRule.self, triggering: index), ["App note"])
        XCTAssertEqual(try severities(KeychainAccessibleAlwaysRule.self, triggering: 0), ["App error"], "the app's own code stays an error")
    }
}
