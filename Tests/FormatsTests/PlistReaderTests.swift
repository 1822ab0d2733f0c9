import Foundation
import XCTest
@testable import Formats

final class PlistReaderTests: XCTestCase {
    func testDetectsFormats() throws {
        let xml = "\n  <?xml version=\"1.0\"?><plist><dict><key>a</key><string>b</string></dict></plist>"
        XCTAssertEqual(try PropertyListReader.read(Data(xml.utf8)).format, .xml)
        XCTAssertEqual(try PropertyListReader.read(Data("<plist><true/></plist>".utf8)).format, .xml)
        XCTAssertEqual(try PropertyListReader.read(Data("<!DOCTYPE plist PUBLIC \"x\" \"y\"><plist><true/></plist>".utf8)).format, .xml)
        XCTAssertEqual(try PropertyListReader.read(Data([0xEF, 0xBB, 0xBF]) + Data(xml.utf8)).format, .xml)
        var le = Data([0xFF, 0xFE]); for u in xml.utf16 { le.append(UInt8(u & 0xFF)); le.append(UInt8(u >> 8)) }
        let r = try PropertyListReader.read(le)
        XCTAssertEqual(r.format, .xml)
        XCTAssertEqual(r.root["a"]?.string, "b")
        let os = try PropertyListReader.read(Data("{ a = b; c = (1, 2); d = <0aff>; }".utf8))
        XCTAssertEqual(os.format, .openStep)
        XCTAssertEqual(os.root["c"]?.strings, ["1", "2"])
        XCTAssertEqual(os.root["d"]?.value, .data(Data([0x0A, 0xFF])))
        let bin = try PropertyListSerialization.data(fromPropertyList: ["a": "b"], format: .binary, options: 0)
        XCTAssertEqual(try PropertyListReader.read(bin).format, .binary)
        XCTAssertEqual(PropertyListReader.detect(Data()), .openStep)
        XCTAssertEqual(PropertyListReader.detect(Data("<array><true/></array>".utf8)), .xml)
        XCTAssertEqual(PropertyListReader.detect(Data(" <dict/>".utf8)), .xml)
        XCTAssertEqual(PropertyListReader.detect(Data("<0a1b>".utf8)), .openStep)
        XCTAssertEqual(PropertyListReader.detect(Data("<abcdef>".utf8)), .openStep)
        XCTAssertEqual(try PropertyListReader.read(Data("<array><true/></array>".utf8)).root.array?.count, 1)
    }

    func testInputSizeLimit() {
        var limits = ReaderLimits()
        limits.maxFileBytes = 10
        let big = Data("<plist><true/></plist>".utf8)
        XCTAssertEqual(PlistTestSupport.error { try PropertyListReader.read(big, limits: limits) },
                       "property list exceeds limit max-file-bytes: input of 22 bytes is larger than 10 bytes")
        XCTAssertEqual(PlistTestSupport.error { try BinaryPropertyListParser.parse(big, limits: limits) },
                       "binary property list exceeds limit max-file-bytes: input of 22 bytes is larger than 10 bytes")
        XCTAssertEqual(PlistTestSupport.error { try JSONReader.parse(big, limits: limits) },
                       "JSON exceeds limit max-file-bytes: input of 22 bytes is larger than 10 bytes")
        XCTAssertEqual(PlistTestSupport.error { try StringsFileParser.parse(big, limits: limits) },
                       "strings file exceeds limit max-file-bytes: input of 22 bytes is larger than 10 bytes")
        XCTAssertEqual(PlistTestSupport.error { try ProvisioningProfileParser.parse(big, limits: limits) },
                       "provisioning profile exceeds limit max-file-bytes: input of 22 bytes is larger than 10 bytes")
    }

    func testErrorsComeFromTheDetectedParser() {
        XCTAssertEqual(PlistTestSupport.error { try PropertyListReader.read(Data("<plist><dict></plist>".utf8)) },
                       "malformed property list at line 1, column 14: mismatched closing tag </plist>, expected </dict>")
        XCTAssertEqual(PlistTestSupport.error { try PropertyListReader.read(Data("{ a = b }".utf8)) },
                       "malformed OpenStep property list at line 1, column 9: expected ';' after the value of key \"a\"")
        XCTAssertEqual(PlistTestSupport.error { try PropertyListReader.read(Data("bplist00".utf8)) },
                       "truncated binary property list at offset 0x0: data (8 bytes) is too short for the 32-byte trailer")
    }
}

final class PlistCorpusTests: XCTestCase {
    /// Every property list of ../shared/corpus parses, and XML/binary ones equal what
    /// Foundation reads (skipped when the corpus is absent).
    func testCorpusPlistsMatchFoundation() throws {
        let files = CorpusFiles.find(extensions: ["plist", "entitlements", "xcprivacy"])
        try XCTSkipIf(files.isEmpty, "no corpus")
        var failures: [String] = []
        for f in files {
            let data = try Data(contentsOf: f)
            do {
                let (root, format) = try PropertyListReader.read(data)
                if format != .openStep {
                    let oracle = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
                    if !PlistTestSupport.equal(root, oracle) { failures.append("\(f.path): differs from Foundation") }
                }
            } catch {
                // Source Info.plists with `#ifdef` (INFOPLIST_PREPROCESS) are not property lists
                // until Xcode runs the C preprocessor (KeePassium, ownCloud); Foundation rejects them too.
                if "\(error)".contains("C preprocessor directive in") { continue }
                failures.append("\(f.path): \(error)")
            }
        }
        XCTAssertEqual(failures, [])
    }

    /// Asset-catalog Contents.json files read with JSONReader.
    func testCorpusJSON() throws {
        // LABELS.json is the corpus's own notes (with nulls), not app data.
        let files = CorpusFiles.find(extensions: ["json"]).filter { $0.lastPathComponent != "LABELS.json" }
        try XCTSkipIf(files.isEmpty, "no corpus")
        var failures: [String] = []
        for f in files {
            do { _ = try JSONReader.parse(Data(contentsOf: f)) } catch { failures.append("\(f.path): \(error)") }
        }
        XCTAssertEqual(failures, [])
    }
}

final class PlistFixtureTests: XCTestCase {
    func testSampleXMLAndBinaryAgree() throws {
        let xml = try PlistTestSupport.fixture("Plists/sample.plist")
        let bin = try PlistTestSupport.fixture("Plists/sample.bplist")
        let (x, xf) = try PropertyListReader.read(xml)
        let (b, bf) = try PropertyListReader.read(bin)
        XCTAssertEqual(xf, .xml)
        XCTAssertEqual(bf, .binary)
        XCTAssertTrue(PlistTestSupport.equal(x, try PropertyListSerialization.propertyList(from: bin, options: [], format: nil)))
        XCTAssertTrue(PlistTestSupport.equal(b, try PropertyListSerialization.propertyList(from: xml, options: [], format: nil)))
        XCTAssertEqual(x.node(at: ["NSAppTransportSecurity", "NSAllowsArbitraryLoads"])?.position, SourcePosition(line: 14, column: 3))
        XCTAssertEqual(x.dictionary?.entry("Blob")?.keyPosition, SourcePosition(line: 26, column: 2))
        XCTAssertEqual(b["Blob"]?.value, .data(Data([0, 1, 2, 255])))
    }

    func testHostileFixtures() throws {
        XCTAssertEqual(PlistTestSupport.error { try PropertyListReader.read(PlistTestSupport.fixture("Plists/billion-laughs.plist")) },
                       "malformed property list at line 2, column 17: DOCTYPE with an internal subset is not allowed (entity declarations are rejected)")
        XCTAssertEqual(PlistTestSupport.error { try PropertyListReader.read(PlistTestSupport.fixture("Plists/cycle.bplist")) },
                       "malformed binary property list at offset 0x8: object 0 contains itself (reference cycle)")
    }

    func testStringsFixtures() throws {
        let utf16 = try StringsFileParser.parse(PlistTestSupport.fixture("Strings/InfoPlist-utf16.strings"))
        XCTAssertEqual(utf16.format, .openStep)
        XCTAssertEqual(utf16["NSCameraUsageDescription"], "Scan QR codes — to pair")
        XCTAssertEqual(utf16.entries[1].keyPosition, SourcePosition(line: 3, column: 1))
        let xml = try StringsFileParser.parse(PlistTestSupport.fixture("Strings/InfoPlist-xml.strings"))
        XCTAssertEqual(xml.format, .xml)
        XCTAssertEqual(xml.keys, ["NSCameraUsageDescription", "NSLocationWhenInUseUsageDescription"])
        XCTAssertEqual(xml.entries[1].valuePosition, SourcePosition(line: 8, column: 2))
        XCTAssertEqual(PlistTestSupport.error { try StringsFileParser.parse(PlistTestSupport.fixture("Strings/stray-semicolon.strings")) },
                       "malformed strings file at line 1, column 11: stray ';' where a key was expected (CoreFoundation stops reading the file here and ignores every later entry)")
    }
}
