import Foundation
import Formats

/// Xcode 16 synchronized folders (`PBXFileSystemSynchronizedRootGroup`): every file under the
/// folder belongs to each target listing the group in `fileSystemSynchronizedGroups`, except
/// the paths an exception set (`PBXFileSystemSynchronizedBuildFileExceptionSet`) for that target
/// lists in `membershipExceptions`. For a target that does not list the group, an exception
/// set naming that target works the other way round: its paths are the only members (this is
/// how Xcode records "add this one file of the app's folder to the widget too").
/// Folders listed in the group's `explicitFolders` are copied whole, so their files are not
/// members one by one.
final class SynchronizedFolders {
    static let rootGroupISA = "PBXFileSystemSynchronizedRootGroup"
    static let exceptionSetISA = "PBXFileSystemSynchronizedBuildFileExceptionSet"

    /// Folder types whose contents are compiled or copied as one unit, never file by file.
    static let opaqueFolderExtensions: Set<String> = [
        "xcassets", "bundle", "framework", "xcframework", "xcdatamodeld", "xcdatamodel", "xcmappingmodel",
        "scnassets", "spriteatlas", "app", "appex", "docc", "playground", "xcodeproj", "xcworkspace",
        "rcproject", "mlpackage", "mlmodelc", "xctest", "icon",
    ]

    let graph: PBXObjectGraph
    let paths: GroupTreePaths
    let index: FileIndex
    let folders: Set<String>
    /// Every synchronized root group, sorted by id.
    let rootGroups: [String]
    /// The candidate files under each root folder (not hidden, not inside an opaque folder),
    /// with their paths relative to it: groups are shared by many targets.
    private var filesUnder: [String: [(path: String, relative: String)]] = [:]

    init(graph: PBXObjectGraph, paths: GroupTreePaths, index: FileIndex, folders: Set<String>) {
        self.graph = graph
        self.paths = paths
        self.index = index
        self.folders = folders
        rootGroups = graph.objects.keys.filter { graph.isa($0) == Self.rootGroupISA }.sorted()
    }

    /// Member files of `targetID`, relative to the input root, sorted.
    func members(of targetID: String, bundle: String, problems: inout [LoadProblem]) -> [String] {
        var out = Set<String>()
        let own = graph.ids(targetID, "fileSystemSynchronizedGroups")
        for group in own {
            guard graph.isa(group) == Self.rootGroupISA else {
                problems.append(graph.malformed(graph.object(group) == nil
                    ? "target \(bundle) lists synchronized group \(group), which is not in 'objects'"
                    : "target \(bundle) lists \(group) as a synchronized group, but it is a \(graph.isa(group) ?? "object without isa")",
                    at: targetID, key: "fileSystemSynchronizedGroups", bundle: bundle))
                continue
            }
            guard let root = rootFolder(group, bundle: bundle, problems: &problems) else { continue }
            // Xcode 16.3 `explicitFolders` are copied whole, like an asset catalog.
            var excluded = graph.ids(group, "explicitFolders").map { PathUtil.normalize($0) }
            for set in graph.ids(group, "exceptions")
            where graph.isa(set) == Self.exceptionSetISA && graph.string(set, "target") == targetID {
                excluded += graph.ids(set, "membershipExceptions").map { PathUtil.normalize($0) }
            }
            let excludedSet = Set(excluded)
            for f in candidates(under: root) where excludedSet.isEmpty || !Self.isExcluded(f.relative, by: excludedSet) {
                out.insert(f.path)
            }
        }
        // Groups of other targets: an exception set naming this target adds its paths.
        for group in rootGroups where !own.contains(group) {
            for set in graph.ids(group, "exceptions")
            where graph.isa(set) == Self.exceptionSetISA && graph.string(set, "target") == targetID {
                guard let root = rootFolder(group, bundle: bundle, problems: &problems) else { continue }
                for m in graph.ids(set, "membershipExceptions") {
                    guard let p = ProjectPaths.join(root, m) else { continue }
                    switch index.lookup(p) {
                    case .exact(let e), .caseMismatch(let e):
                        if e.kind == .directory {
                            for f in index.files(under: e.path) where f.kind == .file && !Self.isHiddenOrOpaque(f.path) {
                                out.insert(f.path)
                            }
                        } else {
                            out.insert(e.path)
                        }
                    case .missing:
                        // Xcode ignores an exception naming a file that is gone (it keeps the
                        // entry until the folder is next edited), and so do we.
                        continue
                    }
                }
            }
        }
        return out.sorted()
    }

    private func rootFolder(_ group: String, bundle: String, problems: inout [LoadProblem]) -> String? {
        guard case .input(let root)? = paths.path(of: group) else { return nil }
        switch index.lookup(root) {
        case .exact(let e): return e.path
        case .caseMismatch(let e):
            problems.append(LoadProblem(.caseMismatch(setting: Self.rootGroupISA, actualPath: e.path), path: root, bundle: bundle,
                                        referencedFrom: graph.location(group, key: "path")))
            return e.path
        case .missing:
            if root.isEmpty || folders.contains(root) { return root }
            problems.append(LoadProblem(.missingReference(setting: Self.rootGroupISA), path: root, bundle: bundle,
                                        referencedFrom: graph.location(group, key: "path")))
            return nil
        }
    }

    private func candidates(under root: String) -> [(path: String, relative: String)] {
        if let known = filesUnder[root] { return known }
        var found: [(path: String, relative: String)] = []
        // Files, and asset catalogs and Icon Composer icons: each is one resource.
        for f in index.files(under: root) where f.kind == .file || (f.kind == .directory && TargetFiles.isIconSource(f.path)) {
            let rel = root.isEmpty ? f.path : String(f.path.dropFirst(root.count + 1))
            if !Self.isHiddenOrOpaque(rel) { found.append((f.path, rel)) }
        }
        filesUnder[root] = found
        return found
    }

    /// True when the path or one of its folders is in `excluded`.
    static func isExcluded(_ relative: String, by excluded: Set<String>) -> Bool {
        if excluded.contains(relative) { return true }
        var slash = relative.utf8.startIndex
        while let next = relative.utf8[slash...].firstIndex(of: UInt8(ascii: "/")) {
            if excluded.contains(String(relative[..<next])) { return true }
            slash = relative.utf8.index(after: next)
        }
        return false
    }

    /// True for paths with a hidden component (`.DS_Store`, `.git/…`) or inside a folder
    /// that Xcode treats as one resource (`Assets.xcassets/…`).
    static func isHiddenOrOpaque(_ relative: String) -> Bool {
        let parts = relative.utf8.split(separator: UInt8(ascii: "/"))
        for (i, part) in parts.enumerated() {
            if part.first == UInt8(ascii: ".") { return true }
            // Only a folder name with a dot can be an opaque folder.
            if i < parts.count - 1, part.contains(UInt8(ascii: ".")),
               opaqueFolderExtensions.contains(PathUtil.pathExtension(String(Substring(part)))) { return true }
        }
        return false
    }
}
