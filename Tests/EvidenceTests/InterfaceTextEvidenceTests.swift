import Formats
import XCTest
@testable import Evidence

/// Storyboard texts the code replaces: outlets of an interface file, and the names a source
/// assigns a text to, with the kind of text.
final class InterfaceTextEvidenceTests: XCTestCase {
    func names(_ source: String) -> [String: Set<String>] {
        Data(source.utf8).withUnsafeBytes { InterfaceTextEvidence.assignedNames(in: $0) }
    }

    func testAssignmentsAndSettersInSwiftAndObjectiveC() {
        let found = names("""
        titleLabel.text = name
        cell.details?.attributedText = NSAttributedString(string: x)
        custom.button.setTitle(server.name, for: .normal)
        searchField.placeholder = hint
        [self.statusLabel setText:@"…"];
        [_doneButton setTitle:title forState:UIControlStateNormal];
        if countLabel.text == "" { }
        colorLabel.textColor = .red
        let text = other.text
        """)
        XCTAssertEqual(found["titleLabel"], ["text"])
        XCTAssertEqual(found["details"], ["text"])
        XCTAssertEqual(found["button"], ["title"])
        XCTAssertEqual(found["searchField"], ["placeholder"])
        XCTAssertEqual(found["statusLabel"], ["text"])
        XCTAssertEqual(found["doneButton"], ["title"])
        XCTAssertNil(found["countLabel"], "a comparison is not an assignment")
        XCTAssertNil(found["colorLabel"], "textColor is not the text")
        XCTAssertNil(found["other"], "reading the text is not replacing it")
    }

    func testOutletsOfAStoryboard() {
        let xml = """
        <connections>
            <outlet property="titleLabel" destination="abc-12-xyz" id="q1"/>
            <outlet property="delegate" destination="-1" id="q2"/>
            <action selector="tap:" destination="abc-12-xyz" id="q3"/>
        </connections>
        """
        let outlets = Data(xml.utf8).withUnsafeBytes { InterfaceTextEvidence.outlets(in: $0) }
        XCTAssertEqual(outlets.map(\.property), ["titleLabel", "delegate"])
        XCTAssertEqual(outlets.map(\.destination), ["abc-12-xyz", "-1"])
    }

    func testKeysTheCodeReplaces() {
        let result = LocalizationKeyEvidence.Result(codeSetInterfaceTexts: ["abc-12-xyz.title", "def-34-uvw.text"])
        XCTAssertTrue(result.codeReplaces(key: "abc-12-xyz.normalTitle"))
        XCTAssertFalse(result.codeReplaces(key: "abc-12-xyz.accessibilityLabel"))
        XCTAssertTrue(result.codeReplaces(key: "def-34-uvw.text"))
        XCTAssertFalse(result.codeReplaces(key: "def-34-uvw.placeholder"), "setting the text leaves the placeholder")
    }

    func testInterfacePlaceholdersAndNotes() {
        XCTAssertTrue(TranslationNeed.isInterfacePlaceholder(key: "abc-12-xyz.text", value: "Label"))
        XCTAssertTrue(TranslationNeed.isInterfacePlaceholder(key: "abc-12-xyz.text", value: "Lorem ipsum dolor sit er elit lamet"))
        XCTAssertTrue(TranslationNeed.isInterfacePlaceholder(key: "2.title", value: "Title"))
        XCTAssertFalse(TranslationNeed.isInterfacePlaceholder(key: "screen_title", value: "Title"), "a code key's text is real")
        XCTAssertFalse(TranslationNeed.isInterfacePlaceholder(key: "abc-12-xyz.text", value: "Welcome"))
        XCTAssertTrue(TranslationNeed.saysDoNotTranslate("Class = \"UILabel\"; Note = \"Placeholder - Do not translate\";"))
        XCTAssertFalse(TranslationNeed.saysDoNotTranslate("The title of the settings screen"))
        XCTAssertNil(TranslationNeed.interfaceObjectID("settings.title"))
    }
}
