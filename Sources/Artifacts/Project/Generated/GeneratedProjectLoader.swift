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
            guard let project = read.project else { continue }
            result.specs.append(project.specPath)
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
        return result
    }
}
