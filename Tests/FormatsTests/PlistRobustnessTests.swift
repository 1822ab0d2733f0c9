import Foundation
import XCTest
@testable import Formats

/// Deterministic mutation tests: every reader must either parse or throw a `FormatError`
/// for damaged input — never crash, hang or throw anything else.
final class PlistRobustnessTests: XCTestCase {
    struct LCG {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static let specials: [UInt8] = Array("<>/&;#x[]!?-\"'=(){},\\\n\u{0}".utf8) + [0xFF, 0xC3, 0xE2]

    func mutations(of seed: Data, count: Int) -> [Data] {
        var rng = LCG(state: UInt64(seed.count))
        var out: [Data] = []
        let bytes = [UInt8](seed)
        for _ in 0..<count {
            var b = bytes
            for _ in 0..<(1 + rng.next(4)) {
                guard !b.isEmpty else { break }
                let at = rng.next(b.count)
                switch rng.next(4) {
                case 0: b[at] = Self.specials[rng.next(Self.specials.count)]
                case 1: b.insert(Self.specials[rng.next(Self.specials.count)], at: at)
                case 2: b.remove(at: at)
                default: b = Array(b[0..<at])
                }
            }
            out.append(Data(b))
        }
        return out
    }

    func check(_ seed: Data, _ body: (Data) throws -> Void) {
        XCTAssertNoThrow(try body(seed))
        for d in mutations(of: seed, count: 1500) {
            do { try body(d) } catch is FormatError {} catch { XCTFail("non-FormatError \(error) for \(d)") }
        }
    }

    func testXML() {
        check(Data(PlistXMLTests.sample.utf8)) { _ = try XMLPropertyListParser.parse($0) }
    }

    func testOpenStepAndStrings() {
        check(Data(StringsFileTests.text.utf8)) { _ = try StringsFileParser.parse($0) }
        check(Data("{ a = (1, <0aff>, { b = \"c\\n\"; }); /* x */ d = e; }".utf8)) { _ = try PropertyListReader.read($0) }
    }

    func testJSONAndCatalog() {
        check(Data(StringsCatalogTests.catalog.utf8)) { _ = try StringCatalogParser.parse($0) }
    }

    func testStringsDict() {
        check(Data(StringsDictTests.valid.utf8)) { _ = try StringsDictParser.parse($0) }
    }

    func testBinary() throws {
        let value: [String: Any] = ["a": [1, 2.5, "three", ["four": Data([4]), "five": Date(timeIntervalSinceReferenceDate: 0)]], "b": "xé", "c": true]
        let data = try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
        check(data) { _ = try BinaryPropertyListParser.parse($0) }
    }

    func testProvisioning() throws {
        let data = try PlistTestSupport.fixture("Provisioning/development-ber.mobileprovision")
        check(data) { _ = try ProvisioningProfileParser.parse($0) }
    }
}
