import XCTest
import Foundation
import TestSupport
import PreflightKit

/// One `.ipa` per App Store Connect icon error that a built app shows, made of the committed
/// fixtures (a real Mach-O from `Tests/Fixtures/MachO`, and the small `Assets.car` files and
/// PNGs of `Tests/Fixtures/AssetCatalog`, written by its `make-fixtures.py`), scanned end to
/// end. ITMS-90717 and ITMS-90396 (alpha in the App Store or watch icon) are judged from the
/// PNGs of a project's icon set: a project folder reproduces them.
final class IconsIPATests: XCTestCase {
    static let catalogs = CLITests.packageRoot.appendingPathComponent("Tests/Fixtures/AssetCatalog")
    static let machO = CLITests.packageRoot.appendingPathComponent("Tests/Fixtures/MachO")
    static let iconRules: Set<String> = ["missing_icon_name", "app_icon_not_found", "app_icon_missing_size", "app_icon_alpha",
                                         "alternate_icon_missing_ipad", "app_icon_set_invalid"]

    static func info(sdk: String? = "17.0", family: [Int] = [1], icons: String? = "AppIcon", extra: String = "") -> String {
        let sdkKeys = sdk.map { "<key>DTSDKName</key><string>iphoneos\($0)</string><key>DTPlatformName</key><string>iphoneos</string><key>DTPlatformVersion</key><string>\($0)</string>" } ?? ""
        let iconKeys = icons.map { "<key>CFBundleIcons</key><dict><key>CFBundlePrimaryIcon</key><dict><key>CFBundleIconName</key><string>\($0)</string></dict></dict><key>CFBundleIconName</key><string>\($0)</string>" } ?? ""
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
          <key>CFBundleIdentifier</key><string>com.example.demo</string>
          <key>CFBundleExecutable</key><string>Demo</string>
          <key>CFBundleName</key><string>Demo</string>
          <key>CFBundleShortVersionString</key><string>1.0</string>
          <key>CFBundleVersion</key><string>1</string>
          <key>MinimumOSVersion</key><string>15.0</string>
          <key>UIDeviceFamily</key><array>\(family.map { "<integer>\($0)</integer>" }.joined())</array>
          \(sdkKeys)
          \(iconKeys)
          \(extra)
        </dict>
        </plist>
        """
    }

    /// `Payload/Demo.app` with the Info.plist, the `App` Mach-O fixture and, when named, an
    /// Assets.car fixture (stored deflated, as Xcode's export does).
    func ipa(_ info: String, car: String?, files: [String: String] = [:]) throws -> URL {
        var z = ZipWriter()
        z.add("Payload/Demo.app/Info.plist", info)
        z.add("Payload/Demo.app/Demo", data: try Data(contentsOf: Self.machO.appendingPathComponent("App")))
        if let car { try z.addDeflated("Payload/Demo.app/Assets.car", data: try Data(contentsOf: Self.catalogs.appendingPathComponent(car))) }
        for (path, fixture) in files.sorted(by: { $0.key < $1.key }) {
            try z.addDeflated("Payload/Demo.app/" + path, data: try Data(contentsOf: Self.catalogs.appendingPathComponent(fixture)))
        }
        return try z.write(name: "Icons.ipa")
    }

    func iconFindings(_ url: URL) throws -> [Finding] {
        try PreflightScanner.scan(url.path).findings.filter { Self.iconRules.contains($0.rule) }
    }

    func assertFinds(_ rule: String, _ code: String?, in url: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let found = try iconFindings(url).filter { $0.rule == rule }
        XCTAssertFalse(found.isEmpty, "\(rule) found nothing", file: file, line: line)
        if let code {
            XCTAssertTrue(found.contains { $0.message.contains(code) }, "\(rule): no message names \(code): \(found.map(\.message))", file: file, line: line)
            XCTAssertTrue(RuleRegistryLookup.itms(of: rule).contains(code), "\(rule) does not list \(code) in its metadata", file: file, line: line)
        }
    }

    func testCompleteIconsRaiseNothing() throws {
        XCTAssertEqual(try iconFindings(try ipa(Self.info(family: [1, 2]), car: "AppIcon-complete.car")).map(\.message), [])
        // Thinned by the App Store for one iPhone: not judged for the sizes it left out.
        XCTAssertEqual(try iconFindings(try ipa(Self.info(), car: "AppIcon-thinned.car")).map(\.message), [])
        // An iOS 10 SDK app with file icons: no CFBundleIconName was required.
        XCTAssertEqual(try iconFindings(try ipa(Self.info(sdk: "10.0", icons: nil), car: "Images-only.car",
                                                files: ["AppIcon60x60@2x.png": "cgbi-120.png"])).map(\.message), [])
    }

    func testITMS90713MissingIconName() throws {
        try assertFinds("missing_icon_name", "ITMS-90713", in: try ipa(Self.info(icons: nil), car: "AppIcon-complete.car"))
        try assertFinds("missing_icon_name", "ITMS-90713", in: try ipa(Self.info(sdk: nil, icons: nil), car: "AppIcon-complete.car"))
    }

    func testITMS90704MissingMarketingIcon() throws {
        try assertFinds("app_icon_missing_size", "ITMS-90704", in: try ipa(Self.info(), car: "AppIcon-no-marketing.car"))
    }

    func testITMS90022MissingIPhoneIcon() throws {
        // An iPhone app whose icon set has only iPad and App Store images.
        let url = try ipa(Self.info(family: [1]), car: "AppIcon-pad-only.car")
        try assertFinds("app_icon_missing_size", "ITMS-90022", in: url)
    }

    func testITMS90023MissingIPadIcons() throws {
        try assertFinds("app_icon_missing_size", "ITMS-90023", in: try ipa(Self.info(family: [1, 2]), car: "AppIcon-phone-only.car"))
    }

    func testITMS90892AlternateIconWithoutIPadSizes() throws {
        let alternates = "<key>CFBundleAlternateIcons</key><dict><key>Dark</key><dict><key>CFBundleIconName</key><string>Dark</string></dict></dict>"
        let info = Self.info(family: [1, 2]).replacingOccurrences(of: "</dict></dict><key>CFBundleIconName</key>", with: "</dict>\(alternates)</dict><key>CFBundleIconName</key>")
            .replacingOccurrences(of: "</dict>\n</plist>", with: "<key>CFBundleIcons~ipad</key><dict><key>CFBundlePrimaryIcon</key><dict><key>CFBundleIconName</key><string>AppIcon</string></dict>\(alternates)</dict>\n</dict>\n</plist>")
        try assertFinds("alternate_icon_missing_ipad", "ITMS-90892", in: try ipa(info, car: "AppIcon-alternates.car"))
    }

    func testIconSetNotInCatalog() throws {
        try assertFinds("app_icon_not_found", nil, in: try ipa(Self.info(), car: "Images-only.car"))
        try assertFinds("app_icon_not_found", nil, in: try ipa(Self.info(), car: nil))
    }

    func testTruncatedCatalogIsAFindingNotSilence() throws {
        var z = ZipWriter()
        z.add("Payload/Demo.app/Info.plist", Self.info())
        z.add("Payload/Demo.app/Demo", data: try Data(contentsOf: Self.machO.appendingPathComponent("App")))
        let car = try Data(contentsOf: Self.catalogs.appendingPathComponent("AppIcon-complete.car"))
        z.add("Payload/Demo.app/Assets.car", data: car.prefix(car.count / 2))
        let found = try iconFindings(try z.write(name: "Truncated.ipa"))
        XCTAssertTrue(found.contains { $0.rule == "app_icon_not_found" && $0.message.contains("cannot be read") }, "\(found.map(\.message))")
    }

    // MARK: - Projects (alpha is read from the icon set's PNGs)

    func project(sdk: String, contents: String, images: [String: String]) throws -> URL {
        let root = try Scratch.folder("icons-project")
        var files = ["App.xcodeproj/project.pbxproj": exampleProject(targets: [ExampleTarget("App", settings: [
            "INFOPLIST_FILE": "App/Info.plist", "SDKROOT": sdk, "ASSETCATALOG_COMPILER_APPICON_NAME": "AppIcon"],
            resources: ["App/Assets.xcassets"])]).replacingOccurrences(of: "↓", with: ""),
                     "App/Info.plist": "<plist><dict><key>CFBundleIdentifier</key><string>com.example.demo</string></dict></plist>",
                     "App/Assets.xcassets/AppIcon.appiconset/Contents.json": contents].mapValues { Data($0.utf8) }
        for (name, fixture) in images {
            files["App/Assets.xcassets/AppIcon.appiconset/" + name] = try Data(contentsOf: Self.catalogs.appendingPathComponent(fixture))
        }
        for (path, data) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        return root
    }

    func testITMS90717AlphaInAppStoreIcon() throws {
        let single = #"{"images":[{"idiom":"universal","platform":"ios","size":"1024x1024","filename":"icon.png"}]}"#
        try assertFinds("app_icon_alpha", "ITMS-90717", in: try project(sdk: "iphoneos", contents: single, images: ["icon.png": "alpha-1024.png"]))
        XCTAssertEqual(try iconFindings(try project(sdk: "iphoneos", contents: single, images: ["icon.png": "rgba-opaque-1024.png"])).map(\.message), [])
    }

    func testITMS90396AlphaInWatchIcon() throws {
        let watch = #"{"images":[{"idiom":"universal","platform":"watchos","size":"1024x1024","filename":"icon.png"}]}"#
        try assertFinds("app_icon_alpha", "ITMS-90396", in: try project(sdk: "watchos", contents: watch, images: ["icon.png": "trns-1024.png"]))
    }
}
