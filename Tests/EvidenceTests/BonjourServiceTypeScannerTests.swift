import XCTest
@testable import Evidence

/// Bonjour service types named as whole string literals (for `bonjour_services`).
final class BonjourServiceTypeScannerTests: XCTestCase {
    func types(_ text: String, _ language: SourceFactsScanner.Language = .swift) -> [String] {
        Data(text.utf8).withUnsafeBytes { BonjourServiceTypeScanner.scan($0, language: language) }.map { "\($0.type)@\($0.line):\($0.column)\($0.ships ? "" : " debug")" }
    }

    func testWholeLiteralsOnly() {
        XCTAssertEqual(types("""
            let a = "_ipp._tcp"
            let b = "_http._tcp."   // trailing dot
            let c = "browse _ipp._tcp now"
            // "_comment._tcp"
            let d = "_printer._sub._http._tcp"
            let e = "_F007D354._googlecast._tcp"
            let f = "_x._tcp.local."
            let g = "\\(name)._tcp"
            let h = "_toolongservicename._tcp"
            let i = "_ipp._sctp"
            """), ["_ipp._tcp@1:10", "_http._tcp@2:10", "_http._tcp@5:10", "_googlecast._tcp@6:10", "_x._tcp@7:10",
                   // Longer than DNS-SD's 15 characters, but what the code browses for: the
                   // rule matches it with the list and notes the length.
                   "_toolongservicename._tcp@9:10"])
        XCTAssertNil(BonjourServiceTypeScanner.serviceType("_toolongservicename._tcp"), "the strict form keeps the limit")
        XCTAssertEqual(types("let z = \"_\(String(repeating: "a", count: 64))._tcp\""), [], "longer than a DNS label")
    }

    func testObjectiveCAndDebugBranches() {
        XCTAssertEqual(types("""
            NSString *t = @"_smb._tcp.";
            #ifdef DEBUG
            NSString *d = @"_debug._udp";
            #endif
            """, .cFamily), ["_smb._tcp@1:17", "_debug._udp@3:17 debug"])
    }

    func testServiceNames() {
        XCTAssertNotNil(BonjourServiceTypeScanner.serviceType("_Proxyman._tcp"))
        XCTAssertNil(BonjourServiceTypeScanner.serviceType("ipp._tcp"))
        XCTAssertNil(BonjourServiceTypeScanner.serviceType("_ipp.tcp"))
        XCTAssertNil(BonjourServiceTypeScanner.serviceType("_123._tcp"), "a name needs a letter")
        XCTAssertNil(BonjourServiceTypeScanner.serviceType("_a._b._ipp._tcp"), "two labels before the name: only `_x._sub`")
        XCTAssertNil(BonjourServiceTypeScanner.serviceType(Substring(String(repeating: "_a", count: 50) + "._tcp")))
    }
}
