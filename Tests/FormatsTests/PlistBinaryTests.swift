import Foundation
import XCTest
@testable import Formats

final class PlistBinaryTests: XCTestCase {
    /// Builds a bplist00 from encoded objects (1-byte offsets and refs unless told).
    static func bplist(_ objects: [[UInt8]], top: UInt64 = 0, offsetSize: UInt8 = 1, refSize: UInt8 = 1,
                       count: UInt64? = nil, tableOffset: UInt64? = nil) -> Data {
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        for o in objects { offsets.append(out.count); out += o }
        let table = out.count
        for off in offsets {
            for k in (0..<Int(offsetSize)).reversed() { out.append(UInt8(truncatingIfNeeded: off >> (8 * k))) }
        }
        out += [0, 0, 0, 0, 0, 0, offsetSize, refSize]
        func be(_ v: UInt64) -> [UInt8] { (0..<8).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) } }
        out += be(count ?? UInt64(objects.count)) + be(top) + be(tableOffset ?? UInt64(table))
        return Data(out)
    }

    func err(_ d: Data, limits: ReaderLimits = .default) -> String? {
        PlistTestSupport.error { try BinaryPropertyListParser.parse(d, limits: limits) }
    }

    func testMatchesFoundation() throws {
        let value: [String: Any] = [
            "string": "hello", "unicode": "Grüße 😀", "int": 42, "neg": -7, "big": Int64.max, "min": Int64.min,
            "u16": 65535, "u32": 4_000_000_000, "real": 2.5, "float": Float(1.5), "date": Date(timeIntervalSinceReferenceDate: 123456789),
            "data": Data([1, 2, 3, 0xFF]), "true": true, "false": false,
            "array": ["a", 1, ["nested": [1, 2, 3]]], "empty": [String: Any](), "long": String(repeating: "x", count: 300),
            "manyItems": Array(0..<40),
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
        let root = try BinaryPropertyListParser.parse(data)
        XCTAssertTrue(PlistTestSupport.equal(root, value))
        XCTAssertEqual(root["unicode"]?.string, "Grüße 😀")
        XCTAssertEqual(root["min"]?.integer, Int64.min)
        XCTAssertEqual(root["u32"]?.integer, 4_000_000_000)
        XCTAssertNil(root.position)
        let (r, f) = try PropertyListReader.read(data)
        XCTAssertEqual(f, .binary)
        XCTAssertEqual(r, root)
    }

    func testSharedObjectsAndUID() throws {
        // array [s, s] where both refs point at the same string; a UID; a set; a 16-byte int.
        let d = Self.bplist([
            [0xA4, 1, 1, 2, 3],
            [0x51, 0x78],
            [0x80, 0x05],
            [0xC1, 4],
            [0x14] + [UInt8](repeating: 0, count: 8) + [0, 0, 0, 0, 0, 0, 0x01, 0x00],
        ])
        let root = try BinaryPropertyListParser.parse(d)
        XCTAssertEqual(root.array?.count, 4)
        XCTAssertEqual(root.array?[0].string, "x")
        XCTAssertEqual(root.array?[2]["CF$UID"]?.integer, 5)
        XCTAssertEqual(root.array?[3].array?[0].integer, 256)
    }

    func testMalformed() {
        let ok = Self.bplist([[0x09]])
        XCTAssertNoThrow(try BinaryPropertyListParser.parse(ok))
        let cases: [(Data, String)] = [
            (Data("bplist".utf8), "truncated binary property list at offset 0x0: missing bplist header"),
            (Data("bplist15".utf8) + Data(count: 40), "unsupported binary property list at offset 0x6: version \"15\" (only bplist00 is supported)"),
            (Data("bplist00".utf8) + Data(count: 8), "truncated binary property list at offset 0x0: data (16 bytes) is too short for the 32-byte trailer"),
            (Self.bplist([[0x09]], offsetSize: 0), "malformed binary property list at offset 0xf: trailer offset integer size 0 is not 1 to 8"),
            (Self.bplist([[0x09]], refSize: 9), "malformed binary property list at offset 0x11: trailer object reference size 9 is not 1 to 8"),
            (Self.bplist([[0x09]], count: 0), "malformed binary property list at offset 0x12: trailer declares no objects"),
            (Self.bplist([[0x09]], count: 1 << 40), "binary property list at offset 0x12 exceeds limit max-plist-objects: trailer declares 1099511627776 objects, more than 2000000"),
            (Self.bplist([[0x09]], count: 1000), "malformed binary property list at offset 0x12: trailer declares 1000 objects, more than the data can hold"),
            (Self.bplist([[0x09]], count: 10), "malformed binary property list at offset 0x9: offset table (10 entries of 1 bytes at 0x9) overlaps the trailer"),
            (Self.bplist([[0x09]], top: 1), "malformed binary property list at offset 0x1a: top object 1 is not below the object count 1"),
            (Self.bplist([[0x09]], tableOffset: 1 << 62), "malformed binary property list at offset 0x22: offset table offset 0x4000000000000000 is outside the object area"),
            (Self.bplist([[0xA1, 0]]), "malformed binary property list at offset 0x8: object 0 contains itself (reference cycle)"),
            (Self.bplist([[0xA1, 1], [0xA1, 0]]), "malformed binary property list at offset 0x8: object 0 contains itself (reference cycle)"),
            (Self.bplist([[0xA1, 5]]), "malformed binary property list at offset 0x9: object reference 5 is not below the object count 1"),
            (Self.bplist([[0x4F, 0x10, 0xFF]]), "truncated binary property list at offset 0xb: data object (255 bytes) extends past the end of the data (44 bytes)"),
            (Self.bplist([[0x4F, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]]), "truncated binary property list at offset 0x12: data object (9223372036854775807 bytes) extends past the end of the data (51 bytes)"),
            (Self.bplist([[0xAF, 0x12, 0x00, 0x00, 0xFF, 0xFF]]), "truncated binary property list at offset 0xe: array (65535 bytes) extends past the end of the data (47 bytes)"),
            (Self.bplist([[0x6F, 0x10, 0x80]]), "truncated binary property list at offset 0xb: UTF-16 string (256 bytes) extends past the end of the data (44 bytes)"),
            (Self.bplist([[0x4F, 0x50, 0x01]]), "malformed binary property list at offset 0x9: length of object is not an integer (marker 0x50)"),
            (Self.bplist([[0x00]]), "unsupported binary property list at offset 0x8: null object"),
            (Self.bplist([[0x0F]]), "unsupported binary property list at offset 0x8: fill byte used as an object"),
            (Self.bplist([[0x70]]), "malformed binary property list at offset 0x8: unknown object marker 0x70"),
                        (Self.bplist([[0x14] + [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0xFF, count: 8)]), "malformed binary property list at offset 0x8: integer 18446744073709551615 does not fit in a signed 64-bit integer"),
            (Self.bplist([[0x15]]), "malformed binary property list at offset 0x8: integer of unsupported size (marker 0x15)"),
            (Self.bplist([[0xD1, 1, 1], [0x10, 1]]), "malformed binary property list at offset 0xb: dictionary key (object 1) is a integer, not a string"),
            (Self.bplist([[0x09]], tableOffset: 8), "malformed binary property list at offset 0x8: object 0 offset 0x9 is outside the object area"),
        ]
        for (data, expected) in cases {
            XCTAssertEqual(err(data), expected)
        }
    }

    func testDepthAndCountLimits() {
        // A chain of 10 nested arrays.
        var objects: [[UInt8]] = []
        for k in 0..<10 { objects.append(k == 9 ? [0xA0] : [0xA1, UInt8(k + 1)]) }
        var limits = ReaderLimits()
        limits.maxNestingDepth = 5
        XCTAssertEqual(err(Self.bplist(objects), limits: limits),
                       "binary property list at offset 0x14 exceeds limit max-nesting-depth: nesting deeper than 5")
        limits = ReaderLimits()
        limits.maxPlistObjects = 4
        XCTAssertEqual(err(Self.bplist(objects), limits: limits),
                       "binary property list at offset 0x2d exceeds limit max-plist-objects: trailer declares 10 objects, more than 4")
        // Exponential sharing (each level references the next twice) is parsed once per object.
        var dag: [[UInt8]] = []
        for k in 0..<60 { dag.append(k == 59 ? [0x09] : [0xA2, UInt8(k + 1), UInt8(k + 1)]) }
        XCTAssertNoThrow(try BinaryPropertyListParser.parse(Self.bplist(dag)))
    }

    func testTruncationsNeverCrash() throws {
        let value: [String: Any] = ["a": [1, 2, "three", ["four": Data([4])]], "b": "x"]
        let data = try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
        for n in 0..<data.count {
            XCTAssertThrowsError(try BinaryPropertyListParser.parse(data.prefix(n)))
        }
        // Every single-byte corruption either parses or throws.
        for k in 0..<data.count {
            var d = data
            d[k] ^= 0xFF
            _ = try? BinaryPropertyListParser.parse(d)
        }
    }
}
