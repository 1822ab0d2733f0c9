import Foundation
import Artifacts
import Formats

/// What the icon rules share: which bundles carry an app icon, the device families they run
/// on, the icon set a project target names and its `Contents.json`, and the icon names and
/// compiled asset catalog of a built app. Everything is read through `Product.resources`, so
/// an input is read for icons only when these rules run.
enum AppIcons {
    /// Bundles that show an icon on the Home Screen.
    static let iconBundleKinds: Set<BundleKind> = [.app, .appClip, .watchApp]

    /// Pixel sizes App Store Connect requires of an iOS app icon (Apple's "App icons" page:
    /// iPhone 60 pt @2x, iPad 76 pt @2x and iPad Pro 83.5 pt @2x, App Store 1024 px).
    static let iPhonePixels = 120
    static let iPadPixels = [152, 167]
    static let marketingPixels = 1024

    // MARK: - Platforms and device families

    /// A watchOS bundle (its icons follow watch rules: sizes generated, no alpha at all).
    static func isWatch(_ b: AppBundle) -> Bool {
        if b.kind == .watchApp { return true }
        if let sdk = b.buildSettings["SDKROOT"]?.value { return sdk.hasPrefix("watch") }
        return b.infoValue("DTPlatformName")?.node.string?.hasPrefix("watch") ?? false
    }

    /// An iOS bundle: the SDK is iphoneos (projects), or the Info.plist names no other
    /// platform (built apps; an `.ipa` holds an iOS app unless it says otherwise).
    static func isIOS(_ b: AppBundle) -> Bool {
        if isWatch(b) { return false }
        if let sdk = b.buildSettings["SDKROOT"]?.value, !sdk.isEmpty { return sdk.hasPrefix("iphone") }
        if let platform = b.infoValue("DTPlatformName")?.node.string { return platform.hasPrefix("iphone") }
        let platforms = b.infoValue("CFBundleSupportedPlatforms")?.node.strings ?? []
        if !platforms.isEmpty { return platforms.contains { $0.hasPrefix("iPhone") } }
        return b.infoValue("LSMinimumSystemVersion") == nil
    }

    /// The device families (1 iPhone, 2 iPad) a bundle supports: `TARGETED_DEVICE_FAMILY`
    /// (projects; Xcode's default is 1) or `UIDeviceFamily` (built apps).
    static func deviceFamilies(_ b: AppBundle) -> Set<Int> {
        if let setting = b.buildSettings["TARGETED_DEVICE_FAMILY"]?.value {
            return Set(setting.split(whereSeparator: { $0 == "," || $0 == " " }).compactMap { Int($0) })
        }
        if let node = b.infoValue("UIDeviceFamily")?.node {
            if let n = node.integer { return [Int(n)] }
            return Set((node.array ?? []).compactMap { $0.integer.map(Int.init) ?? $0.string.flatMap { Int($0) } })
        }
        return [1]
    }

    // MARK: - Projects

    /// A build setting's value when it is set and fully resolved.
    static func setting(_ key: String, of b: AppBundle) -> SettingValue? {
        guard let v = b.buildSettings[key], !v.value.trimmingCharacters(in: .whitespaces).isEmpty,
              !Readiness.isUnresolved(v.value) else { return nil }
        return v
    }

    /// Every `.appiconset` folder in the target's asset catalogs, by set name (a set may sit in
    /// a group folder of its catalog).
    static func iconSetFolders(of b: AppBundle, in resources: ResourceFiles) -> [String: String] {
        var out: [String: String] = [:]
        for catalog in b.assetCatalogPaths {
            for e in resources.index.files(under: catalog) where e.kind == .directory && PathUtil.pathExtension(e.path) == "appiconset" {
                let name = PathUtil.removingExtension(PathUtil.lastComponent(e.path))
                if out[name] == nil { out[name] = e.path }
            }
        }
        return out
    }

    /// Every app icon name the target can compile: iOS and watchOS `.appiconset`s, visionOS
    /// `.solidimagestack`s and tvOS `.brandassets` in its catalogs, and Icon Composer `.icon`
    /// documents (Xcode 26) it copies.
    static func knownIconNames(of b: AppBundle, in resources: ResourceFiles) -> Set<String> {
        var out = Set(b.iconDocumentPaths.map { PathUtil.removingExtension(PathUtil.lastComponent($0)) })
        for catalog in b.assetCatalogPaths {
            for e in resources.index.files(under: catalog)
            where e.kind == .directory && ["appiconset", "solidimagestack", "brandassets"].contains(PathUtil.pathExtension(e.path)) {
                out.insert(PathUtil.removingExtension(PathUtil.lastComponent(e.path)))
            }
        }
        return out
    }

    /// A catalog of the target that holds nothing but its own `Contents.json`: filled by a
    /// build script (Loop's `DerivedAssets.xcassets`), so its sets are not known.
    static func hasCatalogFilledAtBuildTime(_ b: AppBundle, in resources: ResourceFiles) -> Bool {
        b.assetCatalogPaths.contains { catalog in
            resources.index.files(under: catalog).allSatisfy { PathUtil.lastComponent($0.path) == "Contents.json" }
        }
    }

    /// One image slot of an icon set's `Contents.json`.
    struct Slot {
        var idiom: String
        var platform: String?
        /// Points, as written (`60x60`, `83.5x83.5`); nil for a single-size set's watch entries.
        var size: String?
        var scale: Int
        var filename: String?
        /// Dark or tinted variants (`appearances`): optional, and allowed to be transparent.
        var isAppearanceVariant: Bool
        var role: String?
        var location: FileLocation

        /// Pixel width the slot requires: points × scale, when the size is known.
        var pixels: Int? {
            guard let size, let points = Double(size.split(separator: "x").first ?? "") else { return nil }
            let px = points * Double(scale)
            return px == px.rounded() ? Int(px) : nil
        }
        var isMarketing: Bool { (idiom == "ios-marketing" || idiom == "watch-marketing") && size == "1024x1024" }
        /// Xcode 14's single size: one 1024 image from which every iOS size is made.
        var isSingleSizeIOS: Bool { idiom == "universal" && platform == "ios" && size == "1024x1024" }
    }

    struct IconSet {
        var name: String
        var folder: String
        var contentsPath: String
        var slots: [Slot]

        /// Slots of the default appearance that name an image.
        var filled: [Slot] { slots.filter { !$0.isAppearanceVariant && $0.filename != nil } }
        var isSingleSize: Bool { filled.contains { $0.isSingleSizeIOS } }
        func path(of slot: Slot) -> String? { slot.filename.map { PathUtil.join(folder, $0) } }
    }

    /// The icon set's `Contents.json` as slots; nil when it is missing or unreadable (the
    /// `app_icon_set_invalid` rule says so).
    static func iconSet(named name: String, folder: String, resources: ResourceFiles) -> IconSet? {
        let contents = PathUtil.join(folder, "Contents.json")
        guard resources.index.entry(contents) != nil, case .success(let root) = resources.json(contents),
              let images = root["images"]?.array else { return nil }
        var slots: [Slot] = []
        for image in images {
            guard let idiom = image["idiom"]?.string else { continue }
            let scale = image["scale"]?.string.flatMap { Int($0.replacingOccurrences(of: "x", with: "")) } ?? 1
            let filename = image["filename"]?.string.flatMap { $0.isEmpty ? nil : $0 }
            let position = image.dictionary?.entry("filename")?.value.position ?? image.position
            slots.append(Slot(idiom: idiom, platform: image["platform"]?.string, size: image["size"]?.string, scale: scale,
                              filename: filename, isAppearanceVariant: !(image["appearances"]?.array?.isEmpty ?? true),
                              role: image["role"]?.string, location: FileLocation(path: contents, position: position)))
        }
        return IconSet(name: name, folder: folder, contentsPath: contents, slots: slots)
    }

    /// Whether a filled slot's image is in the set's folder.
    static func exists(_ slot: Slot, in set: IconSet, resources: ResourceFiles) -> Bool {
        guard let p = set.path(of: slot) else { return false }
        return resources.index.entry(p)?.kind == .file
    }

    /// The primary icon set a project's iOS or watchOS app target compiles, with where it is
    /// named; nil when the target names none or its value is not known.
    static func projectIconName(_ b: AppBundle) -> SettingValue? {
        guard !b.assetCatalogPaths.isEmpty, iconBundleKinds.contains(b.kind) || isWatch(b) else { return nil }
        return setting("ASSETCATALOG_COMPILER_APPICON_NAME", of: b)
    }

    // MARK: - Built apps

    /// `CFBundleIcons` (or `CFBundleIcons~ipad`) → `CFBundlePrimaryIcon` → `CFBundleIconName`,
    /// else the top-level `CFBundleIconName`, with where it is written.
    static func primaryIconName(_ b: AppBundle) -> (name: String, location: FileLocation)? {
        guard let info = b.infoPlist, let root = info.root else { return nil }
        for key in ["CFBundleIcons", "CFBundleIcons~ipad"] {
            if let entry = root[key]?["CFBundlePrimaryIcon"]?.dictionary?.entry("CFBundleIconName"),
               let name = entry.value.string, !name.isEmpty {
                return (name, FileLocation(path: info.path, position: entry.value.position ?? entry.keyPosition))
            }
        }
        if let entry = root.dictionary?.entry("CFBundleIconName"), let name = entry.value.string, !name.isEmpty {
            return (name, FileLocation(path: info.path, position: entry.value.position ?? entry.keyPosition))
        }
        return nil
    }

    /// An alternate icon of `CFBundleIcons` or `CFBundleIcons~ipad`.
    struct AlternateIcon {
        var key: String
        var dictionary: String
        var iconName: String?
        var iconFiles: [String]
        /// The alternate's key.
        var location: FileLocation
        /// Its `CFBundleIconName` value, else the key.
        var iconNameLocation: FileLocation
    }

    static func alternateIcons(_ b: AppBundle, in dictionary: String) -> [AlternateIcon] {
        guard let info = b.infoPlist, let alternates = info.root?[dictionary]?["CFBundleAlternateIcons"]?.dictionary else { return [] }
        return alternates.entries.map { e in
            let key = FileLocation(path: info.path, position: e.keyPosition ?? e.value.position)
            let name = e.value["CFBundleIconName"]
            return AlternateIcon(key: e.key, dictionary: dictionary, iconName: name?.string.flatMap { $0.isEmpty ? nil : $0 },
                                 iconFiles: e.value["CFBundleIconFiles"]?.strings ?? [], location: key,
                                 iconNameLocation: name?.position.map { FileLocation(path: info.path, position: $0) } ?? key)
        }
    }

    /// The bundle's compiled asset catalog, when it ships one.
    static func compiledCatalogPath(_ b: AppBundle, resources: ResourceFiles) -> String? {
        let path = PathUtil.join(b.path, "Assets.car")
        return resources.index.entry(path)?.kind == .file ? path : nil
    }

    /// The SDK a built bundle was made with (`DTPlatformVersion`, else the digits of `DTSDKName`).
    static func sdkVersion(_ b: AppBundle) -> String? {
        if let v = b.infoValue("DTPlatformVersion")?.node.string, Readiness.versionComponents(v) != nil { return v }
        guard let name = b.infoValue("DTSDKName")?.node.string else { return nil }
        let digits = String(name.drop { !$0.isNumber })
        return Readiness.versionComponents(digits) != nil ? digits : nil
    }

    /// Whether a built app's catalog holds the renditions of every device: not thinned by the
    /// App Store or for one device (thinning arguments, or a simulator or single-scale build).
    static func isComplete(_ catalog: CompiledAssetCatalog, iconSet: CompiledAssetCatalog.Facet, bundle: AppBundle) -> Bool {
        if catalog.isThinned { return false }
        if bundle.infoValue("DTPlatformName")?.node.string?.contains("simulator") == true { return false }
        // A build for one run destination (Xcode's ENABLE_ONLY_ACTIVE_RESOURCES) keeps the
        // icons of one idiom at one scale; a full build has several (iPhone @2x and @3x, or
        // iPhone and iPad). One idiom at one scale is taken for such a build, not judged.
        let device = catalog.renditions(of: iconSet).filter { $0.width > 0 && $0.attribute(.idiom) != CompiledAssetCatalog.Idiom.marketing.rawValue }
        return Set(device.map(\.scale)).count > 1 || Set(device.map { $0.attribute(.idiom) ?? 0 }).count > 1
    }

    /// Whether the renditions of an icon set include an image of `pixels` square for one of
    /// the idioms (universal always counts).
    static func hasRendition(_ renditions: [CompiledAssetCatalog.Rendition], pixels: Int, idioms: [CompiledAssetCatalog.Idiom]) -> Bool {
        let accepted = Set(idioms.map(\.rawValue) + [CompiledAssetCatalog.Idiom.universal.rawValue])
        return renditions.contains { $0.width == pixels && $0.height == pixels && accepted.contains($0.attribute(.idiom) ?? 0) }
    }
}
