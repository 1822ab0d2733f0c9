import Foundation
import Formats

/// `.entitlements` files of a source folder that no target uses: not named by any target's
/// `CODE_SIGN_ENTITLEMENTS` in any configuration, nor anywhere in a project, build settings
/// file, generator spec or build script (conditional settings such as
/// `CODE_SIGN_ENTITLEMENTS[sdk=macosx*]`, re-signing scripts). Vendored code is skipped.
enum UnreferencedEntitlements {
    static let vendoredFolders: Set<String> = ["Pods", "Carthage", "DerivedData", ".build", "build", "node_modules", "SourcePackages", "checkouts", ".git"]
    /// Files where a mention anywhere counts, and build settings files where only a
    /// line setting a `…ENTITLEMENTS` build setting does (Xcode lists every file of the navigator in
    /// the project; `LOOP_ENTITLEMENTS = …` in an xcconfig feeds `CODE_SIGN_ENTITLEMENTS = $(LOOP_ENTITLEMENTS)`).
    static let referenceExtensions: Set<String> = ["yml", "yaml", "rb", "sh", "py"]
    static let settingsExtensions: Set<String> = ["pbxproj", "xcconfig"]
    static let maxReferenceBytes: Int64 = 16 << 20
    static let referenceNames: Set<String> = ["Project.swift", "Workspace.swift", "Package.swift", "Fastfile", "Matchfile", "Gymfile", "Makefile", "Podfile"]
    /// Reading stops at this many candidate files (a checkout of many projects): nothing is
    /// reported rather than a guess.
    static let maxReferenceFiles = 2_000
    static let settingName = Array("ENTITLEMENTS".utf8)

    static func find(index: FileIndex, source: FileSource, bundles: [AppBundle], limits: ReaderLimits) -> [String] {
        func vendored(_ path: String) -> Bool { path.split(separator: "/").contains { vendoredFolders.contains(String($0)) } }
        var used = Set<String>()
        for b in bundles {
            if let p = b.entitlementsPath { used.insert(p) }
            for c in b.otherConfigurationEntitlements { if let p = c.path { used.insert(p) } }
        }
        var candidates = index.entries.filter { e in
            e.kind == .file && PathUtil.pathExtension(e.path) == "entitlements" && !used.contains(e.path) && !vendored(e.path)
        }.map(\.path)
        guard !candidates.isEmpty else { return [] }
        let referenceFiles = index.entries.filter { e in
            guard e.kind == .file, e.size <= min(maxReferenceBytes, Int64(limits.maxFileBytes)) else { return false }
            let ext = PathUtil.pathExtension(e.path)
            return (referenceExtensions.contains(ext) || settingsExtensions.contains(ext) || referenceNames.contains(PathUtil.lastComponent(e.path)))
                && !vendored(e.path)
        }
        guard referenceFiles.count <= maxReferenceFiles else { return [] }
        for f in referenceFiles {
            guard !candidates.isEmpty else { break }
            guard let data = try? source.read(f.path) else { continue }
            var text = [UInt8](data)
            if settingsExtensions.contains(PathUtil.pathExtension(f.path)) {
                text = ByteSearch.lines(containing: settingName, in: text)
            }
            candidates.removeAll { ByteSearch.contains(Array(PathUtil.lastComponent($0).utf8), in: text) }
        }
        return candidates.sorted()
    }
}
