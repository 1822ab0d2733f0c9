import XCTest
@testable import Formats

/// The quick check never calls a file readable that the full parser rejects.
final class StringsQuickCheckTests: XCTestCase {
    func check(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let data = Data(text.utf8)
        let quick = StringsQuickCheck.isCertainlyReadable(data)
        if quick { XCTAssertNoThrow(try StringsFileParser.parse(data), "quick check accepted what the parser rejects", file: file, line: line) }
        return quick
    }

    func testCommonFilesAreReadable() {
        XCTAssertTrue(check(""))
        XCTAssertTrue(check("/* Settings */\n\"title\" = \"Einstellungen\";\n// done\n\"ok\";\n\"q\" = \"Sag \\\"Hallo\\\"\\n\";\n"))
        XCTAssertTrue(check("\u{feff}\"a\" = \"b\";"))
    }

    func testAnythingUnusualGoesToTheParser() {
        XCTAssertFalse(check("\"a\" = \"b\";;"))
        XCTAssertFalse(check("\"a\" = \"b\""))
        XCTAssertFalse(check("\"a\" = \"\\U00e9\";"))
        XCTAssertFalse(check("a = b;"))
        XCTAssertFalse(check("{ \"a\" = \"b\"; }"))
        XCTAssertFalse(check("\"a\" = \"b\"; /* open"))
        XCTAssertFalse(check("<?xml version=\"1.0\"?><plist><dict/></plist>"))
        XCTAssertFalse(StringsQuickCheck.isCertainlyReadable(Data([0xFF, 0xFE, 0x22, 0x00])))
        XCTAssertFalse(StringsQuickCheck.isCertainlyReadable(Data([0x22, 0x61, 0xC3, 0x22, 0x3B])), "invalid UTF-8")
    }

    /// Seeded mutations of a valid table: whenever the quick check says readable, so does the parser.
    func testMutationsNeverDisagree() {
        let base = Array("/* c */\n\"key.one\" = \"Wert mit \\\"Zitat\\\" und é\";\n\"two\";\n// x\n\"three\" = \"\\n\\t\";\n".utf8)
        let alphabet: [UInt8] = Array("\"\\;=/*\n {}Ua'".utf8) + [0x00, 0xC3, 0xFF]
        var state: UInt64 = 0x9E3779B97F4A7C15
        func next() -> Int { state = state &* 6364136223846793005 &+ 1442695040888963407; return Int(state >> 33) }
        var accepted = 0
        for _ in 0..<20_000 {
            var bytes = base
            for _ in 0..<(1 + next() % 3) {
                let at = next() % (bytes.count + 1)
                switch next() % 3 {
                case 0: bytes.insert(alphabet[next() % alphabet.count], at: at)
                case 1: if at < bytes.count { bytes.remove(at: at) }
                default: if at < bytes.count { bytes[at] = alphabet[next() % alphabet.count] }
                }
            }
            let data = Data(bytes)
            if StringsQuickCheck.isCertainlyReadable(data) {
                accepted += 1
                XCTAssertNoThrow(try StringsFileParser.parse(data), String(decoding: bytes, as: UTF8.self))
            }
        }
        XCTAssertGreaterThan(accepted, 1_000, "the quick check should accept many mutated files that stay valid")
    }
}
