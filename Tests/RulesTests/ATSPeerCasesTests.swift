import XCTest
@testable import Rules

/// The ATS checks and bugs of the peer scanner (`shared/reference/peer-mobsf.md` §6.1, §7.1),
/// one case each, with what Preflight says. `docs/accuracy.md` ("ATS: Preflight and the peer")
/// holds the table; each disputed row is a test here.
final class ATSPeerCasesTests: XCTestCase {
    static let ats: [any Rule.Type] = [ATSMalformedKeyRule.self, ATSArbitraryLoadsRule.self, ATSExceptionDomainRule.self,
                                       ATSPinnedDomainsRule.self, ATSCleartextURLRule.self, ATSStaleExceptionDomainRule.self]

    /// Every ATS finding for an app whose `NSAppTransportSecurity` holds `body`: "rule severity".
    func findings(_ body: String, minimumOS: String = "15.0") throws -> [String] {
        let plist = plistXML("<key>CFBundleIdentifier</key><string>com.acme.app</string><key>MinimumOSVersion</key><string>\(minimumOS)</string>"
                             + "<key>NSAppTransportSecurity</key><dict>\(body)</dict>")
        let files = ["App/Info.plist": plist, "App/Names.swift": "let hosts = [\"https://api.acme.com\", \"https://old.acme.com\"]\n"]
        var out: [String] = []
        for rule in Self.ats {
            out += try RuleExampleTests.run(rule, files: files, example: RuleExample(files)).map { "\($0.rule) \($0.severity.rawValue)" }
        }
        return out.sorted()
    }

    func domain(_ name: String, _ body: String) -> String { "<key>NSExceptionDomains</key><dict><key>\(name)</key><dict>\(body)</dict></dict>" }

    /// Peer check 4 (high): `NSAllowsLocalNetworking`. Apple: local hosts are allowed by default
    /// on iOS 10+; the key needs no App Review justification (facts/ats.json). Preflight: nothing.
    func testLocalNetworkingAloneIsNotAFinding() throws {
        XCTAssertEqual(try findings("<key>NSAllowsLocalNetworking</key><true/>"), [])
    }

    /// Peer check 8 (warning, "POODLE, FREAK"): TLS 1.2 is ATS's default minimum. Preflight: nothing.
    func testTLS12ExceptionIsNotAFinding() throws {
        XCTAssertEqual(try findings(domain("api.acme.com", "<key>NSExceptionMinimumTLSVersion</key><string>TLSv1.2</string>")), [])
        XCTAssertEqual(try findings(domain("api.acme.com", "<key>NSExceptionMinimumTLSVersion</key><string>TLSv1.0</string>")),
                       ["ats_exception_domain warning"], "below 1.2 both report")
    }

    /// Peer check 9 and bug 4: compares with the string 'NO', so a real `<false/>` never fires.
    /// Preflight: a note (weaker ciphers are accepted; App Review does not ask about it).
    func testForwardSecrecyOffIsReportedForABoolean() throws {
        XCTAssertEqual(try findings(domain("api.acme.com", "<key>NSExceptionRequiresForwardSecrecy</key><false/>")),
                       ["ats_exception_domain note"])
    }

    /// Peer check 10 (warning): certificate transparency missing. Apple: default NO, not an ATS
    /// requirement. Preflight: nothing, and `true` is no finding either.
    func testCertificateTransparencyIsNotRequired() throws {
        XCTAssertEqual(try findings(domain("api.acme.com", "<key>NSExceptionMinimumTLSVersion</key><string>TLSv1.3</string>")), [])
        XCTAssertEqual(try findings(domain("api.acme.com", "<key>NSRequiresCertificateTransparency</key><true/>")), [])
    }

    /// Peer check 7 (info): `NSIncludesSubdomains` on an ordinary domain. Preflight: nothing;
    /// on a public suffix a warning (it opens every site under it).
    func testIncludesSubdomainsOnlyMattersOnAPublicSuffix() throws {
        XCTAssertEqual(try findings(domain("acme.com", "<key>NSIncludesSubdomains</key><true/>")), [])
        XCTAssertEqual(try findings(domain("co.uk", "<key>NSIncludesSubdomains</key><true/>")).filter { $0.hasPrefix("ats_exception_domain") },
                       ["ats_exception_domain warning"])
    }

    /// Bug 6: arbitrary loads + web content key both "high". Apple: on iOS 10+ the first is
    /// ignored. Preflight: one warning that says so, one for the web content key.
    func testSilencedArbitraryLoadsIsExplained() throws {
        let body = "<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsArbitraryLoadsInWebContent</key><true/>"
        XCTAssertEqual(try findings(body), ["ats_arbitrary_loads warning", "ats_arbitrary_loads warning"])
        let plist = plistXML("<key>CFBundleIdentifier</key><string>com.acme.app</string><key>NSAppTransportSecurity</key><dict>\(body)</dict>")
        let messages = try RuleExampleTests.run(ATSArbitraryLoadsRule.self, files: ["App/Info.plist": plist],
                                                example: RuleExample(["App/Info.plist": plist])).map(\.message)
        XCTAssertTrue(messages.contains { $0.contains("ignore") }, "\(messages)")
    }

    /// Not checked by the peer: exception domains that are IP addresses or wildcards, which
    /// iOS never matches (Apple's domain-name rules).
    func testWildcardAndIPExceptionDomainsAreReported() throws {
        XCTAssertEqual(try findings(domain("*.acme.com", "<key>NSExceptionAllowsInsecureHTTPLoads</key><true/>")).filter { $0.hasPrefix("ats_exception_domain") }.count, 1)
        XCTAssertFalse(try findings(domain("10.0.0.1", "<key>NSExceptionAllowsInsecureHTTPLoads</key><true/>")).isEmpty)
    }

    /// Peer issue #1375: `NSThirdPartyException…` keys. Preflight reads them as the current key
    /// and says they are legacy spellings.
    func testLegacySpellingsAreReadAndNamed() throws {
        let f = try findings(domain("old.acme.com", "<key>NSThirdPartyExceptionAllowsInsecureHTTPLoads</key><true/>"))
        XCTAssertTrue(f.contains("ats_exception_domain warning"), "\(f)")
        XCTAssertTrue(f.contains { $0.hasPrefix("ats_malformed_key") }, "\(f)")
    }
}
