import XCTest
import Artifacts
import Formats
@testable import Rules

/// IP addresses and CIDR ranges as NSExceptionDomains keys (iOS 17+, Apple's NSExceptionDomains
/// page): parsing, membership, matching, and how ats_exception_domain judges them per
/// deployment target.
final class ATSAddressRangeTests: XCTestCase {
    func testParsing() {
        XCTAssertEqual(ATSAddressRange("10.0.0.0/8")?.prefixLength, 8)
        XCTAssertEqual(ATSAddressRange("192.168.42.63")?.prefixLength, 32)
        XCTAssertEqual(ATSAddressRange("2001:db8:12::/48")?.prefixLength, 48)
        XCTAssertEqual(ATSAddressRange("2001:db8:12::34")?.bytes.count, 16)
        XCTAssertEqual(ATSAddressRange("::ffff:10.1.2.3")?.bytes.suffix(4), [10, 1, 2, 3])
        for bad in ["10.0.0.0/33", "10.0.0/8", "256.1.1.1", "example.com", "10.0.0.0/", "10.0.0.0/x8", "2001:db8::1::2", "1:2:3:4:5:6:7:8:9", "", "/8"] {
            XCTAssertNil(ATSAddressRange(bad), bad)
        }
        XCTAssertEqual(ATSAddressRange("2001:db8:12::/129"), nil)
    }

    func testMembership() throws {
        let v4 = try XCTUnwrap(ATSAddressRange("10.0.0.0/8"))
        XCTAssertTrue(v4.contains("10.200.3.4"))
        XCTAssertFalse(v4.contains("11.0.0.1"))
        XCTAssertFalse(v4.contains("2001:db8::1"))
        let odd = try XCTUnwrap(ATSAddressRange("192.168.0.0/23"))
        XCTAssertTrue(odd.contains("192.168.1.255"))
        XCTAssertFalse(odd.contains("192.168.2.0"))
        let v6 = try XCTUnwrap(ATSAddressRange("2001:db8:12::/48"))
        XCTAssertTrue(v6.contains("[2001:db8:12:ffff::9]"))
        XCTAssertFalse(v6.contains("2001:db8:13::1"))
    }

    func testNarrowestRangeGovernsAnAddress() throws {
        let xml = """
        <?xml version="1.0"?><plist version="1.0"><dict><key>NSExceptionDomains</key><dict>
        <key>10.0.0.0/8</key><dict/><key>10.1.0.0/16</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>
        </dict></dict></plist>
        """
        let root = try PropertyListReader.read(Data(xml.utf8)).root
        let policy = ATSPolicy(configuration: ATSConfiguration(node: root, location: FileLocation(path: "Info.plist")), deploymentTarget: 17)
        XCTAssertEqual(policy.exceptionDomain(for: "10.1.2.3")?.name, "10.1.0.0/16")
        XCTAssertEqual(policy.exceptionDomain(for: "10.9.2.3")?.name, "10.0.0.0/8")
        XCTAssertNil(policy.exceptionDomain(for: "172.16.0.1"))
    }

    /// 10.0.0.0/8 is never "an entry that applies to no connection".
    func testJudgedPerDeploymentTarget() {
        XCTAssertNil(ATSExceptionDomainRule.problem("10.0.0.0/8", deploymentTarget: 17))
        XCTAssertNil(ATSExceptionDomainRule.problem("2001:db8:12::/48", deploymentTarget: nil))
        XCTAssertEqual(ATSExceptionDomainRule.problem("10.0.0.0/8", deploymentTarget: 15), .ipAddress)
        let message = ATSExceptionDomainRule.message(.ipAddress, "10.0.0.0/8", deploymentTarget: 15)
        XCTAssertFalse(message.contains("applies to no connection"), message)
        XCTAssertTrue(message.contains("iOS 17"), message)
        XCTAssertEqual(ATSExceptionDomainRule.problem("10.0.0.0/33", deploymentTarget: 17), .path)
    }
}
