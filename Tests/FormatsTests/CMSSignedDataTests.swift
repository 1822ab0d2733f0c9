import Foundation
import XCTest
@testable import Formats

/// The certificates of code signatures and profiles, on the code-signing fixtures written by
/// `Tests/Fixtures/MachO/signing/make-fixtures.py`.
final class CMSSignedDataTests: XCTestCase {
    func signing(_ name: String) throws -> Data { try PlistTestSupport.fixture("MachO/signing/\(name)") }

    func testProfileCertificatesAndPrefixes() throws {
        let p = try ProvisioningProfileParser.parse(try signing("appstore.mobileprovision"))
        XCTAssertEqual(p.kind, .appStore)
        XCTAssertEqual(p.kindName, "App Store")
        XCTAssertEqual(p.applicationIdentifierPrefixes, ["ABCDE12345"])
        XCTAssertEqual(p.developerCertificates.map(CMSSignedData.subjectCommonName), ["Apple Distribution: Example Team (ABCDE12345)"])
        let dev = try ProvisioningProfileParser.parse(try signing("development.mobileprovision"))
        XCTAssertEqual(dev.kind, .development)
        XCTAssertEqual(dev.developerCertificates.map(CMSSignedData.subjectCommonName), ["Apple Development: Jane Appleseed (ABCDE12345)"])
        // The profile's own SignedData carries the (fixture) CA certificate.
        XCTAssertEqual(try CMSSignedData.certificates(try signing("appstore.mobileprovision")).map(CMSSignedData.subjectCommonName),
                       ["Apple Worldwide Developer Relations Certification Authority"])
    }

    func testCodeSignatureCertificates() throws {
        let slice = try XCTUnwrap(MachOReader.read(try signing("Release")).slices.first)
        let sig = try XCTUnwrap(slice.codeSignature)
        XCTAssertTrue(sig.hasCMSSignature)
        XCTAssertFalse(sig.isAdHoc)
        XCTAssertNil(sig.cmsError)
        XCTAssertEqual(sig.teamID, "ABCDE12345")
        XCTAssertEqual(sig.cmsCertificates.map(CMSSignedData.subjectCommonName),
                       ["Apple Distribution: Example Team (ABCDE12345)", "Apple Worldwide Developer Relations Certification Authority"])
        XCTAssertEqual(CMSSignedData.leaf(sig.cmsCertificates.reversed()).flatMap(CMSSignedData.subjectCommonName),
                       "Apple Distribution: Example Team (ABCDE12345)", "the signer is the certificate that issued no other")
        let entitlements = try PropertyListReader.read(try XCTUnwrap(sig.entitlementsXML)).root
        XCTAssertEqual(entitlements["get-task-allow"]?.bool, false)
    }

    func testUnsignedAndMalformedSignatures() throws {
        let unsigned = try XCTUnwrap(MachOReader.read(try signing("Unsigned")).slices.first)
        XCTAssertNil(unsigned.codeSignature)
        XCTAssertNil(unsigned.codeSignatureError)
        XCTAssertFalse(unsigned.importedSymbols.isEmpty, "the rest of the binary is read")
        let bad = try XCTUnwrap(MachOReader.read(try signing("BadSignature")).slices.first)
        XCTAssertNil(bad.codeSignature)
        XCTAssertEqual(bad.codeSignatureError?.reason, "code signature: SuperBlob magic 0xfade0cc1 is not 0xfade0cc0")
        XCTAssertFalse(bad.importedSymbols.isEmpty, "a malformed signature does not hide the rest of the binary")
    }

    func testMalformedCMS() {
        // An empty indefinite-length SEQUENCE, as a hand-made signature might carry.
        XCTAssertThrowsError(try CMSSignedData.certificates(Data([0x30, 0x80, 0x00, 0x00]))) { error in
            XCTAssertEqual("\(error)", "malformed CMS signature at offset 0x0: ContentInfo has 0 fields, expected 2")
        }
        XCTAssertThrowsError(try CMSSignedData.certificates(Data([0x30, 0x05, 0x06, 0x01]))) { error in
            XCTAssertEqual("\(error)", "truncated CMS signature at offset 0x0: DER element (5 bytes) extends past the end of its container")
        }
        XCTAssertNil(CMSSignedData.subjectCommonName(Data([0x30, 0x00])))
        XCTAssertNil(CMSSignedData.subjectCommonName(Data()))
    }
}
