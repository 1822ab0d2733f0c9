import XCTest
import Foundation
import Artifacts
import Evidence
@testable import Rules

/// The privacy-manifest validator: its catalog against the shared reference facts, its
/// messages and severities, and hostile manifests.
final class PrivacyManifestRulesTests: XCTestCase {
    typealias Catalog = PrivacyManifestCatalog
    static let rules: [any Rule.Type] = [PrivacyManifestSchemaRule.self, PrivacyManifestReasonRule.self,
                                         PrivacyManifestTrackingRule.self, PrivacyManifestDataTypesRule.self]

    func findings(_ files: [String: String], kind: ProductKind = .folder, rules: [any Rule.Type] = rules) throws -> [Finding] {
        let source = MemorySource(name: kind == .app ? "Example.app" : "Example", files: files.mapValues { Data($0.utf8) })
        let loaded = try ProductLoader.load(source: source, kind: kind)
        let context = RuleContext(product: loaded.product, evidence: EvidenceIndex.build(loaded))
        return rules.flatMap { $0.init().check(context) }
    }

    func manifest(_ body: String) throws -> [Finding] { try findings(PrivacyManifestDocument.example(body)) }

    // MARK: Facts

    /// A reference facts file: `shared/reference/facts/<name>` beside the checkout or beside
    /// one of its parent folders (a worktree sits deeper than the main checkout).
    static func facts(_ name: String) throws -> [String: Any] {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var data: Data?
        while data == nil, folder.path != "/" {
            folder.deleteLastPathComponent()
            data = FileManager.default.contents(atPath: folder.appendingPathComponent("shared/reference/facts/\(name)").path)
        }
        guard let data else { throw XCTSkip("reference facts \(name) not found beside the checkout") }
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Every category and every reason code of required-reason-apis.json, each under its own
    /// category only, with the SDK-only flag.
    func testReasonTableMatchesTheFacts() throws {
        let facts = try Self.facts("required-reason-apis.json")
        let categories = try XCTUnwrap(facts["categories"] as? [[String: Any]])
        var expected: [String: [String: Bool]] = [:]
        for category in categories {
            let name = try XCTUnwrap(category["category"] as? String)
            for reason in try XCTUnwrap(category["reasons"] as? [[String: Any]]) {
                expected[name, default: [:]][try XCTUnwrap(reason["code"] as? String)] = try XCTUnwrap(reason["third_party_sdk_only"] as? Bool)
            }
        }
        var actual: [String: [String: Bool]] = [:]
        for category in Catalog.categories {
            for reason in category.reasons { actual[category.name, default: [:]][reason.code] = reason.sdkOnly }
            XCTAssertTrue(category.source.hasPrefix(Catalog.requiredReasonSource), category.name)
        }
        XCTAssertEqual(actual, expected)
        let all = try XCTUnwrap((facts["meta"] as? [String: Any])?["all_reason_codes"] as? [String])
        XCTAssertEqual(Set(Catalog.categories.flatMap { $0.reasons.map(\.code) }), Set(all))
        XCTAssertEqual(Catalog.categories.flatMap(\.reasons).count, all.count, "a reason code belongs to one category")
        for code in all { XCTAssertEqual(Catalog.categories(withReason: code).count, 1, code) }
    }

    func testSchemaDataTypesAndPurposesMatchTheFacts() throws {
        let facts = try Self.facts("privacy-manifest-schema.json")
        let types: [String: String] = ["Boolean": "boolean", "String": "string", "Array<String>": "array of strings",
                                       "Array<Dictionary>": "array of dictionaries"]
        var keys: [String: String] = [:]
        for root in try XCTUnwrap(facts["root_keys"] as? [[String: Any]]) {
            keys[try XCTUnwrap(root["key"] as? String)] = types[try XCTUnwrap(root["type"] as? String)]
            for nested in root["dict_keys"] as? [[String: Any]] ?? [] {
                keys[try XCTUnwrap(nested["key"] as? String)] = types[try XCTUnwrap(nested["type"] as? String)]
            }
            if root["key"] as? String == Catalog.accessedAPITypes {
                let allowed = (root["dict_keys"] as? [[String: Any]])?.first { $0["key"] as? String == Catalog.accessedAPIType }?["allowed"]
                XCTAssertEqual(Set(try XCTUnwrap(allowed as? [String])), Set(Catalog.categories.map(\.name)))
            }
        }
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: Catalog.allKeys.map { ($0.name, $0.type.rawValue) }), keys)
        XCTAssertEqual(Set(Catalog.rootKeys.map(\.name)), Set((facts["root_keys"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String }))

        let dataTypes = try XCTUnwrap(facts["data_types"] as? [[String: String]])
        XCTAssertEqual(Catalog.dataTypes.map(\.value), dataTypes.map { $0["value"] ?? "" })
        XCTAssertEqual(Catalog.dataTypes.map(\.label), dataTypes.map { $0["category"] ?? "" })
        let purposes = try XCTUnwrap(facts["purposes"] as? [[String: String]])
        XCTAssertEqual(Catalog.purposes.map(\.value), purposes.map { $0["value"] ?? "" })
        XCTAssertEqual(Catalog.purposes.map(\.label), purposes.map { $0["label"] ?? "" })
    }

    // MARK: Messages, severities, codes

    func testEmptyManifestIsValid() throws {
        XCTAssertEqual(try manifest("").map(\.message), [])
        XCTAssertEqual(try findings(PrivacyManifestDocument.builtExample(""), kind: .app).map(\.message), [])
        let literal = ["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                       "App/PrivacyInfo.xcprivacy": "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict/>\n</plist>\n"]
        XCTAssertEqual(try findings(literal).map(\.message), [])
    }

    /// Test bundles never ship: their manifests are not App Store Connect's to check.
    func testTestBundlesAreSkipped() throws {
        var files = PrivacyManifestDocument.builtExample("")
        files["PlugIns/AppTests.xctest/Info.plist"] = plistXML("<key>CFBundleExecutable</key><string>AppTests</string>")
        files["PlugIns/AppTests.xctest/PrivacyInfo.xcprivacy"] = plistXML("<key>NSPrivacyTracking</key><string>NO</string>"
                                                                         + "<key>NSPrivacyTrackingDomains</key><array><string>a.example.com</string></array>")
        XCTAssertEqual(try findings(files, kind: .app).map(\.message), [])
    }

    func testReasonOfAnotherCategoryNamesItsCategory() throws {
        let found = try manifest("<key>NSPrivacyAccessedAPITypes</key><array>"
                                 + PrivacyManifestDocument.accessedAPI("NSPrivacyAccessedAPICategoryDiskSpace", ["<string>C617.1</string>"]) + "</array>")
        XCTAssertEqual(found.count, 1)
        let f = try XCTUnwrap(found.first)
        XCTAssertEqual(f.rule, "privacy_manifest_reason")
        XCTAssertEqual(f.severity, .error)
        XCTAssertTrue(f.message.contains("C617.1 is a reason for file timestamp APIs (NSPrivacyAccessedAPICategoryFileTimestamp)"), f.message)
        XCTAssertTrue(f.message.contains("ITMS-91055"), f.message)
        XCTAssertTrue(f.fix?.contains("85F4.1") == true && f.fix?.contains("E174.1") == true, f.fix ?? "")
        XCTAssertEqual(f.key, "NSPrivacyAccessedAPITypes[0].NSPrivacyAccessedAPITypeReasons[0]")
    }

    func testUnknownCategorySuggestsTheFullName() throws {
        let found = try manifest("<key>NSPrivacyAccessedAPITypes</key><array>"
                                 + PrivacyManifestDocument.accessedAPI("userdefaults", ["<string>CA92.1</string>"]) + "</array>")
        XCTAssertEqual(found.map(\.rule), ["privacy_manifest_reason"])
        XCTAssertTrue(found[0].message.contains("ITMS-91054"), found[0].message)
        XCTAssertEqual(found[0].fix, "Write NSPrivacyAccessedAPICategoryUserDefaults.")
    }

    func testITMSCodeFollowsTheLocation() throws {
        let body = "<key>NSPrivacyTracking</key><string>YES</string>"
        XCTAssertTrue(try manifest(body).allSatisfy { $0.message.contains("ITMS-91056") })
        let bundled = try findings(PrivacyManifestDocument.builtExample(body), kind: .app)
        XCTAssertEqual(bundled.count, 1)
        XCTAssertTrue(bundled.allSatisfy { $0.message.contains("ITMS-91108") && $0.bundle == "AdKit_AdKit.bundle" }, "\(bundled.map(\.message))")
        let tracking = try findings(PrivacyManifestDocument.builtExample("<key>NSPrivacyTrackingDomains</key><array><string>a.example.com</string></array>"),
                                    kind: .app)
        XCTAssertEqual(tracking.map(\.severity), [.error])
        XCTAssertTrue(tracking[0].message.contains("ITMS-91107"), tracking[0].message)
    }

    func testDataTypeSuggestions() throws {
        XCTAssertEqual(PrivacyManifestDocument.suggestion(for: "NSPrivacyCollectedDataTypePhotosOrVideos", among: Catalog.dataTypes.map(\.value),
                                                          prefix: "NSPrivacyCollectedDataType"), "NSPrivacyCollectedDataTypePhotosorVideos")
        XCTAssertEqual(PrivacyManifestDocument.suggestion(for: "EmailAddress", among: Catalog.dataTypes.map(\.value),
                                                          prefix: "NSPrivacyCollectedDataType"), "NSPrivacyCollectedDataTypeEmailAddress")
        XCTAssertNil(PrivacyManifestDocument.suggestion(for: "NSPrivacyCollectedDataTypeBody", among: Catalog.dataTypes.map(\.value),
                                                        prefix: "NSPrivacyCollectedDataType"))
        XCTAssertEqual(PrivacyManifestDocument.suggestion(for: "NSPrivacyAccessedAPITypeReason", among: Catalog.allKeys.map(\.name)),
                       "NSPrivacyAccessedAPITypeReasons")
    }

    func testTrackingDomains() {
        for good in ["ads.example.com", "t.example.co.uk", "localhost", "a-b.example.com", "xn--bcher-kva.example"] {
            XCTAssertNil(PrivacyManifestTrackingRule.hostProblem(good), good)
        }
        for bad in ["", " ", "https://ads.example.com", "*.example.com", "ads.example.com/path", "ads.example.com:443",
                    ".example.com", "example..com", "-ads.example.com", "bücher.example", "ads example.com"] {
            XCTAssertNotNil(PrivacyManifestTrackingRule.hostProblem(bad), bad)
        }
        XCTAssertEqual(PrivacyManifestTrackingRule.host(in: "https://metrics.example.com:8443/v1?x=1"), "metrics.example.com")
        XCTAssertEqual(PrivacyManifestTrackingRule.host(in: "ads.example.net/pixel"), "ads.example.net")
        XCTAssertNil(PrivacyManifestTrackingRule.host(in: "https://"))
    }

    func testTrackingTrueWithDomainsAndFalseWithoutAreValid() throws {
        XCTAssertEqual(try manifest("<key>NSPrivacyTracking</key><false/>").map(\.message), [])
        XCTAssertEqual(try manifest("<key>NSPrivacyTracking</key><true/><key>NSPrivacyTrackingDomains</key><array><string>a.example.com</string></array>")
            .map(\.message), [])
        // Absent domains with tracking true: a warning, not an error.
        XCTAssertEqual(try manifest("<key>NSPrivacyTracking</key><true/>").map(\.severity), [.warning])
    }

    func testRootThatIsNotADictionary() throws {
        let files = ["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                     "App/PrivacyInfo.xcprivacy": "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array/>\n</plist>\n"]
        let found = try findings(files)
        XCTAssertEqual(found.map(\.rule), ["privacy_manifest_schema"])
        XCTAssertEqual(found.first?.line, 3)
    }

    // MARK: Hostile manifests

    /// Thousands of bad values make a bounded number of findings per rule and manifest.
    func testHugeArraysMakeBoundedFindings() throws {
        let n = 5_000
        let reasons = (0..<n).map { "<string>X\($0).1</string>" }.joined()
        let domains = (0..<n).map { "<string>https://t\($0).example.com/</string>" }.joined()
        let junk = (0..<n).map { "<integer>\($0)</integer>" }.joined()
        let types = (0..<n).map { _ in "<dict><key>NSPrivacyCollectedDataType</key><string>Nope</string><key>Bad</key><true/></dict>" }.joined()
        let body = """
            <key>NSPrivacyTracking</key><false/>
            <key>NSPrivacyTrackingDomains</key><array>\(domains)\(junk)</array>
            <key>NSPrivacyAccessedAPITypes</key><array>\(junk)<dict><key>NSPrivacyAccessedAPIType</key><string>NSPrivacyAccessedAPICategoryDiskSpace</string>
            <key>NSPrivacyAccessedAPITypeReasons</key><array>\(reasons)</array></dict></array>
            <key>NSPrivacyCollectedDataTypes</key><array>\(types)</array>
            """
        let found = try manifest(body)
        for rule in Self.rules {
            let count = found.filter { $0.rule == rule.description.identifier }.count
            XCTAssertGreaterThan(count, 0, rule.description.identifier)
            XCTAssertLessThanOrEqual(count, 26, rule.description.identifier)
        }
    }

    /// A dictionary with thousands of unknown and repeated keys: bounded findings, no search per key.
    func testManyUnknownAndRepeatedKeys() throws {
        let keys = (0..<10_000).map { "<key>NSPrivacyTrackingDomain\($0 % 5_000)</key><true/>" }.joined()
        let found = try manifest(keys + "<key>NSPrivacyAccessedAPITypes</key><array><dict>\(keys)</dict></array>")
        XCTAssertEqual(found.count, 26, "\(found.suffix(2).map(\.message))")
        XCTAssertTrue(found.last?.message.contains("more schema problems not listed") == true)
        XCTAssertEqual(found.last?.severity, .error)
    }

    /// Nesting as deep as the reader allows, under known and unknown keys: no recursion to
    /// overflow, findings only at the levels of the schema.
    func testDeepNestingDoesNotCrash() throws {
        let depth = 2_000
        let nested = String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth)
        let dicts = String(repeating: "<dict><key>k</key>", count: depth) + "<true/>" + String(repeating: "</dict>", count: depth)
        for body in ["<key>NSPrivacyTrackingDomains</key>\(nested)", "<key>Unknown</key>\(dicts)",
                     "<key>NSPrivacyAccessedAPITypes</key><array>\(dicts)</array>",
                     "<key>NSPrivacyCollectedDataTypes</key><array><dict><key>NSPrivacyCollectedDataTypePurposes</key>\(nested)</dict></array>"] {
            let found = try manifest(body)
            XCTAssertLessThanOrEqual(found.count, 10, "\(found.map(\.message))")
        }
    }

    /// Every key with every wrong type: each reported once by the schema rule, nothing else crashes or double-reports.
    func testWrongTypesEverywhere() throws {
        let values = ["<string>x</string>", "<integer>1</integer>", "<real>1.5</real>", "<true/>", "<date>2024-01-01T00:00:00Z</date>",
                      "<data>AA==</data>", "<array><integer>1</integer></array>", "<dict/>"]
        func rightType(_ key: Catalog.Key, _ value: String) -> Bool {
            (key.type == .boolean && value == "<true/>") || (key.type == .string && value.hasPrefix("<string>"))
        }
        for key in Catalog.rootKeys {
            for value in values where !rightType(key, value) {
                let found = try manifest("<key>\(key.name)</key>\(value)")
                XCTAssertTrue(found.allSatisfy { $0.rule == "privacy_manifest_schema" && $0.severity == .error },
                              "\(key.name) = \(value): \(found.map(\.message))")
            }
        }
        for key in Catalog.collectedDataTypeKeys + Catalog.accessedAPITypeKeys {
            let root = Catalog.collectedDataTypeKeys.contains(key) ? Catalog.collectedDataTypes : Catalog.accessedAPITypes
            for value in values where !rightType(key, value) {
                let found = try manifest("<key>\(root)</key><array><dict><key>\(key.name)</key>\(value)</dict></array>")
                XCTAssertFalse(found.isEmpty, "\(key.name) = \(value)")
                XCTAssertTrue(found.allSatisfy { $0.rule == "privacy_manifest_schema" }, "\(key.name) = \(value): \(found.map(\.message))")
            }
        }
    }
}
