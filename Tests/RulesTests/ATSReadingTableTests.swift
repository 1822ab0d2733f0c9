import XCTest
@testable import Rules

/// Every row of `docs/rules/ats-reading.md` is a test: each check of each case is asked of the
/// effective policy Preflight computes from the row's dictionary.
final class ATSReadingTableTests: XCTestCase {
    func testEveryRowHolds() throws {
        for c in ATSReadingTable.cases {
            let policy = try c.policy()
            XCTAssertFalse(c.checks.isEmpty, c.title)
            for check in c.checks {
                XCTAssertTrue(check.holds(in: policy), "\(c.title): \(check.text); issues \(policy.configuration?.issues.map(\.kind) ?? [])")
            }
        }
    }

    func testEveryKeyHasARow() {
        let titles = ATSReadingTable.cases.filter { $0.group == .key }.map(\.title)
        for fact in ATSKeys.all {
            XCTAssertTrue(titles.contains { $0 == fact.key || $0.hasPrefix(fact.key + " (") }, "no row for \(fact.key) (\(fact.level.rawValue))")
        }
        XCTAssertTrue(titles.contains("NSIncludesSubdomains (exception domain)"))
        XCTAssertTrue(titles.contains("NSIncludesSubdomains (pinned domain)"))
    }

    func testEveryPrecedenceRuleOfThePolicyHasARow() {
        let titles = ATSReadingTable.cases.filter { $0.group == .precedence }.map(\.title)
        // ATSPolicy's numbered rules 1–7: 5 is the NSAllowsArbitraryLoads key row.
        for n in [1, 2, 3, 4, 6, 7] { XCTAssertTrue(titles.contains { $0.hasPrefix("\(n). ") }, "rule \(n)") }
    }

    /// The table can fail: a wrong expectation is caught.
    func testAWrongAnswerDoesNotHold() throws {
        let c = try XCTUnwrap(ATSReadingTable.cases.first { $0.title == "NSAllowsArbitraryLoadsInWebContent" })
        XCTAssertFalse(ATSReadingCheck.http("news.example.com", .urlLoading, .iOS10AndLater, allowed: true).holds(in: try c.policy()))
        XCTAssertFalse(ATSReadingCheck.noIssue.holds(in: try ATSReadingTable.cases.first { $0.title.hasPrefix("SPKI") }!.policy()))
    }
}
