import Foundation
import Artifacts
import Evidence
import Formats

/// What the device, orientation and launch-screen rules read of an iOS app, the same way for a
/// built app (its Info.plist) and a project (the Info.plist file, the keys Xcode generates from
/// `INFOPLIST_KEY_*` settings, and `TARGETED_DEVICE_FAMILY`).
enum AppTraits {
    static let allOrientations = ["UIInterfaceOrientationPortrait", "UIInterfaceOrientationPortraitUpsideDown",
                                  "UIInterfaceOrientationLandscapeLeft", "UIInterfaceOrientationLandscapeRight"]

    /// Built apps and projects: a folder of files shows neither the keys Xcode generates nor the
    /// files it copies.
    static func judges(_ product: Product) -> Bool {
        Readiness.builtKinds.contains(product.kind) || product.kind == .project
    }

    /// Apps, App Clips, built for iOS (a project target whose SDK is another platform is not).
    static func isIOSApp(_ b: AppBundle) -> Bool {
        (b.kind == .app || b.kind == .appClip) && (b.sourcePlatform ?? "iOS") == "iOS" && builtForIOS(b)
            && (b.infoPlist.map { $0.error == nil && $0.root?.dictionary != nil } ?? !b.generatedInfoPlistKeys.isEmpty)
    }

    /// A built bundle's `CFBundleSupportedPlatforms`, when it says, names iPhoneOS (not a
    /// visionOS, tvOS or Mac app).
    /// In a project: `SUPPORTED_PLATFORMS`, when set, names iphoneos, and `TARGETED_DEVICE_FAMILY`,
    /// when set, names iPhone or iPad (a visionOS target may inherit `SDKROOT = iphoneos`).
    static func builtForIOS(_ b: AppBundle) -> Bool {
        if isProjectTarget(b) {
            if let platforms = b.buildSettings["SUPPORTED_PLATFORMS"]?.value, !platforms.isEmpty,
               !platforms.split(separator: " ").contains("iphoneos") { return false }
            if let families = b.buildSettings["TARGETED_DEVICE_FAMILY"]?.value, !families.isEmpty {
                let list = families.split(whereSeparator: { $0 == "," || $0 == " " })
                if !list.contains("1") && !list.contains("2") { return false }
            }
            return true
        }
        guard let platforms = b.infoValue("CFBundleSupportedPlatforms")?.node.array else { return true }
        let names = platforms.compactMap(\.string)
        return names.isEmpty || names.contains { $0.hasPrefix("iPhone") }
    }

    /// Whether the app runs on iPad as an iPad app: `UIDeviceFamily` contains 2. In a project Xcode
    /// writes that key from `TARGETED_DEVICE_FAMILY` (iPhone only when unset).
    static func supportsIPad(_ b: AppBundle) -> Bool {
        if isProjectTarget(b) {
            let families = b.buildSettings["TARGETED_DEVICE_FAMILY"]?.value ?? "1"
            return families.split(whereSeparator: { $0 == "," || $0 == " " }).contains("2")
        }
        guard let family = b.infoValue("UIDeviceFamily") else { return false }
        if let n = family.node.integer { return n == 2 }
        return (family.node.array ?? []).contains { $0.integer == 2 || $0.string == "2" }
    }

    /// A bundle read from a project (its Info.plist is completed from build settings at build time).
    static func isProjectTarget(_ b: AppBundle) -> Bool { !b.buildSettings.isEmpty }

    /// An array of strings, or a generated key's space-separated value.
    static func strings(_ v: InfoValue) -> [String] {
        if let s = v.node.string { return s.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).map(String.init) }
        return v.node.strings
    }

    /// A Boolean key set to true (`<true/>`, or `YES` from a build setting).
    static func isTrue(_ v: InfoValue?) -> Bool {
        guard let v else { return false }
        if let b = v.node.bool { return b }
        if let s = v.node.string?.lowercased() { return s == "yes" || s == "true" || s == "1" }
        if let n = v.node.integer { return n != 0 }
        return false
    }

    /// The iPad's orientations: `UISupportedInterfaceOrientations~ipad`, else the plain key.
    static func iPadOrientations(_ b: AppBundle) -> (key: String, value: InfoValue)? {
        for key in ["UISupportedInterfaceOrientations~ipad", "UISupportedInterfaceOrientations"] {
            if let v = b.infoValue(key) { return (key, v) }
        }
        return nil
    }

    /// `UIRequiresFullScreen` as the iPad reads it (the `~ipad` variant first), when it is true.
    static func requiresFullScreen(_ b: AppBundle) -> (key: String, value: InfoValue)? {
        for key in ["UIRequiresFullScreen~ipad", "UIRequiresFullScreen"] {
            if let v = b.infoValue(key) { return isTrue(v) ? (key, v) : nil }
        }
        return nil
    }

    enum LaunchScreen {
        /// `UILaunchStoryboardName` (or a device variant, or `UILaunchStoryboards`) names these.
        case storyboard(key: String, names: [String], value: InfoValue)
        /// `UILaunchScreen` / `UILaunchScreens`: the system draws it, nothing to ship.
        case plist
        case none
    }

    /// How the app provides its launch screen on a device (`~ipad` or `~iphone`).
    static func launchScreen(_ b: AppBundle, device: String) -> LaunchScreen {
        for key in ["UILaunchScreen~\(device)", "UILaunchScreen", "UILaunchScreens"] where b.infoValue(key) != nil { return .plist }
        for key in ["UILaunchStoryboardName~\(device)", "UILaunchStoryboardName"] {
            if let v = b.infoValue(key), let name = b.resolvedInfoString(key)?.trimmingCharacters(in: .whitespaces), !name.isEmpty {
                return .storyboard(key: key, names: [name], value: v)
            }
        }
        if let v = b.infoValue("UILaunchStoryboards"), let d = v.node.dictionary {
            let names = (d.entry("UILaunchStoryboardDefinitions")?.value.array ?? []).compactMap {
                $0.dictionary?.entry("UILaunchStoryboardFile")?.value.string
            }
            if !names.isEmpty { return .storyboard(key: "UILaunchStoryboards", names: names, value: v) }
        }
        return .none
    }

    /// Whether the product shows the bundle's files whole enough to say a storyboard is not
    /// shipped: a built app, or a project target (its resources build phase).
    static func knowsInterfaceFiles(_ product: Product, _ b: AppBundle) -> Bool {
        Readiness.builtKinds.contains(product.kind) || (product.kind == .project && isProjectTarget(b))
    }

    /// The storyboard or nib a launch-storyboard name stands for, if the bundle ships it:
    /// `Name.storyboardc` / `Name.nib` in a built app, `Name.storyboard` / `Name.xib` in a project.
    static func ships(storyboard name: String, in b: AppBundle) -> Bool {
        // A name Preflight could not resolve (`$(LAUNCH_SCREEN)`) is not known to be missing.
        if Readiness.isUnresolved(name) { return true }
        var base = name
        for ext in [".storyboardc", ".storyboard", ".nib", ".xib"] where base.hasSuffix(ext) { base = String(base.dropLast(ext.count)) }
        return b.interfaceFiles.contains { PathUtil.removingExtension(PathUtil.lastComponent($0)) == base }
    }

    /// Says where the storyboard is missing from, for a message.
    static func notShipped(_ name: String, in b: AppBundle) -> String {
        isProjectTarget(b) ? "but the target's resources hold no \(name).storyboard or \(name).xib"
            : "but the bundle holds no \(name).storyboardc or \(name).nib"
    }

    /// A launch storyboard an Info.plist value names that the bundle does not ship.
    struct UnshippedStoryboard {
        var name: String
        var key: String
        /// Where the name is written.
        var location: FileLocation
        /// Says where it is missing from, for a message.
        var reason: String
    }

    /// The storyboards a `.storyboard` launch screen names that the bundle does not ship; none
    /// where the product does not show the bundle's interface files whole.
    static func unshippedStoryboards(_ product: Product, _ b: AppBundle, key: String, names: [String],
                                     value: InfoValue) -> [UnshippedStoryboard] {
        guard knowsInterfaceFiles(product, b) else { return [] }
        let at = FileLocation(path: value.location.path, position: value.node.position ?? value.location.position)
        return names.filter { !ships(storyboard: $0, in: b) }.map {
            UnshippedStoryboard(name: $0, key: key, location: at, reason: notShipped($0, in: b))
        }
    }

    /// Legacy launch images (`UILaunchImages`, `UILaunchImageFile`): iOS 7-era, no multitasking.
    /// In a project, Xcode writes `UILaunchImages` from an asset catalog's launch image set.
    static func hasLaunchImages(_ b: AppBundle, in product: Product) -> Bool {
        ["UILaunchImages", "UILaunchImages~ipad", "UILaunchImageFile", "UILaunchImageFile~ipad"].contains { b.infoValue($0) != nil }
            || !(b.buildSettings["ASSETCATALOG_COMPILER_LAUNCHIMAGE_NAME"]?.value ?? "").isEmpty
            || !defaultLaunchImages(b, in: product).isEmpty
    }

    /// Launch images iOS finds by file name with no Info.plist key: `Default.png`,
    /// `Default-568h@2x.png`, `Default-Portrait~ipad.png`… at the root of a built app, or
    /// copied by a project target.
    static func defaultLaunchImages(_ b: AppBundle, in product: Product) -> [String] {
        func isLaunchImage(_ path: String) -> Bool {
            let name = PathUtil.lastComponent(path)
            return name.hasPrefix("Default") && name.lowercased().hasSuffix(".png")
                && (name.count == 11 || ["-", "@", "~", "."].contains(name.dropFirst(7).first.map(String.init) ?? ""))
        }
        if Readiness.builtKinds.contains(product.kind), let index = product.resources?.index {
            return index.files(under: b.path).map(\.path).filter { PathUtil.parent($0) == b.path && isLaunchImage($0) }
        }
        return b.resourcePaths.filter(isLaunchImage)
    }

    /// Where a finding about the app's Info.plist as a whole points.
    static func infoLocation(_ b: AppBundle) -> FileLocation {
        if let info = b.infoPlist { return FileLocation(path: info.path, position: info.root?.position) }
        return FileLocation(path: b.infoPlistPath ?? b.path)
    }
}
