import Foundation
import XCTest
@testable import Artifacts
import Formats

/// Fixture `Classic`: an app, a share extension and a widget extension in `ios/`, classic groups
/// and build phases, xcconfigs with `#include` and `$(inherited)`, a local Swift package, an
/// INFOPLIST_FILE that differs from the file on disk only in case, a missing entitlements file.
final class ProjectClassicTests: XCTestCase {
    static let project = "ios/Classic.xcodeproj"
    static let pbxproj = "ios/Classic.xcodeproj/project.pbxproj"

    func load(_ configuration: String? = nil) throws -> ProjectLoadResult {
        try ProjectFixtures.load("Classic", project: Self.project, configuration: configuration).0
    }

    func testTargetsAndConfigurations() throws {
        let r = try load()
        XCTAssertEqual(r.targets.map(\.name), ["App", "Share", "Widget"])
        XCTAssertEqual(r.targets.map(\.productType), ["com.apple.product-type.application",
                                                      "com.apple.product-type.app-extension",
                                                      "com.apple.product-type.app-extension"])
        XCTAssertEqual(r.targets.map(\.bundleKind), [BundleKind?.some(.app), .appExtension, .appExtension])
        XCTAssertEqual(r.configurationNames, ["Debug", "Release"])
        XCTAssertEqual(r.configuration, "Release")
        XCTAssertEqual(r.targets[0].dependencies, ["Share", "Widget"])
        XCTAssertEqual(Set(r.targets[0].configurations.keys), ["Debug", "Release"])
        XCTAssertEqual(r.targets[0].configurations["Debug"]?["PRODUCT_BUNDLE_IDENTIFIER"]?.value, "com.example.debug.my-app")
        XCTAssertEqual(r.targets[0].configurations["Release"]?["PRODUCT_BUNDLE_IDENTIFIER"]?.value, "com.example.my-app")
        XCTAssertEqual(r.bundles.map(\.name), ["App", "Share", "Widget"])
    }

    func testAppBundle() throws {
        let r = try load()
        let app = try r.bundle("App")
        XCTAssertEqual(app.kind, .app)
        XCTAssertNil(app.parentID)
        XCTAssertEqual(app.infoPlistPath, "ios/App/info.plist", "the actual file, found despite the case mismatch")
        XCTAssertEqual(app.path, "ios/App")
        XCTAssertNil(app.entitlementsPath)
        XCTAssertEqual(app.settingsIdentifier, "com.example.my-app")
        XCTAssertEqual(app.generatedInfoPlistKeys, [:], "GENERATE_INFOPLIST_FILE is not set")
        XCTAssertEqual(app.sourceFiles, [
            "ios/App/AppDelegate.swift",
            "ios/App/Helpers/Format.swift",
            "ios/App/ViewController.m",
            "ios/Shared/Log.swift",
        ])
        XCTAssertEqual(app.linkedCode, [CodeLink(kind: .package, name: "Core", files: [
            "ios/Packages/Core/Sources/Core/Core.swift",
            "ios/Packages/Core/Sources/CoreObjC/Helper.m",
            "ios/Packages/Core/Sources/CoreObjC/include/Helper.h",
        ])], "the local package is linked code, not the app's own")
        XCTAssertEqual(app.privacyManifestPaths, ["ios/App/PrivacyInfo.xcprivacy"])
        XCTAssertEqual(app.localizations, [
            LocalizedFile(language: "de", path: "ios/App/de.lproj/InfoPlist.strings", kind: .infoPlistStrings, table: "InfoPlist"),
            LocalizedFile(language: "de", path: "ios/App/de.lproj/Localizable.strings", kind: .strings, table: "Localizable"),
            LocalizedFile(language: "en", path: "ios/App/en.lproj/InfoPlist.strings", kind: .infoPlistStrings, table: "InfoPlist"),
            LocalizedFile(language: "en", path: "ios/App/en.lproj/Localizable.strings", kind: .strings, table: "Localizable"),
            LocalizedFile(language: "en", path: "ios/App/en.lproj/Localizable.stringsdict", kind: .stringsdict, table: "Localizable"),
        ])
        XCTAssertEqual(app.languages, ["de", "en"])
    }

    func testResolvedSettingsAcrossLevels() throws {
        let s = try load().bundle("App").buildSettings
        // Shared.xcconfig < Project.xcconfig < project < App.xcconfig < target, chained by $(inherited).
        XCTAssertEqual(s["OTHER_SWIFT_FLAGS"]?.value, "-DSHARED -DPROJECT -DRELEASE -DAPP_XCCONFIG -DTARGET")
        XCTAssertEqual(s["OTHER_SWIFT_FLAGS"]?.location, FileLocation(path: Self.pbxproj, position: SourcePosition(line: 424, column: 5)))
        // Array value; the iphoneos condition wins over the unconditional one, the simulator one is ignored.
        XCTAssertEqual(s["OTHER_LDFLAGS"]?.value, "-ObjC -framework Security")
        XCTAssertEqual(s["SWIFT_ACTIVE_COMPILATION_CONDITIONS"]?.value, "RELEASE_ONLY")
        XCTAssertEqual(s["CURRENT_PROJECT_VERSION"], SettingValue("42", location: FileLocation(
            path: "ios/Configs/Shared.xcconfig", position: SourcePosition(line: 3, column: 1))))
        XCTAssertEqual(s["DEVELOPMENT_TEAM"]?.value, "ABCDE12345", "the // comment is not part of the value")
        XCTAssertEqual(s["SUPPORT_URL"]?.value, "https://example.com/support")
        XCTAssertEqual(s["PRODUCT_NAME"]?.value, "My App", "target settings beat the target xcconfig")
        XCTAssertEqual(s["PRODUCT_MODULE_NAME"]?.value, "My_App")
        XCTAssertEqual(s["EXECUTABLE_NAME"]?.value, "My App")
        XCTAssertEqual(s["FULL_PRODUCT_NAME"]?.value, "My App.app")
        XCTAssertEqual(s["SRCROOT"]?.value, "ios")
        XCTAssertEqual(s["PROJECT_DIR"]?.value, "ios")
        XCTAssertEqual(s["PROJECT_NAME"]?.value, "Classic")
        XCTAssertEqual(s["TARGET_NAME"]?.value, "App")
        XCTAssertEqual(s["CONFIGURATION"]?.value, "Release")
        XCTAssertEqual(s["PLATFORM_NAME"]?.value, "iphoneos")
        XCTAssertEqual(s["EFFECTIVE_PLATFORM_NAME"]?.value, "-iphoneos")
        XCTAssertEqual(s["WRAPPER_EXTENSION"]?.value, "app")
        XCTAssertEqual(s["IPHONEOS_DEPLOYMENT_TARGET"]?.value, "15.0")
        XCTAssertEqual(s["ASSETCATALOG_COMPILER_APPICON_NAME"]?.value, "AppIcon")
        XCTAssertEqual(s["INFOPLIST_FILE"]?.value, "App/Info.plist", "settings keep the value as written")
    }

    func testExtensions() throws {
        let r = try load()
        let share = try r.bundle("Share")
        XCTAssertEqual(share.kind, .appExtension)
        XCTAssertEqual(r.bundles.parentName(of: share), "App", "embedded by the app's Embed Foundation Extensions phase")
        XCTAssertEqual(share.infoPlistPath, "ios/Share/Info.plist", "$(SRCROOT)/Share/Info.plist")
        XCTAssertEqual(share.path, "ios/Share")
        XCTAssertEqual(share.entitlementsPath, "ios/Share/Share.entitlements")
        XCTAssertEqual(share.settingsIdentifier, "com.example.my-app.share")
        XCTAssertEqual(share.sourceFiles, ["ios/Share/ShareViewController.swift"])
        XCTAssertEqual(share.privacyManifestPaths, ["ios/Share/PrivacyInfo.xcprivacy"])
        XCTAssertEqual(share.buildSettings["OTHER_SWIFT_FLAGS"]?.value, "-DSHARED -DPROJECT -DRELEASE",
                       "the app's xcconfig does not apply to the extension")
        XCTAssertEqual(share.buildSettings["PRODUCT_MODULE_NAME"]?.value, "Share")
        XCTAssertEqual(share.buildSettings["WRAPPER_EXTENSION"]?.value, "appex")

        let widget = try r.bundle("Widget")
        XCTAssertEqual(r.bundles.parentName(of: widget), "App", "not in a copy phase, but a dependency (through a proxy) of the app")
        XCTAssertEqual(widget.settingsIdentifier, "com.example.my-app.My-Widget")
        XCTAssertEqual(widget.buildSettings["PRODUCT_MODULE_NAME"]?.value, "My_Widget")
        XCTAssertEqual(widget.buildSettings["EXECUTABLE_NAME"]?.value, "My Widget")
        XCTAssertEqual(widget.infoPlistPath, "ios/Widget/Info.plist")
        XCTAssertNil(widget.entitlementsPath)
        XCTAssertEqual(widget.sourceFiles, ["ios/Widget/Widget.swift"])
        XCTAssertEqual(widget.privacyManifestPaths, [])
        XCTAssertEqual(widget.localizations, [
            LocalizedFile(language: nil, path: "ios/Widget/Widget.xcstrings", kind: .xcstrings, table: "Widget"),
        ])
    }

    func testProblems() throws {
        let r = try load()
        XCTAssertEqual(r.problems, [
            LoadProblem(.caseMismatch(setting: "INFOPLIST_FILE", actualPath: "ios/App/info.plist"), path: "ios/App/Info.plist",
                        bundle: "App", referencedFrom: FileLocation(path: Self.pbxproj, position: SourcePosition(line: 422, column: 5))),
            LoadProblem(.missingReference(setting: "CODE_SIGN_ENTITLEMENTS"), path: "ios/App/App.entitlements",
                        bundle: "App", referencedFrom: FileLocation(path: Self.pbxproj, position: SourcePosition(line: 421, column: 5))),
            LoadProblem(.missingReference(setting: "PBXFileReference"), path: "ios/App/Generated.swift",
                        bundle: "App", referencedFrom: FileLocation(path: Self.pbxproj, position: SourcePosition(line: 64, column: 115))),
        ])
    }

    func testDebugConfiguration() throws {
        let r = try load("Debug")
        XCTAssertEqual(r.configuration, "Debug")
        let app = try r.bundle("App")
        XCTAssertEqual(app.settingsIdentifier, "com.example.debug.my-app")
        XCTAssertEqual(app.buildSettings["OTHER_SWIFT_FLAGS"]?.value, "-DSHARED -DPROJECT -DDEBUG -DAPP_XCCONFIG")
        XCTAssertEqual(app.buildSettings["SWIFT_ACTIVE_COMPILATION_CONDITIONS"]?.value, "DEBUG_ONLY")
        XCTAssertEqual(app.buildSettings["CONFIGURATION"]?.value, "Debug")
    }

    func testUnknownConfigurationIsAnError() throws {
        XCTAssertThrowsError(try load("Beta")) { error in
            XCTAssertEqual(error as? XcodeProjectError, .unknownConfiguration("Beta", available: ["Debug", "Release"]))
            XCTAssertEqual(String(describing: error), "no build configuration named 'Beta' (the project has: Debug, Release)")
        }
    }

    func testDiscoveryFindsTheProject() throws {
        let source = try ProjectFixtures.source("Classic")
        XCTAssertEqual(XcodeProjectLoader.discoverProjects(in: FileIndex(source.entries)), ["ios/Classic.xcodeproj"])
    }
}

extension ProjectClassicTests {
    func testInfoPlistValuesExpandAgainstTheBundlesSettings() throws {
        let r = try load()
        let app = try r.bundle("App")
        XCTAssertEqual(app.expandingBuildSettings(in: "$(PRODUCT_BUNDLE_IDENTIFIER)"), "com.example.my-app")
        XCTAssertEqual(app.expandingBuildSettings(in: "$(MARKETING_VERSION) ($(CURRENT_PROJECT_VERSION))"), "2.1 (42)")
        XCTAssertEqual(app.expandingBuildSettings(in: "$(EXECUTABLE_NAME)"), "My App")
        XCTAssertEqual(app.expandingBuildSettings(in: "com.example.$(PRODUCT_NAME:rfc1034identifier)"), "com.example.My-App")
        XCTAssertEqual(app.expandingBuildSettings(in: "$(NOT_A_SETTING)"), "$(NOT_A_SETTING)")
        let share = try r.bundle("Share")
        XCTAssertEqual(share.expandingBuildSettings(in: "$(PRODUCT_MODULE_NAME).ShareViewController"), "Share.ShareViewController")
        XCTAssertEqual(AppBundle(name: "Built", kind: .app, path: "Payload/Built.app")
            .expandingBuildSettings(in: "$(PRODUCT_BUNDLE_IDENTIFIER)"), "$(PRODUCT_BUNDLE_IDENTIFIER)")
    }
}
