import Foundation
import XCTest
@testable import Artifacts
import Formats

/// XcodeGen specs (`Tests/Fixtures/Projects/XcodeGen`) load into the same targets and bundles
/// as a `project.pbxproj`.
final class XcodeGenProjectTests: XCTestCase {
    func load(_ source: MemorySource, configuration: String? = nil) throws -> LoadedInput {
        try ProductLoader.load(source: source, kind: .folder, buildConfiguration: configuration)
    }

    func testSpecWithIncludeTemplateGroupsAndExcludes() throws {
        let source = try ProjectFixtures.source("XcodeGen")
        let read = XcodeGenProjectReader.read("project.yml", source: source, index: FileIndex(source.entries), limits: .default)
        XCTAssertEqual(read.problems, [])
        let project = try XCTUnwrap(read.project)
        XCTAssertEqual(project.targets.map(\.name), ["Core", "Demo", "Share"], "included targets come first")
        let result = try GeneratedProjectGraph.load(project, source: source, index: FileIndex(source.entries), limits: .default,
                                                    configuration: nil)
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.configurationNames, ["Debug", "Release"])
        XCTAssertEqual(result.configuration, "Release")
        let byName = Dictionary(uniqueKeysWithValues: result.targets.map { ($0.name, $0) })
        XCTAssertEqual(byName["Demo"]?.productType, "com.apple.product-type.application")
        XCTAssertEqual(byName["Share"]?.productType, "com.apple.product-type.app-extension")
        XCTAssertEqual(byName["Core"]?.productType, "com.apple.product-type.framework")
        XCTAssertEqual(byName["Share"]?.bundleKind, .appExtension)

        // Sources: relative to the included file, less `**/*.md` and the excluded folder.
        XCTAssertEqual(byName["Core"]?.sourceFiles, ["Core/Biometrics.swift"])
        XCTAssertEqual(byName["Share"]?.sourceFiles, ["Share/ShareViewController.swift"])
        // The extension links Core without embedding it; the app embeds it.
        XCTAssertEqual(byName["Share"]?.linkedCode, [CodeLink(kind: .target, name: "Core", embedded: false, files: ["Core/Biometrics.swift"])])
        XCTAssertEqual(byName["Demo"]?.linkedCode, [CodeLink(kind: .target, name: "Core", embedded: true, files: ["Core/Biometrics.swift"])])

        // Settings: template + group + Xcode defaults + presets, per configuration.
        let release = try XCTUnwrap(byName["Share"]?.configurations["Release"])
        XCTAssertEqual(release["SWIFT_VERSION"]?.value, "5.0")
        XCTAssertEqual(release["SWIFT_OPTIMIZATION_LEVEL"]?.value, "-O")
        XCTAssertEqual(release["TEMPLATE_TARGET"]?.value, "Share")
        XCTAssertEqual(release["IPHONEOS_DEPLOYMENT_TARGET"]?.value, "16.0")
        XCTAssertEqual(release["PRODUCT_BUNDLE_IDENTIFIER"]?.value, "com.example.demo.Share")
        XCTAssertEqual(release["INFOPLIST_FILE"]?.value, "Share/Info.plist")
        XCTAssertEqual(release["WRAPPER_EXTENSION"]?.value, "appex", "Xcode defaults apply")
        XCTAssertEqual(release["SWIFT_VERSION"]?.location, FileLocation(path: "project.yml", position: SourcePosition(line: 12, column: 7)))
        XCTAssertNil(release["SWIFT_ACTIVE_COMPILATION_CONDITIONS"])
        XCTAssertEqual(byName["Share"]?.configurations["Debug"]?["SWIFT_ACTIVE_COMPILATION_CONDITIONS"]?.value, "DEBUG")
        XCTAssertNil(byName["Share"]?.configurations["Debug"]?["SWIFT_OPTIMIZATION_LEVEL"])
        XCTAssertEqual(byName["Core"]?.configurations["Release"]?["PRODUCT_BUNDLE_IDENTIFIER"]?.value, "com.example.demo.core")
        XCTAssertEqual(byName["Core"]?.configurations["Release"]?["PRODUCT_BUNDLE_IDENTIFIER"]?.location,
                       FileLocation(path: "Specs/core.yml", position: SourcePosition(line: 13, column: 9)),
                       "a setting of an included file is located there")
    }

    func testBundlesParentsAndGeneratedPlists() throws {
        let loaded = try load(try ProjectFixtures.source("XcodeGen"))
        let product = loaded.product
        XCTAssertEqual(product.kind, .project)
        XCTAssertEqual(product.projects, ["project.yml"])
        XCTAssertEqual(product.problems, [], "generated Info.plist and entitlements are not missing files")
        let app = try XCTUnwrap(product.bundle(named: "Demo"))
        let share = try XCTUnwrap(product.bundle(named: "Share"))
        let core = try XCTUnwrap(product.bundle(named: "Core"))
        XCTAssertEqual(app.kind, .app)
        XCTAssertEqual(product.parent(of: share)?.name, "Demo")
        XCTAssertEqual(product.parent(of: core)?.name, "Demo")
        XCTAssertNil(app.parentID)
        // `info: properties:` is the Info.plist, located in the spec.
        XCTAssertEqual(app.infoPlistPath, "App/Info.plist")
        let faceID = try XCTUnwrap(app.infoValue("NSFaceIDUsageDescription"))
        XCTAssertEqual(faceID.node.string, "Unlock your notes with Face ID.")
        XCTAssertEqual(faceID.location, FileLocation(path: "project.yml", position: SourcePosition(line: 35, column: 9)))
        XCTAssertNil(share.infoValue("NSFaceIDUsageDescription"))
        XCTAssertEqual(share.infoValue("NSExtension")?.node["NSExtensionPointIdentifier"]?.string, "com.apple.share-services")
        XCTAssertEqual(share.identifier, "com.example.demo.Share")
        XCTAssertEqual(share.resolvedInfoString("CFBundleExecutable"), "Share", "XcodeGen's default keys are generated")
        XCTAssertEqual(app.shortVersion, "1.0")
        XCTAssertEqual(app.entitlements?.root?["com.apple.security.application-groups"]?.strings, ["group.com.example.demo"])
        XCTAssertEqual(app.entitlements?.path, "project.yml")
        XCTAssertEqual(app.buildSettings["CODE_SIGN_ENTITLEMENTS"]?.value, "App/Demo.entitlements")
        XCTAssertEqual(share.sourceFiles, ["Share/ShareViewController.swift"])
        XCTAssertEqual(share.linkedCode.map(\.name), ["Core"])
    }

    func testCommittedProjectWinsOverSpecInItsFolder() throws {
        var files = try ProjectFixtures.source("XcodeGen").allFiles()
        let pbx = try ProjectFixtures.source("Modern")
        for e in pbx.entries where e.kind == .file && e.path.hasSuffix("project.pbxproj") {
            files["Demo.xcodeproj/project.pbxproj"] = try pbx.read(e.path)
        }
        let product = try load(MemorySource(name: "both", files: files)).product
        XCTAssertEqual(product.projects, ["Demo.xcodeproj"], "the spec beside a project is not read")
        XCTAssertNil(product.bundle(named: "Share"))

        // A spec in another folder (no project beside it) is still read.
        var nested: [String: Data] = [:]
        for (p, d) in try ProjectFixtures.source("XcodeGen").allFiles() { nested["Specs/App/" + p] = d }
        nested["Other/Old.xcodeproj/project.pbxproj"] = files["Demo.xcodeproj/project.pbxproj"]
        let mixed = try load(MemorySource(name: "mixed", files: nested)).product
        XCTAssertTrue(mixed.projects.contains("Specs/App/project.yml"), "\(mixed.projects)")
        XCTAssertNotNil(mixed.bundles.first { $0.name.hasPrefix("Share") })

        // A spec whose generated project (Demo.xcodeproj) is committed in another folder is not read.
        var elsewhere = try ProjectFixtures.source("XcodeGen").allFiles()
        elsewhere["ios/Demo.xcodeproj/project.pbxproj"] = files["Demo.xcodeproj/project.pbxproj"]
        let generated = try load(MemorySource(name: "elsewhere", files: elsewhere)).product
        XCTAssertEqual(generated.projects, ["ios/Demo.xcodeproj"])
        XCTAssertNil(generated.bundle(named: "Share"))
    }

    func testPlatformListsDependenciesAndPackages() throws {
        let spec = """
        name: Multi
        packages:
          Kit:
            path: Packages/Kit
          Remote:
            url: https://example.com/remote.git
            from: 1.0.0
        targets:
          Widget:
            type: app-extension
            platform: [iOS, watchOS]
            sources: [Widget]
            settings:
              INFOPLIST_FILE: Widget/Info-${platform}.plist
            dependencies:
              - package: Kit
              - package: Remote
              - carthage: Alamofire
        """
        let source = MemorySource(name: "m", text: [
            "project.yml": spec, "Widget/W.swift": "", "Widget/Info-iOS.plist": "<plist><dict/></plist>",
            "Widget/Info-watchOS.plist": "<plist><dict/></plist>", "Packages/Kit/Package.swift": "",
            "Packages/Kit/Sources/Kit/Kit.swift": "",
        ])
        let loaded = try load(source)
        XCTAssertEqual(loaded.product.problems, [])
        XCTAssertEqual(loaded.product.bundles.map(\.name).sorted(), ["Widget_iOS", "Widget_watchOS"])
        let watch = try XCTUnwrap(loaded.product.bundle(named: "Widget_watchOS"))
        XCTAssertEqual(watch.infoPlistPath, "Widget/Info-watchOS.plist")
        XCTAssertEqual(watch.buildSettings["SDKROOT"]?.value, "watchos")
        XCTAssertEqual(watch.linkedCode, [CodeLink(kind: .package, name: "Kit", files: ["Packages/Kit/Sources/Kit/Kit.swift"])])
        XCTAssertTrue(loaded.product.usesExternalCode)
    }

    /// XcodeGen merges templates and includes by appending lists (`key:REPLACE` replaces), and
    /// leaves out sources and dependencies filtered to other platforms.
    func testListsAppendAndPlatformFilters() throws {
        let spec = """
        name: M
        targetTemplates:
          Base:
            type: application
            supportedDestinations: [iOS, macOS]
            sources:
              - path: Shared
              - path: MacOnly
                destinationFilters: [macOS]
            settings:
              OTHER: base
        targets:
          App:
            templates: [Base]
            sources:
              - path: App
          Replaced:
            templates: [Base]
            sources:REPLACE:
              - path: App
        """
        let source = MemorySource(name: "m", text: ["project.yml": spec, "Shared/S.swift": "", "MacOnly/M.swift": "", "App/A.swift": ""])
        let product = try load(source).product
        XCTAssertEqual(product.problems, [])
        XCTAssertEqual(product.bundle(named: "App")?.sourceFiles, ["App/A.swift", "Shared/S.swift"])
        XCTAssertEqual(product.bundle(named: "Replaced")?.sourceFiles, ["App/A.swift"])
    }

    func testMissingPathsAreLoadProblems() throws {
        let spec = """
        name: Broken
        include: [missing.yml]
        targets:
          App:
            type: application
            platform: iOS
            templates: [Nope]
            sources: [Gone]
            settings:
              INFOPLIST_FILE: App/Info.plist
        """
        let product = try load(MemorySource(name: "b", text: ["project.yml": spec, "App/A.swift": ""])).product
        let kinds = product.problems.map { "\($0.kind) \($0.path)" }
        XCTAssertTrue(kinds.contains { $0.contains("missingReference(setting: \"include\") missing.yml") }, "\(kinds)")
        XCTAssertTrue(kinds.contains { $0.contains("missingReference(setting: \"sources\") Gone") }, "\(kinds)")
        XCTAssertTrue(kinds.contains { $0.contains("missingReference(setting: \"INFOPLIST_FILE\") App/Info.plist") }, "\(kinds)")
        XCTAssertTrue(kinds.contains { $0.contains("target template 'Nope'") }, "\(kinds)")
        XCTAssertNotNil(product.bundle(named: "App"))
    }
}

extension MemorySource {
    func allFiles() throws -> [String: Data] {
        var out: [String: Data] = [:]
        for e in entries where e.kind == .file { out[e.path] = try read(e.path) }
        return out
    }
}
