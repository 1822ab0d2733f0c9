import Foundation
import Formats

/// Finds the bundles of a built app (inside an `.ipa`, an `.xcarchive` or on disk): the app,
/// `PlugIns/` and `Extensions/` app extensions, `Watch/` apps, `AppClips/`, embedded
/// frameworks and resource bundles, each owning the files no deeper bundle owns.
enum BuiltAppLoader {
    static let bundleExtensions: Set<String> = ["app", "appex", "framework", "bundle", "xctest"]
    /// Folders inside a bundle that are never bundles themselves.
    static let opaqueFolders: Set<String> = ["_CodeSignature", "SC_Info", "__MACOSX"]

    /// `rootName` names the app when `appRoot` is the input itself (an `.app` folder).
    /// A built bundle's id: its folder in the input ("." for an app at the root).
    static func id(_ dir: String) -> String { dir.isEmpty ? "." : dir }

    static func bundles(appRoot: String, rootName: String, index: FileIndex) -> [AppBundle] {
        let under = index.files(under: appRoot)
        var bundleDirs: [String] = [appRoot]
        for e in under where e.kind == .directory {
            let ext = PathUtil.pathExtension(e.path)
            guard bundleExtensions.contains(ext) else { continue }
            let rel = appRoot.isEmpty ? e.path : String(e.path.dropFirst(appRoot.count + 1))
            if rel.split(separator: "/").contains(where: { opaqueFolders.contains(String($0)) || $0.hasSuffix(".lproj") }) { continue }
            bundleDirs.append(e.path)
        }
        let dirSet = Set(bundleDirs)
        func owner(of path: String) -> String {
            var p = PathUtil.parent(path)
            while !p.isEmpty, p != appRoot {
                if dirSet.contains(p) { return p }
                p = PathUtil.parent(p)
            }
            return appRoot
        }
        var owned: [String: [FileEntry]] = [:]
        for e in under where e.kind != .directory { owned[owner(of: e.path), default: []].append(e) }

        return bundleDirs.map { dir -> AppBundle in
            let name = dir.isEmpty ? rootName : PathUtil.lastComponent(dir)
            let parentDir = dir == appRoot ? nil : owner(of: dir)
            var b = AppBundle(name: name, kind: kind(of: dir, appRoot: appRoot), path: dir, id: Self.id(dir), parentID: parentDir.map(Self.id))
            let files = owned[dir] ?? []
            var lproj = Set<String>()
            var interface = Set<String>()
            let info = PathUtil.join(dir, "Info.plist")
            if files.contains(where: { $0.path == info }) { b.infoPlistPath = info }
            for f in files {
                let fileName = PathUtil.lastComponent(f.path)
                let ext = PathUtil.pathExtension(f.path)
                if ext == "xcprivacy" { b.privacyManifestPaths.append(f.path) }
                if fileName == "embedded.mobileprovision", PathUtil.parent(f.path) == dir { b.provisioningProfilePath = f.path }
                if let loc = LocalizationScanner.localizedFile(f.path) { b.localizations.append(loc) }
                if ext == "dylib", f.kind == .file { b.binaryPaths.append(f.path) }
                let rel = dir.isEmpty ? f.path : String(f.path.dropFirst(dir.count + 1))
                if let folder = rel.split(separator: "/").dropLast().first(where: { $0.lowercased().hasSuffix(".lproj") }) {
                    lproj.insert(String(folder.dropLast(6)))
                }
                if let compiled = compiledInterface(rel) { interface.insert(PathUtil.join(dir, compiled)) }
            }
            b.lprojFolders = lproj.sorted()
            b.interfaceFiles = interface.sorted()
            return b
        }
    }

    /// The compiled storyboard or nib a bundle-relative path lies in or is
    /// (`Base.lproj/LaunchScreen.storyboardc/Info.plist` → `Base.lproj/LaunchScreen.storyboardc`).
    static func compiledInterface(_ rel: String) -> String? {
        let parts = rel.split(separator: "/")
        guard let i = parts.firstIndex(where: { $0.hasSuffix(".storyboardc") || $0.hasSuffix(".nib") }) else { return nil }
        return parts[...i].joined(separator: "/")
    }

    static func kind(of dir: String, appRoot: String) -> BundleKind {
        if dir == appRoot { return .app }
        switch PathUtil.pathExtension(dir) {
        case "appex": return .appExtension
        case "framework": return .framework
        case "bundle": return .resourceBundle
        case "xctest": return .unitTests
        case "app":
            let parentFolder = PathUtil.lastComponent(PathUtil.parent(dir))
            if parentFolder == "Watch" { return .watchApp }
            if parentFolder == "AppClips" { return .appClip }
            return .app
        default: return .other
        }
    }
}

enum LocalizationScanner {
    /// A localized resource by its path: `xx.lproj/Table.strings|stringsdict`, or a `.xcstrings` catalog.
    static func localizedFile(_ path: String) -> LocalizedFile? {
        let ext = PathUtil.pathExtension(path)
        let name = PathUtil.lastComponent(path)
        let table = PathUtil.removingExtension(name)
        if ext == "xcstrings" {
            return LocalizedFile(language: nil, path: path, kind: .xcstrings, table: table)
        }
        guard ext == "strings" || ext == "stringsdict" else { return nil }
        let folder = PathUtil.lastComponent(PathUtil.parent(path))
        guard folder.lowercased().hasSuffix(".lproj") else { return nil }
        let language = String(folder.dropLast(6))
        let kind: LocalizedFileKind = ext == "stringsdict" ? .stringsdict
            : table.lowercased() == "infoplist" ? .infoPlistStrings : .strings
        return LocalizedFile(language: language, path: path, kind: kind, table: table)
    }
}
