import Foundation
import XCTest
@testable import Formats

/// Random property lists written by Foundation in XML and binary form must read back equal.
final class PlistOracleTests: XCTestCase {
    struct RNG {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static let alphabet: [String] = ["a", "Z", "0", " ", "<", ">", "&", "\"", "'", "\n", "\t", "é", "ß", "€", "😀", "]]>", "&amp;", "\\", "/*", "%@"]

    func randomString(_ r: inout RNG) -> String {
        (0..<r.next(12)).map { _ in Self.alphabet[r.next(Self.alphabet.count)] }.joined()
    }

    func randomValue(_ r: inout RNG, depth: Int) -> Any {
        switch r.next(depth > 3 ? 7 : 9) {
        case 0: return randomString(&r)
        case 1: return [Int64.min, -1, 0, 1, 255, 256, 65535, 65536, Int64(Int32.max), Int64.max, Int64(r.next(1 << 30)) - (1 << 29)][r.next(11)]
        case 2: return [0.0, -0.0, 1.5, -2.25, 1e300, 1e-300, .infinity, -.infinity, Double(r.next(100000)) / 7][r.next(9)]
        case 3: return r.next(2) == 0
        case 4: return Date(timeIntervalSinceReferenceDate: Double(r.next(2_000_000_000)) - 1_000_000_000)
        case 5: return Data((0..<r.next(40)).map { _ in UInt8(r.next(256)) })
        case 6: return randomString(&r)
        case 7: return (0..<r.next(6)).map { _ in randomValue(&r, depth: depth + 1) }
        default:
            var d: [String: Any] = [:]
            for _ in 0..<r.next(6) { d[randomString(&r)] = randomValue(&r, depth: depth + 1) }
            return d
        }
    }

    func testOracleComparisonDetectsDifferences() {
        XCTAssertFalse(PlistTestSupport.equal(PlistNode(.string("a")), "b"))
        XCTAssertFalse(PlistTestSupport.equal(PlistNode(.integer(1)), 2))
        XCTAssertFalse(PlistTestSupport.equal(PlistNode(.array([PlistNode(.integer(1))])), [1, 2]))
        XCTAssertFalse(PlistTestSupport.equal(PlistNode(.dictionary(PlistDictionary([PlistEntry(key: "k", value: PlistNode(.bool(true)))]))), ["k": false]))
        XCTAssertFalse(PlistTestSupport.equal(PlistNode(.data(Data([1]))), Data([2])))
        XCTAssertTrue(PlistTestSupport.equal(PlistNode(.dictionary(PlistDictionary([PlistEntry(key: "k", value: PlistNode(.real(1.5)))]))), ["k": 1.5]))
    }

    func testRandomPlistsMatchFoundation() throws {
        var r = RNG(state: 42)
        for n in 0..<300 {
            var root: [String: Any] = [:]
            for _ in 0..<(1 + r.next(8)) { root[randomString(&r)] = randomValue(&r, depth: 0) }
            for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
                let data = try PropertyListSerialization.data(fromPropertyList: root, format: format, options: 0)
                let (node, detected) = try PropertyListReader.read(data)
                XCTAssertEqual(detected, format == .xml ? .xml : .binary)
                let back = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
                XCTAssertTrue(PlistTestSupport.equal(node, back), "sample \(n) \(format): \(String(decoding: data, as: UTF8.self))")
            }
        }
    }
}
