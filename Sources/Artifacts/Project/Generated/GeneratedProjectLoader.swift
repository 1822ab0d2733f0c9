import Foundation
import Formats

/// Finds generator specs in a folder and loads those no committed project stands in for:
/// a spec is read only where no `.xcodeproj` sits in its folder and no project of the name it
/// generates (`<name>.xcodeproj`) is committed elsewhere (a generated project, when
/// committed, is what the build uses).
enum GeneratedProjectLoader {
    struct Result {
        var bundles: [AppBundle] = []
        var problems: [LoadProblem] = []
        var specs: [String] = []
        var usesExternalCode = false
        /// Remote packages of the specs, for the SDK inventory.
        var remotePackages: [RemotePackageReference] = []
        /// Projects committed workspaces name.
        var workspaceReferences: [WorkspaceProjects.Reference] = []
        /// A project a workspace names (not committed) → the spec that generates it.
        var generatedBy: [String: String] = [:]
    }

    enum Kind { case xcodeGen, tuist, tuistWorkspace }

    /// Spec files by kind, outside dependency and build folders, in folders without a project.
    static func discover(in index: FileIndex, projects: [String]) -> [(kind: Kind, path: String)] {
        let projectFolders = Set(projects.map(PathUtil.parent))
        var out: [(kind: Kind, path: String)] = []
        for e in index.entries where e.kind == .file {
            let name = PathUtil.lastComponent(e.path), folder = PathUtil.parent(e.path)
            let kind: Kind
            switch name {
            case "project.yml", "project.yaml": kind = .xcodeGen
            case "Project.swift": kind = .tuist
            case "Workspace.swift": kind = .tuistWorkspace
            default: continue
            }
            if projectFolders.contains(folder) || FolderLoader.isSkipped(e.path) { continue }
            out.append((kind, e.path))
        }
        return out.sorted { $0.path < $1.path }
    }

    /// `project.yml` files that `discover` leaves out because a committed project sits in
    /// their folder (the project they generate, checked in).
    static func standInSpecs(in index: FileIndex, projects: [String]) -> [String] {
        let projectFolders = Set(projects.map(PathUtil.parent))
        return index.entries.filter { e in
            e.kind == .file && XcodeGenSpecDiscovery.namedSpecs.contains(PathUtil.lastComponent(e.path))
                && projectFolders.contains(PathUtil.parent(e.path)) && !FolderLoader.isSkipped(e.path)
        }.map(\.path).sorted()
    }

    /// A spec's `sources` entry naming a folder the repository's `.gitignore` excludes (build
    /// output copied in as a resource folder, as tutanota's `../build`) is expected absent in
    /// a checkout, as for a project's file references (`ExpectedAbsentFiles`).
    static func withoutIgnoredSources(_ problems: [LoadProblem], index: FileIndex, source: FileSource, limits: ReaderLimits) -> [LoadProblem] {
        guard problems.contains(where: { $0.kind == .missingReference(setting: "sources") }) else { return problems }
        let gitIgnore = GitIgnore.load(index: index, source: source, maxBytes: min(limits.maxFileBytes, 1 << 20))
        guard !gitIgnore.isEmpty else { return problems }
        var folders: [String: Bool] = [:]
        var asked = 0
        return problems.filter { p in
            guard p.kind == .missingReference(setting: "sources"), asked < ExpectedAbsentFiles.maxGitIgnoreQueries else { return true }
            asked += 1
            return !gitIgnore.isIgnored(PathUtil.normalize(p.path), isDirectory: nil, folders: &folders)
        }
    }

    /// Reads of files another spec includes are dropped: such a file (a shared `common.yml`
    /// with a `name` and `targets` of its own) is a part of each spec that includes it. Two
    /// specs that include each other are both kept (the cycle is reported by each).
    static func withoutIncludedSpecs(_ reads: [GeneratedProjectRead]) -> [GeneratedProjectRead] {
        var includedBy: [String: Set<String>] = [:]
        for read in reads {
            guard let spec = read.project?.specPath ?? read.problems.first?.path else { continue }
            for file in read.includedFiles where file != spec { includedBy[file, default: []].insert(spec) }
        }
        return reads.filter { read in
            guard let spec = read.project?.specPath, let includers = includedBy[spec] else { return true }
            let mine = Set(read.includedFiles)
            return includers.allSatisfy { mine.contains($0) }
        }
    }

    /// Why specs that were found gave nothing, for the error of an input with no bundle:
    /// " (2 XcodeGen/Tuist specs could not be read; Project.swift:37: …)", or "".
    static func unreadSummary(_ problems: [LoadProblem]) -> String {
        let specNames: Set<String> = ["project.yml", "project.yaml", "Project.swift", "Workspace.swift"]
        let unread = problems.filter { p in
            if case .unreadable = p.kind { return specNames.contains(PathUtil.lastComponent(p.path)) }
            return false
        }
        guard let first = unread.first, case .unreadable(let e) = first.kind else { return "" }
        let files = Set(unread.map(\.path)).count
        let line = e.line.map { ":\($0)" } ?? ""
        return " (\(files) XcodeGen/Tuist spec\(files == 1 ? "" : "s") could not be read; \(first.path)\(line): \(e.reason))"
    }

    static func load(index: FileIndex, source: FileSource, limits: ReaderLimits, configuration: String?,
                     projects: [String], manifestReader: ManifestExpressionReader?) throws -> Result {
        var result = Result()
        var reads: [GeneratedProjectRead] = []
        var tuistManifests = Set<String>()
        for spec in discover(in: index, projects: projects) {
            switch spec.kind {
            case .xcodeGen:
                reads.append(XcodeGenProjectReader.read(spec.path, source: source, index: index, limits: limits))
            case .tuist, .tuistWorkspace:
                tuistManifests.insert(spec.path)
            }
        }
        result.workspaceReferences = WorkspaceProjects.read(index: index, source: source, limits: limits)
        let named = Set(result.workspaceReferences.map(\.project))
        let projectFolders = Set(projects.map(PathUtil.parent))
        let found = XcodeGenSpecDiscovery.find(index: index, source: source, limits: limits, isSkipped: FolderLoader.isSkipped)
        result.problems += found.problems
        var byContent: [GeneratedProjectRead] = []
        for spec in found.found {
            let folder = PathUtil.parent(spec.path)
            // Beside a committed project, a spec is read only when a workspace names the project it writes.
            if projectFolders.contains(folder), !named.contains(PathUtil.join(folder, spec.name + ".xcodeproj")) { continue }
            byContent.append(XcodeGenProjectReader.read(spec.path, source: source, index: index, limits: limits))
        }
        // A file named like the fragments specs include (`RiotShareExtension/target.yml` beside
        // the included `Riot/target.yml`) is a fragment whose include was removed, not a spec:
        // its settings name paths from the including spec's folder.
        var includedByName: [String: Set<String>] = [:]
        for file in (reads + byContent).flatMap(\.includedFiles) { includedByName[PathUtil.lastComponent(file), default: []].insert(file) }
        // Files a `project.yml` includes whose generated project is committed beside it
        // (element-x: `ShareExtension/SupportingFiles/target.yml`, included by the root spec of
        // the committed `ElementX.xcodeproj`) are parts of that project, already read from it.
        let includedByStandIns = Set(standInSpecs(in: index, projects: projects).flatMap { spec in
            XcodeGenSpecFiles.includes(of: spec, source: source, index: index, limits: limits).filter { $0 != spec }
        })
        byContent.removeAll { read in
            guard let spec = read.project?.specPath else { return false }
            if includedByStandIns.contains(spec) { return true }
            return includedByName[PathUtil.lastComponent(spec)]?.contains { $0 != spec } == true
        }
        reads = withoutIncludedSpecs(reads + byContent)
        if !tuistManifests.isEmpty {
            reads += TuistManifestLoader.read(manifests: tuistManifests.sorted(), reader: manifestReader,
                                              source: source, index: index, limits: limits)
        }
        let projectNames = Set(projects.map { PathUtil.lastComponent($0) })
        var loadedProjects: [CrossProjectLinks.Loaded] = []
        for read in reads {
            // A spec whose generated project (`<name>.xcodeproj`) is committed elsewhere in the
            // input is that project's source: the project is what was read.
            if let project = read.project, projectNames.contains(project.name + ".xcodeproj") { continue }
            result.problems += read.problems
            result.remotePackages += read.packageReferences
            if !read.packageReferences.isEmpty { result.usesExternalCode = true }
            guard let project = read.project else { continue }
            result.specs.append(project.specPath)
            let generated = PathUtil.join(project.directory, project.name + ".xcodeproj")
            for ref in result.workspaceReferences where ref.project == generated { result.generatedBy[generated] = project.specPath }
            result.usesExternalCode = result.usesExternalCode || project.usesExternalCode
            do {
                let loaded = try GeneratedProjectGraph.load(project, source: source, index: index, limits: limits,
                                                            configuration: configuration)
                var bundles = loaded.bundles
                let taken = Set(result.bundles.map(\.name))
                for i in bundles.indices where taken.contains(bundles[i].name) {
                    bundles[i].name += " (" + project.specPath + ")"
                }
                loadedProjects.append(.init(project: project, targets: loaded.targets, bundleNames: bundles.map(\.name)))
                result.bundles += bundles
                result.problems += loaded.problems
                result.remotePackages += loaded.remotePackages
            } catch let error as FormatError {
                result.problems.append(LoadProblem(.unreadable(error), path: project.specPath))
            } catch let error as XcodeProjectError {
                throw InputError("\(project.specPath): \(error)")
            }
        }
        CrossProjectLinks.apply(loadedProjects, to: &result.bundles)
        result.problems = withoutIgnoredSources(result.problems, index: index, source: source, limits: limits)
        return result
    }
}
