import XCTest
import Foundation
@testable import PreflightKit
import Evidence

/// The SDK inventory in `preflight inspect` (text and JSON) and in `preflight diff`, and the
/// listed-SDK rules on a project with pods and packages.
final class SDKInventoryReportTests: XCTestCase {
    static func plist(_ body: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(body)\n</dict>\n</plist>\n"
    }

    static func project(pods: [String], installed: [String: Bool]) -> [String: String] {
        var files = ["App/Info.plist": plist("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                     "Podfile.lock": "PODS:\n" + pods.map { "  - \($0)\n" }.joined() + "\nCOCOAPODS: 1.15.2\n",
                     "App.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved": """
                        {
                          "pins" : [
                            {
                              "identity" : "kingfisher",
                              "kind" : "remoteSourceControl",
                              "location" : "https://github.com/onevcat/Kingfisher.git",
                              "state" : { "revision" : "0123", "version" : "7.10.2" }
                            }
                          ],
                          "version" : 2
                        }
                        """]
        for (pod, manifest) in installed {
            files["Pods/\(pod)/Sources/\(pod).m"] = ""
            if manifest { files["Pods/\(pod)/Sources/PrivacyInfo.xcprivacy"] = plist("") }
        }
        return files
    }

    func load(_ files: [String: String]) throws -> LoadedInput {
        try ProductLoader.load(source: MemorySource(name: "Example", files: files.mapValues { Data($0.utf8) }), kind: .folder)
    }

    func testInspectListsTheInventory() throws {
        let input = try load(Self.project(pods: ["Alamofire (5.9.1)", "SDWebImage (5.12.0)"], installed: ["Alamofire": true, "SDWebImage": false]))
        let json = try InspectReport.json(input.product, tool: ToolInfo(version: "test"))
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let sdks = try XCTUnwrap(doc["sdks"] as? [[String: Any]])
        XCTAssertEqual(sdks.compactMap { $0["name"] as? String }, ["Alamofire", "SDWebImage", "Kingfisher"])
        let sdweb = try XCTUnwrap(sdks.first { $0["name"] as? String == "SDWebImage" })
        XCTAssertEqual(sdweb["version"] as? String, "5.12.0")
        XCTAssertEqual(sdweb["kind"] as? String, "pod")
        XCTAssertEqual(sdweb["listed"] as? String, "SDWebImage")
        XCTAssertEqual(sdweb["files"] as? String, "Pods/SDWebImage")
        XCTAssertEqual(sdweb["path"] as? String, "Podfile.lock")
        XCTAssertEqual(sdweb["line"] as? Int, 3)
        XCTAssertEqual(sdweb["privacyManifests"] as? [String], [])
        let kingfisher = try XCTUnwrap(sdks.first { $0["name"] as? String == "Kingfisher" })
        XCTAssertTrue(kingfisher["files"] is NSNull, "not checked out")
        XCTAssertEqual(kingfisher["origin"] as? String, "https://github.com/onevcat/Kingfisher.git")

        let text = InspectReport.text(input.product)
        XCTAssertTrue(text.contains("\nSDKs:\n  Alamofire 5.9.1 [pod] listed by Apple\n"), text)
        XCTAssertTrue(text.contains("    privacy manifest: Pods/Alamofire/Sources/PrivacyInfo.xcprivacy\n"), text)
        XCTAssertTrue(text.contains("  SDWebImage 5.12.0 [pod] listed by Apple\n    recognised by: Podfile.lock PODS entry, Podfile.lock:3\n    files:         Pods/SDWebImage\n    no privacy manifest\n"), text)
        XCTAssertTrue(text.contains("  Kingfisher 7.10.2 [swift-package] listed by Apple\n"), text)
    }

    func testRulesOnTheProject() throws {
        let input = try load(Self.project(pods: ["Alamofire (5.9.1)", "SDWebImage (5.12.0)", "FMDB (2.7.5)"],
                                          installed: ["Alamofire": true, "SDWebImage": false]))
        let context = RuleContext(product: input.product, evidence: EvidenceIndex.build(input))
        let findings = ListedSDKWithoutManifestRule().check(context)
        XCTAssertEqual(findings.map(\.key), ["SDWebImage"], "FMDB is not installed, Kingfisher not checked out: nothing to see")
        XCTAssertEqual(findings.first?.file, "Podfile.lock")
        XCTAssertEqual(findings.first?.line, 3)
        XCTAssertEqual(findings.first?.severity, .error)
        XCTAssertEqual(findings.first?.evidence, [.file(path: "Pods/SDWebImage", line: nil)])
        XCTAssertTrue(findings.first?.message.contains("ITMS-91061") ?? false)
        XCTAssertEqual(ListedSDKWithoutSignatureRule().check(context), [])
    }

    /// An unsigned listed .xcframework Carthage put in Carthage/Build may be the developer's own
    /// build from source: a warning; committed elsewhere, an error.
    func testSignatureSeverityByWhereTheXCFrameworkIs() throws {
        var files = Self.project(pods: [], installed: [:])
        files["Carthage/Build/SnapKit.xcframework/Info.plist"] = Self.plist("")
        files["Frameworks/SDWebImage.xcframework/Info.plist"] = Self.plist("")
        let input = try load(files)
        let findings = ListedSDKWithoutSignatureRule().check(RuleContext(product: input.product, evidence: EvidenceIndex.build(input)))
        XCTAssertEqual(findings.map { "\($0.file ?? "-") \($0.severity)" },
                       ["Carthage/Build/SnapKit.xcframework warning", "Frameworks/SDWebImage.xcframework error"])
    }

    /// In a built app, a listed framework whose manifest a resource bundle of the app carries
    /// (named for the same SDK) is covered.
    func testBuiltAppResourceBundleCoversItsFramework() throws {
        let info = Self.plist("<key>CFBundleExecutable</key><string>Example</string>")
        var files = ["Info.plist": info, "Frameworks/Charts.framework/Info.plist": Self.plist("<key>CFBundleShortVersionString</key><string>4.0</string>"),
                     "Frameworks/SnapKit.framework/Info.plist": Self.plist("")]
        files["Charts_Privacy.bundle/PrivacyInfo.xcprivacy"] = Self.plist("")
        let input = try ProductLoader.load(source: MemorySource(name: "Example.app", files: files.mapValues { Data($0.utf8) }), kind: .app)
        let findings = ListedSDKWithoutManifestRule().check(RuleContext(product: input.product, evidence: EvidenceIndex.build(input)))
        XCTAssertEqual(findings.map(\.file), ["Frameworks/SnapKit.framework"])
        XCTAssertEqual(findings.first?.line, nil)
    }

    func testDiffNamesSDKsAddedRemovedAndUpdated() throws {
        let old = try load(Self.project(pods: ["Alamofire (5.8.0)", "MBProgressHUD (1.2.0)"], installed: [:]))
        let new = try load(Self.project(pods: ["Alamofire (5.9.1)", "SDWebImage (5.12.0)", "AcmeKit (1.0)"], installed: [:]))
        let diff = ReleaseDiff.compare(old: (old, []), new: (new, []))
        let sdk = diff.changes.filter { $0.kind == "sdk" }
        XCTAssertEqual(sdk.map { "\($0.change) \($0.item) \($0.old ?? "-") \($0.new ?? "-")" }, [
            "added AcmeKit (pod) - 1.0",
            "changed Alamofire (pod) 5.8.0 5.9.1",
            "removed MBProgressHUD (pod) 1.2.0 -",
            "added SDWebImage (pod) - 5.12.0 — on Apple's list of commonly used SDKs (SDWebImage): needs its own privacy manifest",
        ])
    }
}
