import XCTest
import PreflightKit

/// The real-app corpus beside the repository (`../shared/corpus`): data files of twelve
/// open-source apps with review labels. Skipped when the folder is absent.
final class CorpusTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/corpus")

    func labels() throws -> [String: [String: Any]] {
        let url = Self.corpus.appendingPathComponent("LABELS.json")
        guard FileManager.default.fileExists(atPath: url.path) else { throw XCTSkip("no corpus at \(Self.corpus.path)") }
        return try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: [String: Any]]
    }

    /// Every app loads, and every target's Info.plist listed in LABELS.json is a bundle's Info.plist.
    func testInspectFindsEveryLabelledInfoPlist() throws {
        let labels = try labels()
        XCTAssertEqual(labels.count, 12)
        for (app, label) in labels.sorted(by: { $0.key < $1.key }) {
            let path = Self.corpus.appendingPathComponent("apps/\(app)").path
            let loaded = try PreflightScanner.load(path)
            let found = Set(loaded.product.bundles.compactMap(\.infoPlistPath))
            for target in label["targets"] as? [[String: Any]] ?? [] {
                for plist in target["info_plist"] as? [String] ?? [] {
                    XCTAssertTrue(found.contains(plist), "\(app): target \(target["name"] ?? "?") Info.plist \(plist) not found; bundles: \(found.sorted())")
                }
            }
        }
    }

    /// Scanning the corpus never fails and every finding names a file.
    func testScanCompletesOnEveryApp() throws {
        for app in try labels().keys.sorted() {
            let result = try PreflightScanner.scan(Self.corpus.appendingPathComponent("apps/\(app)").path)
            for f in result.findings { XCTAssertNotNil(f.file, "\(app): \(f.rule) finding without a file") }
        }
    }
}
