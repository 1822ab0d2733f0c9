import Foundation
import XCTest
@testable import Formats

final class ProvisioningProfileTests: XCTestCase {
    func profile(_ name: String) throws -> ProvisioningProfile {
        try ProvisioningProfileParser.parse(PlistTestSupport.fixture("Provisioning/\(name).mobileprovision"))
    }

    func testKinds() throws {
        let dev = try profile("development")
        XCTAssertEqual(dev.kind, .development)
        XCTAssertEqual(dev.name, "Preflight development")
        XCTAssertEqual(dev.uuid, "00000000-0000-4000-8000-000000000001")
        XCTAssertEqual(dev.teamIdentifiers, ["ABCDE12345"])
        XCTAssertEqual(dev.teamName, "Example Team")
        XCTAssertEqual(dev.appIDName, "Preflight Sample")
        XCTAssertEqual(dev.platforms, ["iOS"])
        XCTAssertEqual(dev.provisionedDevices.count, 2)
        XCTAssertFalse(dev.provisionsAllDevices)
        XCTAssertEqual(dev.creationDate, Date(timeIntervalSince1970: 1705312800))
        XCTAssertEqual(dev.expirationDate, Date(timeIntervalSince1970: 1736848800))
        XCTAssertEqual(dev.entitlements?["application-identifier"]?.string, "ABCDE12345.com.example.preflight")
        XCTAssertEqual(dev.entitlements?["get-task-allow"]?.position, SourcePosition(line: 20, column: 3))
        XCTAssertTrue(dev.isExpired(at: Date(timeIntervalSince1970: 1736848800)))
        XCTAssertFalse(dev.isExpired(at: Date(timeIntervalSince1970: 1736848799)))
        XCTAssertEqual(try profile("adhoc").kind, .adHoc)
        XCTAssertEqual(try profile("enterprise").kind, .enterprise)
        XCTAssertTrue(try profile("enterprise").provisionsAllDevices)
        XCTAssertEqual(try profile("appstore").kind, .appStore)
        // BER: indefinite lengths and a constructed OCTET STRING.
        XCTAssertEqual(try profile("development-ber").plist, dev.plist)
    }

    func testConstructedOctetStringInPieces() throws {
        // Hand-built BER: ContentInfo { signedData, [0] { SignedData { v, {}, { data, [0] { OCTET STRING (constructed, 3 pieces, indefinite) } } } } }
        let plist = Array("<plist><dict><key>Name</key><string>X</string></dict></plist>".utf8)
        let pieces = [plist[0..<10], plist[10..<30], plist[30...]]
        var octets: [UInt8] = [0x24, 0x80]
        for p in pieces { octets += [0x04, UInt8(p.count)] + p }
        octets += [0x00, 0x00]
        func tlv(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] {
            if body.count < 128 { return [tag, UInt8(body.count)] + body }
            if body.count < 256 { return [tag, 0x81, UInt8(body.count)] + body }
            return [tag, 0x82, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
        }
        let oidData: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
        let oidSigned: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
        let encap = tlv(0x30, oidData + tlv(0xA0, octets))
        let signed = tlv(0x30, [0x02, 0x01, 0x01] + [0x31, 0x00] + encap + [0x31, 0x00])
        let ci = tlv(0x30, oidSigned + tlv(0xA0, signed))
        let p = try ProvisioningProfileParser.parse(Data(ci))
        XCTAssertEqual(p.name, "X")
        XCTAssertEqual(p.kind, .appStore)

        // The same with a wrong content type, and with a detached signature.
        let badType = tlv(0x30, oidData + tlv(0xA0, signed))
        XCTAssertEqual(PlistTestSupport.error { try ProvisioningProfileParser.parse(Data(badType)) },
                       "malformed provisioning profile at offset 0x2: content type 1.2.840.113549.1.7.1 is not signedData (1.2.840.113549.1.7.2)")
        let detached = tlv(0x30, oidSigned + tlv(0xA0, tlv(0x30, [0x02, 0x01, 0x01, 0x31, 0x00] + tlv(0x30, oidData) + [0x31, 0x00])))
        XCTAssertEqual(PlistTestSupport.error { try ProvisioningProfileParser.parse(Data(detached)) },
                       "malformed provisioning profile at offset 0x16: profile has no encapsulated content (detached signature)")
        // Deeply nested constructed OCTET STRINGs hit the depth bound.
        var deep: [UInt8] = [0x04, 0x00]
        for _ in 0..<100 { deep = [0x24, 0x80] + deep + [0x00, 0x00] }
        let deepCI = tlv(0x30, oidSigned + [0xA0, 0x80, 0x30, 0x80, 0x02, 0x01, 0x01, 0x31, 0x00, 0x30, 0x80] + oidData + [0xA0, 0x80] + deep + [0, 0, 0, 0, 0, 0, 0, 0])
        XCTAssertEqual(PlistTestSupport.error { try ProvisioningProfileParser.parse(Data(deepCI)) }?.contains("exceeds limit max-nesting-depth: DER nesting deeper than 64"), true)
    }

    func testMalformed() throws {
        let good = try PlistTestSupport.fixture("Provisioning/development.mobileprovision")
        XCTAssertEqual(PlistTestSupport.error { try ProvisioningProfileParser.parse(Data()) },
                       "truncated provisioning profile at offset 0x0: empty file")
        XCTAssertEqual(PlistTestSupport.error { try ProvisioningProfileParser.parse(good.prefix(100)) },
                       "truncated provisioning profile at offset 0x0: DER element (\(good.count - 4) bytes) extends past the end of its container")
        XCTAssertEqual(PlistTestSupport.error { try ProvisioningProfileParser.parse(Data([0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF])) },
                       "truncated provisioning profile at offset 0x0: DER element (4294967295 bytes) extends past the end of its container")
        XCTAssertEqual(PlistTestSupport.error { try ProvisioningProfileParser.parse(Data([0x30, 0x89, 1, 2, 3, 4, 5, 6, 7, 8, 9])) },
                       "malformed provisioning profile at offset 0x1: DER length of 9 bytes is not supported")
        XCTAssertEqual(PlistTestSupport.error { try ProvisioningProfileParser.parse(Data([0x30, 0x88, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])) },
                       "malformed provisioning profile at offset 0x1: DER length 18446744073709551615 is too large")
        XCTAssertEqual(PlistTestSupport.error { try ProvisioningProfileParser.parse(Data([0x31, 0x00])) },
                       "malformed provisioning profile at offset 0x0: ContentInfo: expected tag 0x30, found 0x31")
        XCTAssertEqual(PlistTestSupport.error { try ProvisioningProfileParser.parse(Data([0x30, 0x80, 0x06, 0x01, 0x2A])) },
                       "truncated provisioning profile at offset 0x0: indefinite-length DER element has no end-of-contents marker")
        XCTAssertEqual(PlistTestSupport.error { try ProvisioningProfileParser.parse(Data("<?xml version=\"1.0\"?><plist/>".utf8)) },
                       "truncated provisioning profile at offset 0x0: DER element (63 bytes) extends past the end of its container")
        XCTAssertEqual(PlistTestSupport.error { try profile("not-plist") },
                       "malformed provisioning profile: signed content is not a property list (malformed OpenStep property list at line 1, column 6: unexpected text after the top-level value)")
        // Every truncation fails cleanly.
        for n in stride(from: 0, to: good.count, by: 7) {
            XCTAssertThrowsError(try ProvisioningProfileParser.parse(good.prefix(n)))
        }
        // Every single-byte corruption parses or throws.
        for k in stride(from: 0, to: 200, by: 1) {
            var d = good
            d[k] ^= 0x5A
            _ = try? ProvisioningProfileParser.parse(d)
        }
    }
}
