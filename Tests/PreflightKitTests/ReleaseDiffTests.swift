import XCTest
import TestSupport
import Foundation
import ZIPFoundation

/// `preflight diff` on two versions of an `.ipa` that differ in every way the diff reports, with
/// a golden of its text output, and on two project trees (entitlements files).
final class ReleaseDiffTests: XCTestCase {
    static func plist(_ body: String) -> Data {
        Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(body)\n</dict>\n</plist>\n".utf8)
    }

    static func ipa(_ name: String, _ files: [String: Data]) throws -> URL {
        let url = try Scratch.folder("diff").appendingPathComponent(name)
        let archive = try Archive(url: url, accessMode: .create)
        for (path, data) in files.sorted(by: { $0.key < $1.key }) {
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { pos, size in
                data.subdata(in: Int(pos)..<Int(pos) + size)
            }
        }
        return url
    }

    static func version(_ v: Int) throws -> URL {
        let binary = try Data(contentsOf: CLITests.packageRoot.appendingPathComponent("Tests/Fixtures/MachO/App"))
        let kit = try Data(contentsOf: CLITests.packageRoot.appendingPathComponent("Tests/Fixtures/MachO/MyKit.framework/MyKit"))
        let app = v == 1 ? """
          <key>CFBundleIdentifier</key><string>com.example.trails</string><key>CFBundleExecutable</key><string>Trails</string>
          <key>CFBundleShortVersionString</key><string>1.0</string><key>CFBundleVersion</key><string>10</string>
          <key>MinimumOSVersion</key><string>15.0</string>
          <key>NSLocationWhenInUseUsageDescription</key><string>Your position is shown on the map.</string>
          <key>NSCameraUsageDescription</key><string>Scan trail markers.</string>
          <key>UIRequiredDeviceCapabilities</key><array><string>arm64</string></array>
          <key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict><key>old.example.com</key><dict>
            <key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict></dict></dict>
        """ : """
          <key>CFBundleIdentifier</key><string>com.example.trails</string><key>CFBundleExecutable</key><string>Trails</string>
          <key>CFBundleShortVersionString</key><string>2.0</string><key>CFBundleVersion</key><string>20</string>
          <key>MinimumOSVersion</key><string>16.0</string>
          <key>NSLocationWhenInUseUsageDescription</key><string>Your position is shown on the trail map and shared with your group.</string>
          <key>NSMicrophoneUsageDescription</key><string>TODO</string>
          <key>UIBackgroundModes</key><array><string>location</string></array>
          <key>UIRequiredDeviceCapabilities</key><array><string>arm64</string><string>gps</string></array>
          <key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict><key>tiles.example.com</key><dict>
            <key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict></dict></dict>
        """
        var files: [String: Data] = [
            "Payload/Trails.app/Info.plist": plist(app),
            "Payload/Trails.app/Trails": v == 1 ? binary : binary + Data(count: 40_000),
            "Payload/Trails.app/PrivacyInfo.xcprivacy": plist(v == 1 ? "<key>NSPrivacyTracking</key><false/>" : """
              <key>NSPrivacyTracking</key><true/><key>NSPrivacyAccessedAPITypes</key><array><dict>
              <key>NSPrivacyAccessedAPIType</key><string>NSPrivacyAccessedAPICategoryUserDefaults</string>
              <key>NSPrivacyAccessedAPITypeReasons</key><array><string>CA92.1</string></array></dict></array>
              <key>NSPrivacyTrackingDomains</key><array><string>metrics.example.net</string></array>
              <key>NSPrivacyCollectedDataTypes</key><array><dict>
              <key>NSPrivacyCollectedDataType</key><string>NSPrivacyCollectedDataTypePreciseLocation</string>
              <key>NSPrivacyCollectedDataTypeLinked</key><false/><key>NSPrivacyCollectedDataTypeTracking</key><false/>
              <key>NSPrivacyCollectedDataTypePurposes</key><array><string>NSPrivacyCollectedDataTypePurposeAppFunctionality</string></array>
              </dict></array>
            """),
            "Payload/Trails.app/Frameworks/MyKit.framework/Info.plist": plist("""
              <key>CFBundleIdentifier</key><string>com.example.mykit</string><key>CFBundleExecutable</key><string>MyKit</string>
              <key>CFBundleShortVersionString</key><string>\(v == 1 ? "3.1" : "3.2")</string>
            """),
            "Payload/Trails.app/Frameworks/MyKit.framework/MyKit": kit,
        ]
        // An SDK dropped and one added, and an extension dropped: each is a change of its own.
        let sdk = v == 1 ? "OldSDK" : "NewSDK"
        files["Payload/Trails.app/Frameworks/\(sdk).framework/Info.plist"] = plist("""
          <key>CFBundleIdentifier</key><string>com.example.\(sdk.lowercased())</string><key>CFBundleExecutable</key><string>\(sdk)</string>
          <key>CFBundleShortVersionString</key><string>\(v == 1 ? "2.4.0" : "1.0.1")</string>
        """)
        files["Payload/Trails.app/Frameworks/\(sdk).framework/\(sdk)"] = kit
        if v == 1 {
            files["Payload/Trails.app/PlugIns/Share.appex/Info.plist"] = plist("""
              <key>CFBundleIdentifier</key><string>com.example.trails.share</string><key>CFBundleExecutable</key><string>Share</string>
              <key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string></dict>
            """)
            files["Payload/Trails.app/PlugIns/Share.appex/Share"] = binary
        }
        if v == 2 {
            files["Payload/Trails.app/PlugIns/Widget.appex/Info.plist"] = plist("""
              <key>CFBundleIdentifier</key><string>com.example.trails.widget</string><key>CFBundleExecutable</key><string>Widget</string>
              <key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.widgetkit-extension</string></dict>
            """)
            files["Payload/Trails.app/PlugIns/Widget.appex/Widget"] = binary
        }
        return try ipa("Trails-\(v).ipa", files)
    }

    func testEveryKindOfChangeBetweenTwoIPAs() throws {
        let dir = try Scratch.folder("diff-run")
        let old = try Self.version(1), new = try Self.version(2)
        try FileManager.default.copyItem(at: old, to: dir.appendingPathComponent("Trails-1.ipa"))
        try FileManager.default.copyItem(at: new, to: dir.appendingPathComponent("Trails-2.ipa"))
        let r = try CLITests.run(["diff", "Trails-1.ipa", "Trails-2.ipa"], cwd: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        try GoldenTests.compare(r.stdout, golden: "release-diff.txt")
        for kind in ["bundle", "permission", "background-mode", "device-capability", "minimum-os", "version", "ats", "privacy-manifest",
                     "framework", "binary-size", "finding"] {
            XCTAssertTrue(r.stdout.contains(" \(kind) "), "no \(kind) change in\n\(r.stdout)")
        }
        // Added, removed and reworded where the issue asks for them.
        for line in ["+ bundle [Widget.appex]", "- bundle [Share.appex]", "+ permission", "- permission", "~ permission",
                     "+ framework NewSDK.framework: 1.0.1", "- framework OldSDK.framework: 2.4.0", "~ framework MyKit.framework: 3.1 → 3.2",
                     "+ privacy-manifest [Trails.app] collected data NSPrivacyCollectedDataTypePreciseLocation",
                     "+ privacy-manifest [Trails.app] tracking domain metrics.example.net",
                     "~ privacy-manifest [Trails.app] NSPrivacyTracking: false → true", "+ finding", "- finding"] {
            XCTAssertTrue(r.stdout.contains("\n" + line), "no \(line) in\n\(r.stdout)")
        }
        let gate = try CLITests.run(["diff", "Trails-1.ipa", "Trails-2.ipa", "--fail-on-new-permission", "--format", "json"], cwd: dir)
        XCTAssertEqual(gate.status, 2, "a permission was added")
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(gate.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((doc["changes"] as? [Any])?.count, r.stdout.split(separator: "\n").count - 1)
        let same = try CLITests.run(["diff", "Trails-1.ipa", "Trails-1.ipa", "--fail-on-new-permission", "--fail-on-new-finding"], cwd: dir)
        XCTAssertEqual(same.status, 0)
        XCTAssertTrue(same.stdout.hasSuffix("No changes.\n"), same.stdout)
    }

    /// Two checkouts of a project: entitlements, contacted domains and findings, with a golden.
    func testTwoProjectTrees() throws {
        let parent = try Scratch.folder("diff-tree")
        func tree(_ name: String, _ entitlements: String, urls: [String: String]) throws -> URL {
            let dir = parent.appendingPathComponent(name)
            try FileManager.default.copyItem(at: URL(fileURLWithPath: CLITests.demo), to: dir)
            try Self.plist(entitlements).write(to: dir.appendingPathComponent("DemoApp/DemoApp.entitlements"))
            let file = dir.appendingPathComponent("DemoApp/AppDelegate.swift")
            let lines = urls.keys.sorted().map { "    static let \($0) = URL(string: \"\(urls[$0]!)\")!\n" }.joined()
            try Data((try String(contentsOf: file, encoding: .utf8) + "\nenum Endpoints {\n" + lines + "}\n").utf8).write(to: file)
            return dir
        }
        // Contacted domains: one host dropped, one added, one moved to plain HTTP.
        _ = try tree("A", "<key>aps-environment</key><string>development</string>",
                     urls: ["feed": "https://feed.trailsapp.io/v1", "tiles": "https://tiles.trailsapp.io/z"])
        _ = try tree("B", "<key>aps-environment</key><string>production</string><key>com.apple.developer.healthkit</key><true/>",
                     urls: ["api": "https://api.trailsapp.io/v2", "tiles": "http://tiles.trailsapp.io/z"])
        let text = try CLITests.run(["diff", "A", "B"], cwd: parent)
        XCTAssertEqual(text.status, 0, text.stderr)
        try GoldenTests.compare(text.stdout, golden: "release-diff-projects.txt")
        for line in ["~ entitlement [DemoApp] aps-environment: development → production", "+ entitlement [DemoApp] com.apple.developer.healthkit: true",
                     "- domain [DemoApp] feed.trailsapp.io: https", "+ domain [DemoApp] api.trailsapp.io: https",
                     "~ domain [DemoApp] tiles.trailsapp.io: https → http"] {
            XCTAssertTrue(text.stdout.contains("\n" + line + "\n"), "no \(line) in\n\(text.stdout)")
        }
        let r = try CLITests.run(["diff", "A", "B", "--format", "markdown"], cwd: parent)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("| changed | entitlement | DemoApp | aps-environment | development | production |"), r.stdout)
        XCTAssertTrue(r.stdout.contains("| added | entitlement | DemoApp | com.apple.developer.healthkit |  | true |"), r.stdout)
        XCTAssertTrue(r.stdout.contains("| changed | domain | DemoApp | tiles.trailsapp.io | https | http |"), r.stdout)
    }
}
