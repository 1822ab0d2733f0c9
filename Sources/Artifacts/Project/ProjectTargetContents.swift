import Foundation
import Formats

/// A target's files: build phases, synchronized folders, local Swift packages, and who embeds it.
extension ProjectLoading {
    func makeBundle(_ target: ProjectTarget, kind: BundleKind, resolver: BuildSettingsResolver, files: TargetFiles) -> Bundle {
        let name = target.name
        var bundle = Bundle(name: name, kind: kind, path: projectDir)
        bundle.buildSettings = resolver.resolvedAll().mapValues {
            SettingValue(ProjectPaths.display($0.value, projectDir: projectDir), location: $0.location)
        }
        if let id = resolver.value("PRODUCT_BUNDLE_IDENTIFIER"), !id.isEmpty {
            bundle.settingsIdentifier = ProjectPaths.display(id, projectDir: projectDir)
        }
        if let info = settingPath("INFOPLIST_FILE", resolver: resolver, bundle: name) {
            bundle.infoPlistPath = info
            bundle.path = PathUtil.parent(info)
        }
        bundle.entitlementsPath = settingPath("CODE_SIGN_ENTITLEMENTS", resolver: resolver, bundle: name)
        if resolver.value("GENERATE_INFOPLIST_FILE") == "YES" {
            bundle.generatedInfoPlistKeys = GeneratedInfoPlist.keys(resolver: resolver, projectDir: projectDir, fallback: target.location)
        }
        bundle.sourceFiles = target.sourceFiles
        bundle.linkedCode = target.linkedCode
        bundle.privacyManifestPaths = files.privacyManifests.sorted()
        bundle.localizations = files.localizations.values.sorted { $0.path < $1.path }
        return bundle
    }

    /// The files a target compiles or copies itself, and the local packages it links.
    func targetFiles(_ target: ProjectTarget, resolver: BuildSettingsResolver) -> TargetFiles {
        var files = TargetFiles()
        let name = target.name
        collectBuildPhases(target.id, bundle: name, platform: Self.filterPlatform(resolver.value("PLATFORM_NAME")), into: &files)
        for path in synchronized.members(of: target.id, bundle: name, problems: &problems) {
            if ProjectFileRole.isSource(path) { files.sources.insert(path) }
            files.addResource(path)
        }
        files.packages = localPackages(target.id, bundle: name)
        files.pods = pods(resolver: resolver)
        return files
    }

    // MARK: - Build phases

    /// The name build files use in `platformFilter(s)` for an SDK platform.
    static func filterPlatform(_ platformName: String?) -> String {
        switch platformName {
        case "watchos": return "watchos"
        case "appletvos": return "tvos"
        case "xros": return "xros"
        case "macosx": return "macos"
        default: return "ios"
        }
    }

    /// A build file limited to other platforms (`platformFilters = (maccatalyst, )`) is not
    /// built for this one.
    func isBuilt(_ buildFile: String, for platform: String) -> Bool {
        var filters = graph.ids(buildFile, "platformFilters")
        if let one = graph.string(buildFile, "platformFilter") { filters.append(one) }
        return filters.isEmpty || filters.contains(platform)
    }

    func collectBuildPhases(_ targetID: String, bundle: String, platform: String, into files: inout TargetFiles) {
        for phase in graph.ids(targetID, "buildPhases") {
            guard let isa = graph.isa(phase) else {
                problems.append(graph.malformed("build phase \(phase) is not in 'objects'", at: targetID, key: "buildPhases", bundle: bundle))
                continue
            }
            let isSources = isa == "PBXSourcesBuildPhase"
            guard isSources || isa == "PBXResourcesBuildPhase" else { continue }
            for buildFile in graph.ids(phase, "files") {
                guard graph.object(buildFile) != nil else {
                    problems.append(graph.malformed("build file \(buildFile) is not in 'objects'", at: phase, key: "files", bundle: bundle))
                    continue
                }
                guard let ref = graph.string(buildFile, "fileRef") else { continue } // package products have productRef
                guard isBuilt(buildFile, for: platform) else { continue }
                for path in referencedFiles(ref, from: buildFile, bundle: bundle) {
                    if isSources {
                        // Code only: not Core Data models, intent definitions or shaders.
                        if ProjectFileRole.isSource(path) { files.sources.insert(path) }
                    } else {
                        files.addResource(path)
                    }
                }
            }
        }
    }

    /// Existing files a file reference or variant group stands for (checked, case-corrected).
    func referencedFiles(_ ref: String, from buildFile: String, bundle: String) -> [String] {
        guard let isa = graph.isa(ref) else {
            problems.append(graph.malformed("file reference \(ref) is not in 'objects'", at: buildFile, key: "fileRef", bundle: bundle))
            return []
        }
        let refs: [String]
        switch isa {
        case "PBXVariantGroup": refs = graph.ids(ref, "children")
        case "PBXFileReference", "XCVersionGroup": refs = [ref]
        default: refs = [ref]
        }
        var out: [String] = []
        for r in refs {
            guard graph.object(r) != nil else {
                problems.append(graph.malformed("file reference \(r) is not in 'objects'", at: ref, key: "children", bundle: bundle))
                continue
            }
            guard case .input(let p)? = paths.path(of: r) else { continue }
            let key = graph.object(r)?.entry("path") != nil ? "path" : nil
            if let actual = checkReference(p, setting: "PBXFileReference", bundle: bundle,
                                           from: graph.location(r, key: key), into: &problems) {
                out.append(actual)
            }
        }
        return out
    }

    // MARK: - Local Swift packages

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

    // MARK: - Dependencies and embedding

    func dependencyIDs(of targetID: String) -> [String] {
        graph.ids(targetID, "dependencies").compactMap { dep in
            if let t = graph.string(dep, "target") { return t }
            if let proxy = graph.string(dep, "targetProxy"), graph.string(proxy, "containerPortal") == graph.rootID {
                return graph.string(proxy, "remoteGlobalIDString")
            }
            return nil
        }
    }

    /// Target id → name of the target that embeds it: a copy-files phase ("Embed App
    /// Extensions", "Embed Watch Content", "Embed App Clips", "Embed Frameworks"…) or the
    /// resources phase (resource bundles) copying its product, else the first app-like target
    /// depending on it.
    func embeddingParents(_ targets: [ProjectTarget]) -> [String: String] {
        var productOwner: [String: String] = [:]
        for t in targets { if let ref = graph.string(t.id, "productReference") { productOwner[ref] = t.id } }
        var parents: [String: String] = [:]
        for t in targets {
            for phase in graph.ids(t.id, "buildPhases")
            where graph.isa(phase) == "PBXCopyFilesBuildPhase" || graph.isa(phase) == "PBXResourcesBuildPhase" {
                for bf in graph.ids(phase, "files") {
                    if let ref = graph.string(bf, "fileRef"), let owner = productOwner[ref], owner != t.id, parents[owner] == nil {
                        parents[owner] = t.name
                    }
                }
            }
        }
        let embeddable: Set<BundleKind> = [.appExtension, .watchApp, .appClip, .framework]
        let kinds = Dictionary(targets.map { ($0.id, $0.bundleKind) }, uniquingKeysWith: { a, _ in a })
        for t in targets where t.bundleKind == .app || t.bundleKind == .watchApp || t.bundleKind == .appClip {
            for dep in dependencyIDs(of: t.id) where parents[dep] == nil && dep != t.id {
                if let k = kinds[dep] ?? nil, embeddable.contains(k) { parents[dep] = t.name }
            }
        }
        return parents
    }
}
