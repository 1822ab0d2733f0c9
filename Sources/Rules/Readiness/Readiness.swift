import Foundation
import Artifacts
import Formats

/// What the App Store readiness rules share: which products are uploads, version strings,
/// where a bundle's Info.plist key is written, and the app that contains a bundle.
enum Readiness {
    /// Products App Store Connect receives as they are (a project or folder is built first).
    static let builtKinds: Set<ProductKind> = [.ipa, .app, .xcarchive]

    /// Bundles whose Info.plist App Store Connect validates (resource bundles and tests are not).
    static let validatedKinds: Set<BundleKind> = [.app, .appExtension, .appClip, .watchApp, .framework]

    /// Bundles that run as their own process and carry the product's version.
    static let appKinds: Set<BundleKind> = [.app, .appClip, .watchApp]

    /// `1`, `1.2`, `1.2.3`: at most three period-separated non-negative integers (ITMS-90060).
    static func isWellFormedVersion(_ s: String) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return false }
        return parts.allSatisfy { p in !p.isEmpty && p.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
    }

    /// A value Preflight could not resolve (`$(CURRENT_PROJECT_VERSION)` with no definition):
    /// it is neither missing nor malformed, only unknown.
    static func isUnresolved(_ s: String) -> Bool { s.contains("$(") || s.contains("${") || s.contains("$") }

    /// Numeric components of `15.0.1`; nil unless every component is a number.
    static func versionComponents(_ s: String) -> [Int]? {
        let parts = s.trimmingCharacters(in: .whitespaces).split(separator: ".", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count <= 4 else { return nil }
        var out: [Int] = []
        for p in parts {
            guard p.count <= 6, let n = Int(p), n >= 0 else { return nil }
            out.append(n)
        }
        return out
    }

    /// Compares two OS versions numerically (`15` = `15.0`); nil when either is not a version.
    static func compareVersions(_ a: String, _ b: String) -> ComparisonResult? {
        guard var x = versionComponents(a), var y = versionComponents(b) else { return nil }
        while x.count < y.count { x.append(0) }
        while y.count < x.count { y.append(0) }
        for (l, r) in zip(x, y) where l != r { return l < r ? .orderedAscending : .orderedDescending }
        return .orderedSame
    }

    /// Where a finding about an Info.plist key points: the key, else the Info.plist's root.
    static func location(of key: String, in bundle: AppBundle) -> FileLocation? {
        if let v = bundle.infoValue(key) { return v.location }
        guard let info = bundle.infoPlist else { return nil }
        return FileLocation(path: info.path, position: info.root?.position)
    }

    /// The nearest bundle above `bundle` that is an app, App Clip or watch app.
    static func containingApp(of bundle: AppBundle, in product: Product) -> AppBundle? {
        var seen: Set<String> = [bundle.id]
        var current = bundle
        while let parent = product.parent(of: current), seen.insert(parent.id).inserted {
            if appKinds.contains(parent.kind) { return parent }
            current = parent
        }
        return nil
    }

    /// A bundle that runs on watchOS: a watch app, or anything inside one (its WatchKit
    /// extension, its frameworks), or a bundle whose Info.plist names only the watchOS platform.
    /// Its `MinimumOSVersion` is a watchOS version (4.0 is valid there).
    static func runsOnWatchOS(_ bundle: AppBundle, in product: Product) -> Bool {
        if bundle.kind == .watchApp { return true }
        if let platforms = bundle.infoValue("CFBundleSupportedPlatforms")?.node.array?.compactMap(\.string),
           !platforms.isEmpty, platforms.allSatisfy({ $0.lowercased().hasPrefix("watch") }) { return true }
        return containingApp(of: bundle, in: product)?.kind == .watchApp
    }

    /// The bundle's readable Info.plist (nil when it is missing or malformed: other rules say so).
    static func hasReadableInfoPlist(_ bundle: AppBundle) -> Bool {
        guard let info = bundle.infoPlist else { return false }
        return info.error == nil && info.root?.dictionary != nil
    }

    /// A binary's slices for iOS devices (no simulator, Mac or other platform slices).
    static func isDeviceSlice(_ s: MachOSlice) -> Bool {
        (s.platform == nil || s.platform == "iOS") && s.arch != "x86_64" && s.arch != "i386"
    }
}
