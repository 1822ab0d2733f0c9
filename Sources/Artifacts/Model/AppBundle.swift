import Foundation
import Formats

public enum BundleKind: String, Sendable, Codable, CaseIterable {
    case app, appExtension = "app-extension", watchApp = "watch-app", appClip = "app-clip"
    case framework, resourceBundle = "bundle", unitTests = "unit-tests", uiTests = "ui-tests"
    case other

    /// Bundles whose Info.plist and code ship to users and are judged by App Review.
    public var ships: Bool { self != .unitTests && self != .uiTests }
}

/// A property-list file as loaded: its tree, or why it could not be read.
public struct PlistFile: Sendable, Equatable {
    public var path: String
    public var root: PlistNode?
    public var error: FormatError?

    public init(path: String, root: PlistNode?, error: FormatError? = nil) {
        self.path = path
        self.root = root
        self.error = error
    }
}

public enum LocalizedFileKind: String, Sendable, Codable {
    case infoPlistStrings, strings, stringsdict, xcstrings
}

/// A localized resource of a bundle: `xx.lproj/Name.strings`, `.stringsdict`, or a string catalog.
public struct LocalizedFile: Sendable, Equatable {
    /// The language folder name without `.lproj` (`en`, `pt-BR`, `Base`); nil for a catalog.
    public var language: String?
    public var path: String
    public var kind: LocalizedFileKind
    /// The table name as iOS looks it up (`InfoPlist`, `Localizable`).
    public var table: String

    public init(language: String?, path: String, kind: LocalizedFileKind, table: String) {
        self.language = language
        self.path = path
        self.kind = kind
        self.table = table
    }
}

/// `CODE_SIGN_ENTITLEMENTS` of one build configuration of a target: the file it names (nil
/// when the configuration sets none), where the setting is written, and the parsed file.
public struct ConfigurationEntitlements: Sendable, Equatable {
    public var configuration: String
    public var path: String?
    public var setting: FileLocation?
    public internal(set) var file: PlistFile?

    public init(configuration: String, path: String?, setting: FileLocation? = nil, file: PlistFile? = nil) {
        self.configuration = configuration
        self.path = path
        self.setting = setting
        self.file = file
    }
}

/// A setting value from a project, with where it was written.
public struct SettingValue: Sendable, Equatable {
    public var value: String
    public var location: FileLocation?
    public init(_ value: String, location: FileLocation? = nil) {
        self.value = value
        self.location = location
    }
}

/// One bundle of a product: the app, an extension, a framework, a resource bundle or, in a
/// project, a target's product. Loaders fill in paths; `ContentLoader` parses files. Only this
/// module's loaders set its properties: to evidence, rules and reporters it is an immutable value.
public struct AppBundle: Sendable {
    public internal(set) var name: String
    public internal(set) var kind: BundleKind
    /// The bundle folder (built apps) or the target's folder (projects), relative to the input.
    public internal(set) var path: String
    /// Names this bundle in its product, unique and stable whatever the display names: the
    /// bundle folder in a built app, `<project>#<target id>` in a project, the Info.plist's
    /// path in a plain folder. Other bundles and the evidence refer to it by this, never by
    /// name (names of targets in several projects are made unique by suffixes).
    public internal(set) var id: String
    /// The `id` of the bundle that contains or embeds this one.
    public internal(set) var parentID: String?

    public internal(set) var infoPlistPath: String?
    public internal(set) var infoPlist: PlistFile?
    /// Set when the Info.plist is run through the C preprocessor (`INFOPLIST_PREPROCESS`), with
    /// `INFOPLIST_PREPROCESSOR_DEFINITIONS`; source folders without a project use an empty set.
    public internal(set) var infoPlistPreprocessorDefinitions: [String: String]?
    /// Keys Xcode generates into the Info.plist from `INFOPLIST_KEY_*` build settings.
    public internal(set) var generatedInfoPlistKeys: [String: SettingValue] = [:]

    public internal(set) var entitlementsPath: String?
    public internal(set) var entitlements: PlistFile?
    /// Where the entitlements came from: a code signature or a `.entitlements` file.
    public internal(set) var entitlementsSource: String?
    /// The build configuration whose settings the bundle has (projects): the one read.
    public internal(set) var configuration: String?
    /// The target's other build configurations whose `CODE_SIGN_ENTITLEMENTS` differs from the
    /// configuration read (projects), with their entitlements files parsed.
    public internal(set) var otherConfigurationEntitlements: [ConfigurationEntitlements] = []

    public internal(set) var privacyManifestPaths: [String] = []
    public internal(set) var privacyManifests: [PlistFile] = []

    public internal(set) var localizations: [LocalizedFile] = []
    /// Translation files on disk beside this bundle's tables (same folder of `.lproj`
    /// folders, same file name) that no bundle ships (projects; `UnshippedLocalizations`).
    public internal(set) var unshippedLocalizations: [LocalizedFile] = []
    /// `.xcassets` folders a project target copies (projects; built apps ship `Assets.car`).
    public internal(set) var assetCatalogPaths: [String] = []
    /// Icon Composer `.icon` documents a project target copies (Xcode 26 app icons).
    public internal(set) var iconDocumentPaths: [String] = []
    /// Names of the `.lproj` folders the bundle ships, without the extension, sorted (built
    /// apps: whatever they hold — strings, compiled storyboards, images).
    public internal(set) var lprojFolders: [String] = []

    /// Parsed `InfoPlist.strings` tables by language (what the permission prompts show).
    public internal(set) var infoPlistStrings: [String: StringsTable] = [:]
    /// Keys and format strings of every other `.strings` and `.stringsdict` table, by path.
    public internal(set) var localizedTables: [String: LocalizedTable] = [:]
    /// Parsed string catalogs (`.xcstrings`, projects only) by path.
    public internal(set) var stringCatalogs: [String: StringCatalog] = [:]

    public internal(set) var provisioningProfilePath: String?
    public internal(set) var provisioningProfile: ProvisioningProfile?

    /// `CFBundleExecutable` resolved to a path (built apps).
    public internal(set) var executablePath: String?
    /// Mach-O files of this bundle: its executable, plus loose dylibs.
    public internal(set) var binaryPaths: [String] = []
    public internal(set) var binaries: [BinaryFile] = []
    /// Interface Builder files the bundle ships: compiled `.storyboardc` and `.nib` (built apps),
    /// `.storyboard` and `.xib` resources of the target (projects); relative to the input.
    public internal(set) var interfaceFiles: [String] = []
    /// Files and folders the target copies into its bundle (projects: Resources phase and
    /// synchronized folders), relative to the input.
    public internal(set) var resourcePaths: [String] = []
    /// Source files the target compiles itself (projects), relative to the input.
    public internal(set) var sourceFiles: [String] = []
    /// The rest of the target's code closure (projects): framework and static-library targets,
    /// local packages and pods it links or embeds, transitively, each with its files.
    public internal(set) var linkedCode: [CodeLink] = []
    /// Resolved build settings of the shipping configuration (projects).
    public internal(set) var buildSettings: [String: SettingValue] = [:]
    /// Identifier from the build settings when the Info.plist uses `$(PRODUCT_BUNDLE_IDENTIFIER)`.
    public internal(set) var settingsIdentifier: String?

    /// `id` defaults to the path and name (enough for bundles made by hand).
    public init(name: String, kind: BundleKind, path: String, id: String? = nil, parentID: String? = nil) {
        self.name = name
        self.kind = kind
        self.path = path
        self.id = id ?? path + "#" + name
        self.parentID = parentID
    }
}

extension AppBundle {
    /// The value of an Info.plist key as the built app will have it: the file's value, else the
    /// value generated from an `INFOPLIST_KEY_*` build setting.
    public func infoValue(_ key: String) -> InfoValue? {
        if let entry = infoPlist?.root?.dictionary?.entry(key), let path = infoPlist?.path {
            return InfoValue(node: entry.value, location: FileLocation(path: path, position: entry.keyPosition ?? entry.value.position))
        }
        if let s = generatedInfoPlistKeys[key] {
            return InfoValue(node: PlistNode(.string(s.value)), location: s.location ?? FileLocation(path: path))
        }
        return nil
    }

    /// Every Info.plist key the built bundle will carry.
    public var infoKeys: [String] {
        var seen = Set<String>()
        var keys = (infoPlist?.root?.dictionary?.keys ?? []).filter { seen.insert($0).inserted }
        for k in generatedInfoPlistKeys.keys.sorted() where seen.insert(k).inserted { keys.append(k) }
        return keys
    }

    public var identifier: String? {
        if let s = infoValue("CFBundleIdentifier")?.node.string, !s.contains("$(") , !s.contains("${") { return s }
        return settingsIdentifier ?? infoValue("CFBundleIdentifier")?.node.string
    }

    /// An Info.plist string as the built app will have it (`$(MARKETING_VERSION)` expanded in projects).
    public func resolvedInfoString(_ key: String) -> String? {
        infoValue(key)?.node.string.map(expandingBuildSettings)
    }

    public var shortVersion: String? { resolvedInfoString("CFBundleShortVersionString") }
    public var buildVersion: String? { resolvedInfoString("CFBundleVersion") }
    public var minimumOSVersion: String? {
        if let v = resolvedInfoString("MinimumOSVersion") { return v }
        for setting in ["IPHONEOS_DEPLOYMENT_TARGET", "WATCHOS_DEPLOYMENT_TARGET", "TVOS_DEPLOYMENT_TARGET", "XROS_DEPLOYMENT_TARGET"] {
            if let v = buildSettings[setting]?.value, !v.isEmpty {
                let sdk = buildSettings["SDKROOT"]?.value ?? "iphoneos"
                let matches = setting.hasPrefix("IPHONEOS") ? sdk.hasPrefix("iphone") : setting.hasPrefix("WATCH") ? sdk.hasPrefix("watch")
                    : setting.hasPrefix("TVOS") ? sdk.hasPrefix("appletv") : sdk.hasPrefix("xr")
                if matches { return v }
            }
        }
        return buildSettings["IPHONEOS_DEPLOYMENT_TARGET"]?.value
    }
    /// The folder that holds the bundle's own code: its path, less a trailing `Resources`,
    /// `Supporting Files` or similar folder the Info.plist sits in beside the code.
    public var homeFolder: String {
        guard let info = infoPlistPath else { return path }
        return FolderLoader.bundleFolder(infoPlistPath: info)
    }

    /// Whether a file lies in the bundle's home folder.
    public func isHome(_ file: String) -> Bool {
        let home = homeFolder
        return home.isEmpty || file.hasPrefix(home + "/")
    }

    /// Languages of `.lproj` folders and of string catalogs.
    public var languages: [String] {
        var all = Set(localizations.compactMap(\.language))
        for catalog in stringCatalogs.values { all.formUnion(catalog.languages) }
        return all.sorted()
    }
}

public struct InfoValue: Sendable, Equatable {
    public var node: PlistNode
    public var location: FileLocation
}
