import XCTest
import TestSupport
import Foundation
import ZIPFoundation

/// Scans committed fixtures end to end and compares the JSON findings with goldens in
/// `Tests/Fixtures/Golden/`. Regenerate with `PREFLIGHT_UPDATE_GOLDENS=1` after an intended
/// change, and read the diff.
final class GoldenTests: XCTestCase {
    static let root = CLITests.packageRoot
    static let golden = root.appendingPathComponent("Tests/Fixtures/Golden")

    /// An .ipa with an app, two extensions and an embedded framework, each with a real Mach-O
    /// linked by ld64.lld: the app and the share extension use Core Location through Objective-C
    /// (only the app declares the purpose string); the recorder extension records audio and
    /// saves to the photo library through C functions (it declares only the microphone key).
    /// Also a malformed privacy manifest and a placeholder purpose string.
    static func makeIPA() throws -> URL {
        let dir = try Scratch.folder("golden")
        let url = dir.appendingPathComponent("Demo.ipa")
        let archive = try Archive(url: url, accessMode: .create)
        func add(_ path: String, _ data: Data) throws {
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { pos, size in
                data.subdata(in: Int(pos)..<Int(pos) + size)
            }
        }
        func plist(_ body: String) -> Data {
            Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(body)\n</dict>\n</plist>\n".utf8)
        }
        let app = try Data(contentsOf: root.appendingPathComponent("Tests/Fixtures/MachO/App"))
        let kit = try Data(contentsOf: root.appendingPathComponent("Tests/Fixtures/MachO/MyKit.framework/MyKit"))
        try add("Payload/Demo.app/Info.plist", plist("""
          <key>CFBundleIdentifier</key><string>com.example.demo</string>
          <key>CFBundleExecutable</key><string>Demo</string>
          <key>CFBundleShortVersionString</key><string>2.0</string>
          <key>CFBundleVersion</key><string>12</string>
          <key>MinimumOSVersion</key><string>15.0</string>
          <key>NSLocationWhenInUseUsageDescription</key><string>Your position is shown on the trail map.</string>
          <key>NSCameraUsageDescription</key><string>TODO</string>
        """))
        try add("Payload/Demo.app/Demo", app)
        try add("Payload/Demo.app/PrivacyInfo.xcprivacy", Data("<plist><dict><key>NSPrivacyTracking</key><false/>".utf8))
        try add("Payload/Demo.app/de.lproj/InfoPlist.strings", Data("\"NSLocationWhenInUseUsageDescription\" = \"Deine Position auf der Karte.\";\n".utf8))
        try add("Payload/Demo.app/PlugIns/Share.appex/Info.plist", plist("""
          <key>CFBundleIdentifier</key><string>com.example.demo.share</string>
          <key>CFBundleExecutable</key><string>Share</string>
          <key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string></dict>
        """))
        try add("Payload/Demo.app/PlugIns/Share.appex/Share", app)
        // An extension in plain C: microphone and photo library reached through C functions only.
        try add("Payload/Demo.app/PlugIns/Recorder.appex/Info.plist", plist("""
          <key>CFBundleIdentifier</key><string>com.example.demo.recorder</string>
          <key>CFBundleExecutable</key><string>Recorder</string>
          <key>NSMicrophoneUsageDescription</key><string>Record voice memos for your trips.</string>
          <key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.intents-service</string></dict>
        """))
        try add("Payload/Demo.app/PlugIns/Recorder.appex/Recorder",
                try Data(contentsOf: root.appendingPathComponent("Tests/Fixtures/MachO/Recorder")))
        try add("Payload/Demo.app/Frameworks/MyKit.framework/Info.plist", plist("""
          <key>CFBundleIdentifier</key><string>com.example.mykit</string>
          <key>CFBundleExecutable</key><string>MyKit</string>
        """))
        try add("Payload/Demo.app/Frameworks/MyKit.framework/MyKit", kit)
        return url
    }

    /// The stable part of a JSON report: every finding's rule, severity, bundle, file, line, key
    /// and evidence — not messages (wording may improve) and not absolute paths.
    static func summary(_ json: String) throws -> String {
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let findings = (doc["findings"] as? [[String: Any]] ?? []).map { f -> [String: Any] in
            var o: [String: Any] = [:]
            for k in ["rule", "severity", "bundle", "file", "line", "key", "evidence", "fingerprint"] { o[k] = f[k] ?? NSNull() }
            return o
        }
        let bundles = (doc["bundles"] as? [[String: Any]] ?? []).map { b in
            ["name": b["name"] ?? NSNull(), "kind": b["kind"] ?? NSNull(), "id": b["id"] ?? NSNull()]
        }
        let data = try JSONSerialization.data(withJSONObject: ["bundles": bundles, "findings": findings],
                                              options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    func check(_ args: [String], golden name: String, expectedStatus: Int32) throws {
        let r = try CLITests.run(args + ["--format", "json"])
        XCTAssertEqual(r.status, expectedStatus, r.stderr)
        try Self.compare(try Self.summary(r.stdout), golden: name)
    }

    /// Compares output with its golden file, or rewrites the file with PREFLIGHT_UPDATE_GOLDENS=1.
    static func compare(_ actual: String, golden name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let url = golden.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["PREFLIGHT_UPDATE_GOLDENS"] == "1" {
            try Data(actual.utf8).write(to: url)
            return
        }
        XCTAssertEqual(actual, try String(contentsOf: url, encoding: .utf8),
                       "\(name) changed; rerun with PREFLIGHT_UPDATE_GOLDENS=1 if intended", file: file, line: line)
    }

    func testSyntheticIPA() throws {
        try check(["scan", try Self.makeIPA().path], golden: "synthetic-ipa.json", expectedStatus: 2)
    }

    func testDemoProject() throws {
        try check(["scan", CLITests.demo], golden: "demo-app.json", expectedStatus: 2)
    }
}
