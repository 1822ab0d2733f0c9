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
