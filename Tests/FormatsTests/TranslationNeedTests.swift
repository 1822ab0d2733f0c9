import XCTest
@testable import Formats

/// Values a translator need not translate, and the digests that compare values across languages.
final class TranslationNeedTests: XCTestCase {
    func testValuesThatNeedNoTranslation() {
        for value in ["", "  ", "42", "3.14", "—", "•", "%@", "%1$@ – %2$@", "%d%%", "%lld", "(%@)", "https://example.com/help",
                      "www.example.com", "mailto:help@example.com", "help@example.com", "12:30"] {
            XCTAssertTrue(TranslationNeed.needsNone(value), value)
        }
        for value in ["Save", "%d items", "100% free", "Notes", "Sent by %@", "help at example.com", "ä", "写真", "%@ ago"] {
            XCTAssertFalse(TranslationNeed.needsNone(value), value)
        }
    }

    /// Both readings of a value, the ASCII one on bytes and the general one on Characters, agree.
    func testASCIIAndUnicodeReadingsAgree() {
        let cases: [(String, Bool)] = [
            (" \t%1$@\r\n", true), ("%hhd", true), ("%1$lld", true), ("a%", false), ("%z", true), ("%Ld", true),
            ("www.x\r\ny", true), ("www.x\ny", false), ("MAILTO:x", true), ("a@b.c", true), ("a@b.c %d", false),
            ("%@%", true), ("%%a", false),
        ]
        for (value, expected) in cases {
            XCTAssertEqual(TranslationNeed.needsNone(value), expected, value.debugDescription)
            // The same value with a non-ASCII space in front goes the general way.
            XCTAssertEqual(TranslationNeed.needsNone("\u{00A0}" + value), expected, value.debugDescription)
        }
    }

    func testInterfaceBuilderObjectIDs() {
        XCTAssertEqual(TranslationNeed.interfaceObjectID("abc-12-xyz.text"), "abc-12-xyz")
        XCTAssertEqual(TranslationNeed.interfaceObjectID("2.title"), "2")
        XCTAssertEqual(TranslationNeed.interfaceObjectID("12345678.normalTitle"), "12345678")
        for key in ["about.title", "abc-12-xyz.Text", "123456789.title", "abc-12-xy!.text", "abc_12-xyz.text", "2", ".title",
                    "2.\u{301}title", "abc-12-xyz"] {
            XCTAssertNil(TranslationNeed.interfaceObjectID(key), key)
        }
    }

    func testSummariesKeepDigestsAndUntranslatableKeysWhicheverReaderRuns() throws {
        let text = "\"title\" = \"Notes\";\n\"site\" = \"https://example.com\";\n\"title\" = \"Notes\";\n\"n\" = \"%d\";\n"
        let data = Data(text.utf8)
        let quick = try XCTUnwrap(StringsSummaryScanner.summary(data, limits: .default))
        let parsed = StringsTableSummary(try StringsFileParser.parse(data))
        XCTAssertEqual(quick, parsed)
        XCTAssertEqual(quick.untranslatable, ["site", "n"])
        XCTAssertEqual(quick.digests["title"], TranslationNeed.digest("Notes"))
        XCTAssertNotEqual(TranslationNeed.digest("Notes"), TranslationNeed.digest("Notizen"))
    }
}
