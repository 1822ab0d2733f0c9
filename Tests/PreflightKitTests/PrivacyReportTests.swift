import Foundation
import TestSupport
import XCTest

@testable import PreflightKit

/// `preflight privacy report`: every manifest of a product merged into the App Privacy draft.
final class PrivacyReportTests: XCTestCase {
    func plist(_ body: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(body)\n</dict>\n</plist>\n"
    }

    func collected(_ type: String, linked: Bool, tracking: Bool, _ purposes: [String]) -> String {
        "<dict><key>NSPrivacyCollectedDataType</key><string>NSPrivacyCollectedDataType\(type)</string>"
            + "<key>NSPrivacyCollectedDataTypeLinked</key><\(linked)/><key>NSPrivacyCollectedDataTypeTracking</key><\(tracking)/>"
            + "<key>NSPrivacyCollectedDataTypePurposes</key><array>"
            + purposes.map { "<string>NSPrivacyCollectedDataTypePurpose\($0)</string>" }.joined() + "</array></dict>"
    }

    func ipa() throws -> URL {
        var zip = ZipWriter()
        let root = "Payload/App.app/"
        zip.add(root + "Info.plist", plist("<key>CFBundleExecutable</key><string>App</string><key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>"))
        zip.add(root + "PrivacyInfo.xcprivacy", plist("<key>NSPrivacyTracking</key><false/><key>NSPrivacyCollectedDataTypes</key><array>"
            + collected("Name", linked: true, tracking: false, ["AppFunctionality"]) + "</array>"
            + "<key>NSPrivacyAccessedAPITypes</key><array><dict><key>NSPrivacyAccessedAPIType</key><string>NSPrivacyAccessedAPICategoryUserDefaults</string><key>NSPrivacyAccessedAPITypeReasons</key><array><string>CA92.1</string></array></dict></array>"))
        zip.add(root + "AdKit_AdKit.bundle/Info.plist", plist("<key>CFBundleIdentifier</key><string>AdKit-AdKit-resources</string>"))
        zip.add(root + "AdKit_AdKit.bundle/PrivacyInfo.xcprivacy", plist("<key>NSPrivacyTracking</key><true/><key>NSPrivacyTrackingDomains</key><array><string>ads.example.com</string></array>"
            + "<key>NSPrivacyCollectedDataTypes</key><array>" + collected("DeviceID", linked: false, tracking: true, ["ThirdPartyAdvertising"])
            + collected("Name", linked: false, tracking: false, ["Analytics"]) + "</array>"))
        return try zip.write()
    }

    func testManifestsAreMergedPerDataTypeWithWhoDeclaredIt() throws {
        let report = PrivacyReport(try PreflightScanner.load(try ipa().path).product)
        XCTAssertTrue(report.tracks)
        XCTAssertEqual(report.trackingDomains, ["ads.example.com"])
        XCTAssertEqual(report.dataTypes.map(\.type), ["NSPrivacyCollectedDataTypeName", "NSPrivacyCollectedDataTypeDeviceID"], "grouped: Contact Info, then Identifiers")
        let name = try XCTUnwrap(report.dataTypes.first)
        XCTAssertEqual(name.group, "Contact Info")
        XCTAssertTrue(name.linkedToIdentity, "linked if any manifest says so")
        XCTAssertFalse(name.usedForTracking)
        XCTAssertEqual(name.purposes, ["Analytics", "App Functionality"])
        XCTAssertEqual(name.declaredBy, ["App.app", "AdKit_AdKit.bundle"])
        let device = try XCTUnwrap(report.dataTypes.last)
        XCTAssertTrue(device.usedForTracking)
        XCTAssertEqual(device.purposes, ["Third-Party Advertising"])
        XCTAssertEqual(report.purposeStrings, [.init(bundle: "App.app", key: "NSCameraUsageDescription", value: "Scan receipts to add them to your expenses.")])
        XCTAssertEqual(report.manifests.first { $0.bundle == "App.app" }?.accessedAPIs, ["NSPrivacyAccessedAPICategoryUserDefaults": ["CA92.1"]])

        let markdown = report.render(markdown: true)
        XCTAssertTrue(markdown.contains("**Contact Info**"), markdown)
        XCTAssertTrue(markdown.contains("- Name: linked to identity; purposes: Analytics, App Functionality (declared by App.app, AdKit_AdKit.bundle)"), markdown)
        XCTAssertTrue(markdown.contains("- tracking domain ads.example.com"), markdown)
    }

    func testTheCommandPrintsEachFormat() throws {
        let path = try ipa().path
        let json = try CLITests.run(["privacy", "report", path, "--format", "json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let decoded = try JSONDecoder().decode(PrivacyReport.self, from: Data(json.stdout.utf8))
        XCTAssertEqual(decoded.dataTypes.count, 2)
        let text = try CLITests.run(["privacy", "report", path])
        XCTAssertTrue(text.stdout.contains("Data collected"), text.stdout)
        XCTAssertTrue(text.stdout.contains("App.app: NSCameraUsageDescription"), text.stdout)
        XCTAssertEqual(try CLITests.run(["privacy", "report", path, "--format", "pdf"]).status, 64)
    }
}
