import Foundation
import XCTest
@testable import Formats
import FuzzHarness

/// Replays every input under Tests/Fixtures/Malformed/<Reader>/<name> through the reader the
/// folder names and compares the outcome with <name>.expected: `ok` when the input must parse,
/// else the exact `FormatError.description`. Each input once crashed, hung or leaked a reader
/// under libFuzzer (Fuzz/); the limits here are the ones the fuzz targets use, so the outcome
/// is the one the fuzzer saw. XcodeProject/ is replayed by ArtifactsTests.MalformedReplayTests.
final class MalformedReplayTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Malformed")

    /// Folder name → the reader (and follow-up calls) its inputs go through.
    static let readers: [String: @Sendable (Data) throws -> Void] = [
        "XMLPlist": { _ = try XMLPropertyListParser.parse($0, limits: FuzzHarness.limits) },
        "BinaryPlist": { _ = try BinaryPropertyListParser.parse($0, limits: FuzzHarness.limits) },
        "PropertyListReader": { _ = try PropertyListReader.read($0, limits: FuzzHarness.limits) },
        "OpenStep": { _ = try OpenStepParser.parse($0, limits: FuzzHarness.limits) },
        "InfoPlistPreprocessor": { _ = try InfoPlistPreprocessor.preprocess($0, definitions: [:], limits: FuzzHarness.limits) },
        "Strings": { _ = StringsSummaryScanner.summary($0, limits: FuzzHarness.limits); _ = try StringsFileParser.parse($0, limits: FuzzHarness.limits) },
        "StringsDict": { _ = try StringsDictParser.parse($0, limits: FuzzHarness.limits) },
        "JSON": { _ = try JSONReader.parse($0, limits: FuzzHarness.limits) },
        "StringCatalog": { _ = try StringCatalogParser.parse($0, limits: FuzzHarness.limits) },
        "Provisioning": { _ = try ProvisioningProfileParser.parse($0, limits: FuzzHarness.limits) },
        "AssetCatalog": { _ = try CompiledAssetCatalog.read([UInt8]($0), limits: FuzzHarness.limits) },
        "PNG": { _ = try PNGHeader.read([UInt8]($0)) },
        "CMS": { data in
            for c in try CMSSignedData.certificates(data, limits: FuzzHarness.limits) { _ = CMSSignedData.subjectCommonName(c) }
        },
        "MachO": { data in
            let file = try MachOReader.read(data, limits: FuzzHarness.machOLimits, parts: .all)
            for slice in file.slices { _ = slice.cStrings(maxCount: 1_000) }
        },
        "Zip": { bytes in
            _ = try ZipDirectory.read(fileSize: bytes.count) { offset, count in
                guard offset >= 0, count >= 0, offset <= bytes.count else { return Data() }
                return bytes.subdata(in: offset..<min(bytes.count, offset + min(count, bytes.count - offset)))
            }
        },
    ]

    /// Folders replayed elsewhere.
    static let replayedElsewhere: Set<String> = ["XcodeProject"]

    /// The reader folders under `root`, sorted; dot files excluded.
    static func readerFolders() throws -> [String] {
        let fm = FileManager.default
        guard fm.fileExists(atPath: root.path) else { return [] }
        return try fm.contentsOfDirectory(atPath: root.path).sorted().filter { !$0.hasPrefix(".") }
    }

    /// Every (reader folder, input) pair, sorted; `.expected` sidecars and dot files excluded.
    static func cases() throws -> [(reader: String, input: URL)] {
        let fm = FileManager.default
        var out: [(String, URL)] = []
        for folder in try readerFolders() {
            let dir = root.appendingPathComponent(folder)
            for name in try fm.contentsOfDirectory(atPath: dir.path).sorted()
            where !name.hasPrefix(".") && !name.hasSuffix(".expected") {
                out.append((folder, dir.appendingPathComponent(name)))
            }
        }
        return out
    }

    static func expected(for input: URL) throws -> String {
        let text = try String(contentsOf: input.appendingPathExtension("expected"), encoding: .utf8)
        return text.trimmingCharacters(in: .newlines)
    }

    static func outcome(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "ok"
        } catch let e as FormatError {
            return e.description
        } catch {
            return "\(type(of: error)): \(error)"
        }
    }

    func testEveryMalformedInputGivesItsExpectedOutcome() throws {
        // A missing or empty folder would make this test pass without replaying anything.
        XCTAssertTrue(FileManager.default.fileExists(atPath: Self.root.path), "no fixture folder \(Self.root.path)")
        let cases = try Self.cases()
        for folder in try Self.readerFolders() where !cases.contains(where: { $0.reader == folder }) {
            XCTFail("\(folder)/ holds no input to replay")
        }
        var replayed = 0
        for (reader, input) in cases where !Self.replayedElsewhere.contains(reader) {
            let name = "\(reader)/\(input.lastPathComponent)"
            guard let read = Self.readers[reader] else {
                XCTFail("\(name): no reader for folder \(reader)")
                continue
            }
            guard let expected = try? Self.expected(for: input) else {
                XCTFail("\(name): missing \(input.lastPathComponent).expected")
                continue
            }
            let data = try Data(contentsOf: input)
            XCTAssertEqual(Self.outcome { try read(data) }, expected, name)
            replayed += 1
        }
        print("replayed \(replayed) malformed inputs")
        XCTAssertGreaterThan(replayed, 0, "no malformed input replayed from \(Self.root.path)")
    }
}
