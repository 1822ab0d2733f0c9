import XCTest
@testable import Formats

/// The byte-speed summary never reads a file the full parser rejects, and when it reads one it
/// gives exactly the keys, format values and positions of the full parse.
final class StringsSummaryScannerTests: XCTestCase {
    func check(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        agrees(Data(text.utf8), file: file, line: line)
    }

    func agrees(_ data: Data, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        guard let quick = StringsSummaryScanner.summary(data) else { return false }
        do {
            let parsed = StringsTableSummary(try StringsFileParser.parse(data))
            XCTAssertEqual(quick, parsed, "summary differs from the full parse", file: file, line: line)
        } catch {
            XCTFail("the summary read what the parser rejects: \(error)", file: file, line: line)
        }
        return true
    }

    func testFormatValuesKeepTheirPositions() throws {
        let text = "/* Ünïcode ✓ */ \"a\" = \"%@ é\";\n\n  \"b\" = \"x\";\n\"c\" = \"%1$@\n%2$d\";\"b\" = \"%d\";\n\"a\" = \"plain\";\n"
        let summary = try XCTUnwrap(StringsSummaryScanner.summary(Data(text.utf8)))
        XCTAssertEqual(summary.keys, ["a", "b", "c"])
        XCTAssertEqual(summary.formats["a"], nil, "the last entry wins")
        XCTAssertEqual(summary.formats["b"]?.position, SourcePosition(line: 5, column: 13))
        XCTAssertEqual(summary.formats["c"]?.value, "%1$@\n%2$d")
        XCTAssertTrue(check(text))
    }

    func testCommonFilesAreReadable() {
        XCTAssertTrue(check(""))
        XCTAssertTrue(check("/* Settings */\n\"title\" = \"Einstellungen\";\n// done\n\"ok\";\n\"q\" = \"Sag \\\"Hallo\\\"\\n\";\n"))
        XCTAssertTrue(check("\u{feff}\"a\" = \"b\";"))
    }

    /// Escapes CoreFoundation reads as the character itself (`\u` is not `\U`: home-assistant's
    /// tables write `\u2019`), control-character escapes and an escaped multi-byte letter.
    func testPlainEscapesStayAtByteSpeed() throws {
        XCTAssertTrue(check("\"a\" = \"It\\u2019s\";\n\"b\" = \"\\a\\b\\f\\v %@\";\n\"c\" = \"\\ה\\'\";\n"))
        XCTAssertTrue(check("\"a\" = \"two\\\nlines %@\";\n\"b\" = \"%d\";\n"), "an escaped line break, then positions on the next lines")
        let summary = try XCTUnwrap(StringsSummaryScanner.summary(Data("\"k\\u00\" = \"%@\";".utf8)))
        XCTAssertEqual(summary.keys, ["ku00"])
    }

    func testAnythingUnusualGoesToTheParser() {
        XCTAssertFalse(check("\"a\" = \"b\";;"))
        XCTAssertFalse(check("\"a\" = \"b\""))
        XCTAssertFalse(check("\"a\" = \"\\U00e9\";"))
        XCTAssertFalse(check("a = b;"))
        XCTAssertFalse(check("{ \"a\" = \"b\"; }"))
        XCTAssertFalse(check("\"a\" = \"b\"; /* open"))
        XCTAssertFalse(check("<?xml version=\"1.0\"?><plist><dict/></plist>"))
        XCTAssertFalse(check("\"a\" = \"\\101\";"), "octal escapes go to the parser")
        XCTAssertFalse(check("\"%d\";"), "a shorthand format entry goes to the parser")
        XCTAssertNil(StringsSummaryScanner.summary(Data([0xFF, 0xFE, 0x22, 0x00])))
        XCTAssertNil(StringsSummaryScanner.summary(Data([0x22, 0x61, 0xC3, 0x22, 0x3B])), "invalid UTF-8")
    }

    /// Seeded mutations of a valid table: whenever the summary reads one, the parser reads it the same way.
    func testMutationsNeverDisagree() {
        let base = Array("/* c */\n\"key.one\" = \"Wert mit \\\"Zitat\\\" und é %@\";\n\"two\";\n// x\n\"three\" = \"\\n\\t%d\";\n".utf8)
        let alphabet: [UInt8] = Array("\"\\;=/*\n\r {}Uuavf7'".utf8) + [0x00, 0xC3, 0xD7, 0xFF]
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
            if agrees(Data(bytes)) { accepted += 1 }
        }
        XCTAssertGreaterThan(accepted, 1_000, "the summary should read many mutated files that stay valid")
    }
}
