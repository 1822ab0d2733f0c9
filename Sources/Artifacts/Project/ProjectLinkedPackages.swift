import Foundation
import Formats

/// The packages and pods a target links, when their code is in the input: local Swift packages
/// (Xcode 15 references and older group-tree folders), checkouts of remote packages, and pods.
extension ProjectLoading {
    /// Each local package (`XCLocalSwiftPackageReference`) whose products the target links,
    /// with the source files under its `Sources/`.
    func localPackages(_ targetID: String, bundle: String) -> [CodeLink] {
        var productDeps = graph.ids(targetID, "packageProductDependencies")
        for phase in graph.ids(targetID, "buildPhases") {
            for bf in graph.ids(phase, "files") { if let p = graph.string(bf, "productRef") { productDeps.append(p) } }
        }
        var out: [CodeLink] = []
        var seenPackages = Set<String>()
        func add(folder: String) {
            let files = index.files(under: PathUtil.join(folder, "Sources"))
                .filter { $0.kind == .file && ProjectFileRole.isSource($0.path) }.map(\.path).sorted()
            out.append(CodeLink(kind: .package, name: PathUtil.lastComponent(folder), files: files))
        }
        for dep in productDeps {
            guard graph.isa(dep) == "XCSwiftPackageProductDependency" else {
                if graph.object(dep) == nil {
                    problems.append(graph.malformed("package product dependency \(dep) is not in 'objects'", at: targetID,
                                                    key: "packageProductDependencies", bundle: bundle))
                }
                continue
            }
            guard let package = graph.string(dep, "package") else {
                // Before Xcode 15 a local package was a folder reference in the group tree and
                // its products named no package.
                if let folder = legacyLocalPackage(named: graph.string(dep, "productName")), seenPackages.insert(folder).inserted {
                    add(folder: folder)
                }
                continue
            }
            if graph.isa(package) == "XCRemoteSwiftPackageReference", seenPackages.insert(package).inserted,
               let url = graph.string(package, "repositoryURL"), let folder = checkout(of: url) {
                add(folder: folder)
                continue
            }
            guard graph.isa(package) == "XCLocalSwiftPackageReference",
                  let relative = graph.string(package, "relativePath"), seenPackages.insert(package).inserted else { continue }
            let from = graph.location(package, key: "relativePath")
            guard let dir = ProjectPaths.join(projectDir, relative) else {
                problems.append(LoadProblem(.missingReference(setting: "XCLocalSwiftPackageReference"), path: relative,
                                            bundle: bundle, referencedFrom: from))
                continue
            }
            guard let actual = checkReference(dir, setting: "XCLocalSwiftPackageReference", bundle: bundle,
                                              from: from, into: &problems) else { continue }
            add(folder: actual)
        }
        return out
    }

    /// The checkout of a remote package when the input has one (`SourcePackages/checkouts/Name`
    /// of a derived-data or cloned-packages folder, or SwiftPM's `.build/checkouts/Name`).
    func checkout(of repositoryURL: String) -> String? {
        var name = PathUtil.lastComponent(repositoryURL.trimmingCharacters(in: CharacterSet(charactersIn: "/")))
        if name.hasSuffix(".git") { name = String(name.dropLast(4)) }
        guard !name.isEmpty else { return nil }
        return checkoutFolders.first { PathUtil.lastComponent($0).lowercased() == name.lowercased() }
    }

    /// Pods a CocoaPods-integrated target links (`-framework "X"` / `-l"X"` in the OTHER_LDFLAGS
    /// of its Pods xcconfig), when `Pods/X` with sources is in the input.
    func pods(resolver: BuildSettingsResolver) -> [CodeLink] {
        guard let root = resolver.value("PODS_ROOT"), !root.isEmpty,
              let podsDir = ProjectPaths.inputPath(root, projectDir: projectDir), folders.contains(podsDir),
              let flags = resolver.value("OTHER_LDFLAGS") else { return [] }
        var names: [String] = []
        let words = BuildSettingWords.split(flags)
        for (i, word) in words.enumerated() {
            if word == "-framework" || word == "-weak_framework", i + 1 < words.count {
                names.append(words[i + 1])
            } else if word.hasPrefix("-l"), word.count > 2 {
                names.append(String(word.dropFirst(2)))
            }
        }
        var seen = Set<String>()
        return names.compactMap { name -> CodeLink? in
            let folder = PathUtil.join(podsDir, name)
            guard seen.insert(name).inserted, folders.contains(folder) else { return nil }
            let files = index.files(under: folder).filter { $0.kind == .file && ProjectFileRole.isSource($0.path) }.map(\.path).sorted()
            return files.isEmpty ? nil : CodeLink(kind: .pod, name: name, files: files)
        }
    }

    /// Folders with a Package.swift that file references of the group tree point at.
    func findLegacyPackageFolders() -> [String] {
        var candidates: [String] = []
        for id in graph.objects.keys.sorted() where graph.isa(id) == "PBXFileReference" {
            let type = graph.string(id, "lastKnownFileType") ?? graph.string(id, "explicitFileType") ?? ""
            guard type == "wrapper" || type == "folder" || type.isEmpty,
                  case .input(let p)? = paths.path(of: id), index.entry(PathUtil.join(p, "Package.swift")) != nil else { continue }
            candidates.append(p)
        }
        return candidates
    }

    /// The folder of a package referenced from the group tree (a file reference to a folder
    /// with a Package.swift): the one named like the product, else the only one.
    func legacyLocalPackage(named product: String?) -> String? {
        let candidates = legacyPackageFolders
        if let product, let named = candidates.first(where: { PathUtil.lastComponent($0) == product }) { return named }
        return candidates.count == 1 ? candidates[0] : nil
    }
}
