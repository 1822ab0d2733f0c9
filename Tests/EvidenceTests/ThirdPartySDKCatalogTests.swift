import Foundation
import XCTest
import Artifacts
import Formats
@testable import Evidence

/// Apple's list of commonly used SDKs against the shared reference facts, and how inventory
/// names match it.
final class ThirdPartySDKCatalogTests: XCTestCase {
    typealias Catalog = ThirdPartySDKCatalog

    /// `shared/reference/facts/sdk-list.json` beside the checkout or one of its parent folders.
    static func facts() throws -> [String: Any] {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var data: Data?
        while data == nil, folder.path != "/" {
            folder.deleteLastPathComponent()
            data = FileManager.default.contents(atPath: folder.appendingPathComponent("shared/reference/facts/sdk-list.json").path)
        }
        guard let data else { throw XCTSkip("reference facts sdk-list.json not found beside the checkout") }
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func testListAndAliasesMatchTheFacts() throws {
        let facts = try Self.facts()
        let names = try XCTUnwrap(facts["sdks"] as? [String])
        XCTAssertEqual(Catalog.listed, names)
        XCTAssertEqual(Catalog.listed.count, try XCTUnwrap((facts["meta"] as? [String: Any])?["count"] as? Int))
        XCTAssertEqual(try XCTUnwrap((facts["meta"] as? [String: Any])?["source"] as? String), Catalog.source)
        let aliases = try XCTUnwrap(facts["name_aliases_for_matching"] as? [String: String])
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: Catalog.aliases.map { ($0.alias, $0.listed) }), aliases)
        // Every alias reaches a listed name.
        for (alias, _) in Catalog.aliases {
            for name in Catalog.alternatives(alias) { XCTAssertNotNil(Catalog.listedName(name), name) }
        }
        // The variants other lists carry are not Apple's, unless an alias maps them.
        let variants = try XCTUnwrap(facts["variants_seen_in_other_lists_not_on_apple_list"] as? [String])
        XCTAssertNil(Catalog.listedName("FirebaseAnalytics"))
        XCTAssertNil(Catalog.listedName("SwiftProtobuf"))
        XCTAssertTrue(variants.contains("SwiftProtobuf"))
    }

    func testNamesMatchWithoutCaseAndThroughAliases() {
        XCTAssertEqual(Catalog.listedName("alamofire"), "Alamofire")
        XCTAssertEqual(Catalog.listedName("openssl_grpc"), "BoringSSL / openssl_grpc")
        XCTAssertEqual(Catalog.listedName("BoringSSL"), "BoringSSL / openssl_grpc")
        XCTAssertEqual(Catalog.listedName("dgcharts"), "Charts")
        XCTAssertEqual(Catalog.listedName("ReachabilitySwift"), "Reachability")
        XCTAssertEqual(Catalog.listedName("reachability.swift"), "Reachability")
        XCTAssertEqual(Catalog.listedName("PromisesObjC"), "Promises")
        XCTAssertEqual(Catalog.listedName("wakelock_plus"), "wakelock")
        XCTAssertNil(Catalog.listedName("Alamofire2"))
        XCTAssertNil(Catalog.listedName("swift-collections"))
        XCTAssertNil(Catalog.listedName(""))
    }

    func testInventoryComponentsMatchByNameRepositoryOrBundleName() {
        let at = FileLocation(path: "x")
        let package = SDKComponent(name: "lottie-spm", kind: .swiftPackage, recognisedBy: "", location: at,
                                   origin: "https://github.com/airbnb/lottie-spm.git")
        XCTAssertEqual(Catalog.listedName(of: package), "Lottie")
        let renamed = SDKComponent(name: "charts", kind: .swiftPackage, recognisedBy: "", location: at,
                                   origin: "https://github.com/danielgindi/Charts.git")
        XCTAssertEqual(Catalog.listedName(of: renamed), "Charts")
        for bundle in ["FirebaseCore_Privacy", "GoogleUtilities_Privacy", "Kingfisher_Kingfisher", "url_launcher_ios_privacy"] {
            let c = SDKComponent(name: bundle, kind: .resourceBundle, recognisedBy: "", location: at)
            XCTAssertNotNil(Catalog.listedName(of: c), bundle)
        }
        XCTAssertEqual(Catalog.listedName(of: SDKComponent(name: "FBSDKCoreKit_Basics", kind: .framework, recognisedBy: "", location: at)),
                       "FBSDKCoreKit_Basics")
        // A pod's name is never split: `Firebase_Something` is not Firebase's pod.
        XCTAssertNil(Catalog.listedName(of: SDKComponent(name: "Settings", kind: .resourceBundle, recognisedBy: "", location: at)))
        XCTAssertNil(Catalog.listedName(of: SDKComponent(name: "Acme_Privacy", kind: .pod, recognisedBy: "", location: at)))
    }
}
