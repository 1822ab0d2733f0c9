import Foundation
import XCTest
@testable import Formats

final class StringsFileTests: XCTestCase {
    func parse(_ s: String) throws -> StringsTable { try StringsFileParser.parse(Data(s.utf8)) }
    func err(_ s: String) -> String? { PlistTestSupport.error { try self.parse(s) } }

    static let text = """
    /* Title of the app */
    "app.title" = "Preflight";
    // line comment
    "greeting" = "Hello, \\"%@\\"!\\n";
    unquoted_key = 'single';
    "dup" = "first";
    "dup" = "second";
    "shorthand";
    "emoji" = "\\UD83D\\UDE00 \\U00e9";

    """

    func testOldStyle() throws {
        let t = try parse(Self.text)
        XCTAssertEqual(t.format, .openStep)
        XCTAssertEqual(t.keys, ["app.title", "greeting", "unquoted_key", "dup", "dup", "shorthand", "emoji"])
        XCTAssertEqual(t["greeting"], "Hello, \"%@\"!\n")
        XCTAssertEqual(t["dup"], "second")
        XCTAssertEqual(t.duplicateKeys, ["dup"])
        XCTAssertEqual(t["shorthand"], "shorthand")
        XCTAssertEqual(t["unquoted_key"], "single")
        XCTAssertEqual(t["emoji"], "😀 é")
        XCTAssertEqual(t.entries[0].keyPosition, SourcePosition(line: 2, column: 1))
        XCTAssertEqual(t.entries[0].valuePosition, SourcePosition(line: 2, column: 15))
        XCTAssertEqual(t.entries[2].keyPosition, SourcePosition(line: 5, column: 1))
    }

    func testEncodings() throws {
        let s = "\"k\" = \"välue\";\n\"x\" = \"y\";"
        var le = Data([0xFF, 0xFE]); for u in s.utf16 { le.append(UInt8(u & 0xFF)); le.append(UInt8(u >> 8)) }
        var leNoBOM = Data(); for u in s.utf16 { leNoBOM.append(UInt8(u & 0xFF)); leNoBOM.append(UInt8(u >> 8)) }
        var be = Data([0xFE, 0xFF]); for u in s.utf16 { be.append(UInt8(u >> 8)); be.append(UInt8(u & 0xFF)) }
        for d in [Data(s.utf8), Data([0xEF, 0xBB, 0xBF]) + Data(s.utf8), le, leNoBOM, be] {
            let t = try StringsFileParser.parse(d)
            XCTAssertEqual(t["k"], "välue")
            XCTAssertEqual(t.entries[1].keyPosition, SourcePosition(line: 2, column: 1))
        }
        XCTAssertEqual(try StringsFileParser.parse(Data()).entries, [])
        // Trailing NULs are ignored (as CoreFoundation does); content after a NUL is lost there.
        XCTAssertEqual(try StringsFileParser.parse(Data("\"a\" = \"b\";\0\0\n".utf8))["a"], "b")
        XCTAssertEqual(PlistTestSupport.error { try StringsFileParser.parse(Data("\"a\" = \"b\";\0\"c\" = \"d\";".utf8)) },
                       "malformed strings file at line 1, column 11: NUL character where a key was expected (CoreFoundation stops reading the file here and ignores every later entry)")
    }

    func testPlistForms() throws {
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>NSCameraUsageDescription</key>
        \t<string>Scan codes</string>
        </dict>
        </plist>
        """
        let t = try parse(xml)
        XCTAssertEqual(t.format, .xml)
        XCTAssertEqual(t["NSCameraUsageDescription"], "Scan codes")
        XCTAssertEqual(t.entries[0].keyPosition, SourcePosition(line: 4, column: 2))
        XCTAssertEqual(t.entries[0].valuePosition, SourcePosition(line: 5, column: 2))
        let bin = try PropertyListSerialization.data(fromPropertyList: ["a": "b"], format: .binary, options: 0)
        let b = try StringsFileParser.parse(bin)
        XCTAssertEqual(b.format, .binary)
        XCTAssertEqual(b["a"], "b")
        XCTAssertNil(b.entries[0].keyPosition)
    }

    func testMalformed() {
        let cases: [(String, String)] = [
            ("\"a\" = \"b\"\n\"c\" = \"d\";", "malformed strings file at line 2, column 1: expected ';' after the value of key \"a\""),
            ("\"a\" = \"b;", "malformed strings file at line 1, column 7: unterminated string"),
            ("\"a\" \"b\";", "malformed strings file at line 1, column 5: expected '=' after key \"a\""),
            ("/* open", "malformed strings file at line 1, column 1: unterminated comment"),
            ("\"a\" = (\"b\");", "malformed strings file at line 1, column 7: value of key \"a\" is a array, expected a string"),
            ("\"a\" = { b = c; };", "malformed strings file at line 1, column 7: value of key \"a\" is a dictionary, expected a string"),
            ("= \"b\";", "malformed strings file at line 1, column 1: expected a key, found '='"),
            ("<plist><dict><key>a</key><integer>1</integer></dict></plist>", "malformed strings file at line 1, column 26: value of key \"a\" is a integer, expected a string"),
            ("<plist><array/></plist>", "malformed strings file at line 1, column 8: the top level is a array, expected a dictionary of strings"),
            ("<plist><dict><key>a</key></dict></plist>", "malformed property list at line 1, column 14: dictionary key without a value (key \"a\")"),
        ]
        for (input, expected) in cases {
            XCTAssertEqual(err(input), expected, "input: \(input)")
        }
        XCTAssertEqual(PlistTestSupport.error { try StringsFileParser.parse(Data([0x22, 0xFF, 0x22])) },
                       "malformed strings file at offset 0x1: invalid UTF-8")
    }

    /// Every .strings file of the shared real-app corpus parses (skipped when absent).
    func testCorpus() throws {
        let files = CorpusFiles.find(extensions: ["strings"])
        try XCTSkipIf(files.isEmpty, "no corpus")
        // Genuinely malformed in the corpus: xdripswift's storyboard strings contain `";;`,
        // where CoreFoundation stops reading (checked with plutil) and drops later entries.
        let knownMalformed = "BluetoothPeripheralView.strings"
        var failures: [String] = []
        for f in files {
            do {
                let data = try Data(contentsOf: f)
                let table = try StringsFileParser.parse(data)
                // Foundation (CoreFoundation's strings parser) is the oracle for the values.
                if let oracle = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: String] {
                    var ours: [String: String] = [:]
                    for e in table.entries { ours[e.key] = e.value }
                    if ours != oracle { failures.append("\(f.path): differs from Foundation (\(ours.count) vs \(oracle.count) keys, first: \(ours.first { oracle[$0.key] != $0.value }.map { "\($0.key)=\($0.value.debugDescription) vs \(oracle[$0.key].debugDescription)" } ?? "-"))") }
                }
            } catch {
                if f.lastPathComponent == knownMalformed, f.path.contains("xdripswift"),
                   "\(error)".hasSuffix("stray ';' where a key was expected (CoreFoundation stops reading the file here and ignores every later entry)") {
                    continue
                }
                failures.append("\(f.path): \(error)")
            }
        }
        XCTAssertEqual(failures, [])
    }
}

/// Files of `../shared/corpus` (beside the repository's parent), when present.
enum CorpusFiles {
    static func find(extensions: Set<String>) -> [URL] {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        let corpus = root.appendingPathComponent("shared/corpus")
        guard let e = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil) else { return [] }
        var out: [URL] = []
        for case let u as URL in e where extensions.contains(u.pathExtension) { out.append(u) }
        return out.sorted { $0.path < $1.path }
    }
}
