import XCTest
@testable import Formats

final class ByteSearchTests: XCTestCase {
    func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    func testFindsFromAnOffsetAndNotPastTheEnd() {
        let h = bytes("abcabc")
        h.withUnsafeBytes { b in
            XCTAssertEqual(ByteSearch.firstOffset(of: bytes("bc"), in: b), 1)
            XCTAssertEqual(ByteSearch.firstOffset(of: bytes("bc"), in: b, from: 2), 4)
            XCTAssertNil(ByteSearch.firstOffset(of: bytes("bc"), in: b, from: 5))
            XCTAssertNil(ByteSearch.firstOffset(of: bytes("bc"), in: b, from: 7))
            XCTAssertNil(ByteSearch.firstOffset(of: [], in: b))
            XCTAssertNil(ByteSearch.firstOffset(of: bytes("abcabcd"), in: b))
        }
        XCTAssertTrue(ByteSearch.contains(bytes("cab"), in: h))
        XCTAssertFalse(ByteSearch.contains(bytes("x"), in: []))
    }

    /// Every line holding the word once, whatever ends it, also the first and the last line.
    func testLinesContainingAWord() {
        let text = bytes("A_ENTITLEMENTS = a.entitlements\r\nOTHER = b.entitlements\nCODE_SIGN_ENTITLEMENTS = c.entitlements ENTITLEMENTS\rlast ENTITLEMENTS")
        XCTAssertEqual(String(decoding: ByteSearch.lines(containing: bytes("ENTITLEMENTS"), in: text), as: UTF8.self),
                       "A_ENTITLEMENTS = a.entitlements\nCODE_SIGN_ENTITLEMENTS = c.entitlements ENTITLEMENTS\nlast ENTITLEMENTS\n")
        XCTAssertEqual(ByteSearch.lines(containing: bytes("ENTITLEMENTS"), in: bytes("none here")), [])
    }
}
