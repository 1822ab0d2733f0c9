import XCTest
import Foundation
import Artifacts
import Evidence
@testable import Rules

/// Every purpose-string rule reads the same views of a bundle: translations in an
/// `InfoPlist.xcstrings` catalog are judged like those of `InfoPlist.strings` tables.
final class PurposeStringViewsTests: XCTestCase {
    static let plist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0"><dict>
    <key>CFBundleIdentifier</key><string>com.example.app</string>
    <key>CFBundleExecutable</key><string>App</string>
    <key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>
    </dict></plist>
    """

    static func catalog(_ german: String) -> String {
        """
        {"sourceLanguage": "en", "version": "1.0", "strings": {
          "NSCameraUsageDescription": {"localizations": {
            "de": {"stringUnit": {"state": "translated", "value": "\(german)"}}
          }}
        }}
        """
    }

    func findings(_ rule: any Rule.Type, german: String) throws -> [Finding] {
        let files = ["App/Info.plist": Self.plist, "App/InfoPlist.xcstrings": Self.catalog(german)]
        return try RuleExampleTests.run(rule, files: files, example: RuleExample(files))
    }

    func testGenericTranslationInACatalogIsReported() throws {
        let found = try findings(GenericPurposeStringRule.self, german: "Die App benötigt Zugriff auf deine Kamera.")
        XCTAssertEqual(found.map(\.file), ["App/InfoPlist.xcstrings"])
        XCTAssertEqual(found.first?.fingerprintParts, ["de"])
        XCTAssertEqual(try findings(GenericPurposeStringRule.self, german: "Belege scannen, um sie zu deinen Ausgaben hinzuzufügen."), [])
    }

    func testPlaceholderTranslationInACatalogIsReported() throws {
        let found = try findings(PlaceholderPurposeStringRule.self, german: "TODO")
        XCTAssertEqual(found.map(\.file), ["App/InfoPlist.xcstrings"])
        XCTAssertEqual(try findings(PlaceholderPurposeStringRule.self, german: "Belege scannen."), [])
    }

    func testViewsAreComputedOncePerBundleInBundleOrder() throws {
        let files = ["App/Info.plist": Self.plist, "App/InfoPlist.xcstrings": Self.catalog("Kamera")]
        let loaded = try ProductLoader.load(source: MemorySource(name: "Example", files: files.mapValues { Data($0.utf8) }), kind: .folder)
        let context = RuleContext(product: loaded.product, evidence: EvidenceIndex())
        XCTAssertEqual(context.views.count, loaded.product.bundles.count)
        let app = try XCTUnwrap(context.bundles.first { $0.bundle.name == "App" })
        XCTAssertEqual(app.views.declaredPurposeStrings.map(\.key), ["NSCameraUsageDescription"])
        XCTAssertEqual(app.views.localizedPurposeStrings.map { [$0.language, $0.value] }, [["de", "Kamera"]])
    }
}
