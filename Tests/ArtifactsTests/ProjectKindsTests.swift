import Foundation
import XCTest
@testable import Artifacts
import Formats

/// Product types, embedding (watch app, App Clip, framework, resource bundle), watchOS SDK
/// conditions, targets without configurations, and references that leave the input.
final class ProjectKindsTests: XCTestCase {
    static let pbxproj = #"""
    // !$*UTF8*$!
    {
    	archiveVersion = 1;
    	objectVersion = 56;
    	objects = {
    		BW = {isa = PBXBuildFile; fileRef = PWATCH; };
    		BC = {isa = PBXBuildFile; fileRef = PCLIP; };
    		BK = {isa = PBXBuildFile; fileRef = PKIT; };
    		BA = {isa = PBXBuildFile; fileRef = PASSETS; };
    		BX = {isa = PBXBuildFile; fileRef = PWEXT; };
    		BF = {isa = PBXBuildFile; fileRef = FDATA; };
    		PWATCH = {isa = PBXFileReference; path = Watch.app; sourceTree = BUILT_PRODUCTS_DIR; };
    		PWEXT = {isa = PBXFileReference; path = WatchExt.appex; sourceTree = BUILT_PRODUCTS_DIR; };
    		PCLIP = {isa = PBXFileReference; path = Clip.app; sourceTree = BUILT_PRODUCTS_DIR; };
    		PKIT = {isa = PBXFileReference; path = Kit.framework; sourceTree = BUILT_PRODUCTS_DIR; };
    		PASSETS = {isa = PBXFileReference; path = Assets.bundle; sourceTree = BUILT_PRODUCTS_DIR; };
    		FDATA = {isa = PBXFileReference; lastKnownFileType = folder; path = Data; sourceTree = "<group>"; };
    		MAIN = {isa = PBXGroup; children = (FDATA, FLEGACY, FA, FMAC, VMODEL, ); sourceTree = "<group>"; };
    		FA = {isa = PBXFileReference; path = A.swift; sourceTree = "<group>"; };
    		FMAC = {isa = PBXFileReference; path = Mac.swift; sourceTree = "<group>"; };
    		VMODEL = {isa = XCVersionGroup; children = (FMODEL, ); currentVersion = FMODEL; path = Model.xcdatamodeld; sourceTree = "<group>"; versionGroupType = wrapper.xcdatamodel; };
    		FMODEL = {isa = PBXFileReference; path = Model.xcdatamodel; sourceTree = "<group>"; };
    		BSA = {isa = PBXBuildFile; fileRef = FA; platformFilters = (ios, maccatalyst, ); };
    		BSMAC = {isa = PBXBuildFile; fileRef = FMAC; platformFilters = (maccatalyst, ); };
    		BSMODEL = {isa = PBXBuildFile; fileRef = VMODEL; };
    		HS = {isa = PBXSourcesBuildPhase; files = (BSA, BSMAC, BSMODEL, ); };
    		FLEGACY = {isa = PBXFileReference; lastKnownFileType = wrapper; path = LegacyKit; sourceTree = "<group>"; };
    		DLEGACY = {isa = XCSwiftPackageProductDependency; productName = LegacyKit; };
    		HW = {isa = PBXCopyFilesBuildPhase; dstPath = "$(CONTENTS_FOLDER_PATH)/Watch"; dstSubfolderSpec = 16; files = (BW, ); name = "Embed Watch Content"; };
    		HC = {isa = PBXCopyFilesBuildPhase; dstPath = "$(CONTENTS_FOLDER_PATH)/AppClips"; dstSubfolderSpec = 16; files = (BC, ); name = "Embed App Clips"; };
    		HK = {isa = PBXCopyFilesBuildPhase; dstPath = ""; dstSubfolderSpec = 10; files = (BK, ); name = "Embed Frameworks"; };
    		HR = {isa = PBXResourcesBuildPhase; files = (BA, BF, ); };
    		HX = {isa = PBXCopyFilesBuildPhase; dstPath = ""; dstSubfolderSpec = 13; files = (BX, ); name = "Embed App Extensions"; };
    		TAPP = {isa = PBXNativeTarget; buildConfigurationList = LAPP; buildPhases = (HS, HW, HC, HK, HR, ); name = App; packageProductDependencies = (DLEGACY, ); productReference = PAPP; productType = "com.apple.product-type.application"; };
    		TWATCH = {isa = PBXNativeTarget; buildConfigurationList = LWATCH; buildPhases = (HX, ); name = Watch; productReference = PWATCH; productType = "com.apple.product-type.application.watchapp2"; };
    		TWEXT = {isa = PBXNativeTarget; buildConfigurationList = LWATCH; buildPhases = (); name = WatchExt; productReference = PWEXT; productType = "com.apple.product-type.watchkit2-extension"; };
    		TCLIP = {isa = PBXNativeTarget; name = Clip; productReference = PCLIP; productType = "com.apple.product-type.application.on-demand-install-capable"; };
    		TKIT = {isa = PBXNativeTarget; name = Kit; productReference = PKIT; productType = "com.apple.product-type.framework"; };
    		TASSETS = {isa = PBXNativeTarget; name = Assets; productReference = PASSETS; productType = "com.apple.product-type.bundle"; };
    		TLIB = {isa = PBXNativeTarget; name = Lib; productType = "com.apple.product-type.library.static"; };
    		TTOOL = {isa = PBXNativeTarget; name = Tool; productType = "com.apple.product-type.tool"; };
    		TAGG = {isa = PBXAggregateTarget; name = Agg; };
    		TUI = {isa = PBXNativeTarget; name = UITests; productType = "com.apple.product-type.bundle.ui-testing"; };
    		TSOLO = {isa = PBXNativeTarget; buildConfigurationList = LWATCH; name = SoloWatch; productType = "com.apple.product-type.application"; };
    		PROJ = {isa = PBXProject; buildConfigurationList = LPROJ; mainGroup = MAIN; targets = (TAPP, TWATCH, TWEXT, TCLIP, TKIT, TASSETS, TLIB, TTOOL, TAGG, TUI, TSOLO, ); };
    		CPROJ = {isa = XCBuildConfiguration; buildSettings = {SDKROOT = iphoneos; BUNDLE_PREFIX = com.example; }; name = Release; };
    		LPROJ = {isa = XCConfigurationList; buildConfigurations = (CPROJ, ); };
    		CAPP = {isa = XCBuildConfiguration; buildSettings = {
    			INFOPLIST_FILE = "../../Outside/Info.plist";
    			CODE_SIGN_ENTITLEMENTS = "$(SRCROOT)/App.entitlements";
    			PRODUCT_BUNDLE_IDENTIFIER = "$(BUNDLE_PREFIX).app";
    		}; name = Release; };
    		LAPP = {isa = XCConfigurationList; buildConfigurations = (CAPP, ); };
    		CWATCH = {isa = XCBuildConfiguration; buildSettings = {
    			SDKROOT = watchos;
    			PRODUCT_BUNDLE_IDENTIFIER = "not.for.watchos";
    			"PRODUCT_BUNDLE_IDENTIFIER[sdk=watchos*]" = "$(BUNDLE_PREFIX).app.$(TARGET_NAME:lower)";
    			"PRODUCT_BUNDLE_IDENTIFIER[sdk=iphoneos*]" = "not.for.watchos.either";
    		}; name = Release; };
    		LWATCH = {isa = XCConfigurationList; buildConfigurations = (CWATCH, ); };
    	};
    	rootObject = PROJ;
    }
    """#

    func load() throws -> ProjectLoadResult {
        let source = MemorySource(text: [
            "Sub/K.xcodeproj/project.pbxproj": Self.pbxproj,
            "Sub/App.entitlements": "<plist><dict/></plist>",
            "Sub/Data/PrivacyInfo.xcprivacy": "<plist><dict/></plist>",
            "Outside/Info.plist": "<plist><dict/></plist>",
            "Sub/LegacyKit/Package.swift": "// swift-tools-version:5.5",
            "Sub/A.swift": "let a = 1",
            "Sub/Mac.swift": "let mac = 1",
            "Sub/Model.xcdatamodeld/Model.xcdatamodel/contents": "<model/>",
            "Sub/LegacyKit/Sources/LegacyKit/Legacy.swift": "public enum Legacy {}",
            "Sub/LegacyKit/Tests/LegacyKitTests/LegacyTests.swift": "import XCTest",
        ])
        // Listings of archives may lack folder entries: everything must work without them.
        let index = FileIndex(source.entries.filter { $0.kind != .directory })
        return try XcodeProjectLoader.load(project: "Sub/K.xcodeproj", source: source, index: index)
    }

    func testKindsAndEmbedding() throws {
        let r = try load()
        XCTAssertEqual(r.targets.map(\.name), ["App", "Watch", "WatchExt", "Clip", "Kit", "Assets", "Lib", "Tool", "UITests", "SoloWatch"])
        XCTAssertEqual(r.bundles.map(\.name), ["App", "Watch", "WatchExt", "Clip", "Kit", "Assets", "UITests", "SoloWatch"])
        // SoloWatch is a single-target watch app (Xcode 14+): an application built for watchOS.
        XCTAssertEqual(r.bundles.map(\.kind), [.app, .watchApp, .appExtension, .appClip, .framework, .resourceBundle, .uiTests, .watchApp])
        XCTAssertEqual(r.bundles.map(r.bundles.parentName), [nil, "App", "Watch", "App", "App", "App", nil, nil])
    }

    func testWatchTargetsUseTheWatchOSSDKForConditions() throws {
        let r = try load()
        let watch = try r.bundle("Watch")
        XCTAssertEqual(watch.settingsIdentifier, "com.example.app.watch")
        XCTAssertEqual(watch.buildSettings["PLATFORM_NAME"]?.value, "watchos")
        XCTAssertEqual(watch.buildSettings["EFFECTIVE_PLATFORM_NAME"]?.value, "-watchos")
        XCTAssertEqual(try r.bundle("WatchExt").settingsIdentifier, "com.example.app.watchext")
    }

    func testTargetWithoutConfigurationsGetsDefaultsAndProjectSettings() throws {
        let kit = try load().bundle("Kit")
        XCTAssertEqual(kit.buildSettings["PRODUCT_NAME"]?.value, "Kit")
        XCTAssertEqual(kit.buildSettings["WRAPPER_EXTENSION"]?.value, "framework")
        XCTAssertEqual(kit.buildSettings["CONFIGURATION"]?.value, "Release")
        XCTAssertEqual(kit.buildSettings["BUNDLE_PREFIX"]?.value, "com.example")
        XCTAssertEqual(kit.path, "Sub")
    }

    func testPathsRelativeToTheProjectFolder() throws {
        let r = try load()
        let app = try r.bundle("App")
        XCTAssertEqual(app.entitlementsPath, "Sub/App.entitlements", "$(SRCROOT) is the project's folder")
        XCTAssertNil(app.infoPlistPath, "../../Outside/Info.plist leaves the input; Outside/Info.plist is not it")
        XCTAssertEqual(app.path, "Sub")
        // Mac.swift is Mac Catalyst only; the Core Data model is in the Sources phase but is not code;
        // Legacy.swift comes from a pre-Xcode 15 local package.
        XCTAssertEqual(app.sourceFiles, ["Sub/A.swift"])
        XCTAssertEqual(app.linkedCode, [
            CodeLink(kind: .package, name: "LegacyKit", files: ["Sub/LegacyKit/Sources/LegacyKit/Legacy.swift"]),
            CodeLink(kind: .target, name: "Kit", embedded: true),
        ])
    }

    func testProblems() throws {
        // The folder reference Data exists although the listing has no entry for the folder.
        XCTAssertEqual(try load().problems.map(ProjectMalformedTests.describe), [
            "missing INFOPLIST_FILE: ../../Outside/Info.plist [App] from Sub/K.xcodeproj/project.pbxproj:49:4",
        ])
    }

    func testProductTypeMapping() {
        let cases: [(String, BundleKind?)] = [
            ("com.apple.product-type.application", .app),
            ("com.apple.product-type.application.messages", .app),
            ("com.apple.product-type.application.on-demand-install-capable", .appClip),
            ("com.apple.product-type.application.watchapp", .watchApp),
            ("com.apple.product-type.application.watchapp2", .watchApp),
            ("com.apple.product-type.application.watchapp2-container", .watchApp),
            ("com.apple.product-type.app-extension", .appExtension),
            ("com.apple.product-type.app-extension.messages", .appExtension),
            ("com.apple.product-type.app-extension.messages-sticker-pack", .appExtension),
            ("com.apple.product-type.extensionkit-extension", .appExtension),
            ("com.apple.product-type.watchkit2-extension", .appExtension),
            ("com.apple.product-type.tv-app-extension", .appExtension),
            ("com.apple.product-type.framework", .framework),
            ("com.apple.product-type.framework.static", .framework),
            ("com.apple.product-type.bundle", .resourceBundle),
            ("com.apple.product-type.bundle.unit-test", .unitTests),
            ("com.apple.product-type.bundle.ui-testing", .uiTests),
            ("com.apple.product-type.library.static", nil),
            ("com.apple.product-type.library.dynamic", nil),
            ("com.apple.product-type.tool", nil),
            ("", nil),
        ]
        for (type, kind) in cases {
            XCTAssertEqual(ProjectTarget.bundleKind(forProductType: type), kind, type)
        }
    }

    func testJoinNeverLeavesTheInput() {
        XCTAssertEqual(ProjectPaths.join("ios", "../Packages/Core"), "Packages/Core")
        XCTAssertNil(ProjectPaths.join("ios", "../../Packages/Core"))
        XCTAssertNil(ProjectPaths.join("", "../x"))
        XCTAssertNil(ProjectPaths.join("a", "/etc/passwd"))
        XCTAssertEqual(ProjectPaths.join("a/b", "./c//d/../e"), "a/b/c/e")
        XCTAssertNil(ProjectPaths.inputPath("../../../etc/hosts", projectDir: "ios"))
        XCTAssertEqual(ProjectPaths.inputPath("\(XcodeDefaultSettings.srcRootMarker)/App/Info.plist", projectDir: "ios"), "ios/App/Info.plist")
    }
}

extension ProjectKindsTests {
    func testConfigurationChoice() {
        func list(_ names: [String], default d: String?) -> ProjectLoading.ConfigurationList {
            var l = ProjectLoading.ConfigurationList()
            l.configurations = names.map { ($0, "id-" + $0) }
            l.defaultName = d
            return l
        }
        XCTAssertEqual(ProjectLoading.choose(nil, in: list(["Debug", "Release"], default: "Debug")), "Release")
        XCTAssertEqual(ProjectLoading.choose(nil, in: list(["Debug", "Staging", "AppStore"], default: "AppStore")), "AppStore")
        XCTAssertEqual(ProjectLoading.choose(nil, in: list(["Debug", "Staging"], default: "Missing")), "Debug")
        XCTAssertEqual(ProjectLoading.choose("Staging", in: list(["Debug", "Staging", "Release"], default: nil)), "Staging")
        XCTAssertNil(ProjectLoading.choose(nil, in: list([], default: nil)))
    }
}
