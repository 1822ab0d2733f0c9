import XCTest
import Artifacts
import Formats
@testable import Rules

/// The effective ATS policy, one precedence rule at a time. Sources: [ATS] Apple's
/// `NSAppTransportSecurity` reference and key pages (text in github:dodorare/apple-bundle-rs
/// `src/info_plist/data_and_storage.rs`); [facts] `shared/reference/facts/ats.json`;
/// [seed] `shared/reference/seeds/004_3ec4428603580143.txt`. Numbers refer to `ATSPolicy`'s
/// doc comment.
final class ATSPolicyTests: XCTestCase {
    /// A policy from the XML entries of `NSAppTransportSecurity`.
    func policy(_ body: String, deploymentTarget: Int? = 15) throws -> ATSPolicy {
        let xml = "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict>\(body)</dict></plist>"
        let root = try PropertyListReader.read(Data(xml.utf8)).root
        return ATSPolicy(configuration: ATSConfiguration(node: root, location: FileLocation(path: "Info.plist")), deploymentTarget: deploymentTarget)
    }

    func domains(_ entries: String) -> String { "<key>NSExceptionDomains</key><dict>\(entries)</dict>" }

    func testNoConfigurationMeansATSDefaults() throws {
        // [facts] NSAppTransportSecurity default "absent (ATS fully on)"; defaults TLS 1.2, forward secrecy.
        let p = ATSPolicy(configuration: nil, deploymentTarget: 15)
        for kind in ATSConnectionKind.allCases {
            XCTAssertFalse(p.allowsInsecureHTTP(to: "api.example.com", via: kind))
            XCTAssertEqual(p.minimumTLS(for: "api.example.com", via: kind), .tls12)
        }
        XCTAssertTrue(p.decision(for: "api.example.com").requiresForwardSecrecy)
    }

    func testArbitraryLoadsOpensEveryKindForUnlistedHosts() throws {
        // Rule 5: [ATS] NSAllowsArbitraryLoads: HTTP allowed, extended checks (TLS minimum) off.
        let p = try policy("<key>NSAllowsArbitraryLoads</key><true/>")
        for kind in ATSConnectionKind.allCases {
            XCTAssertTrue(p.allowsInsecureHTTP(to: "api.example.com", via: kind))
            XCTAssertNil(p.minimumTLS(for: "api.example.com", via: kind))
        }
    }

    func testAnExceptionDomainIgnoresGlobalKeysEvenWhenEmpty() throws {
        // Rule 1: [ATS] NSExceptionDomains note; [facts] precedence 1; [seed] media example.
        let p = try policy("<key>NSAllowsArbitraryLoads</key><true/>" + domains("<key>api.example.com</key><dict/>"))
        XCTAssertFalse(p.allowsInsecureHTTP(to: "api.example.com"))
        XCTAssertEqual(p.minimumTLS(for: "api.example.com"), .tls12)
        XCTAssertEqual(p.decision(for: "api.example.com").source, .exceptionDomain("api.example.com"))
        XCTAssertTrue(p.allowsInsecureHTTP(to: "cdn.example.com"), "other hosts still get the global key")
        let media = try policy("<key>NSAllowsArbitraryLoadsForMedia</key><true/><key>NSAllowsArbitraryLoadsInWebContent</key><true/>"
                               + domains("<key>video.example.com</key><dict><key>NSIncludesSubdomains</key><true/></dict>"))
        XCTAssertFalse(media.allowsInsecureHTTP(to: "video.example.com", via: .media), "[seed]: media key does not reach an exception domain")
        XCTAssertFalse(media.allowsInsecureHTTP(to: "cdn.video.example.com", via: .webView))
        XCTAssertTrue(media.allowsInsecureHTTP(to: "other.example.org", via: .media))
    }

    func testExceptionDomainValuesAndDefaults() throws {
        // Rule 1 and 7: [ATS] key pages: defaults NO / TLSv1.2 / YES / NO; insecure HTTP leaves TLS alone.
        let p = try policy(domains("""
            <key>legacy.example.com</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>
            <key>old.example.com</key><dict><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.0</string>\
            <key>NSExceptionRequiresForwardSecrecy</key><false/><key>NSRequiresCertificateTransparency</key><true/></dict>
            """))
        XCTAssertTrue(p.allowsInsecureHTTP(to: "legacy.example.com"))
        XCTAssertEqual(p.minimumTLS(for: "legacy.example.com"), .tls12, "rule 7: HTTP exception keeps TLS 1.2 for HTTPS")
        let old = p.decision(for: "old.example.com")
        XCTAssertEqual(old.minimumTLS, .tls10)
        XCTAssertFalse(old.requiresForwardSecrecy)
        XCTAssertTrue(old.requiresCertificateTransparency)
        XCTAssertFalse(old.allowsInsecureHTTP)
    }

    func testDomainsMatchLiterallyAndCaseSensitively() throws {
        // Rule 2: [ATS] domain-name rules: lowercase; trailing dot matches only the dotted form; no wildcards.
        let p = try policy(domains("""
            <key>API.Example.com</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>
            <key>dotted.example.com.</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>
            <key>*.wild.example.com</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>
            """))
        XCTAssertFalse(p.allowsInsecureHTTP(to: "api.example.com"))
        XCTAssertTrue(p.allowsInsecureHTTP(to: "API.Example.com"))
        XCTAssertFalse(p.allowsInsecureHTTP(to: "dotted.example.com"))
        XCTAssertTrue(p.allowsInsecureHTTP(to: "dotted.example.com."))
        XCTAssertFalse(p.allowsInsecureHTTP(to: "a.wild.example.com"))
    }

    func testIncludesSubdomainsReachesOneMoreLabelOnly() throws {
        // Rule 2: [ATS] NSIncludesSubdomains: math.example.com yes, advanced.math.example.com no.
        let p = try policy(domains("<key>example.com</key><dict><key>NSIncludesSubdomains</key><true/><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>"))
        XCTAssertTrue(p.allowsInsecureHTTP(to: "example.com"))
        XCTAssertTrue(p.allowsInsecureHTTP(to: "math.example.com"))
        XCTAssertFalse(p.allowsInsecureHTTP(to: "advanced.math.example.com"))
        XCTAssertFalse(p.allowsInsecureHTTP(to: "notexample.com"))
        let without = try policy(domains("<key>example.com</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>"))
        XCTAssertFalse(without.allowsInsecureHTTP(to: "math.example.com"), "[ATS]: NO applies only to example.com")
    }

    func testAnExactEntryWinsOverItsParent() throws {
        let p = try policy(domains("""
            <key>example.com</key><dict><key>NSIncludesSubdomains</key><true/><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>
            <key>secure.example.com</key><dict/>
            """))
        XCTAssertFalse(p.allowsInsecureHTTP(to: "secure.example.com"))
        XCTAssertTrue(p.allowsInsecureHTTP(to: "www.example.com"))
    }

    func testNarrowerKeysSilenceArbitraryLoadsOnIOS10WhateverTheirValue() throws {
        // Rule 3: [ATS] NSAllowsArbitraryLoads; [facts] precedence 2: "present (any value)".
        for key in ["NSAllowsArbitraryLoadsForMedia", "NSAllowsArbitraryLoadsInWebContent", "NSAllowsLocalNetworking"] {
            for value in ["<true/>", "<false/>", "<string>YES</string>"] {
                let p = try policy("<key>NSAllowsArbitraryLoads</key><true/><key>\(key)</key>\(value)")
                XCTAssertFalse(p.arbitraryLoadsInForce(on: .iOS10AndLater), "\(key)=\(value)")
                XCTAssertFalse(p.allowsInsecureHTTP(to: "api.example.com", via: .urlLoading), "\(key)=\(value)")
                XCTAssertEqual(p.minimumTLS(for: "api.example.com"), .tls12)
            }
        }
        let web = try policy("<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsArbitraryLoadsInWebContent</key><true/>")
        XCTAssertTrue(web.allowsInsecureHTTP(to: "news.example.com", via: .webView))
        XCTAssertFalse(web.allowsInsecureHTTP(to: "news.example.com", via: .media))
    }

    func testIOS9ReadsArbitraryLoadsAndIgnoresTheNarrowerKeys() throws {
        // Rule 4: [ATS] Versioning; [facts] precedence 3.
        let p = try policy("<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsLocalNetworking</key><true/>", deploymentTarget: 9)
        XCTAssertEqual(p.generations, [.iOS9, .iOS10AndLater])
        XCTAssertTrue(p.allowsInsecureHTTP(to: "api.example.com", on: .iOS9))
        XCTAssertFalse(p.allowsInsecureHTTP(to: "api.example.com", on: .iOS10AndLater))
        let web = try policy("<key>NSAllowsArbitraryLoadsInWebContent</key><true/>", deploymentTarget: 9)
        XCTAssertFalse(web.allowsInsecureHTTP(to: "news.example.com", via: .webView, on: .iOS9), "iOS 9 does not read the web content key")
        XCTAssertEqual(try policy("", deploymentTarget: 12).generations, [.iOS10AndLater])
        XCTAssertEqual(try policy("", deploymentTarget: nil).generations, [.iOS10AndLater])
    }

    func testLocalHostsAreAllowedOnIOS10ButNotOnIOS9() throws {
        // Rule 6: [ATS] NSAllowsLocalNetworking: iOS 10 allows unqualified, .local and IP hosts by default;
        // iOS 9 blocks them and accepts no IP address exception.
        let p = try policy("", deploymentTarget: 9)
        for host in ["printer", "printer.local", "192.168.1.10", "::1"] {
            XCTAssertTrue(p.allowsInsecureHTTP(to: host), host)
            XCTAssertEqual(p.decision(for: host).source, .localNetwork)
            XCTAssertFalse(p.allowsInsecureHTTP(to: host, on: .iOS9), host)
        }
        let ip = try policy(domains("<key>10.0.0.1</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>"
                                    + "<key>printer.local</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>"), deploymentTarget: 9)
        XCTAssertFalse(ip.allowsInsecureHTTP(to: "10.0.0.1", on: .iOS9))
        XCTAssertTrue(ip.allowsInsecureHTTP(to: "printer.local", on: .iOS9))
    }

    func testLegacySpellingsActAsTheCurrentKeyUnlessTheCurrentKeyIsWritten() throws {
        // [facts] NSTemporaryException…/NSThirdPartyException…: "treat as" the current key.
        let p = try policy(domains("""
            <key>a.example.com</key><dict><key>NSTemporaryExceptionAllowsInsecureHTTPLoads</key><true/></dict>
            <key>b.example.com</key><dict><key>NSThirdPartyExceptionMinimumTLSVersion</key><string>TLSv1.1</string></dict>
            <key>c.example.com</key><dict><key>NSThirdPartyExceptionAllowsInsecureHTTPLoads</key><true/>\
            <key>NSExceptionAllowsInsecureHTTPLoads</key><false/></dict>
            """))
        XCTAssertTrue(p.allowsInsecureHTTP(to: "a.example.com"))
        XCTAssertEqual(p.minimumTLS(for: "b.example.com"), .tls11)
        XCTAssertFalse(p.allowsInsecureHTTP(to: "c.example.com"))
        XCTAssertEqual(p.configuration?.issues.filter { if case .legacyKey = $0.kind { true } else { false } }.count, 3)
    }

    func testDeprecatedInMediaOpensMediaButDoesNotSilenceArbitraryLoads() throws {
        // Assumption (documented in ATSPolicy): the worse reading of an undocumented key.
        let p = try policy("<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsArbitraryLoadsInMedia</key><true/>")
        XCTAssertTrue(p.arbitraryLoadsInForce(on: .iOS10AndLater))
        let media = try policy("<key>NSAllowsArbitraryLoadsInMedia</key><true/>")
        XCTAssertTrue(media.allowsInsecureHTTP(to: "video.example.com", via: .media))
        XCTAssertFalse(media.allowsInsecureHTTP(to: "video.example.com", via: .urlLoading))
    }

    func testParsingReportsUnknownMisplacedAndMistypedKeys() throws {
        let p = try policy("""
            <key>NSAllowArbitraryLoads</key><true/>
            <key>NSIncludesSubdomains</key><true/>
            <key>NSAllowsLocalNetworking</key><string>YES</string>
            """ + domains("<key>example.com</key><dict><key>NSExceptionAllowsInsecureHTTPLoad</key><true/>"
                          + "<key>NSExceptionMinimumTLSVersion</key><string>1.2</string></dict>"))
        let kinds = p.configuration?.issues.map(\.kind) ?? []
        XCTAssertEqual(kinds, [
            .unknownKey(suggestion: "NSAllowsArbitraryLoads"),
            .misplacedKey(belongsIn: .exceptionDomain),
            .wrongType(expected: .boolean, found: "string"),
            .unknownKey(suggestion: "NSExceptionAllowsInsecureHTTPLoads"),
            .invalidValue(expected: ["TLSv1.0", "TLSv1.1", "TLSv1.2", "TLSv1.3"]),
        ])
        XCTAssertNil(p.configuration?.allowsLocalNetworking?.value)
        XCTAssertTrue(p.hasNarrowerGlobalKey, "a mistyped narrower key is still present (rule 3)")
        XCTAssertEqual(ATSKeys.suggestion(for: "nsallowsarbitraryloads", at: .top), "NSAllowsArbitraryLoads")
        XCTAssertNil(ATSKeys.suggestion(for: "CFBundleIdentifier", at: .top))
    }

    func testANonDictionaryRootIsAnIssue() throws {
        let root = PlistNode(.bool(true))
        let c = ATSConfiguration(node: root, location: FileLocation(path: "Info.plist"))
        XCTAssertEqual(c.issues.map(\.kind), [.wrongType(expected: .dictionary, found: "boolean")])
        XCTAssertFalse(ATSPolicy(configuration: c, deploymentTarget: 15).allowsInsecureHTTP(to: "example.com"))
    }

    func testAHostileConfigurationStaysLinearAndBounded() {
        // 200,000 unknown keys (one written twice) and 200,000 exception domains.
        var entries = (0..<200_000).map { PlistEntry(key: "NSAllowsArbitraryLoadz\($0)", value: PlistNode(.bool(true))) }
        entries.append(PlistEntry(key: "NSAllowsArbitraryLoadz7", value: PlistNode(.bool(false))))
        let domains = (0..<200_000).map { PlistEntry(key: "host\($0).example.com", value: PlistNode(.dictionary(PlistDictionary()))) }
        entries.append(PlistEntry(key: "NSExceptionDomains", value: PlistNode(.dictionary(PlistDictionary(domains)))))
        let start = Date(), cpuStart = clock()
        let c = ATSConfiguration(node: PlistNode(.dictionary(PlistDictionary(entries))), location: FileLocation(path: "Info.plist"))
        XCTAssertEqual(c.issues.count, ATSConfiguration.maximumIssues)
        XCTAssertEqual(c.exceptionDomains.count, ATSConfiguration.maximumDomains)
        // min(wall, CPU time): a loaded machine stretches wall time (13.9 s seen while other
        // builds ran), a quadratic reader exceeds both.
        let cpu = Double(clock() - cpuStart) / Double(CLOCKS_PER_SEC)
        XCTAssertLessThan(min(Date().timeIntervalSince(start), cpu), 10)
    }
}
