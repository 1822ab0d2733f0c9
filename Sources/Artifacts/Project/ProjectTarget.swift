import Foundation
import Formats

/// A native target of an Xcode project.
public struct ProjectTarget: Sendable {
    /// The target's object identifier in the pbxproj.
    public var id: String
    public var name: String
    /// `com.apple.product-type.*` as written (empty when absent).
    public var productType: String
    /// `productName` as written in the target (the build setting PRODUCT_NAME may differ).
    public var productName: String?
    /// The bundle kind its product has, nil for products that are not bundles (tools, libraries).
    public var bundleKind: BundleKind?
    /// Resolved build settings per configuration name.
    public var configurations: [String: [String: SettingValue]]
    /// The configuration used for the bundle.
    public var chosenConfiguration: String?
    /// Names of the targets this one depends on.
    public var dependencies: [String]
    /// Source files the target compiles itself (build phases, synchronized folders).
    public var sourceFiles: [String] = []
    /// Code the target links or embeds, besides its own sources: framework and static-library
    /// targets, local Swift packages, pods and package checkouts present in the input.
    public var linkedCode: [CodeLink] = []
    /// Where the target is declared in the pbxproj.
    public var location: FileLocation

    public init(id: String, name: String, productType: String, productName: String? = nil, bundleKind: BundleKind? = nil,
                configurations: [String: [String: SettingValue]] = [:], chosenConfiguration: String? = nil,
                dependencies: [String] = [], location: FileLocation) {
        self.id = id
        self.name = name
        self.productType = productType
        self.productName = productName
        self.bundleKind = bundleKind
        self.configurations = configurations
        self.chosenConfiguration = chosenConfiguration
        self.dependencies = dependencies
        self.location = location
    }

    /// Bundle kind for a `com.apple.product-type.*` string; nil for non-bundle products.
    public static func bundleKind(forProductType type: String) -> BundleKind? {
        let prefix = "com.apple.product-type."
        let t = type.hasPrefix(prefix) ? String(type.dropFirst(prefix.count)) : type
        switch t {
        case "application", "application.messages": return .app
        case "application.on-demand-install-capable": return .appClip
        case "application.watchapp", "application.watchapp2", "application.watchapp2-container": return .watchApp
        case "framework", "framework.static": return .framework
        case "bundle": return .resourceBundle
        case "bundle.unit-test", "bundle.ocunit-test": return .unitTests
        case "bundle.ui-testing": return .uiTests
        case "extensionkit-extension", "watchkit-extension", "watchkit2-extension", "tv-app-extension",
             "app-extension", "xcode-extension":
            return .appExtension
        default:
            if t.hasPrefix("app-extension.") || t.hasSuffix("-extension") { return .appExtension }
            return nil
        }
    }
}

/// A unit of code a target links or embeds.
public struct CodeLink: Sendable, Equatable, Hashable {
    public enum Kind: String, Sendable, Codable {
        /// A framework or static-library target of the same project (or of a generated project spec).
        case target
        /// A local Swift package, or a remote one whose checkout is in the input.
        case package
        /// A CocoaPods pod whose sources are in `Pods/`.
        case pod
    }
    public var kind: Kind
    /// The target's, package's or pod's name.
    public var name: String
    /// True when the product is copied into the linking bundle (an embedded dynamic framework);
    /// false for static code, or a framework another bundle embeds.
    public var embedded: Bool
    /// Source files of that code present in the input (for targets: their own sources; a
    /// target's own links are separate `CodeLink`s of the closure).
    public var files: [String]

    public init(kind: Kind, name: String, embedded: Bool = false, files: [String] = []) {
        self.kind = kind
        self.name = name
        self.embedded = embedded
        self.files = files
    }

    /// How a reader names it: "framework target Shared", "package Kit", "pod Alamofire".
    public var label: String {
        switch kind {
        case .target: return "linked target \(name)"
        case .package: return name.isEmpty ? "a local package" : "package \(name)"
        case .pod: return "pod \(name)"
        }
    }
}

/// A remote Swift package a project references: its repository and version requirement as
/// written (`from 5.0.0`, `exactly 1.2.3`, `branch main`), and where.
public struct RemotePackageReference: Sendable, Equatable {
    public var repositoryURL: String
    public var requirement: String?
    public var location: FileLocation

    public init(repositoryURL: String, requirement: String?, location: FileLocation) {
        self.repositoryURL = repositoryURL
        self.requirement = requirement
        self.location = location
    }
}

/// What `XcodeProjectLoader.load` found in one project.
public struct ProjectLoadResult: Sendable {
    /// Every native target, in the project's order.
    public var targets: [ProjectTarget]
    /// One bundle per target whose product is a bundle.
    public var bundles: [AppBundle]
    public var problems: [LoadProblem]
    /// Configuration names of the project and the one chosen.
    public var configurationNames: [String]
    public var configuration: String?
    /// The project depends on remote Swift packages (`XCRemoteSwiftPackageReference`), code
    /// that is not in the input.
    public var usesRemotePackages = false
    /// The remote packages the project references (`XCRemoteSwiftPackageReference`), for the
    /// SDK inventory when no `Package.resolved` pins them.
    public var remotePackages: [RemotePackageReference] = []

    public init(targets: [ProjectTarget] = [], bundles: [AppBundle] = [], problems: [LoadProblem] = [],
                configurationNames: [String] = [], configuration: String? = nil) {
        self.targets = targets
        self.bundles = bundles
        self.problems = problems
        self.configurationNames = configurationNames
        self.configuration = configuration
    }
}

/// Errors that stop a project from loading at all (malformed pbxproj files are `FormatError`s).
public enum XcodeProjectError: Error, Equatable, Sendable, CustomStringConvertible {
    case noProjectFile(String)
    case unknownConfiguration(String, available: [String])

    public var description: String {
        switch self {
        case .noProjectFile(let p): return "\(p): no project.pbxproj"
        case .unknownConfiguration(let c, let available):
            return "no build configuration named '\(c)' (the project has: \(available.joined(separator: ", ")))"
        }
    }
}
