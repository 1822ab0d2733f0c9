import Foundation
import XCTest
@testable import Evidence

/// Compares the catalog with the shared reference facts, when they are present.
final class CatalogCoverageTests: XCTestCase {
    struct Facts: Decodable {
        struct Key: Decodable {
            let key: String
            let confidence: String
            let source: String
            let status: String
            let platforms: [String]
            let minOS: String?
            enum CodingKeys: String, CodingKey { case key, confidence, source, status, platforms, minOS = "min_os" }
        }
        let keys: [Key]
    }

    static var factsURL: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("../shared/reference/facts/purpose-strings.json")
            .standardizedFileURL
    }

    func loadFacts() throws -> Facts {
        guard let data = FileManager.default.contents(atPath: Self.factsURL.path) else {
            throw XCTSkip("reference facts not found at \(Self.factsURL.path)")
        }
        return try JSONDecoder().decode(Facts.self, from: data)
    }

    let catalog = ProtectedResourceCatalog.standard

    func testEveryHighOrMediumKeyIsCoveredOrExcludedWithAReason() throws {
        let facts = try loadFacts()
        let wanted = Set(facts.keys.filter { $0.confidence == "high" || $0.confidence == "medium" }.map(\.key))
        let covered = Set(catalog.resources.map(\.key))
        let excluded = Set(catalog.excludedKeys.keys)

        XCTAssertEqual(wanted.subtracting(covered).subtracting(excluded).sorted(), [],
                       "keys neither in the catalog nor excluded")
        XCTAssertEqual(covered.intersection(excluded).sorted(), [], "keys both covered and excluded")
        XCTAssertEqual(excluded.subtracting(wanted).sorted(), [], "exclusions of keys the facts do not rate high/medium")
        for (key, reason) in catalog.excludedKeys {
            XCTAssertFalse(reason.isEmpty, "\(key) is excluded without a reason")
        }
        print("purpose-string keys: \(wanted.count) high/medium, \(covered.intersection(wanted).count) covered, \(excluded.count) excluded")
    }

    func testCatalogHoldsOnlyKeysOfTheFactsAndKeepsTheirConfidence() throws {
        let facts = try loadFacts()
        let byKey = Dictionary(facts.keys.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        for resource in catalog.resources {
            guard let fact = byKey[resource.key] else {
                XCTFail("\(resource.key) is not in purpose-strings.json")
                continue
            }
            XCTAssertEqual(resource.confidence.rawValue, fact.confidence, resource.key)
            XCTAssertEqual(resource.minimumOS, fact.minOS, resource.key)
            let factPlatforms = Set(fact.platforms.compactMap { name in
                name == "iPadOS" ? .iOS : ApplePlatform(rawValue: name)
            })
            XCTAssertEqual(factPlatforms.count, Set(fact.platforms.filter { $0 != "iPadOS" }).count,
                           "\(resource.key): unknown platform in \(fact.platforms)")
            // Platforms where the key exists but the system never asks (TN3179: no local network
            // prompt on tvOS) are left out of the catalog on purpose.
            let withoutPrompt: [String: Set<ApplePlatform>] = ["NSLocalNetworkUsageDescription": [.tvOS]]
            XCTAssertTrue(factPlatforms.subtracting(withoutPrompt[resource.key] ?? []).isSubset(of: resource.platforms),
                          "\(resource.key) misses platforms \(factPlatforms.subtracting(resource.platforms))")
            XCTAssertEqual(resource.deprecation != nil, fact.status.contains("deprecated"),
                           "\(resource.key): deprecation does not follow status \(fact.status)")
            if resource.source.hasPrefix("https://") {
                XCTAssertTrue(fact.source.contains(resource.source),
                              "\(resource.key): source \(resource.source) is not among the facts' sources")
            }
        }
    }
}
