import Foundation
import XCTest
@testable import Artifacts
import Formats

/// Fixture `Modern`: an Xcode 16 project (objectVersion 77) with synchronized folders,
/// exception sets and GENERATE_INFOPLIST_FILE with INFOPLIST_KEY_* settings.
final class ProjectModernTests: XCTestCase {
    static let pbxproj = "Modern.xcodeproj/project.pbxproj"

    func load() throws -> ProjectLoadResult {
        try ProjectFixtures.load("Modern", project: "Modern.xcodeproj").0
    }

    func at(_ line: Int, _ column: Int = 5) -> FileLocation {
        FileLocation(path: Self.pbxproj, position: SourcePosition(line: line, column: column))
    }

    func testTargets() throws {
        let r = try load()
        XCTAssertEqual(r.problems, [])
        XCTAssertEqual(r.targets.map(\.name), ["Modern", "ModernWidgetExtension", "ModernTests"])
        XCTAssertEqual(r.bundles.map(\.kind), [.app, .appExtension, .unitTests])
        XCTAssertEqual(r.targets[2].dependencies, ["Modern"])
        XCTAssertEqual(r.targets[0].location, at(137, 3))
    }

    func testSynchronizedFolderMembership() throws {
        let r = try load()
        let app = try r.bundle("Modern")
        // Debug/ is excluded by the app's exception set; Assets.xcassets is one resource;
        // Resources/Templates is an explicit folder, copied whole (its .swift file is not compiled).
        XCTAssertEqual(app.sourceFiles, [
            "Modern/Camera/CameraService.swift",
            "Modern/ContentView.swift",
            "Modern/ModernApp.swift",
            "Modern/Shared/Formatting.swift",
        ])
        XCTAssertEqual(app.privacyManifestPaths, ["Modern/PrivacyInfo.xcprivacy"])
        XCTAssertEqual(app.localizations, [
            LocalizedFile(language: nil, path: "Modern/Localizable.xcstrings", kind: .xcstrings, table: "Localizable"),
            LocalizedFile(language: "de", path: "Modern/de.lproj/InfoPlist.strings", kind: .infoPlistStrings, table: "InfoPlist"),
            LocalizedFile(language: "en", path: "Modern/en.lproj/InfoPlist.strings", kind: .infoPlistStrings, table: "InfoPlist"),
        ])

        let widget = try r.bundle("ModernWidgetExtension")
        // Formatting.swift comes from the app's folder through an exception set naming the widget.
        XCTAssertEqual(widget.sourceFiles, ["Modern/Shared/Formatting.swift", "ModernWidget/ModernWidget.swift"])
        XCTAssertEqual(widget.privacyManifestPaths, ["ModernWidget/PrivacyInfo.xcprivacy"])
        XCTAssertEqual(widget.localizations, [])

        let tests = try r.bundle("ModernTests")
        XCTAssertEqual(tests.sourceFiles, ["ModernTests/ModernTests.swift"])
        XCTAssertNil(tests.parentID)
    }

    func testGeneratedInfoPlist() throws {
        let app = try load().bundle("Modern")
        XCTAssertNil(app.infoPlistPath)
        XCTAssertEqual(app.path, "", "no Info.plist: the project's folder, here the input root")
        XCTAssertEqual(app.entitlementsPath, "Modern/Modern.entitlements")
        XCTAssertEqual(app.settingsIdentifier, "com.example.modern", "the simulator-only identifier is ignored")
        let target = at(137, 3)
        XCTAssertEqual(app.generatedInfoPlistKeys, [
            "CFBundleDisplayName": SettingValue("Modern Notes", location: at(323)),
            "LSApplicationCategoryType": SettingValue("public.app-category.productivity", location: at(324)),
            "NSCameraUsageDescription": SettingValue("Modern Notes scans documents with the camera.", location: at(325)),
            "NSMicrophoneUsageDescription": SettingValue("Record voice memos.", location: at(327)),
            "UIApplicationSceneManifest": SettingValue("YES", location: at(329)),
            "UILaunchScreen": SettingValue("YES", location: at(330)),
            "UISupportedInterfaceOrientations~ipad": SettingValue("UIInterfaceOrientationPortrait UIInterfaceOrientationLandscapeLeft", location: at(331)),
            "UISupportedInterfaceOrientations~iphone": SettingValue("UIInterfaceOrientationPortrait", location: at(332)),
            "CFBundleIdentifier": SettingValue("com.example.modern", location: at(334)),
            "CFBundleShortVersionString": SettingValue("3.0", location: at(333)),
            "CFBundleVersion": SettingValue("7", location: at(321)),
            "CFBundleExecutable": SettingValue("Modern", location: target),
            "CFBundleName": SettingValue("Modern", location: at(336)),
            "CFBundleDevelopmentRegion": SettingValue("en", location: target),
            "CFBundlePackageType": SettingValue("APPL", location: target),
        ])
        // What rules see through the model.
        XCTAssertEqual(app.infoValue("NSCameraUsageDescription")?.node.string, "Modern Notes scans documents with the camera.")
        XCTAssertEqual(app.identifier, "com.example.modern")
        XCTAssertEqual(app.shortVersion, "3.0")
        XCTAssertEqual(app.minimumOSVersion, "17.0")
    }

    func testWidgetWithBothInfoPlistAndGeneratedKeys() throws {
        let r = try load()
        let widget = try r.bundle("ModernWidgetExtension")
        XCTAssertEqual(r.bundles.parentName(of: widget), "Modern")
        XCTAssertEqual(widget.infoPlistPath, "ModernWidget/Info.plist")
        XCTAssertEqual(widget.path, "ModernWidget")
        XCTAssertEqual(widget.generatedInfoPlistKeys["CFBundleDisplayName"]?.value, "ModernWidget")
        XCTAssertEqual(widget.generatedInfoPlistKeys["CFBundleIdentifier"]?.value, "com.example.modern.widget")
        XCTAssertEqual(widget.generatedInfoPlistKeys["CFBundlePackageType"]?.value, "XPC!")
        XCTAssertEqual(widget.generatedInfoPlistKeys["CFBundleVersion"]?.location, at(359))
    }

    func testUnresolvableVariablesStayAsWritten() throws {
        let tests = try load().bundle("ModernTests")
        XCTAssertEqual(tests.buildSettings["TEST_HOST"]?.value,
                       "$(BUILT_PRODUCTS_DIR)/Modern.app/$(BUNDLE_EXECUTABLE_FOLDER_PATH)/Modern")
        XCTAssertEqual(tests.buildSettings["BUNDLE_LOADER"]?.value, tests.buildSettings["TEST_HOST"]?.value)
        XCTAssertEqual(tests.buildSettings["WRAPPER_EXTENSION"]?.value, "xctest")
    }
}
