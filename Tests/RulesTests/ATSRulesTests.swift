import XCTest
import Artifacts
@testable import Rules

/// What the ATS rules say beyond where their examples point.
final class ATSRulesTests: XCTestCase {
    func messages(_ rule: any Rule.Type, _ files: [String: String], kind: ProductKind = .folder) throws -> [String] {
        try RuleExampleTests.run(rule, files: files, example: RuleExample(files, kind: kind)).map(\.message)
    }

    func testOverriddenArbitraryLoadsMentionsIOS9OnlyWhenTheTargetReachesIt() throws {
        let ats = ATSRuleSupport.plist("<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsLocalNetworking</key><true/>")
        let old = try messages(ATSArbitraryLoadsRule.self, [
            "App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist", "IPHONEOS_DEPLOYMENT_TARGET": "9.0"]),
            "App/Info.plist": ats,
        ], kind: .project)
        XCTAssertEqual(old.count, 1)
        XCTAssertTrue(old.first?.contains("on iOS 9, which the deployment target (iOS 9.0) still supports") == true, "\(old)")
        let modern = try messages(ATSArbitraryLoadsRule.self, ["App/Info.plist": ats])
        XCTAssertEqual(modern.count, 1)
        XCTAssertFalse(modern.first?.contains("iOS 9") == true, "\(modern)")
    }

    func testGlobalKeysNameTheConnectionsTheyOpen() throws {
        let all = try messages(ATSArbitraryLoadsRule.self, ["App/Info.plist": ATSRuleSupport.plist("<key>NSAllowsArbitraryLoads</key><true/>")])
        XCTAssertTrue(all.first?.contains("for every connection") == true, "\(all)")
        let web = try messages(ATSArbitraryLoadsRule.self, ["App/Info.plist": ATSRuleSupport.plist("<key>NSAllowsArbitraryLoadsInWebContent</key><true/>")])
        XCTAssertTrue(web.first?.contains("for web view connections") == true, "\(web)")
        let beta = try messages(ATSArbitraryLoadsRule.self, ["App/Info.plist": ATSRuleSupport.plist("<key>NSAllowsArbitraryLoadsInMedia</key><true/>")])
        XCTAssertTrue(beta.first?.contains("(if iOS still reads this iOS 10 beta spelling) for AVFoundation media connections") == true, "\(beta)")
    }

    func testDomainNameProblems() {
        let cases: [(String, ATSExceptionDomainRule.NameProblem?)] = [
            ("api.example.com", nil), ("https://api.example.com", .scheme), ("api.example.com/v1", .path), ("api.example.com:8443", .port),
            ("*.example.com", .wildcard), ("192.168.0.1", .ipAddress), ("::1", .ipAddress), ("API.example.com", .upperCase),
            ("example.com.", .trailingDot), ("", .empty), ("api .example.com", .whitespace),
        ]
        for (name, expected) in cases { XCTAssertEqual(ATSExceptionDomainRule.problem(name), expected, name) }
        XCTAssertEqual(ATSExceptionDomainRule.host(of: "https://API.example.com:443/v1"), "api.example.com")
        XCTAssertEqual(ATSExceptionDomainRule.host(of: "*.example.com"), "example.com")
    }

    func testAPublicSuffixWithSubdomainsIsReportedEvenWithoutADot() throws {
        let found = try messages(ATSExceptionDomainRule.self, ["App/Info.plist": ATSRuleSupport.plist(ATSRuleSupport.domains([
            ("com", "<key>NSIncludesSubdomains</key><true/><key>NSExceptionAllowsInsecureHTTPLoads</key><true/>"),
        ]))])
        XCTAssertEqual(found.count, 2, "\(found)")
        XCTAssertTrue(found.contains { $0.contains("public suffix") })
        XCTAssertTrue(found.contains { $0.contains("plain HTTP") })
    }

    func testAnEmptyEntryInAClosedAppSaysNothing() throws {
        let found = try messages(ATSExceptionDomainRule.self, ["App/Info.plist": ATSRuleSupport.plist(
            "<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsArbitraryLoadsInWebContent</key><false/>"
                + ATSRuleSupport.domains([("api.example.com", "")]))])
        XCTAssertEqual(found, [], "NSAllowsArbitraryLoads is silenced on iOS 10+, so the empty entry changes nothing")
    }

    func testPinnedIdentitiesMustBeSHA256Digests() throws {
        XCTAssertTrue(ATSPinnedDomainsRule.isSHA256Base64("n5EWH0NDPkmm3m22gNefYBWfLkrJFyYhoShGQoFYRAs="))
        XCTAssertFalse(ATSPinnedDomainsRule.isSHA256Base64("EfatjsUqKYSrqv18O1FlA3hcIHI="), "a SHA-1 digest")
        XCTAssertFalse(ATSPinnedDomainsRule.isSHA256Base64("n5EWH0NDPkmm3m22gNefYBWfLkrJFyYhoShGQoFYRAs"), "padding missing")
        XCTAssertFalse(ATSPinnedDomainsRule.isSHA256Base64(String(repeating: "!", count: 44)))
        let found = try messages(ATSMalformedKeyRule.self, ["App/Info.plist": ATSRuleSupport.plist(ATSPinnedDomainsRule.pinned(
            "<key>NSPinnedLeafIdentities</key><array><dict><key>SPKI-SHA256</key><string>x</string></dict></array>"))])
        XCTAssertEqual(found.count, 1)
        XCTAssertTrue(found.first?.hasSuffix("did you mean SPKI-SHA256-BASE64?") == true, "\(found)")
    }
}
