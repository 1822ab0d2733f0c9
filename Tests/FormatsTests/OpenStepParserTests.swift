import Foundation
import XCTest
@testable import Formats

final class OpenStepParserTests: XCTestCase {
    func parse(_ s: String, limits: ReaderLimits = .default, braceless: Bool = false) throws -> PlistNode {
        try OpenStepParser.parse(Data(s.utf8), limits: limits, bracelessDictionary: braceless)
    }
    func err(_ s: String, limits: ReaderLimits = .default, braceless: Bool = false) -> String? {
        PlistTestSupport.error { try self.parse(s, limits: limits, braceless: braceless) }
    }

    func testValues() throws {
        let s = """
        // !$*UTF8*$!
        {
            archiveVersion = 1;
            objects = {
                /* Begin section */
                13B07F961A680F5B00A75B9A /* App */ = {isa = PBXNativeTarget; name = "My App"; };
            };
            list = (a, "b c", <0aFF>, );
            empty = ();
            path = ../Sources/main.swift;
            esc = "tab\\tnew\\nq\\"\\101\\U00e9";
        }
        """
        let root = try parse(s)
        XCTAssertEqual(root.position, SourcePosition(line: 2, column: 1))
        XCTAssertEqual(root["archiveVersion"]?.string, "1")
        XCTAssertEqual(root.node(at: ["objects", "13B07F961A680F5B00A75B9A", "name"])?.string, "My App")
        XCTAssertEqual(root["list"]?.array?.count, 3)
        XCTAssertEqual(root["list"]?.array?[2].value, .data(Data([0x0A, 0xFF])))
        XCTAssertEqual(root["empty"]?.array, [])
        XCTAssertEqual(root["path"]?.string, "../Sources/main.swift")
        XCTAssertEqual(root["esc"]?.string, "tab\tnew\nq\"Aé")
        XCTAssertEqual(root.dictionary?.entry("objects")?.keyPosition, SourcePosition(line: 4, column: 5))
        XCTAssertEqual(root.node(at: ["objects", "13B07F961A680F5B00A75B9A"])?.position, SourcePosition(line: 6, column: 46))
        XCTAssertEqual(try parse("(\"\\UD83D\\UDE00\", \"\\UD83D\")").strings, ["😀", "\u{fffd}"])
        XCTAssertEqual(try parse("", braceless: true).dictionary, PlistDictionary())
        XCTAssertEqual(try parse("{ a = b; }", braceless: true)["a"]?.string, "b")
    }

    func testMatchesFoundation() throws {
        let s = "{ a = b; c = (1, \"two\", { d = e; }); f = <00ff>; g = \"x\\ny\"; h = \"\\UD83D\\UDE00 \\u203A \\U00e9 \\101\"; }"
        let oracle = try PropertyListSerialization.propertyList(from: Data(s.utf8), options: [], format: nil)
        XCTAssertTrue(PlistTestSupport.equal(try parse(s), oracle))
        // Lowercase \u is not an escape for CoreFoundation: the device shows "u203A".
        XCTAssertEqual(try parse(s)["h"]?.string, "😀 u203A é A")
    }

    func testMalformed() {
        let cases: [(String, String)] = [
            ("", "malformed OpenStep property list at line 1, column 1: empty document"),
            ("{ a = b; } x", "malformed OpenStep property list at line 1, column 12: unexpected text after the top-level value"),
            ("{ a = b }", "malformed OpenStep property list at line 1, column 9: expected ';' after the value of key \"a\""),
            ("{ a b; }", "malformed OpenStep property list at line 1, column 5: expected '=' after key \"a\""),
            ("{\n  a = (1 2);\n}", "malformed OpenStep property list at line 2, column 10: expected ',' or ')' in array, found '2'"),
            ("{ a = (1, 2", "malformed OpenStep property list at line 1, column 7: unterminated array opened at line 1"),
            ("{\n a = b;", "malformed OpenStep property list at line 1, column 1: unterminated dictionary opened at line 1"),
            ("<0g>", "malformed OpenStep property list at line 1, column 3: invalid character 'g' in data"),
            ("<0a1>", "malformed OpenStep property list at line 1, column 1: data has an odd number of hex digits"),
            ("<0a", "malformed OpenStep property list at line 1, column 1: unterminated data opened at line 1"),
            ("\"abc", "malformed OpenStep property list at line 1, column 1: unterminated string"),
            ("/* x", "malformed OpenStep property list at line 1, column 1: unterminated comment"),
            ("{ a = ; }", "malformed OpenStep property list at line 1, column 7: unexpected character ';'"),
            ("{ = b; }", "malformed OpenStep property list at line 1, column 3: expected a key, found '='"),
            ("{ a", "malformed OpenStep property list at line 1, column 4: unexpected end of data after key \"a\""),
            ("{ a;  }", "malformed OpenStep property list at line 1, column 4: expected '=' after key \"a\""),
        ]
        for (input, expected) in cases {
            XCTAssertEqual(err(input), expected, "input: \(input)")
        }
        XCTAssertEqual(err("\"a\" = \"b\";;\n\"c\" = \"d\";", braceless: true),
                       "malformed OpenStep property list at line 1, column 11: stray ';' where a key was expected (CoreFoundation stops reading the file here and ignores every later entry)")
        XCTAssertEqual(err("\"a\" = \"b\";\n\"c\"", braceless: true),
                       "malformed OpenStep property list at line 2, column 4: unexpected end of data after key \"c\"")
    }

    func testLimits() {
        var limits = ReaderLimits()
        limits.maxNestingDepth = 2
        XCTAssertNoThrow(try parse("((()))", limits: limits))
        XCTAssertEqual(err("(((())))", limits: limits), "OpenStep property list at line 1, column 4 exceeds limit max-nesting-depth: nesting deeper than 2")
        // Dictionaries count one level each, like arrays (they used to count two).
        XCTAssertNoThrow(try parse("{a={b={};};}", limits: limits))
        XCTAssertEqual(err("{a={b={c=d;};};}", limits: limits), "OpenStep property list at line 1, column 10 exceeds limit max-nesting-depth: nesting deeper than 2")
        XCTAssertEqual(err("a={b=(c);};", limits: limits, braceless: true), "OpenStep property list at line 1, column 7 exceeds limit max-nesting-depth: nesting deeper than 2")
        limits = ReaderLimits()
        limits.maxPlistObjects = 2
        XCTAssertEqual(err("(a, b, c)", limits: limits), "OpenStep property list at line 1, column 5 exceeds limit max-plist-objects: more than 2 objects")
        XCTAssertEqual(err(String(repeating: "(", count: 200_000)), "OpenStep property list at line 1, column 258 exceeds limit max-nesting-depth: nesting deeper than 256")
    }
}

final class OpenStepEscapeTests: XCTestCase {
    /// CoreFoundation reads `\U` without hex digits as the value 0 and goes on.
    func testUEscapeWithoutDigitsIsNUL() throws {
        let table = try StringsFileParser.parse(Data("\"a\" = \"x\\U y\";".utf8))
        XCTAssertEqual(table["a"], "x\u{0} y")
    }
}
