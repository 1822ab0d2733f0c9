import Foundation
import Formats

/// A folder without an Xcode project (XcodeGen or Tuist repositories, folders of data files):
/// bundles are discovered from their Info.plist files, and each claims the entitlements,
/// privacy manifests and localizations in its folder that no deeper bundle claims.
enum FolderLoader {
    /// Folders that hold other projects' files or build output, never this app's sources.
    static let skippedFolders: Set<String> = ["Pods", "Carthage", "DerivedData", ".build", "build", "node_modules", "vendor"]

    static func isSkipped(_ path: String) -> Bool {
        path.split(separator: "/").contains { skippedFolders.contains(String($0)) || $0.hasSuffix(".xcodeproj") || $0.hasSuffix(".xcworkspace") || $0.hasSuffix(".xcassets") }
    }

    /// Info.plist candidates by name: `Info.plist`, `Foo-Info.plist`, `Info_Debug.plist`, `Info-iOS.plist`.
    static func isInfoPlistName(_ name: String) -> Bool {
        guard name.hasSuffix(".plist") else { return false }
        let stem = String(name.dropLast(6))
        if stem == "Info" { return true }
        if stem.hasPrefix("GoogleService") { return false }
        return stem.hasSuffix("-Info") || stem.hasSuffix("_Info") || stem.hasPrefix("Info-") || stem.hasPrefix("Info_")
    }

    /// Keys only a bundle's Info.plist has, for plists whose name alone does not prove it.
    static func looksLikeInfoPlist(_ root: PlistNode?) -> Bool {
        guard let keys = root?.dictionary?.keys else { return false }
        return keys.contains { $0.hasPrefix("CFBundle") || $0 == "NSExtension" || $0.hasPrefix("UI") || $0.hasPrefix("LS")
            || $0.hasPrefix("WK") || ($0.hasPrefix("NS") && $0.hasSuffix("UsageDescription")) || $0 == "NSAppTransportSecurity" }
    }

    static func bundles(index: FileIndex, source: FileSource, limits: ReaderLimits, problems: inout [LoadProblem]) -> [AppBundle] {
        var bundles: [AppBundle] = []
        for e in index.entries where e.kind == .file && isInfoPlistName(PathUtil.lastComponent(e.path)) && !isSkipped(e.path) {
            // Without a project the definitions are unknown: preprocess with none defined.
            let plist = ContentLoader.plist(e.path, source: source, limits: limits, preprocessorDefinitions: [:])
            let name = PathUtil.lastComponent(e.path)
            // `Info-iOS.plist`-style names also fit other plists; `-Info`/`_Info` suffixes are Xcode's own.
            let stem = PathUtil.removingExtension(name)
            let nameProves = stem == "Info" || stem.hasSuffix("-Info") || stem.hasSuffix("_Info")
            if !nameProves, plist.error == nil, !looksLikeInfoPlist(plist.root) { continue }
            var b = AppBundle(name: bundleName(infoPlistPath: e.path), kind: kind(infoPlistPath: e.path, root: plist.root),
                           path: bundleFolder(infoPlistPath: e.path), id: e.path)
            b.infoPlistPath = e.path
            b.infoPlist = plist
            bundles.append(b)
        }
        // Disambiguate equal names (several Info.plist variants in one folder).
        var counts: [String: Int] = [:]
        for b in bundles { counts[b.name, default: 0] += 1 }
        for i in bundles.indices where counts[bundles[i].name, default: 0] > 1 {
            bundles[i].name += " (" + PathUtil.lastComponent(bundles[i].infoPlistPath ?? "") + ")"
        }
        assignFiles(&bundles, index: index)
        return bundles
    }

    static func bundleName(infoPlistPath: String) -> String {
        let file = PathUtil.removingExtension(PathUtil.lastComponent(infoPlistPath))
        for suffix in ["-Info", "_Info"] where file.hasSuffix(suffix) && file.count > suffix.count {
            return String(file.dropLast(suffix.count))
        }
        let folder = bundleFolder(infoPlistPath: infoPlistPath)
        return folder.isEmpty ? "(root)" : PathUtil.lastComponent(folder)
    }

    /// The folder a source bundle owns: the Info.plist's folder, or its parent when the plist
    /// sits in a `Resources`/`Supporting Files` subfolder beside the target's code.
    static func bundleFolder(infoPlistPath: String) -> String {
        var folder = PathUtil.parent(infoPlistPath)
        while ["Resources", "Supporting Files", "SupportingFiles", "Support", "Configuration"].contains(PathUtil.lastComponent(folder)),
              !PathUtil.parent(folder).isEmpty {
            folder = PathUtil.parent(folder)
        }
        return folder
    }

    static func kind(infoPlistPath: String, root: PlistNode?) -> BundleKind {
        let type = root?["CFBundlePackageType"]?.string
        let components = infoPlistPath.split(separator: "/").map(String.init)
        let inTests = components.dropLast().contains { $0.hasSuffix("Tests") || $0.hasSuffix("UITests") || $0 == "Tests" }
        if root?["NSExtension"] != nil || root?["EXAppExtensionAttributes"] != nil || type == "XPC!" { return .appExtension }
        if root?["WKApplication"] != nil || root?["WKWatchKitApp"] != nil { return .watchApp }
        // Without a project, `$(PRODUCT_BUNDLE_PACKAGE_TYPE)` hides the kind: an Info.plist with
        // no key only an app has is a framework's or a bundle's (Xcode's framework template).
        if let type, type.contains("$("), !inTests, let keys = root?.dictionary?.keys,
           !keys.contains(where: { appOnlyKeys.contains($0) || $0.hasSuffix("UsageDescription") }) {
            return .framework
        }
        switch type {
        case "FMWK": return .framework
        case "BNDL": return inTests ? (components.contains { $0.hasSuffix("UITests") } ? .uiTests : .unitTests) : .resourceBundle
        default:
            if inTests { return components.contains { $0.hasSuffix("UITests") } ? .uiTests : .unitTests }
            return .app
        }
    }

    /// Info.plist keys of applications (never of frameworks or resource bundles).
    static let appOnlyKeys: Set<String> = [
        "UILaunchStoryboardName", "UILaunchScreen", "UIApplicationSceneManifest", "UISupportedInterfaceOrientations",
        "LSRequiresIPhoneOS", "UIRequiredDeviceCapabilities", "CFBundleIcons", "CFBundleIconName", "UIBackgroundModes",
        "UIMainStoryboardFile", "CFBundleURLTypes", "ITSAppUsesNonExemptEncryption", "UIApplicationSupportsIndirectInputEvents",
        "UIStatusBarStyle", "UIViewControllerBasedStatusBarAppearance", "NSAppTransportSecurity", "LSApplicationQueriesSchemes",
        "CFBundleDisplayName", "UIFileSharingEnabled", "NSUserActivityTypes", "BGTaskSchedulerPermittedIdentifiers",
    ]

    static let sourceExtensions: Set<String> = ["swift", "m", "mm", "c", "cc", "cpp", "h"]

    /// Each bundle claims entitlements, manifests and localizations below its folder, unless a
    /// bundle with a deeper folder claims them first.
    static func assignFiles(_ bundles: inout [AppBundle], index: FileIndex) {
        let dirs = Set(bundles.map(\.path))
        func owners(of path: String) -> [Int] {
            var p = PathUtil.parent(path)
            while true {
                if dirs.contains(p) { return bundles.indices.filter { bundles[$0].path == p } }
                if p.isEmpty { return [] }
                p = PathUtil.parent(p)
            }
        }
        var entitlementCandidates: [Int: [String]] = [:]
        for e in index.entries where e.kind == .file && !isSkipped(e.path) {
            let ext = PathUtil.pathExtension(e.path)
            let loc = LocalizationScanner.localizedFile(e.path)
            // Test code never ships; without a project, folders named like test targets are skipped.
            let isSource = sourceExtensions.contains(ext)
                && !e.path.split(separator: "/").contains { $0.hasSuffix("Tests") || $0 == "Tests" || $0 == "UITests" }
            guard ext == "entitlements" || ext == "xcprivacy" || loc != nil || isSource else { continue }
            for i in owners(of: e.path) {
                // Without a project, code below a bundle's folder is taken as that bundle's code.
                if isSource { bundles[i].sourceFiles.append(e.path) }
                if ext == "entitlements" { entitlementCandidates[i, default: []].append(e.path) }
                if ext == "xcprivacy" { bundles[i].privacyManifestPaths.append(e.path) }
                if let loc { bundles[i].localizations.append(loc) }
            }
        }
        for (i, candidates) in entitlementCandidates {
            let folderName = PathUtil.lastComponent(bundles[i].path).lowercased()
            bundles[i].entitlementsPath = candidates.first {
                PathUtil.removingExtension(PathUtil.lastComponent($0)).lowercased() == folderName
            } ?? candidates.sorted().first
        }
    }
}
