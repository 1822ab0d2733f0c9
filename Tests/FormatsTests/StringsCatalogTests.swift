import Foundation
import XCTest
@testable import Formats

final class StringsCatalogTests: XCTestCase {
    static let catalog = """
    {
      "sourceLanguage" : "en",
      "strings" : {
        "Hello" : {
          "comment" : "Greeting",
          "localizations" : {
            "de" : { "stringUnit" : { "state" : "translated", "value" : "Hallo" } },
            "fr" : { "stringUnit" : { "state" : "needs_review", "value" : "Bonjour" } }
          }
        },
        "%lld items" : {
          "localizations" : {
            "de" : { "variations" : { "plural" : { "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld Ding" } } } } }
          }
        },
        "Brand" : { "shouldTranslate" : false, "extractionState" : "manual" }
      },
      "version" : "1.0"
    }
    """

    func testCatalog() throws {
        let c = try StringCatalogParser.parse(Data(Self.catalog.utf8))
        XCTAssertEqual(c.sourceLanguage, "en")
        XCTAssertEqual(c.version, "1.0")
        XCTAssertEqual(c.strings.map(\.key), ["Hello", "%lld items", "Brand"])
        XCTAssertEqual(c.languages, ["de", "fr"])
        let hello = c.strings[0]
        XCTAssertEqual(hello.comment, "Greeting")
        XCTAssertEqual(hello.position, SourcePosition(line: 4, column: 5))
        XCTAssertEqual(hello.localization("fr"), CatalogLocalization(language: "fr", state: "needs_review", value: "Bonjour", hasVariations: false, position: SourcePosition(line: 8, column: 9)))
        XCTAssertEqual(c.strings[1].localizations.first?.hasVariations, true)
        XCTAssertNil(c.strings[1].localizations.first?.value)
        XCTAssertEqual(c.strings[2].shouldTranslate, false)
        XCTAssertEqual(c.strings[2].extractionState, "manual")
        XCTAssertTrue(hello.shouldTranslate)
    }

    func testCatalogErrors() {
        let cases: [(String, String)] = [
            ("[]", "malformed string catalog at line 1, column 1: the top level is not an object"),
            ("{\"strings\": {}}", "malformed string catalog at line 1, column 1: missing \"sourceLanguage\""),
            ("{\"sourceLanguage\": 1}", "malformed string catalog at line 1, column 20: \"sourceLanguage\" is not a string"),
            ("{\"sourceLanguage\": \"en\",\n \"strings\": {\"a\": {\"localizations\": {\"de\": {\"stringUnit\": {\"value\": 3}}}}}}",
             "malformed string catalog at line 2, column 69: strings.a.localizations.de.stringUnit.value is not a string"),
            ("{\"sourceLanguage\": \"en\", \"strings\": {\"a\": {\"shouldTranslate\": \"no\"}}}",
             "malformed string catalog at line 1, column 63: strings.a.shouldTranslate is not a boolean"),
            ("{\"sourceLanguage\": \"en\", \"strings\": {\"a\": 1}}", "malformed string catalog at line 1, column 43: strings.a is not an object"),
            ("{\"sourceLanguage\": \"en\",", "malformed JSON at line 1, column 1: unterminated object"),
        ]
        for (input, expected) in cases {
            XCTAssertEqual(PlistTestSupport.error { try StringCatalogParser.parse(Data(input.utf8)) }, expected, "input: \(input)")
        }
    }

    func testJSONValues() throws {
        let j = try JSONReader.parse(Data("{\"a\": [1, -2, 3.5, 1e2, true, false, \"x\\n\\u00e9\\ud83d\\ude00\\/\"], \"a\": {}, \"big\": 9223372036854775808}".utf8))
        XCTAssertEqual(j["a"]?.dictionary, PlistDictionary())
        let arr = try XCTUnwrap(j.dictionary?.entries[0].value.array)
        XCTAssertEqual(arr.map(\.value), [.integer(1), .integer(-2), .real(3.5), .real(100), .bool(true), .bool(false), .string("x\né😀/")])
        XCTAssertEqual(j.dictionary?.keys, ["a", "a", "big"])
        XCTAssertEqual(j["big"]?.value, .real(9223372036854775808))
        XCTAssertEqual(arr[2].position, SourcePosition(line: 1, column: 15))
        XCTAssertEqual(try JSONReader.parse(Data([0xEF, 0xBB, 0xBF] + Array("\"é\"".utf8))).string, "é")
    }

    func testJSONErrors() {
        let cases: [(String, String)] = [
            ("", "malformed JSON at line 1, column 1: empty document"),
            ("{\"a\" 1}", "malformed JSON at line 1, column 6: expected ':' after key \"a\", found '1'"),
            ("{\"a\": 1,}", "malformed JSON at line 1, column 9: expected a string key, found '}'"),
            ("[1 2]", "malformed JSON at line 1, column 4: expected ',' or ']' in array, found '2'"),
            ("[1,\n  tru]", "malformed JSON at line 2, column 3: invalid literal, expected 'true'"),
            ("{} x", "malformed JSON at line 1, column 4: unexpected 'x' after the top-level value"),
            ("\"abc", "malformed JSON at line 1, column 1: unterminated string"),
            ("\"a\u{01}\"", "malformed JSON at line 1, column 3: unescaped control character in string"),
            ("\"\\x\"", "malformed JSON at line 1, column 2: invalid escape '\\x'"),
            ("\"\\ud800\"", "malformed JSON at line 1, column 2: unpaired surrogate in \\u escape"),
            ("\"\\u12\"", "malformed JSON at line 1, column 2: invalid \\u escape"),
            ("01", "malformed JSON at line 1, column 2: unexpected '1' after the top-level value"),
            ("-", "malformed JSON at line 1, column 1: invalid number"),
            ("1.", "malformed JSON at line 1, column 1: invalid number"),
            ("1e999", "malformed JSON at line 1, column 1: number 1e999 is out of range"),
            ("null", "unsupported JSON at line 1, column 1: null values are not supported"),
            ("[\n  {\"a\": [1,", "malformed JSON at line 2, column 12: unexpected end of data, expected a value"),
            ("@", "malformed JSON at line 1, column 1: unexpected '@', expected a value"),
        ]
        for (input, expected) in cases {
            XCTAssertEqual(PlistTestSupport.error { try JSONReader.parse(Data(input.utf8)) }, expected, "input: \(input)")
        }
        XCTAssertEqual(PlistTestSupport.error { try JSONReader.parse(Data([0x22, 0xC3, 0x22])) }, "malformed JSON at offset 0x1: invalid UTF-8")
    }

    func testJSONLimits() {
        XCTAssertEqual(PlistTestSupport.error { try JSONReader.parse(Data(String(repeating: "[", count: 1_000_000).utf8)) },
                       "JSON at line 1, column 258 exceeds limit max-nesting-depth: nesting deeper than 256")
        var limits = ReaderLimits()
        limits.maxPlistObjects = 3
        XCTAssertEqual(PlistTestSupport.error { try JSONReader.parse(Data("[1,2,3]".utf8), limits: limits) },
                       "JSON at line 1, column 6 exceeds limit max-plist-objects: more than 3 values")
        // A long single line stays linear.
        let big = "[" + Array(repeating: "{\"k\":\"v\"}", count: 200_000).joined(separator: ",") + "]"
        XCTAssertEqual(try JSONReader.parse(Data(big.utf8)).array?.count, 200_000)
    }

    func testCorpus() throws {
        let files = CorpusFiles.find(extensions: ["xcstrings"])
        try XCTSkipIf(files.isEmpty, "no corpus")
        var failures: [String] = []
        for f in files {
            do {
                let data = try Data(contentsOf: f)
                _ = try StringCatalogParser.parse(data)
                // JSONSerialization is the oracle for the JSON values (trusted test input only).
                let oracle = try JSONSerialization.jsonObject(with: data)
                if !PlistTestSupport.equal(try JSONReader.parse(data), oracle) { failures.append("\(f.path): differs from JSONSerialization") }
            } catch {
                failures.append("\(f.path): \(error)")
            }
        }
        XCTAssertEqual(failures, [])
    }
}
