import Foundation
import TestSupport
import XCTest

@testable import PreflightKit

/// ITMS-91053 on a built `.ipa`: each Mach-O file is judged against the manifests of its own
/// bundle, built from the real binaries of `Tests/Fixtures/MachO/RequiredReasons`.
final class RequiredReasonIPATests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/MachO/RequiredReasons")

    func binary(_ name: String) throws -> Data { try Data(contentsOf: Self.fixtures.appendingPathComponent(name)) }

    func plist(_ body: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(body)\n</dict>\n</plist>\n"
    }

    func info(_ executable: String, _ identifier: String, extra: String = "") -> String {
        plist("<key>CFBundleExecutable</key><string>\(executable)</string><key>CFBundleIdentifier</key><string>\(identifier)</string>\(extra)")
    }

    func manifest(_ categories: [(String, String)]) -> String {
        let entries = categories.map { category, reason in
            "<dict><key>NSPrivacyAccessedAPIType</key><string>\(category)</string><key>NSPrivacyAccessedAPITypeReasons</key><array><string>\(reason)</string></array></dict>"
        }
        return plist("<key>NSPrivacyAccessedAPITypes</key><array>\(entries.joined())</array>")
    }

    func findings(_ zip: ZipWriter) throws -> [String] {
        let result = try PreflightScanner.scan(try zip.write().path)
        return result.findings.filter { $0.rule == "required_reason_api_undeclared" }
            .map { "\($0.severity) \($0.bundle ?? "-") \($0.key ?? "-")" }.sorted()
    }

    /// The fixture the issue names: an app, a share extension and two frameworks, where only
    /// some bundles declare what their binary uses.
    func testEachBinaryIsJudgedByItsOwnBundle() throws {
        var zip = ZipWriter()
        let root = "Payload/App.app/"
        zip.add(root + "Info.plist", info("App", "com.example.app"))
        zip.add(root + "App", data: try binary("defaults"))
        zip.add(root + "PrivacyInfo.xcprivacy", manifest([("NSPrivacyAccessedAPICategoryUserDefaults", "CA92.1")]))
        zip.add(root + "PlugIns/Share.appex/Info.plist",
                info("Share", "com.example.app.share", extra: "<key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string></dict>"))
        zip.add(root + "PlugIns/Share.appex/Share", data: try binary("filetimestamps"))
        zip.add(root + "Frameworks/Clock.framework/Info.plist", info("Clock", "com.example.clock"))
        zip.add(root + "Frameworks/Clock.framework/Clock", data: try binary("boottime"))
        zip.add(root + "Frameworks/Disk.framework/Info.plist", info("Disk", "com.example.disk"))
        zip.add(root + "Frameworks/Disk.framework/Disk", data: try binary("diskspace"))
        zip.add(root + "Frameworks/Disk.framework/PrivacyInfo.xcprivacy",
                manifest([("NSPrivacyAccessedAPICategoryDiskSpace", "E174.1")]))
        XCTAssertEqual(try findings(zip), [
            "error Clock.framework NSPrivacyAccessedAPICategorySystemBootTime",
            "error Share.appex NSPrivacyAccessedAPICategoryFileTimestamp",
        ])
    }

    func testAResourceBundleManifestCoversItsHostAndAppManifestCoversFrameworks() throws {
        var zip = ZipWriter()
        let root = "Payload/App.app/"
        zip.add(root + "Info.plist", info("App", "com.example.app"))
        zip.add(root + "App", data: try binary("keyboards"))
        zip.add(root + "Keys_Keys.bundle/Info.plist", plist("<key>CFBundleIdentifier</key><string>Keys-Keys-resources</string>"))
        zip.add(root + "Keys_Keys.bundle/PrivacyInfo.xcprivacy",
                manifest([("NSPrivacyAccessedAPICategoryActiveKeyboards", "54BD.1")]))
        zip.add(root + "PrivacyInfo.xcprivacy", manifest([("NSPrivacyAccessedAPICategorySystemBootTime", "35F9.1")]))
        zip.add(root + "Frameworks/Clock.framework/Info.plist", info("Clock", "com.example.clock"))
        zip.add(root + "Frameworks/Clock.framework/Clock", data: try binary("boottime"))
        XCTAssertEqual(try findings(zip), [])
    }

    /// The check works per target: every manifest an app ships counts for its code, also one
    /// held by an embedded framework; an extension is a target of its own.
    func testAnEmbeddedFrameworksManifestCountsForTheAppButNotForItsExtensions() throws {
        var zip = ZipWriter()
        let root = "Payload/App.app/"
        zip.add(root + "Info.plist", info("App", "com.example.app"))
        zip.add(root + "App", data: try binary("defaults"))
        zip.add(root + "Frameworks/Resources.framework/Info.plist", info("Resources", "com.example.resources"))
        zip.add(root + "Frameworks/Resources.framework/PrivacyInfo.xcprivacy",
                manifest([("NSPrivacyAccessedAPICategoryUserDefaults", "CA92.1")]))
        zip.add(root + "PlugIns/Widget.appex/Info.plist",
                info("Widget", "com.example.app.widget", extra: "<key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.widgetkit-extension</string></dict>"))
        zip.add(root + "PlugIns/Widget.appex/Widget", data: try binary("defaults"))
        XCTAssertEqual(try findings(zip), ["error Widget.appex NSPrivacyAccessedAPICategoryUserDefaults"])
    }

    func testNoManifestAnywhereNamesEveryCategoryOfEachBinary() throws {
        var zip = ZipWriter()
        let root = "Payload/App.app/"
        zip.add(root + "Info.plist", info("App", "com.example.app"))
        zip.add(root + "App", data: try binary("filetimestamps"))
        zip.add(root + "PlugIns/Widget.appex/Info.plist",
                info("Widget", "com.example.app.widget", extra: "<key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.widgetkit-extension</string></dict>"))
        zip.add(root + "PlugIns/Widget.appex/Widget", data: try binary("diskspace"))
        let result = try PreflightScanner.scan(try zip.write().path)
        let found = result.findings.filter { $0.rule == "required_reason_api_undeclared" }
        XCTAssertEqual(found.map { "\($0.bundle ?? "-") \($0.key ?? "-")" }.sorted(), [
            "App.app NSPrivacyAccessedAPICategoryFileTimestamp",
            "Widget.appex NSPrivacyAccessedAPICategoryDiskSpace",
        ])
        let app = try XCTUnwrap(found.first { $0.bundle == "App.app" })
        XCTAssertTrue(app.message.contains("has no privacy manifest"), app.message)
        XCTAssertTrue(app.message.contains("_stat") || app.message.contains("_NSFileCreationDate"), app.message)
        XCTAssertEqual(Set(app.evidence.map { "\($0)" }).count, 2, "stat and NSFileCreationDate are both shown: \(app.evidence)")
        XCTAssertTrue(app.fix?.contains("C617.1") ?? false, app.fix ?? "")
        XCTAssertFalse(app.fix?.contains("0A2A.1") ?? true, "an app is not offered the SDK-only reason")
    }
}
