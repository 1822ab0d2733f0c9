import Artifacts
import Foundation
import Formats
import SwiftSourceScan
import XCTest

/// Tuist manifests read with swift-syntax into `ManifestValue`s, and loaded through
/// `ProductLoader` into the same targets and bundles as a project (`Tests/Fixtures/Projects/Tuist`).
final class ManifestSyntaxReaderTests: XCTestCase {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Projects/Tuist")

    func testValuesOfTheFile() throws {
        let file = try ManifestSyntaxReader().read(source: """
        import ProjectDescription
        let prefix = "com.example"
        var mutable = [1]
        let project: Project = .init(name: "P", targets: [.target(name: "\\(prefix).app", product: .app, list: [true, 1.5, nil]),
                                                        helper(x: 1) { $0 }],
                                     settings: ["A": "B"].merging(["C": "D"]))
        func helper() {}
        """, path: "Project.swift", limits: .default)
        XCTAssertEqual(file.bindings.map(\.name), ["prefix", "mutable", "project"])
        XCTAssertEqual(file.bindings[0].value.kind, .string("com.example"))
        guard case .unsupported(let text) = file.bindings[1].value.kind else { return XCTFail("a var is not read") }
        XCTAssertEqual(text, "var mutable = …")
        guard case .call("Project", nil, let args) = file.bindings[2].value.kind else { return XCTFail("\(file.bindings[2])") }
        XCTAssertEqual(args.map(\.label), ["name", "targets", "settings"])
        XCTAssertEqual(file.bindings[2].value.position, SourcePosition(line: 4, column: 24))
        guard case .array(let targets) = args[1].value.kind, targets.count == 2,
              case .call(".target", nil, let targetArgs) = targets[0].kind else { return XCTFail("\(args[1])") }
        guard case .interpolation(let parts) = targetArgs[0].value.kind else { return XCTFail("\(targetArgs[0])") }
        XCTAssertEqual(parts.map(\.kind), [.identifier("prefix"), .string(".app")])
        XCTAssertEqual(targetArgs[1].value.kind, .member(".app"))
        guard case .array(let list) = targetArgs[2].value.kind else { return XCTFail() }
        XCTAssertEqual(list.map(\.kind), [.bool(true), .number("1.5"), .nil])
        guard case .unsupported(let closure) = targets[1].kind else { return XCTFail("a trailing closure is not read") }
        XCTAssertTrue(closure.hasPrefix("helper(x: 1)"))
        guard case .call(".merging", let base?, _) = args[2].value.kind, case .dictionary = base.kind else { return XCTFail("\(args[2])") }
    }

    func testInvalidSwiftIsAFormatErrorWithALine() {
        XCTAssertThrowsError(try ManifestSyntaxReader().read(source: "let project = Project(\nname: \"A\",,\n", path: "P.swift",
                                                             limits: .default)) { error in
            let e = error as? FormatError
            XCTAssertEqual(e?.kind, .malformed)
            XCTAssertNotNil(e?.line)
        }
        // Deep nesting is refused by the limit, without recursing.
        var limits = ReaderLimits()
        limits.maxNestingDepth = 8
        let deep = try? ManifestSyntaxReader().read(source: "let x = " + String(repeating: "[", count: 20) + String(repeating: "]", count: 20),
                                                    path: "P.swift", limits: limits)
        XCTAssertNotNil(deep)
    }

    func load() throws -> Product {
        try ProductLoader.load(path: Self.fixture.path, manifestReader: ManifestSyntaxReader()).product
    }

    func testTuistFixtureLoadsLikeAProject() throws {
        let product = try load()
        XCTAssertEqual(product.kind, .project)
        XCTAssertEqual(product.projects, ["Project.swift"])
        XCTAssertEqual(product.bundles.map(\.name).sorted(), ["Core", "Demo", "Share"])
        let app = try XCTUnwrap(product.bundle(named: "Demo"))
        let share = try XCTUnwrap(product.bundle(named: "Share"))
        let core = try XCTUnwrap(product.bundle(named: "Core"))
        XCTAssertEqual(app.kind, .app)
        XCTAssertEqual(share.kind, .appExtension)
        XCTAssertEqual(core.kind, .framework)
        XCTAssertEqual(product.parent(of: share)?.name, "Demo")
        XCTAssertEqual(product.parent(of: core)?.name, "Demo")
        XCTAssertEqual(app.identifier, "com.example.tuist.app")
        XCTAssertEqual(share.identifier, "com.example.tuist.app.share")
        XCTAssertEqual(app.buildSettings["IPHONEOS_DEPLOYMENT_TARGET"]?.value, "16.0")
        XCTAssertEqual(app.buildSettings["SWIFT_VERSION"]?.value, "5.0")
        XCTAssertEqual(app.buildSettings["SDKROOT"]?.value, "iphoneos")
        XCTAssertNil(app.buildSettings["SWIFT_ACTIVE_COMPILATION_CONDITIONS"], "Release is read")
        // `.extendingDefault(with:)` is generated: the manifest is its file.
        let faceID = try XCTUnwrap(app.infoValue("NSFaceIDUsageDescription"))
        XCTAssertEqual(faceID.location.path, "Project.swift")
        XCTAssertEqual(faceID.location.position?.line, 25)
        XCTAssertEqual(app.resolvedInfoString("CFBundleExecutable"), "Demo")
        XCTAssertEqual(app.path, "", "the target's folder, not Derived/InfoPlists")
        XCTAssertEqual(share.infoPlist?.path, "Share/Info.plist")
        XCTAssertNil(share.infoValue("NSFaceIDUsageDescription"))
        XCTAssertEqual(app.entitlements?.path, "App/Demo.entitlements")
        // Sources and the code closure: the excluded folder is not Core's code.
        XCTAssertEqual(core.sourceFiles, ["Core/Biometrics.swift"])
        XCTAssertEqual(share.linkedCode, [CodeLink(kind: .target, name: "Core", embedded: false, files: ["Core/Biometrics.swift"])])
        XCTAssertEqual(app.linkedCode, [CodeLink(kind: .target, name: "Core", embedded: true, files: ["Core/Biometrics.swift"])])
        // The helper call is named with its line; nothing else is a problem.
        XCTAssertEqual(product.problems.count, 1, "\(product.problems)")
        guard case .unreadable(let e) = product.problems.first?.kind else { return XCTFail() }
        XCTAssertEqual(e.kind, .unsupported)
        XCTAssertEqual(e.line, 48)
        XCTAssertTrue(e.reason.contains(".makeWidget(…)` cannot be read statically"), e.reason)
    }

    func testWithoutAReaderManifestsAreReportedAndTheFolderIsRead() throws {
        let product = try ProductLoader.load(path: Self.fixture.path).product
        XCTAssertEqual(product.kind, .folder)
        XCTAssertTrue(product.problems.contains { p in
            if case .unreadable(let e) = p.kind { return p.path == "Project.swift" && e.reason.contains("no Swift manifest reader") }
            return false
        }, "\(product.problems)")
        XCTAssertEqual(product.bundles.map(\.name), ["Share"], "Info.plist discovery")
    }

    func testWorkspaceListsProjects() throws {
        let project = """
        import ProjectDescription
        let project = Project(name: "Feature", targets: [
            Target(name: "Feature", platform: .iOS, product: .staticFramework, bundleId: "com.example.feature",
                   infoPlist: .default, sources: SourceFilesList(globs: [.glob("Sources/**")]))
        ])
        """
        let source = MemorySource(name: "ws", text: [
            "Workspace.swift": "import ProjectDescription\nlet workspace = Workspace(name: \"W\", projects: [\"Modules/*\"])\n",
            "Modules/Feature/Project.swift": project,
            "Modules/Feature/Sources/F.swift": "",
        ])
        let product = try ProductLoader.load(source: source, kind: .folder, manifestReader: ManifestSyntaxReader()).product
        XCTAssertEqual(product.problems, [])
        let feature = try XCTUnwrap(product.bundle(named: "Feature"))
        XCTAssertEqual(feature.kind, .framework)
        XCTAssertEqual(feature.sourceFiles, ["Modules/Feature/Sources/F.swift"])
        XCTAssertEqual(feature.buildSettings["PRODUCT_BUNDLE_IDENTIFIER"]?.value, "com.example.feature")
        XCTAssertEqual(feature.infoPlistPath, "Modules/Feature/Derived/InfoPlists/Feature-Info.plist")
    }

    /// A function of the manifest whose body is one expression builds targets: each call with
    /// its labels expands to the body with the arguments in place (kMail builds its app so).
    func testTargetsBuiltByAFunctionOfTheManifest() throws {
        let project = """
        import ProjectDescription
        let prefix = "com.example"
        func appTarget(name: String, _ id: String, destinations: [Destination]) -> Target {
            .target(name: name, destinations: Set(destinations), product: .app, bundleId: "\\(prefix).\\(id)",
                    infoPlist: "App/Info.plist", sources: "App/**")
        }
        func widget(name: String) -> Target {
            return .target(name: name, destinations: .iOS, product: .appExtension, bundleId: "com.example.app.widget",
                           infoPlist: .default, sources: "Widget/**")
        }
        func twoLines(name: String) -> Target {
            let id = name
            return .target(name: id, destinations: .iOS, product: .framework, bundleId: "x", sources: "X/**")
        }
        func looping(name: String) -> Target {
            for x in [1] { print(x) }
            return .target(name: name, destinations: .iOS, product: .framework, bundleId: "y", sources: "Y/**")
        }
        let project = Project(name: "P", targets: [
            appTarget(name: "Mail", "app", destinations: [.iPhone, .iPad]),
            widget(name: "Widget"),
            appTarget(name: "Wrong labels", id: "x", destinations: []),
            twoLines(name: "Skipped"),
            looping(name: "Looped"),
        ])
        """
        let source = MemorySource(name: "p", text: [
            "Project.swift": project,
            "App/Info.plist": "<plist version=\"1.0\"><dict/></plist>",
            "App/A.swift": "", "Widget/W.swift": "", "X/X.swift": "",
        ])
        let product = try ProductLoader.load(source: source, kind: .folder, manifestReader: ManifestSyntaxReader()).product
        XCTAssertEqual(product.bundles.map(\.name).sorted(), ["Mail", "Skipped", "Widget"])
        let app = try XCTUnwrap(product.bundle(named: "Mail"))
        XCTAssertEqual(app.kind, .app)
        XCTAssertEqual(app.buildSettings["PRODUCT_BUNDLE_IDENTIFIER"]?.value, "com.example.app")
        XCTAssertEqual(app.sourceFiles, ["App/A.swift"])
        XCTAssertEqual(product.bundle(named: "Widget")?.sourceFiles, ["Widget/W.swift"])
        // A call whose labels differ and a body with a loop stay unread, each reported; a
        // `let` before the `return` is read.
        XCTAssertEqual(product.problems.count, 2, "\(product.problems)")
    }

    /// Constructs of real manifests: public constants, `.settings(base:debug:release:)`,
    /// `Plist.Value(stringLiteral:)`, `.merging(…) { _, new in new }` with a computed argument,
    /// dependency lists joined with `+`, `Path("…")`, brace globs.
    func testRealWorldConstructs() throws {
        let manifest = #"""
        import ProjectDescription

        public let version = "1.12.1"
        public let appDestinations: Destinations = [.iPhone, .iPad]

        let project = Project(
          name: "Board",
          settings: .settings(
            base: ["IPHONEOS_DEPLOYMENT_TARGET": SettingValue(stringLiteral: "16.0")],
            debug: ["OTHER_SWIFT_FLAGS": "-D DEBUG"]
          ),
          targets: [
            .target(
              name: "Board",
              destinations: appDestinations,
              product: .app,
              bundleId: "com.example.board",
              infoPlist: .extendingDefault(with: [
                "CFBundleShortVersionString": Plist.Value(stringLiteral: version),
                "NSMicrophoneUsageDescription": "Records voice to transcribe it.",
              ].merging(
                Environment.isAppStore.getBoolean(default: false) ? [:] : ["NSLocalNetworkUsageDescription": "Debugging."]
              ) { _, new in new }),
              sources: "App/Sources/**/*.{swift,m}",
              dependencies: [.target(name: "Share")] + (Environment.isAppStore.getBoolean(default: false) ? [] : [])
            ),
            .target(
              name: "Share",
              destinations: appDestinations,
              product: .appExtension,
              bundleId: "com.example.board.share",
              infoPlist: .file(path: Path("App/Share/Info.plist")),
              sources: "App/Share/**"
            ),
          ]
        )
        """#
        let source = MemorySource(name: "real", text: [
            "Project.swift": manifest, "App/Sources/A.swift": "", "App/Sources/B.m": "", "App/Sources/C.md": "",
            "App/Share/Info.plist": "<plist><dict><key>CFBundleIdentifier</key><string>x</string></dict></plist>",
            "App/Share/S.swift": "",
        ])
        let product = try ProductLoader.load(source: source, kind: .folder, manifestReader: ManifestSyntaxReader()).product
        let app = try XCTUnwrap(product.bundle(named: "Board"))
        XCTAssertEqual(app.infoValue("NSMicrophoneUsageDescription")?.node.string, "Records voice to transcribe it.")
        XCTAssertEqual(app.shortVersion, "1.12.1")
        XCTAssertEqual(app.sourceFiles, ["App/Sources/A.swift", "App/Sources/B.m"])
        XCTAssertEqual(app.buildSettings["IPHONEOS_DEPLOYMENT_TARGET"]?.value, "16.0")
        XCTAssertNil(app.buildSettings["OTHER_SWIFT_FLAGS"], "debug-only")
        XCTAssertEqual(product.bundle(named: "Share")?.infoPlist?.path, "App/Share/Info.plist")
        // The computed argument of merging and the joined dependency list are named, with lines.
        let reasons = product.problems.compactMap { p -> String? in
            if case .unreadable(let e) = p.kind { return "\(e.line ?? 0): \(e.reason)" }
            return nil
        }
        XCTAssertEqual(reasons.count, 2, "\(reasons)")
        XCTAssertTrue(reasons[0].hasPrefix("22: Info.plist value `Environment.isAppStore"), reasons[0])
        XCTAssertTrue(reasons[1].hasPrefix("25: dependency list `Environment.isAppStore"), reasons[1])
        // The readable part of the joined dependency list is kept: the app embeds the extension.
        XCTAssertEqual(product.bundle(named: "Share").flatMap(product.parent)?.name, "Board")
    }

    /// `.project(target:path:)`: the app links and embeds a framework of another project.
    func testTargetsOfAnotherProject() throws {
        let app = """
        import ProjectDescription
        let project = Project(name: "App", targets: [
            .target(name: "App", destinations: .iOS, product: .app, bundleId: "com.example.app",
                    infoPlist: .default, sources: ["Sources/**"],
                    dependencies: [.project(target: "Core", path: "../Core")]),
        ])
        """
        let core = """
        import ProjectDescription
        let project = Project(name: "Core", targets: [
            .target(name: "Core", destinations: .iOS, product: .framework, bundleId: "com.example.core",
                    sources: ["Sources/**"], dependencies: [.target(name: "Util")]),
            .target(name: "Util", destinations: .iOS, product: .staticLibrary, bundleId: "com.example.util",
                    sources: ["Util/**"]),
        ])
        """
        let source = MemorySource(name: "ws", text: [
            "App/Project.swift": app, "App/Sources/A.swift": "", "Core/Project.swift": core,
            "Core/Sources/Face.swift": "import LocalAuthentication", "Core/Util/U.swift": "",
        ])
        let product = try ProductLoader.load(source: source, kind: .folder, manifestReader: ManifestSyntaxReader()).product
        XCTAssertEqual(product.problems, [])
        let appBundle = try XCTUnwrap(product.bundle(named: "App"))
        XCTAssertEqual(appBundle.linkedCode, [
            CodeLink(kind: .target, name: "Core", embedded: true, files: ["Core/Sources/Face.swift"]),
            CodeLink(kind: .target, name: "Util", embedded: true, files: ["Core/Util/U.swift"]),
        ])
        XCTAssertEqual(product.bundle(named: "Core").flatMap(product.parent)?.name, "App")
    }

    func testUnreadableManifestFallsBack() throws {
        let source = MemorySource(name: "bad", text: [
            "Project.swift": "import ProjectDescription\nlet project = Project(name: \"A\" targets: [",
            "App/Info.plist": "<plist><dict><key>CFBundleIdentifier</key><string>x</string></dict></plist>",
        ])
        let product = try ProductLoader.load(source: source, kind: .folder, manifestReader: ManifestSyntaxReader()).product
        XCTAssertEqual(product.bundles.map(\.name), ["App"])
        guard case .unreadable(let e) = product.problems.first?.kind else { return XCTFail("\(product.problems)") }
        XCTAssertEqual(e.format, "Tuist manifest")
        XCTAssertEqual(e.line, 2)
        // A manifest whose project is computed by a helper: named, and the folder is read.
        let helper = MemorySource(name: "helper", text: [
            "Project.swift": "import ProjectDescriptionHelpers\nlet project = Project.app(name: \"A\")\n",
        ])
        XCTAssertThrowsError(try ProductLoader.load(source: helper, kind: .folder, manifestReader: ManifestSyntaxReader())) { error in
            XCTAssertTrue("\(error)".hasSuffix("no app bundle, Info.plist or Xcode project found (1 XcodeGen/Tuist spec could not be read; "
                + "Project.swift:2: the project `Project.app(…)` cannot be read statically (a helper function, loop or computed value); "
                + "it is left out)"), "\(error)")
        }
        // An app's model file named Project.swift is not a manifest, even when Swift 6 syntax
        // is beyond the parser: nothing is reported.
        let model = MemorySource(name: "model", text: [
            "App/Models/Project.swift": "struct Project { let name: String }\nlet x = (",
            "App/Info.plist": "<plist><dict><key>CFBundleIdentifier</key><string>x</string></dict></plist>",
        ])
        XCTAssertEqual(try ProductLoader.load(source: model, kind: .folder, manifestReader: ManifestSyntaxReader()).product.problems, [])
    }
}
