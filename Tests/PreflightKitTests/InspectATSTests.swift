import XCTest

/// `preflight inspect` shows the effective ATS policy of bundles that configure it.
final class InspectATSTests: XCTestCase {
    func testTheDemoAppShowsATSOffEverywhere() throws {
        let text = try CLITests.run(["inspect", CLITests.demo])
        XCTAssertEqual(text.status, 0)
        XCTAssertTrue(text.stdout.contains("ATS (iOS 10 and later): off for URL loading (NSAllowsArbitraryLoads), web view (NSAllowsArbitraryLoads)"), text.stdout)
        let json = try CLITests.run(["inspect", CLITests.demo, "--format", "json"])
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let bundles = try XCTUnwrap(doc["bundles"] as? [[String: Any]])
        let ats = try XCTUnwrap(bundles.compactMap { $0["ats"] as? [String: Any] }.first)
        let global = try XCTUnwrap(ats["global"] as? [String: [String: String]])
        XCTAssertEqual(global["iOS 10 and later"]?["URL loading"], "off (NSAllowsArbitraryLoads)")
    }
}
