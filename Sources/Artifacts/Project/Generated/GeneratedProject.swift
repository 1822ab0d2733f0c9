import Foundation
import Formats

/// A project described by a generator spec (XcodeGen `project.yml`, Tuist `Project.swift`),
/// read into what the generated `.xcodeproj` would hold. `GeneratedProjectGraph` turns it into
/// the same object graph a `project.pbxproj` is read into, so targets, settings, bundles and
/// code closures come out of `ProjectLoading` exactly as for a committed project.
struct GeneratedProject {
    var name: String
    /// The spec file (relative to the input root): where settings and targets are written.
    var specPath: String
    /// The folder the generated project lives in; paths in settings are relative to it.
    var directory: String
    /// Build configuration names, in order.
    var configurations: [String] = ["Debug", "Release"]
    var settings = GeneratedSettings()
    var targets: [GeneratedTarget] = []
    /// Local packages by name → folder relative to the input root.
    var localPackages: [String: String] = [:]
    /// Packages the spec fetches from elsewhere (code that is not in the input).
    var remotePackages: Set<String> = []
    /// Where a remote package comes from, by name, when the spec says (XcodeGen's `url` or
    /// `github`, and its version requirement), with the position of its entry.
    var remotePackageSources: [String: (url: String, requirement: String?, position: SourcePosition?)] = [:]
    /// The spec links prebuilt or fetched code (frameworks, Carthage, remote packages).
    var usesExternalCode = false
}

/// One build setting as a spec writes it, in the order it applies (later wins).
struct GeneratedSetting {
    /// The name, with `[sdk=…]` conditions if any.
    var key: String
    var value: String
    var location: FileLocation?
}

/// Settings of a project or target: an `.xcconfig` and assignments per configuration.
struct GeneratedSettings {
    /// Configuration name → xcconfig path relative to the input root.
    var xcconfigs: [String: (path: String, location: FileLocation?)] = [:]
    /// Configuration name → assignments, lowest first.
    var values: [String: [GeneratedSetting]] = [:]
}

/// A property list a generator writes from the spec (XcodeGen `info:` / `entitlements:`
/// with `properties:`), modelled in memory with the spec's positions.
struct GeneratedPlist {
    /// The file the generator writes, relative to the input root (nil when it names none).
    var path: String?
    var root: PlistNode
    /// Keys the generator adds itself (XcodeGen's Info.plist defaults), where not in `root`.
    var defaults: [String: String] = [:]
    var location: FileLocation
    /// The keys XcodeGen and Tuist both write into a generated Info.plist (Xcode's template).
    static let infoDefaults: [String: String] = [
        "CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)", "CFBundleInfoDictionaryVersion": "6.0",
        "CFBundleExecutable": "$(EXECUTABLE_NAME)", "CFBundleName": "$(PRODUCT_NAME)",
        "CFBundleDevelopmentRegion": "$(DEVELOPMENT_LANGUAGE)", "CFBundleShortVersionString": "1.0",
        "CFBundleVersion": "1", "CFBundlePackageType": "$(PRODUCT_BUNDLE_PACKAGE_TYPE)",
    ]
    /// Set when the spec computes the file with code that is not run: its content is unknown.
    var error: FormatError?
    /// The file's folder is the target's (XcodeGen writes beside the sources; Tuist writes
    /// into `Derived/`, which is not).
    var inTargetFolder = true
}

struct GeneratedDependency {
    enum Kind: Equatable {
        /// A target of the same project.
        case target
        /// A product of a package declared by the spec.
        case package(product: String?)
        /// A target of the generated project in another folder (relative to the input root).
        case project(folder: String)
    }
    var kind: Kind
    var name: String
    /// Copied into the depending bundle (extensions, dynamic frameworks of an app).
    var embed: Bool
    var link = true
}

struct GeneratedTarget {
    var name: String
    /// `com.apple.product-type.*`.
    var productType: String
    var productName: String?
    var location: FileLocation
    var settings = GeneratedSettings()
    /// INFOPLIST_FILE / CODE_SIGN_ENTITLEMENTS the generator sets from the spec's plist paths
    /// (below the target's own settings).
    var pathSettings: [GeneratedSetting] = []
    /// Files the target compiles, relative to the input root.
    var sources: [String] = []
    /// Files the target copies (privacy manifests, localizations…), relative to the input root.
    var resources: [String] = []
    var info: GeneratedPlist?
    var entitlements: GeneratedPlist?
    var dependencies: [GeneratedDependency] = []

    /// Application-like targets embed what they depend on by default.
    var isApplication: Bool {
        productType.hasPrefix("com.apple.product-type.application")
    }
}

/// What reading a spec gave: the project (nil when nothing usable was read) and problems.
struct GeneratedProjectRead {
    var project: GeneratedProject?
    var problems: [LoadProblem] = []
    /// Files the spec includes (XcodeGen `include:`), which are parts of it, not specs.
    var includedFiles: [String] = []
    /// Remote packages a manifest of the whole workspace declares (Tuist's `Package.swift`),
    /// which no one project references.
    var packageReferences: [RemotePackageReference] = []
}

/// Settings a spec may make in all (`max-plist-objects`): each target repeats its settings
/// for every configuration, so a spec with many targets and configurations would multiply.
struct GeneratedSettingsBudget {
    private(set) var remaining: Int
    private(set) var exhausted = false

    init(limits: ReaderLimits) { remaining = limits.maxPlistObjects }

    /// Charges `count` settings; false once the budget is spent.
    mutating func charge(_ count: Int) -> Bool {
        remaining -= count
        if remaining < 0 { exhausted = true }
        return !exhausted
    }

    func problem(_ spec: String) -> LoadProblem? {
        guard exhausted else { return nil }
        return LoadProblem(.unreadable(FormatError(.limitExceeded("max-plist-objects"), format: "generated project",
            reason: "its targets make more than max-plist-objects build settings across configurations; later targets are left out")),
            path: spec)
    }
}
