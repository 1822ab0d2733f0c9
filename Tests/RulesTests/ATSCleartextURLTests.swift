import XCTest
@testable import Artifacts
import Evidence
@testable import Rules

/// What `ats_cleartext_url` says beyond where its examples point: severities by use and policy.
final class ATSCleartextURLTests: XCTestCase {
    func findings(_ files: [String: String], kind: ProductKind = .folder) throws -> [Finding] {
        try RuleExampleTests.run(ATSCleartextURLRule.self, files: files, example: RuleExample(files, kind: kind))
    }

    let plain = plistXML("<key>CFBundleIdentifier</key><string>com.acme.app</string>")

    func testSeverityFollowsWhatLoadsTheURL() throws {
        let f = try findings(["App/Info.plist": plain, "App/Net.swift": """
            let a = URLSession.shared.dataTask(with: URL(string: "http://a.acme.com/x")!)
            let b = AVPlayer(url: URL(string: "http://b.acme.com/x.m3u8")!)
            let c = URL(string: "http://c.acme.com/x")
            let d = SFSafariViewController(url: URL(string: "http://d.acme.com/x")!)
            """])
        XCTAssertEqual(f.map(\.severity), [.error, .error, .note], "a bare literal may be no request at all: \(f.map(\.message))")
        XCTAssertEqual(f.map(\.line), [1, 2, 3])
    }

    func testWebContentKeyLeavesOnlyWhatCannotBeAWebView() throws {
        let ats = ATSRuleSupport.plist("\t<key>NSAllowsArbitraryLoadsInWebContent</key>\n\t<true/>")
        let f = try findings(["App/Info.plist": ats, "App/Net.swift": """
            let a = URLRequest(url: URL(string: "http://a.acme.com/x")!)
            let b = URL(string: "http://b.acme.com/x")
            let c = URLSession.shared.dataTask(with: URL(string: "http://c.acme.com/x")!)
            """])
        // A request may go to a web view (open) or to URLSession (blocked): a warning; a bare
        // literal may go anywhere: nothing; a URLSession task: blocked.
        XCTAssertEqual(f.map(\.severity), [.warning, .error], "\(f.map(\.message))")
        XCTAssertEqual(f.map(\.line), [1, 3])
        XCTAssertTrue(f.first?.message.contains("outside web views") == true)
    }

    func testAFrameworkBinaryCountsForTheAppThatEmbedsIt() {
        let app = AppBundle(name: "Demo", kind: .app, path: "Payload/Demo.app")
        let sdk = AppBundle(name: "AdKit", kind: .framework, path: "Payload/Demo.app/Frameworks/AdKit.framework", parentID: app.id)
        let own = URLLiteral(url: "http://api.acme.com/v1", scheme: "http", host: "api.acme.com",
                             location: .binary(path: "Payload/Demo.app/Demo", symbol: "http://api.acme.com/v1"), bundle: "Demo")
        let third = URLLiteral(url: "http://ads.adkit.io/x", scheme: "http", host: "ads.adkit.io",
                               location: .binary(path: "Payload/Demo.app/Frameworks/AdKit.framework/AdKit", symbol: "http://ads.adkit.io/x"),
                               bundle: "AdKit", origin: .sdk("AdKit"))
        let secure = URLLiteral(url: "https://api.acme.com/v1", scheme: "https", host: "api.acme.com",
                                location: .binary(path: "Payload/Demo.app/Demo", symbol: "https://api.acme.com/v1"), bundle: "Demo")
        let product = Product(kind: .app, input: "Demo.app", bundles: [app, sdk])
        let context = RuleContext(product: product, evidence: EvidenceIndex(urls: [own, third, secure], urlScannedBundles: ["Demo", "AdKit"]))
        let f = ATSCleartextURLRule().check(context)
        XCTAssertEqual(f.map(\.bundle), ["Demo", "Demo"])
        XCTAssertEqual(f.map(\.severity), [.note, .note], "a C string shows no call that loads it")
        XCTAssertEqual(f.map(\.file), ["Payload/Demo.app/Demo", "Payload/Demo.app/Frameworks/AdKit.framework/AdKit"])
        XCTAssertNil(f.first?.line)
        XCTAssertTrue(f.last?.message.contains("framework AdKit") == true, "\(f.map(\.message))")
    }

    func testDebugBranchesDoNotShip() throws {
        let f = try findings(["App/Info.plist": plain, "App/Env.swift": """
            #if DEBUG
            let server = URLRequest(url: URL(string: "http://dev.acme.com/api")!)
            #else
            let server = URLRequest(url: URL(string: "http://api.acme.com/api")!)
            #endif
            """])
        XCTAssertEqual(f.map(\.line), [4], "\(f.map(\.message))")
    }

    func testTestTargetsDoNotShip() throws {
        let f = try findings([
            "App.xcodeproj/project.pbxproj": exampleProject(targets: [
                ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/App.swift"]),
                ExampleTarget("AppTests", type: "bundle.unit-test", sources: ["AppTests/StubTests.swift"]),
            ]),
            "App/Info.plist": plain,
            "App/App.swift": "let ok = URL(string: \"https://api.acme.com\")\n",
            "AppTests/StubTests.swift": "let stub = URLRequest(url: URL(string: \"http://stub.acme.com/x\")!)\n",
        ], kind: .project)
        XCTAssertEqual(f.map(\.message), [])
    }

    // MARK: ats_stale_exception_domain

    func staleFindings(_ files: [String: String], binaries: [String: String] = [:], kind: ProductKind = .folder) throws -> [Finding] {
        try RuleExampleTests.run(ATSStaleExceptionDomainRule.self, files: files,
                                 example: RuleExample(files, binaryFixtures: binaries, kind: kind))
    }

    func testBuiltAppsSkipNamesSwiftKeepsInsideInstructions() throws {
        let plist = ATSRuleSupport.plist(ATSRuleSupport.domains([
            ("legacy-images.acmecorp.com", "<key>NSExceptionAllowsInsecureHTTPLoads</key><true/>"),
            ("old.acme.com", "<key>NSExceptionAllowsInsecureHTTPLoads</key><true/>"),
        ]), before: "<key>CFBundleExecutable</key>\n<string>Example</string>\n")
        let f = try staleFindings(["Info.plist": plist], binaries: ["Example": "App"], kind: .app)
        XCTAssertEqual(f.map(\.fingerprintParts), [["legacy-images.acmecorp.com"]], "\(f.map(\.message))")
        // An executable that cannot be read shows no code: nothing is reported.
        XCTAssertEqual(try staleFindings(["Info.plist": plist, "Example": "not a binary"], kind: .app).count, 0)
    }

    func testResourcesAndEntitlementsMention() throws {
        let plist = ATSRuleSupport.plist(ATSRuleSupport.domains([
            ("feeds.acme.com", "<key>NSExceptionAllowsInsecureHTTPLoads</key><true/>"),
            ("links.acme.com", "<key>NSExceptionAllowsInsecureHTTPLoads</key><true/>"),
            ("gone.acme.com", "<key>NSExceptionAllowsInsecureHTTPLoads</key><true/>"),
        ]))
        let f = try staleFindings(["App/Info.plist": plist, "App/App.swift": "let x = 1\n",
                                   "App/Config/feeds.json": "{\"url\": \"http://feeds.acme.com/rss\"}",
                                   "App/App.entitlements": plistXML("<key>com.apple.developer.associated-domains</key><array><string>applinks:links.acme.com</string></array>")])
        XCTAssertEqual(f.map(\.fingerprintParts), [["gone.acme.com"]], "\(f.map(\.message))")
    }

    func testBadlyNamedEntriesAreLeftToTheExceptionDomainRule() throws {
        let plist = ATSRuleSupport.plist(ATSRuleSupport.domains([
            ("Old.Acme.com", ""), ("acme.net.", ""), ("*.acme.org", ""), ("printer.local", ""), ("10.0.0.1", ""),
        ]))
        XCTAssertEqual(try staleFindings(["App/Info.plist": plist, "App/App.swift": "let x = 1\n"]).map(\.message), [])
    }
}
