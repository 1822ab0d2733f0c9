import XCTest
import Foundation
import Artifacts
import Evidence
@testable import Rules

/// Bundles refer to each other by id, not by name: two projects of one folder that both have
/// an `App` embedding a `Share` extension keep each extension with its own app, although the
/// second project's bundles are renamed to stay unique.
final class BundleIdentityTests: XCTestCase {
    func project(_ appSettings: [String: String]) -> String {
        exampleProject(targets: [
            ExampleTarget("App", settings: appSettings, embeds: ["Share"]),
            ExampleTarget("Share", type: "app-extension", settings: ["INFOPLIST_FILE": "Share/Info.plist"]),
        ])
    }

    func testEachProjectsExtensionKeepsItsOwnApp() throws {
        let files = [
            "A/A.xcodeproj/project.pbxproj": project(["PRODUCT_BUNDLE_IDENTIFIER": "com.example.a"]),
            "B/B.xcodeproj/project.pbxproj": project(["PRODUCT_BUNDLE_IDENTIFIER": "com.example.b"]),
        ]
        let source = MemorySource(name: "Example", files: files.mapValues { Data($0.utf8) })
        let product = try ProductLoader.load(source: source, kind: .project).product
        XCTAssertEqual(Set(product.bundles.map(\.id)).count, product.bundles.count, "ids are unique")
        let shares = product.bundles.filter { $0.kind == .appExtension }
        XCTAssertEqual(shares.count, 2)
        for share in shares {
            let host = try XCTUnwrap(product.parent(of: share), share.name)
            XCTAssertEqual(host.settingsIdentifier, share.id.hasPrefix("A/") ? "com.example.a" : "com.example.b",
                           "\(share.name) is embedded by the app of its own project")
        }
    }
}
