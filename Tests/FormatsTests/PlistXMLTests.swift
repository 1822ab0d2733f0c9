import Foundation
import XCTest
@testable import Formats

final class PlistXMLTests: XCTestCase {
    func parse(_ s: String, limits: ReaderLimits = .default) throws -> PlistNode {
        try XMLPropertyListParser.parse(Data(s.utf8), limits: limits)
    }

    func err(_ s: String, limits: ReaderLimits = .default) -> String? {
        PlistTestSupport.error { try self.parse(s, limits: limits) }
    }

    static let sample = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<key>CFBundleName</key>
    \t<string>Ünïcode &amp; &lt;more&gt; &#x1F600; &#65;</string>
    \t<!-- a comment -->
    \t<key>Count</key>   <integer>-42</integer>
    \t<key>Hex</key><integer>0x7FFFFFFFFFFFFFFF</integer>
    \t<key>Min</key><integer>-9223372036854775808</integer>
    \t<key>Pi</key><real>3.25</real>
    \t<key>Inf</key><real>-inf</real>
    \t<key>When</key><date>2024-02-29T12:34:56Z</date>
    \t<key>Blob</key><data>
    \tSGVsbG8s
    \tIHdvcmxk
    \t</data>
    \t<key>Yes</key><true/>
    \t<key>No</key><false/>
    \t<key>Empty</key><string/>
    \t<key>CData</key><string><![CDATA[<b>&amp;</b>]]> tail</string>
    \t<key>List</key>
    \t<array>
    \t\t<string>a</string>
    \t\t<dict/>
    \t\t<array/>
    \t</array>
    </dict>
    </plist>

    """

    func testSampleMatchesFoundation() throws {
        let root = try parse(Self.sample)
        let oracle = try PropertyListSerialization.propertyList(from: Data(Self.sample.utf8), options: [], format: nil)
        XCTAssertTrue(PlistTestSupport.equal(root, oracle))
        XCTAssertEqual(root["CFBundleName"]?.string, "Ünïcode & <more> 😀 A")
        XCTAssertEqual(root["Count"]?.integer, -42)
        XCTAssertEqual(root["Hex"]?.integer, Int64.max)
        XCTAssertEqual(root["Min"]?.integer, Int64.min)
        XCTAssertEqual(root["Blob"]?.value, .data(Data("Hello, world".utf8)))
        XCTAssertEqual(root["CData"]?.string, "<b>&amp;</b> tail")
        XCTAssertEqual(root["Empty"]?.string, "")
        XCTAssertEqual(root["When"]?.value, .date(Date(timeIntervalSince1970: 1709210096)))
        XCTAssertEqual(root["Inf"]?.value, .real(-.infinity))
    }

    func testPositions() throws {
        let root = try parse(Self.sample)
        XCTAssertEqual(root.position, SourcePosition(line: 4, column: 1))
        let d = try XCTUnwrap(root.dictionary)
        XCTAssertEqual(d.entry("CFBundleName")?.keyPosition, SourcePosition(line: 5, column: 2))
        XCTAssertEqual(d["CFBundleName"]?.position, SourcePosition(line: 6, column: 2))
        XCTAssertEqual(d.entry("Count")?.keyPosition, SourcePosition(line: 8, column: 2))
        XCTAssertEqual(d["Count"]?.position, SourcePosition(line: 8, column: 21))
        // Columns count characters, not bytes.
        let u = try parse("<dict><key>é</key><string>ü</string><key>x</key><true/></dict>")
        XCTAssertEqual(u.dictionary?.entry("x")?.keyPosition, SourcePosition(line: 1, column: 37))
        XCTAssertEqual(u["x"]?.position, SourcePosition(line: 1, column: 49))
        let list = try XCTUnwrap(root["List"]?.array)
        XCTAssertEqual(list.map(\.position), [SourcePosition(line: 24, column: 3), SourcePosition(line: 25, column: 3), SourcePosition(line: 26, column: 3)])
    }

    func testDuplicateKeysKept() throws {
        let d = try XCTUnwrap(parse("<plist><dict><key>a</key><integer>1</integer><key>a</key><integer>2</integer></dict></plist>").dictionary)
        XCTAssertEqual(d.keys, ["a", "a"])
        XCTAssertEqual(d["a"]?.integer, 2)
        XCTAssertEqual(d.duplicateKeys, ["a"])
    }

    func testEncodings() throws {
        let xml = "<plist><dict><key>k</key><string>välue</string></dict></plist>"
        let bom = Data([0xEF, 0xBB, 0xBF]) + Data(xml.utf8)
        XCTAssertEqual(try XMLPropertyListParser.parse(bom)["k"]?.string, "välue")
        var le = Data([0xFF, 0xFE]); for u in xml.utf16 { le.append(UInt8(u & 0xFF)); le.append(UInt8(u >> 8)) }
        XCTAssertEqual(try XMLPropertyListParser.parse(le)["k"]?.string, "välue")
        var be = Data([0xFE, 0xFF]); for u in xml.utf16 { be.append(UInt8(u >> 8)); be.append(UInt8(u & 0xFF)) }
        XCTAssertEqual(try XMLPropertyListParser.parse(be)["k"]?.string, "välue")
        XCTAssertEqual(try XMLPropertyListParser.parse(be)["k"]?.position, SourcePosition(line: 1, column: 26))
    }

    func testBareRootAndNumbers() throws {
        XCTAssertEqual(try parse("<string>x</string>").string, "x")
        XCTAssertEqual(try parse("<integer>\n 0x10</integer>").integer, 16)
        XCTAssertEqual(try parse("<plist><array><key>k</key></array></plist>").array?.first?.string, "k")
        XCTAssertEqual(try parse("<real>-infinity</real>").value, .real(-.infinity))
        XCTAssertEqual(try parse("<integer>-0x10</integer>").integer, -16)
        XCTAssertEqual(try parse("<integer>+7</integer>").integer, 7)
        XCTAssertTrue(try { if case .real(let d) = try parse("<real>nan</real>").value { return d.isNaN } else { return false } }())
        XCTAssertEqual(try parse("<real>inf</real>").value, .real(.infinity))
        XCTAssertEqual(try parse("<real>1e3</real>").value, .real(1000))
        XCTAssertEqual(try parse("<data></data>").value, .data(Data()))
        XCTAssertEqual(try parse("<data>QQ==</data>").value, .data(Data("A".utf8)))
        XCTAssertEqual(try parse("<data>QUI</data>").value, .data(Data("AB".utf8)))
    }

    func testMalformed() {
        let cases: [(String, String)] = [
            ("", "malformed property list at line 1, column 1: no root element"),
            ("<plist>\n<dict>\n  <key>a</key>\n</dict></plist>", "malformed property list at line 3, column 3: dictionary key without a value (key \"a\")"),
            ("<plist>\n<dict>\n  <key>a</key>\n  <key>b</key><true/></dict></plist>", "malformed property list at line 3, column 3: dictionary key without a value (key \"a\")"),
            ("<dict>\n  <string>x</string></dict>", "malformed property list at line 2, column 3: value without a key (<string> in <dict>)"),
            ("<dict><key>a</key><string>x</dict>", "malformed property list at line 1, column 28: mismatched closing tag </dict>, expected </string>"),
            ("<array><string>x</string>", "malformed property list at line 1, column 1: unclosed <array> element"),
            ("<plist><dict>", "malformed property list at line 1, column 8: unclosed <dict> element"),
            ("<string>abc", "malformed property list at line 1, column 1: unclosed <string> element"),
            ("<plist><foo/></plist>", "malformed property list at line 1, column 8: unknown element <foo>"),
            ("<plist><true/></plist>\n<true/>", "malformed property list at line 2, column 1: unexpected content after the root element"),
            ("<plist><true/></plist>junk", "malformed property list at line 1, column 23: unexpected content after the root element"),
            ("<plist><true/><true/></plist>", "malformed property list at line 1, column 15: more than one value in the plist element"),
            ("<plist></plist>", "malformed property list at line 1, column 1: empty plist element"),
            ("<integer>9223372036854775808</integer>", "malformed property list at line 1, column 1: integer 9223372036854775808 does not fit in a signed 64-bit integer"),
            ("<integer>0xFFFFFFFFFFFFFFFF</integer>", "malformed property list at line 1, column 1: integer 0xFFFFFFFFFFFFFFFF does not fit in a signed 64-bit integer"),
            ("<integer>18446744073709551616</integer>", "malformed property list at line 1, column 1: integer 18446744073709551616 does not fit in 64 bits"),
            ("<integer>12a</integer>", "malformed property list at line 1, column 1: invalid integer '12a'"),
            ("<integer></integer>", "malformed property list at line 1, column 1: empty integer"),
            ("<real>abc</real>", "malformed property list at line 1, column 1: invalid real 'abc'"),
            ("<date>2023-02-29T00:00:00Z</date>", "malformed property list at line 1, column 1: invalid date '2023-02-29T00:00:00Z', expected YYYY-MM-DDTHH:MM:SSZ"),
            ("<date>2023-01-01</date>", "malformed property list at line 1, column 1: invalid date '2023-01-01', expected YYYY-MM-DDTHH:MM:SSZ"),
            ("<data>QQ=!</data>", "malformed property list at line 1, column 1: invalid base64 character '!' in <data>"),
            ("<data>Q</data>", "malformed property list at line 1, column 1: truncated base64 in <data>"),
            ("<string>&foo;</string>", "malformed property list at line 1, column 9: unknown entity &foo;"),
            ("<string>&#xD800;</string>", "malformed property list at line 1, column 9: invalid character reference &#xD800;"),
            ("<string>&#1114112;</string>", "malformed property list at line 1, column 9: invalid character reference &#1114112;"),
            ("<string>&#0;</string>", "malformed property list at line 1, column 9: invalid character reference &#0;"),
            ("<string>a & b</string>", "malformed property list at line 1, column 11: unterminated entity reference"),
            ("<string>a<b>x</b></string>", "malformed property list at line 1, column 10: unexpected element <b> inside <string>"),
            ("<integer>12 </integer>", "malformed property list at line 1, column 1: trailing whitespace in <integer>"),
            ("<real>1.5\n</real>", "malformed property list at line 1, column 1: trailing whitespace in <real>"),
            ("<real>0x1p3</real>", "malformed property list at line 1, column 1: invalid real '0x1p3'"),
            ("<date> 2024-01-01T00:00:00Z</date>", "malformed property list at line 1, column 1: invalid date ' 2024-01-01T00:00:00Z', expected YYYY-MM-DDTHH:MM:SSZ"),
            ("<true> </true>", "malformed property list at line 1, column 1: <true> must be empty"),
            ("<string>a<!-- c -->b</string>", "malformed property list at line 1, column 10: comment inside <string>"),
            ("<dict><key>a<?pi?></key><true/></dict>", "malformed property list at line 1, column 13: processing instruction inside <key>"),
            ("<true>x</true>", "malformed property list at line 1, column 1: <true> must be empty"),
            ("<plist><plist/></plist>", "malformed property list at line 1, column 8: nested <plist> element"),
            ("<!-- x", "malformed property list at line 1, column 1: unterminated comment"),
            ("<string><![CDATA[x</string>", "malformed property list at line 1, column 9: unterminated CDATA section"),
            ("<dict>text</dict>", "malformed property list at line 1, column 7: unexpected text in <dict>"),
            ("<dict>\n#ifdef DEBUG\n</dict>", "malformed property list at line 2, column 1: C preprocessor directive in <dict> (the file must be preprocessed before it is a property list)"),
            ("<array>\n  text</array>", "malformed property list at line 2, column 3: unexpected text in <array>"),
            ("<string", "malformed property list at line 1, column 1: unterminated tag <string>"),
            ("hello", "malformed property list at line 1, column 1: unexpected text before the root element"),
        ]
        for (input, expected) in cases {
            XCTAssertEqual(err(input), expected, "input: \(input)")
        }
    }

    func testEncodingErrors() {
        XCTAssertEqual(PlistTestSupport.error { try XMLPropertyListParser.parse(Data([0x3C, 0x73, 0xFF, 0x3E])) },
                       "malformed property list at offset 0x2: invalid UTF-8")
        XCTAssertEqual(PlistTestSupport.error { try XMLPropertyListParser.parse(Data([0xFF, 0xFE, 0x3C, 0x00, 0x74])) },
                       "truncated property list at offset 0x4: UTF-16 text has an odd number of bytes")
        XCTAssertEqual(PlistTestSupport.error { try XMLPropertyListParser.parse(Data([0xFF, 0xFE, 0x00, 0xD8, 0x3C, 0x00])) },
                       "malformed property list at offset 0x2: invalid UTF-16 (unpaired surrogate)")
    }

    func testEntityAttacksRejected() {
        let laughs = """
        <?xml version="1.0"?>
        <!DOCTYPE plist [
          <!ENTITY lol "lol">
          <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
        ]>
        <plist><string>&lol2;</string></plist>
        """
        XCTAssertEqual(err(laughs), "malformed property list at line 2, column 17: DOCTYPE with an internal subset is not allowed (entity declarations are rejected)")
        XCTAssertEqual(err("<!ENTITY x \"y\"><plist/>"), "malformed property list at line 1, column 1: entity declarations are not allowed")
        XCTAssertEqual(err("<plist><true/></plist><!DOCTYPE x>"), "malformed property list at line 1, column 23: entity declarations are not allowed")
        XCTAssertEqual(err("<!DOCTYPE a><!DOCTYPE b><true/>"), "malformed property list at line 1, column 13: more than one DOCTYPE")
    }

    func testLimits() {
        var limits = ReaderLimits()
        limits.maxNestingDepth = 3
        XCTAssertNoThrow(try parse("<array><array><array><array/></array></array></array>", limits: limits))
        XCTAssertEqual(err("<array><array><array><array><array/></array></array></array></array>", limits: limits),
                       "property list at line 1, column 29 exceeds limit max-nesting-depth: nesting deeper than 3")
        limits = ReaderLimits()
        limits.maxPlistObjects = 3
        XCTAssertEqual(err("<array><true/><true/><true/></array>", limits: limits),
                       "property list at line 1, column 22 exceeds limit max-plist-objects: more than 3 objects")
        // Deep input under default limits is an error, not a stack overflow.
        let deep = String(repeating: "<array>", count: 100_000)
        XCTAssertEqual(err(deep), "property list at line 1, column 1800 exceeds limit max-nesting-depth: nesting deeper than 256")
        do {
            _ = try parse(deep)
        } catch let e as FormatError {
            XCTAssertEqual(e.kind, .limitExceeded("max-nesting-depth"))
        } catch { XCTFail("\(error)") }
    }

    func testLargeDocumentIsFast() throws {
        var s = "<plist><dict>\n"
        var k = 0
        while s.utf8.count < 1_000_000 {
            s += "<key>key\(k)</key><array><string>value &amp; \(k)</string><integer>\(k)</integer><real>1.5</real><true/></array>\n"
            k += 1
        }
        s += "</dict></plist>"
        let start = Date()
        let root = try parse(s)
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertEqual(root.dictionary?.entries.count, k)
        XCTAssertEqual(root["key7"]?.array?[1].integer, 7)
        XCTAssertLessThan(elapsed, 10) // well under a second in release builds; debug is slower
    }
}
