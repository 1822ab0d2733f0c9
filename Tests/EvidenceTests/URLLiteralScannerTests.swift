import XCTest
@testable import Evidence

final class URLLiteralScannerTests: XCTestCase {
    func swift(_ text: String) -> [FoundURL] { URLLiteralScanner.scan(text, language: .swift) }
    func objc(_ text: String) -> [FoundURL] { URLLiteralScanner.scan(text, language: .cFamily) }
    func hosts(_ urls: [FoundURL]) -> [String] { urls.map(\.host) }

    func testSwiftLiteralWithPosition() {
        let found = swift("let a = 1\n  let u = URL(string: \"http://api.acme.com/v1?x=1\")!\n")
        XCTAssertEqual(found.count, 1)
        XCTAssertEqual(found.first?.url, "http://api.acme.com/v1?x=1")
        XCTAssertEqual(found.first?.scheme, "http")
        XCTAssertEqual(found.first?.host, "api.acme.com")
        XCTAssertEqual(found.first?.line, 2)
        XCTAssertEqual(found.first?.column, 24)
        XCTAssertEqual(found.first?.use, .unknown)
    }

    func testHTTPSAndPortAndUserInfo() {
        XCTAssertEqual(hosts(swift("let a = \"https://Cdn.Acme.com:8080/x\"; let b = \"http://user:pw@media.acme.org/\"")),
                       ["cdn.acme.com", "media.acme.org"])
        XCTAssertEqual(swift("let a = \"https://cdn.acme.com\"").first?.scheme, "https")
    }

    func testCommentsAreNotCode() {
        XCTAssertEqual(swift("// see http://docs.acme.com\n/* http://a.acme.com /* nested */ http://b.acme.com */\nlet x = 1").count, 0)
        XCTAssertEqual(objc("// http://docs.acme.com\n/* http://a.acme.com */\nint x;").count, 0)
        XCTAssertEqual(swift("/// Calls http://api.acme.com\nfunc f() {}").count, 0)
    }

    func testURLsOutsideLiteralsAreNotCounted() {
        XCTAssertEqual(swift("let x = 1 // fine\nlet y = http://api.acme.com").count, 0)
    }

    func testLocalAndIPAndDotlessHostsAreNotTraffic() {
        let text = """
        let a = "http://localhost:8080/"
        let b = "http://printer.local/status"
        let c = "http://192.168.1.1/"
        let d = "http://[::1]:80/"
        let e = "http://raspberrypi/"
        let f = "http://site.test/"
        let g = "http://1.2.3/"
        let h = "http://router.home.arpa/"
        let i = "http://www.example.com/placeholder"
        let j = "http://api.example.org/"
        """
        XCTAssertEqual(swift(text).count, 0)
    }

    func testNamespaceURIsAreNotTraffic() {
        let text = """
        let a = "http://www.w3.org/2000/svg"
        let b = "http://www.apple.com/DTDs/PropertyList-1.0.dtd"
        let c = "http://schemas.xmlsoap.org/soap/envelope/"
        let d = "http://purl.org/dc/elements/1.1/"
        let e = "http://ns.adobe.com/xap/1.0/"
        let f = "http://json-schema.org/draft-07/schema#"
        let g = "http://www.apache.org/licenses/LICENSE-2.0"
        """
        XCTAssertEqual(swift(text).count, 0)
        // Apple's site itself is traffic; only its DTDs are identifiers.
        XCTAssertEqual(hosts(swift("let a = \"http://www.apple.com/support\"")), ["www.apple.com"])
    }

    func testPrefixesWithoutHostAreNotURLs() {
        let text = #"""
        let a = "http://"
        let b = "http://\(host)/path"
        let c = "http://api.\(domain)/v1"
        let d = "http://www."
        let e = "http://{host}/v1"
        let f = "http://" + host
        let g = "http://api.acme.com\(suffix)"
        let h = "http://api.acme.com/\(path)"
        """#
        // The host of g may go on in the interpolation (`.cn`); h's ends at the slash.
        XCTAssertEqual(hosts(swift(text)), ["api.acme.com"])
        XCTAssertEqual(objc(#"NSString *a = [NSString stringWithFormat:@"http://%@/x", host]; NSString *b = @"http://%@.acme.com";"#).count, 0)
    }

    func testInterpolationIsCodeAndItsLiteralsAreRead() {
        let found = swift(#"let a = "prefix \(f("http://inner.acme.com")) http://outer.acme.com""#)
        XCTAssertEqual(hosts(found), ["inner.acme.com", "outer.acme.com"])
    }

    func testRawAndMultilineStrings() {
        let text = ##"""
        let a = #"http://raw.acme.com/\d+"#
        let b = """
            http://multi.acme.com/
            """
        """##
        XCTAssertEqual(hosts(swift(text)), ["raw.acme.com", "multi.acme.com"])
    }

    func testObjectiveCLiteralsAndCharacterLiterals() {
        let text = """
        char q = '"';
        NSURL *u = [NSURL URLWithString:@"http://api.acme.com/x"];
        const char *c = "http://c.acme.com";
        """
        XCTAssertEqual(hosts(objc(text)), ["api.acme.com", "c.acme.com"])
    }

    func testSwiftCallContext() {
        func use(_ line: String) -> URLUse? { swift(line).first?.use }
        XCTAssertEqual(use(#"let r = URLRequest(url: URL(string: "http://api.acme.com")!)"#), .request)
        // A request built inside the call that loads it goes where that call sends it.
        XCTAssertEqual(use(#"webView.load(URLRequest(url: URL(string: "http://api.acme.com")!))"#), .webView)
        XCTAssertEqual(use(#"URLSession.shared.dataTask(with: URLRequest(url: URL(string: "http://api.acme.com")!))"#), .urlSession)
        XCTAssertEqual(use(#"send(URLRequest(url: URL(string: "http://api.acme.com")!))"#), .request)
        XCTAssertEqual(use(#"URLSession.shared.dataTask(with: URL(string: "http://api.acme.com")!)"#), .urlSession)
        XCTAssertEqual(use(#"let d = try Data(contentsOf: URL(string: "http://api.acme.com")!)"#), .urlSession)
        XCTAssertEqual(use(#"let p = AVPlayer(url: URL(string: "http://media.acme.com/a.m3u8")!)"#), .media)
        XCTAssertEqual(use(#"UIApplication.shared.open(URL(string: "http://www.acme.com")!)"#), .external)
        XCTAssertEqual(use(#"let vc = SFSafariViewController(url: URL(string: "http://www.acme.com")!)"#), .external)
        XCTAssertEqual(use(#"Link("Site", destination: URL(string: "http://www.acme.com")!)"#), .external)
        XCTAssertEqual(use(#"AF.request("http://api.acme.com/x")"#), .urlSession)
        XCTAssertEqual(use(#"webView.loadHTMLString(html, baseURL: URL(string: "http://www.acme.com"))"#), .reference)
        XCTAssertEqual(use(#"let u = URL(string: "http://api.acme.com")"#), .unknown)
        // A call that closed before the literal is not around it.
        XCTAssertEqual(use("let r = URLRequest(url: u)\nlet s = \"http://api.acme.com\""), .unknown)
    }

    func testObjectiveCCallContext() {
        func use(_ line: String) -> URLUse? { objc(line).first?.use }
        XCTAssertEqual(use(#"NSURLRequest *r = [NSURLRequest requestWithURL:[NSURL URLWithString:@"http://api.acme.com"]];"#), .request)
        XCTAssertEqual(use(#"[self.webView loadRequest:[NSURLRequest requestWithURL:[NSURL URLWithString:@"http://a.acme.com"]]];"#), .webView)
        XCTAssertEqual(use(#"[session dataTaskWithRequest:[NSURLRequest requestWithURL:[NSURL URLWithString:@"http://a.acme.com"]]];"#), .urlSession)
        XCTAssertEqual(use(#"[[UIApplication sharedApplication] openURL:[NSURL URLWithString:@"http://www.acme.com"]];"#), .external)
        XCTAssertEqual(use(#"AVPlayer *p = [AVPlayer playerWithURL:[NSURL URLWithString:@"http://media.acme.com/a.mp4"]];"#), .media)
        XCTAssertEqual(use(#"NSURL *u = [NSURL URLWithString:@"http://api.acme.com"];"#), .unknown)
    }

    func testDebugOnlyBranchesDoNotShip() {
        let swiftText = """
        #if DEBUG
        let a = "http://a.acme.com"
          #if os(iOS)
        let b = "http://b.acme.com"
          #endif
        #else
        let c = "http://c.acme.com"
        #endif
        #if !DEBUG
        let d = "http://d.acme.com"
        #elseif DEBUG
        let e = "http://e.acme.com"
        #endif
        let f = "http://f.acme.com"
        """
        XCTAssertEqual(swift(swiftText).map(\.ships), [false, false, true, true, true, true])
        let objcText = "#ifdef DEBUG\nNSString *a = @\"http://a.acme.com\";\n#endif\nNSString *b = @\"http://b.acme.com\";\n"
        XCTAssertEqual(objc(objcText).map(\.ships), [false, true])
        // Unbalanced directives: no crash, the rest of the file is debug-only.
        XCTAssertEqual(swift("#endif\n#else\n#if DEBUG\nlet a = \"http://a.acme.com\"").map(\.ships), [false])
    }

    func testPlainStringsFromBinaries() {
        XCTAssertEqual(hosts(URLLiteralScanner.urls(in: "Fetching http://api.acme.com/v2 failed")), ["api.acme.com"])
        XCTAssertEqual(URLLiteralScanner.urls(in: "http://%s:%d/").count, 0)
        XCTAssertEqual(URLLiteralScanner.urls(in: "no url here").count, 0)
    }

    func testHostileInputIsBounded() {
        // Unterminated literals and comments, lone quotes, invalid UTF-8: no crash.
        for text in ["\"http://a.acme.com", "/* http://a.acme.com", "#\"", "\"\\(", "\"\\(\"http://x.acme.com", "\"http://", "@\"", "'"] {
            _ = swift(text)
            _ = objc(text)
        }
        let bytes: [UInt8] = [0x22, 0x68, 0x74, 0x74, 0x70, 0x3a, 0x2f, 0x2f, 0xff, 0xfe, 0x22]
        XCTAssertEqual(URLLiteralScanner.scan(Data(bytes), language: .swift).count, 0)
        // Deeply nested interpolations stop at the limit instead of growing a stack.
        let deep = String(repeating: "\"\\(", count: 10_000) + "\"http://deep.acme.com\""
        _ = swift(deep)
        // Many URLs in one file: capped.
        let many = (0..<2_000).map { "let u\($0) = \"http://h\($0).acme.com\"" }.joined(separator: "\n")
        XCTAssertEqual(swift(many).count, URLLiteralScanner.maxURLsPerFile)
        // URLs back to back in one long literal: each is read up to the display limit, not to
        // the end of the literal (which made the scan quadratic).
        let chained = "\"" + String(repeating: "http://a.acme.com/", count: 200_000) + "\""
        let start = Date()
        XCTAssertEqual(swift(chained).count, URLLiteralScanner.maxURLsPerFile)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        // A very long host-like run ends in one pass.
        let long = "\"http://" + String(repeating: "a.", count: 200_000) + "com\""
        XCTAssertEqual(swift(long).first?.url.count, URLLiteralScanner.maxURLLength)
    }

    func mentions(_ text: String, _ language: SourceFactsScanner.Language = .swift, names: [String]) -> Set<String> {
        Data(text.utf8).withUnsafeBytes { URLLiteralScanner.mentions($0, language: language, names: names) }
    }

    func testDomainMentionsInLiteralsOnly() {
        let names = ["acme.com", "cdn.acme.org", "old.acme.net"]
        XCTAssertEqual(mentions("let a = \"https://api.acme.com/v1\"\nlet b = \"cdn.acme.org\"\n// old.acme.net\n", names: names),
                       ["acme.com", "cdn.acme.org"])
        XCTAssertEqual(mentions("NSString *h = @\"cdn.acme.org\"; /* acme.com */", .cFamily, names: names), ["cdn.acme.org"])
        // Not a host: a longer label before or after.
        XCTAssertEqual(mentions("let a = \"https://notacme.com\"; let b = \"https://acme.com.evil.io\"; let c = \"acme.community\"", names: names), [])
        // The end of a sentence is not a longer host.
        XCTAssertEqual(mentions("let a = \"Contact acme.com.\"", names: names), ["acme.com"])
    }

    func testDomainMentionsInPlainText() {
        let text = "{\"base\": \"https://cdn.acme.org/x\", \"docs\": \"see xacme.com\"}"
        let found = Data(text.utf8).withUnsafeBytes { URLLiteralScanner.mentions(inText: $0, names: ["cdn.acme.org", "acme.com"]) }
        XCTAssertEqual(found, ["cdn.acme.org"])
        XCTAssertEqual(Data().withUnsafeBytes { URLLiteralScanner.mentions(inText: $0, names: ["acme.com"]) }, [])
    }
}

/// Namespaces met on real apps (XMPP, WebDAV properties) are identifiers, not traffic.
final class URLNamespaceTests: XCTestCase {
    func testNamespacesSeenInRealAppsAreNotTraffic() {
        XCTAssertTrue(URLHosts.isNonTraffic(host: "jabber.org", path: "/protocol/disco#items"))
        XCTAssertTrue(URLHosts.isNonTraffic(host: "owncloud.org", path: "/ns"))
        XCTAssertTrue(URLHosts.isNonTraffic(host: "nextcloud.com", path: "/ns"))
        XCTAssertFalse(URLHosts.isNonTraffic(host: "nextcloud.com", path: "/nsfw.jpg"))
        XCTAssertFalse(URLHosts.isNonTraffic(host: "jabber.org", path: "/"))
    }
}
