import XCTest
@testable import Rules

/// The printf reader behind format_specifier_mismatch: what counts as an argument and what is text.
final class FormatSpecifiersTests: XCTestCase {
    func args(_ s: String) -> [Int: FormatSpecifiers.Kind] { FormatSpecifiers(s).arguments }

    func testKindsLengthsAndPositions() {
        XCTAssertEqual(args("%d items in %@"), [1: .integer, 2: .object])
        XCTAssertEqual(args("%lld of %lu, %.2f%%"), [1: .integer, 2: .integer, 3: .double])
        XCTAssertEqual(args("%2$@ に %1$@"), [1: .object, 2: .object])
        XCTAssertEqual(args("%-5s|%05d|%+.1e"), [1: .cString, 2: .integer, 3: .double])
        XCTAssertEqual(args("%*d"), [1: .integer, 2: .integer], "a * width reads an int first")
    }

    func testTextIsNotAFormat() {
        XCTAssertTrue(FormatSpecifiers("100% free").isEmpty)
        XCTAssertTrue(FormatSpecifiers("50%)").isEmpty)
        XCTAssertTrue(FormatSpecifiers("100%%").isEmpty)
        XCTAssertTrue(FormatSpecifiers("ends with %").isEmpty)
    }

    func testPluralVariablesAreNotArguments() {
        let p = FormatSpecifiers("%#@followers@")
        XCTAssertTrue(p.hasPluralVariable)
        XCTAssertTrue(p.isEmpty)
        XCTAssertTrue(FormatSpecifiers("%1$#@n@").hasPluralVariable)
    }

    func testDifferences() {
        let en = FormatSpecifiers("%d items in %@")
        XCTAssertNil(FormatSpecifiers.difference(original: en, translation: FormatSpecifiers("%2$@: %1$d Artikel")))
        XCTAssertEqual(FormatSpecifiers.difference(original: en, translation: FormatSpecifiers("%@ Artikel in %@")),
                       "reads argument 1 as %@ where the original passes %d")
        XCTAssertEqual(FormatSpecifiers.difference(original: FormatSpecifiers("%@"), translation: FormatSpecifiers("%@ %@")),
                       "reads argument 2 (%@) but the original passes only 1")
        XCTAssertEqual(FormatSpecifiers.difference(original: en, translation: FormatSpecifiers("Artikel")),
                       "uses 0 of the original's 2 arguments")
        XCTAssertTrue(FormatSpecifiers("%1$@ %@").inconsistent)
    }
}
