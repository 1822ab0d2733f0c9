import Foundation
import XCTest
@testable import Formats

final class StringsDictTests: XCTestCase {
    static let valid = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0">
    <dict>
    \t<key>files</key>
    \t<dict>
    \t\t<key>NSStringLocalizedFormatKey</key>
    \t\t<string>%#@count@ in %1$#@folders@</string>
    \t\t<key>count</key>
    \t\t<dict>
    \t\t\t<key>NSStringFormatSpecTypeKey</key>
    \t\t\t<string>NSStringPluralRuleType</string>
    \t\t\t<key>NSStringFormatValueTypeKey</key>
    \t\t\t<string>d</string>
    \t\t\t<key>one</key>
    \t\t\t<string>%d file</string>
    \t\t\t<key>other</key>
    \t\t\t<string>%d files</string>
    \t\t</dict>
    \t\t<key>folders</key>
    \t\t<dict>
    \t\t\t<key>NSStringFormatSpecTypeKey</key>
    \t\t\t<string>NSStringPluralRuleType</string>
    \t\t\t<key>NSStringFormatValueTypeKey</key>
    \t\t\t<string>ld</string>
    \t\t\t<key>other</key>
    \t\t\t<string>%ld folders</string>
    \t\t</dict>
    \t</dict>
    \t<key>title</key>
    \t<dict>
    \t\t<key>NSStringVariableWidthRuleType</key>
    \t\t<dict>
    \t\t\t<key>20</key>
    \t\t\t<string>Short</string>
    \t\t\t<key>50</key>
    \t\t\t<string>A longer title</string>
    \t\t</dict>
    \t</dict>
    </dict>
    </plist>
    """

    func testValid() throws {
        let d = try StringsDictParser.parse(Data(Self.valid.utf8))
        XCTAssertEqual(d.issues, [])
        XCTAssertEqual(d.entries.map(\.key), ["files", "title"])
        let files = try XCTUnwrap(d["files"])
        XCTAssertEqual(files.formatKey, "%#@count@ in %1$#@folders@")
        XCTAssertEqual(files.variables["count"], ["one": "%d file", "other": "%d files"])
        XCTAssertEqual(files.valueTypes, ["count": "d", "folders": "ld"])
        XCTAssertEqual(files.position, SourcePosition(line: 4, column: 2))
        XCTAssertEqual(d["title"]?.widthVariants, ["20": "Short", "50": "A longer title"])
        let device = try StringsDictParser.parse(Data("<plist><dict><key>tap</key><dict><key>NSStringDeviceSpecificRuleType</key><dict><key>iphone</key><string>Tap</string><key>mac</key><string>Click</string></dict></dict></dict></plist>".utf8))
        XCTAssertEqual(device.issues, [])
        XCTAssertEqual(device["tap"]?.deviceVariants, ["iphone": "Tap", "mac": "Click"])
        XCTAssertEqual(StringsDictParser.variableReferences(in: "100%% %#@a@ %2$#@b@ %d %#@a@"), ["a", "b"])
    }

    func testIssues() throws {
        let s = """
        <plist><dict>
        <key>k</key><dict>
          <key>NSStringLocalizedFormatKey</key><string>%#@n@ %#@missing@</string>
          <key>n</key><dict>
            <key>NSStringFormatValueTypeKey</key><string>d</string>
            <key>one</key><string>one</string>
            <key>several</key><string>x</string>
            <key>few</key><integer>3</integer>
          </dict>
          <key>m</key><dict>
            <key>NSStringFormatSpecTypeKey</key><string>NSStringGenderRuleType</string>
            <key>other</key><string>x</string>
          </dict>
        </dict>
        <key>nofmt</key><dict/>
        </dict></plist>
        """
        let d = try StringsDictParser.parse(Data(s.utf8))
        XCTAssertEqual(d.issues, [
            "7:5: k.n: unknown plural category \"several\"",
            "8:19: k.n.few is a integer, expected a string",
            "4:3: k.n: missing NSStringFormatSpecTypeKey",
            "4:3: k.n: missing plural category \"other\"",
            "11:41: k.m: unknown NSStringFormatSpecTypeKey \"NSStringGenderRuleType\"",
            "10:3: k.m: missing NSStringFormatValueTypeKey",
            "3:40: k: NSStringLocalizedFormatKey references undefined variable \"missing\"",
            "15:1: nofmt: missing NSStringLocalizedFormatKey",
        ])
    }

    func testMalformed() {
        XCTAssertEqual(PlistTestSupport.error { try StringsDictParser.parse(Data("<plist><array/></plist>".utf8)) },
                       "malformed stringsdict file at line 1, column 8: the top level is a array, expected a dictionary")
        XCTAssertEqual(PlistTestSupport.error { try StringsDictParser.parse(Data("<plist><dict><key>a</key><string>x</string></dict></plist>".utf8)) },
                       "malformed stringsdict file at line 1, column 26: value of key \"a\" is a string, expected a dictionary")
        XCTAssertEqual(PlistTestSupport.error { try StringsDictParser.parse(Data("<plist><dict><key>a</key>".utf8)) },
                       "malformed property list at line 1, column 8: unclosed <dict> element")
    }

    func testCorpus() throws {
        let files = CorpusFiles.find(extensions: ["stringsdict"])
        try XCTSkipIf(files.isEmpty, "no corpus")
        var failures: [String] = []
        for f in files {
            do { _ = try StringsDictParser.parse(Data(contentsOf: f)) } catch { failures.append("\(f.path): \(error)") }
        }
        XCTAssertEqual(failures, [])
    }
}
