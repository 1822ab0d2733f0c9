import XCTest
@testable import Evidence

final class MangledSubstringSearchTests: XCTestCase {
    func testFindsEveryPatternOnceWhereverItSits() {
        let search = MangledSubstringSearch(["7Network9NWBrowserC", "7Network10NWListenerC", "8PhotosUI0A6PickerV"])
        XCTAssertEqual(search.matches(in: "$s7Network9NWBrowserCMa"), [0])
        XCTAssertEqual(search.matches(in: "_$sSay7Network9NWBrowserCG7Network10NWListenerC7Network9NWBrowserC"), [0, 1])
        XCTAssertEqual(search.matches(in: "8PhotosUI0A6PickerV"), [2], "pattern spanning the whole symbol")
        XCTAssertEqual(search.matches(in: "_$s8PhotosUI0A6Picker"), [], "pattern cut off at the end")
    }

    func testLengthPrefixMustNotContinueAnotherNumber() {
        let search = MangledSubstringSearch(["5ARKit20HandTrackingProviderC"])
        XCTAssertEqual(search.matches(in: "_$s15ARKit20HandTrackingProviderCMa"), [])
        XCTAssertEqual(search.matches(in: "_$sSo5ARKit20HandTrackingProviderCMa"), [0])
    }

    func testEmptyAndShortInputs() {
        XCTAssertTrue(MangledSubstringSearch([]).isEmpty)
        let search = MangledSubstringSearch(["AB"])
        XCTAssertEqual(search.matches(in: ""), [])
        XCTAssertEqual(search.matches(in: "A"), [])
        XCTAssertEqual(search.matches(in: "AB"), [0])
    }

    func testSwiftManglingPrefixes() {
        XCTAssertTrue(BinaryReferenceMatcher.isSwiftMangled("_$s7Network9NWBrowserCMa"))
        XCTAssertTrue(BinaryReferenceMatcher.isSwiftMangled("$s7Network9NWBrowserCMa"))
        XCTAssertTrue(BinaryReferenceMatcher.isSwiftMangled("_$S7Network9NWBrowserCMa"))
        XCTAssertFalse(BinaryReferenceMatcher.isSwiftMangled("_OBJC_CLASS_$_NWBrowser"))
        XCTAssertFalse(BinaryReferenceMatcher.isSwiftMangled("_$"))
        XCTAssertFalse(BinaryReferenceMatcher.isSwiftMangled(""))
    }
}
