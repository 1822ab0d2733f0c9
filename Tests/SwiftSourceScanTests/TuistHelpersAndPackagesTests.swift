import Artifacts
import Foundation
import Formats
import SwiftSourceScan
import XCTest

/// Tuist layouts as real apps write them: targets built by `ProjectDescriptionHelpers`
/// (static functions of `extension Project`, local variables, `if`, `.map` over names,
/// constants of helper types) and the packages of `Tuist/Package.swift`.
final class TuistHelpersAndPackagesTests: XCTestCase {
    static let helpers = #"""
    import ProjectDescription

    public enum Constants {
        public static let prefix = "com.example"
        public static let deploymentTarget = DeploymentTargets.iOS("16.0")
        public static func bundleId(_ module: String) -> String {
            return "\(prefix).\(module.lowercased())"
        }
    }

    public extension TargetDependency {
        enum SPM {
            public static let snapKit: TargetDependency = .external(name: "SnapKit")
        }
    }

    extension Project {
        public static func app(name: String, includeWidget: Bool = false, features: [String],
                               dependencies: [TargetDependency] = []) -> Project {
            var targets: [Target] = []
            let app: Target = .target(
                name: name, destinations: .iOS, product: .app, bundleId: Constants.bundleId(name),
                deploymentTargets: Constants.deploymentTarget, infoPlist: .default,
                sources: ["\(name)/Sources/**"], dependencies: dependencies + features.map { .target(name: $0) })
            targets.append(app)
            if includeWidget {
                let widget: Target = .target(name: "\(name)Widget", destinations: .iOS, product: .appExtension,
                                             bundleId: Constants.bundleId(name) + ".widget", infoPlist: .default,
                                             sources: ["Widget/**"])
                targets.append(widget)
            } else {
                targets += []
            }
            targets += features.map { feature in
                .target(name: feature, destinations: .iOS, product: .framework, bundleId: Constants.bundleId(feature),
                        sources: ["Features/\(feature)/**"])
            }
            return Project(name: name, targets: targets)
        }

        public static func looping(name: String) -> Project {
            var targets: [Target] = []
            switch name {
            default: targets.append(.target(name: name, destinations: .iOS, product: .app, bundleId: name))
            }
            return Project(name: name, targets: targets)
        }
    }
    """#

    static let packageManifest = """
    // swift-tools-version: 5.9
    import PackageDescription

    #if TUIST
    import ProjectDescription
    let packageSettings = PackageSettings(productTypes: ["SnapKit": .framework])
    #endif

    let package = Package(
        name: "Dependencies",
        dependencies: [
            .package(url: "https://github.com/SnapKit/SnapKit", from: "5.0.0"),
            .package(url: "https://github.com/onevcat/Kingfisher.git", .upToNextMajor(from: "7.6.2")),
            .package(url: "https://github.com/pointfreeco/swift-composable-architecture", exact: "1.9.2"),
            .package(path: "../LocalKit"),
        ]
    )
    """

    func load(_ files: [String: String]) throws -> Product {
        let source = MemorySource(name: "t", text: files)
        return try ProductLoader.load(source: source, kind: .folder, manifestReader: ManifestSyntaxReader()).product
    }

    func testProjectBuiltByAHelperWithConditionsAndMaps() throws {
        let product = try load([
            "Tuist/ProjectDescriptionHelpers/Project+Templates.swift": Self.helpers,
            "Tuist/Package.swift": Self.packageManifest,
            "Projects/Shop/Project.swift": """
            import ProjectDescription
            import ProjectDescriptionHelpers

            let name = "Shop"
            let project = Project.app(name: name, includeWidget: true, features: ["Cart", "Search"],
                                      dependencies: [.SPM.snapKit])
            """,
            "Projects/Shop/Shop/Sources/App.swift": "", "Projects/Shop/Widget/W.swift": "",
            "Projects/Shop/Features/Cart/C.swift": "", "Projects/Shop/Features/Search/S.swift": "",
        ])
        XCTAssertEqual(product.bundles.map(\.name).sorted(), ["Cart", "Search", "Shop", "ShopWidget"], "\(product.problems)")
        let app = try XCTUnwrap(product.bundle(named: "Shop"))
        XCTAssertEqual(app.kind, .app)
        XCTAssertEqual(app.identifier, "com.example.shop")
        XCTAssertEqual(app.buildSettings["IPHONEOS_DEPLOYMENT_TARGET"]?.value, "16.0")
        XCTAssertEqual(app.sourceFiles, ["Projects/Shop/Shop/Sources/App.swift"])
        XCTAssertEqual(product.bundle(named: "ShopWidget")?.identifier, "com.example.shop.widget")
        XCTAssertEqual(product.parent(of: try XCTUnwrap(product.bundle(named: "ShopWidget")))?.name, nil,
                       "the helper does not make the app depend on the widget")
        XCTAssertEqual(product.bundle(named: "Cart")?.sourceFiles, ["Projects/Shop/Features/Cart/C.swift"])
        XCTAssertEqual(product.parent(of: try XCTUnwrap(product.bundle(named: "Search")))?.name, "Shop")
        XCTAssertEqual(product.problems, [])
        // Tuist/Package.swift: the remote packages in the SDK inventory, with their requirement and line.
        let refs = product.sdks.filter { $0.kind == .swiftPackage }
        XCTAssertEqual(refs.map(\.origin), ["https://github.com/SnapKit/SnapKit", "https://github.com/onevcat/Kingfisher.git",
                                            "https://github.com/pointfreeco/swift-composable-architecture"])
        XCTAssertEqual(refs.map(\.name), ["SnapKit", "Kingfisher", "swift-composable-architecture"])
        XCTAssertEqual(refs.map(\.version), ["from 5.0.0", "from 7.6.2", "exactly 1.9.2"])
        XCTAssertEqual(refs.first?.location, FileLocation(path: "Tuist/Package.swift", position: SourcePosition(line: 12, column: 23)))
        XCTAssertTrue(product.usesExternalCode)
    }

    func testAFalseConditionLeavesTheTargetOutAndAnUnknownOneIsReported() throws {
        let off = try load([
            "Tuist/ProjectDescriptionHelpers/Project+Templates.swift": Self.helpers,
            "Project.swift": """
            import ProjectDescription
            import ProjectDescriptionHelpers
            let project = Project.app(name: "Shop", features: [])
            """,
        ])
        XCTAssertEqual(off.bundles.map(\.name), ["Shop"])
        XCTAssertEqual(off.problems, [])
        XCTAssertEqual(off.sdks, [])

        let unknown = try load([
            "Tuist/ProjectDescriptionHelpers/Project+Templates.swift": Self.helpers,
            "Project.swift": """
            import ProjectDescription
            import ProjectDescriptionHelpers
            let project = Project.app(name: "Shop", includeWidget: Environment.widget.getBoolean(default: true), features: [])
            """,
        ])
        // The app is read; the widget the condition decides cannot be, and that is said.
        XCTAssertEqual(unknown.bundles.map(\.name), ["Shop"])
        XCTAssertEqual(unknown.problems.count, 1, "\(unknown.problems)")
        guard case .unreadable(let e)? = unknown.problems.first?.kind else { return XCTFail() }
        XCTAssertTrue(e.reason.contains("`Environment.widget.getBoolean(…) ? …` cannot be read statically"), e.reason)
        // Located in the helper, at the assignment of the `if`/`else` the condition decides.
        XCTAssertEqual(unknown.problems.first?.path, "Tuist/ProjectDescriptionHelpers/Project+Templates.swift")
        XCTAssertEqual(e.line, 32)
    }

    func testAHelperWithASwitchStaysUnreadAndIsReported() throws {
        XCTAssertThrowsError(try load([
            "Tuist/ProjectDescriptionHelpers/Project+Templates.swift": Self.helpers,
            "Project.swift": """
            import ProjectDescription
            import ProjectDescriptionHelpers
            let project = Project.looping(name: "Loop")
            """,
        ])) { error in
            XCTAssertTrue("\(error)".contains("Project.swift:3: the project `Project.looping(…)` cannot be read statically"), "\(error)")
        }
    }

    /// Ugglan's shape: a `Set` of wanted targets tested with `contains`, a `for` loop adding
    /// dependencies, a local function, `buildableFolders`, a list built by a closure called in place.
    func testSetContainsForLoopsAndBuildableFolders() throws {
        let helper = """
        import ProjectDescription

        public enum FeatureTarget { case framework, tests, example }

        extension Project {
            public static func feature(name: String, targets: Set<FeatureTarget> = Set([.framework, .tests]),
                                       projects: [String] = []) -> Project {
                var dependencies: [TargetDependency] = []
                for item in projects {
                    dependencies.append(.project(target: item, path: .relativeToRoot("Projects/\\(item)")))
                }
                var all: [Target] = []
                if targets.contains(.framework) {
                    all.append(.target(name: name, destinations: .iOS, product: .framework, bundleId: "com.example.\\(name)",
                                       buildableFolders: ["Sources"], dependencies: dependencies))
                }
                if targets.contains(.example) {
                    all.append(.target(name: "\\(name)Example", destinations: .iOS, product: .app, bundleId: "com.example.demo",
                                       sources: ["Example/**"], dependencies: [.target(name: name)]))
                }
                func scheme() -> Scheme { .scheme(name: name) }
                return Project(name: name, targets: all)
            }
        }
        """
        let product = try load([
            "Tuist/ProjectDescriptionHelpers/Project+Feature.swift": helper,
            "Projects/Chat/Project.swift": """
            import ProjectDescription
            import ProjectDescriptionHelpers
            let projects: [String] = {
                var list = ["Core"]
                list.append("Kit")
                return list
            }()
            let project = Project.feature(name: "Chat", targets: Set([.framework, .example]), projects: projects)
            """,
            "Projects/Chat/Sources/Chat.swift": "", "Projects/Chat/Sources/Chat.xcassets/Contents.json": "{}",
            "Projects/Chat/Example/App.swift": "",
            "Projects/Core/Project.swift": """
            import ProjectDescription
            import ProjectDescriptionHelpers
            let project = Project.feature(name: "Core")
            """,
            "Projects/Core/Sources/Core.swift": "",
            "Projects/Kit/Project.swift": """
            import ProjectDescription
            import ProjectDescriptionHelpers
            let project = Project.feature(name: "Kit", targets: Set([.framework]))
            """,
            "Projects/Kit/Sources/Kit.swift": "",
        ])
        XCTAssertEqual(product.bundles.map(\.name).sorted(), ["Chat", "ChatExample", "Core", "Kit"], "\(product.problems)")
        let chat = try XCTUnwrap(product.bundle(named: "Chat"))
        XCTAssertEqual(chat.sourceFiles, ["Projects/Chat/Sources/Chat.swift"])
        XCTAssertEqual(product.bundle(named: "Core")?.sourceFiles, ["Projects/Core/Sources/Core.swift"])
        // The loop's `.project(target:…)` over a list a called closure builds links Core and Kit into Chat.
        XCTAssertEqual(Set(chat.linkedCode.map(\.name)), ["Core", "Kit"], "\(chat.linkedCode)")
        XCTAssertEqual(product.problems, [])
    }

    /// Tuist 3's `Tuist/Dependencies.swift`, and a plain package manifest beside a Tuist
    /// project that is not Tuist's (no `#if TUIST`): only the former names dependencies.
    func testDependenciesSwiftAndAPlainPackageManifest() throws {
        let project = """
        import ProjectDescription
        let project = Project(name: "A", targets: [
            .target(name: "A", destinations: .iOS, product: .app, bundleId: "com.example.a", infoPlist: .default,
                    sources: ["Sources/**"], dependencies: [.external(name: "Alamofire")]),
        ])
        """
        let tuist3 = try load([
            "Project.swift": project,
            "Tuist/Dependencies.swift": """
            import ProjectDescription
            let dependencies = Dependencies(
                swiftPackageManager: .init([
                    .remote(url: "https://github.com/Alamofire/Alamofire", requirement: .upToNextMajor(from: "5.8.0")),
                    .local(path: "Packages/Kit"),
                ]),
                platforms: [.iOS]
            )
            """,
        ])
        XCTAssertEqual(tuist3.sdks.map(\.origin), ["https://github.com/Alamofire/Alamofire"])
        XCTAssertEqual(tuist3.sdks.map(\.version), ["from 5.8.0"])

        let plain = try load([
            "Project.swift": project,
            "Package.swift": """
            // swift-tools-version: 5.9
            import PackageDescription
            let package = Package(name: "Other", dependencies: [.package(url: "https://github.com/apple/swift-log", from: "1.0.0")])
            """,
        ])
        XCTAssertEqual(plain.sdks, [])
        XCTAssertEqual(plain.bundles.map(\.name), ["A"])
    }
}
