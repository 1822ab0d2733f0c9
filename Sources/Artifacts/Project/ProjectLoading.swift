import Foundation
import Formats

/// The work of loading one project: its state, and the run that reads configurations, settings
/// levels, targets, their files and bundles (each job in its own `ProjectLoading` extension file).
final class ProjectLoading {
    let graph: PBXObjectGraph
    /// The project's path in the input (`App.xcodeproj`, or the spec a generated graph came from).
    let project: String
    let projectDir: String
    let projectName: String
    let source: FileSource
    let index: FileIndex
    let limits: ReaderLimits
    let paths: GroupTreePaths
    var problems: [LoadProblem] = []
    /// Xcconfig files read so far, by input path (`xcconfigDefinitions`, ProjectSettingsLevels).
    var xcconfigs: [String: XCConfigReader.Result] = [:]
    /// Every folder of the input, including those the listing implies without an entry.
    let folders: Set<String>
    lazy var legacyPackageFolders: [String] = findLegacyPackageFolders()
    /// Package checkouts in the input: folders directly inside a `checkouts` folder.
    lazy var checkoutFolders: [String] = folders.filter { PathUtil.lastComponent(PathUtil.parent($0)) == "checkouts" }.sorted()
    lazy var synchronized = SynchronizedFolders(graph: graph, paths: paths, index: index, folders: folders)

    init(graph: PBXObjectGraph, project: String, source: FileSource, index: FileIndex, limits: ReaderLimits) {
        self.graph = graph
        self.project = project
        self.source = source
        self.index = index
        self.limits = limits
        projectName = PathUtil.removingExtension(PathUtil.lastComponent(project))
        var dir = PathUtil.parent(project)
        if let extra = graph.string(graph.rootID, "projectDirPath"), !extra.isEmpty, let joined = ProjectPaths.join(dir, extra) {
            dir = joined
        }
        projectDir = dir
        paths = GroupTreePaths(graph: graph, projectDir: dir)
        var folders = Set<String>()
        for e in index.entries {
            if e.kind == .directory { folders.insert(e.path) }
            var p = PathUtil.parent(e.path)
            while !p.isEmpty, folders.insert(p).inserted { p = PathUtil.parent(p) }
        }
        self.folders = folders
    }

    // MARK: - Run

    func run(configuration requested: String?) throws -> ProjectLoadResult {
        let projectConfigs = configurationList(of: graph.rootID, bundle: nil)
        if let requested, projectConfigs.id(requested) == nil {
            throw XcodeProjectError.unknownConfiguration(requested, available: projectConfigs.names)
        }
        let chosen = Self.choose(requested, in: projectConfigs)

        var targets: [ProjectTarget] = []
        var resolvers: [String: BuildSettingsResolver] = [:]
        var otherResolvers: [String: [(String, BuildSettingsResolver)]] = [:]
        for id in graph.ids(graph.rootID, "targets") {
            guard let isa = graph.isa(id) else {
                problems.append(graph.malformed("target \(id) is not in 'objects'", at: graph.rootID, key: "targets"))
                continue
            }
            guard isa == "PBXNativeTarget" else { continue }
            let name = graph.string(id, "name") ?? id
            let productType = graph.string(id, "productType") ?? ""
            var target = ProjectTarget(id: id, name: name, productType: productType,
                                       productName: graph.string(id, "productName"),
                                       bundleKind: ProjectTarget.bundleKind(forProductType: productType),
                                       location: graph.location(id))
            let list = configurationList(of: id, bundle: name)
            let targetChoice = list.configurations.isEmpty ? (chosen ?? "Release")
                : chosen.flatMap { list.id($0) != nil ? $0 : nil } ?? Self.choose(nil, in: list)
            target.chosenConfiguration = targetChoice
            // A target without configurations still gets Xcode's defaults and the project's settings.
            let configurations: [(name: String, id: String?)] = list.configurations.isEmpty
                ? (targetChoice.map { [($0, nil)] } ?? [])
                : list.configurations.map { ($0.name, Optional($0.id)) }
            for (configName, configID) in configurations {
                let isChosen = configName == targetChoice
                let resolver = settingsResolver(target: id, name: name, productType: productType, configName: configName,
                                                targetConfigID: configID, projectConfigID: projectConfigs.id(configName),
                                                recordProblems: isChosen)
                target.configurations[configName] = resolver.resolvedAll().mapValues {
                    SettingValue(ProjectPaths.display($0.value, projectDir: projectDir), location: $0.location)
                }
                if isChosen { resolvers[id] = resolver } else { otherResolvers[id, default: []].append((configName, resolver)) }
            }
            // Since Xcode 14 a watch app is an "application" target built with the watchOS SDK.
            if target.bundleKind == .app, resolvers[id]?.value("PLATFORM_NAME") == "watchos" {
                target.bundleKind = .watchApp
            }
            targets.append(target)
        }
        let nameByID = Dictionary(targets.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        for i in targets.indices {
            targets[i].dependencies = dependencyIDs(of: targets[i].id).compactMap { nameByID[$0] }
        }

        let parents = embeddingParents(targets)
        let empty = BuildSettingsResolver(levels: [], context: SettingsContext())
        var files: [String: TargetFiles] = [:]
        // Problems of a target's files follow those of its settings, as a reader of the project meets them.
        var fileProblems: [String: [LoadProblem]] = [:]
        for i in targets.indices {
            let before = problems.count
            let set = targetFiles(targets[i], resolver: resolvers[targets[i].id] ?? empty)
            fileProblems[targets[i].id] = Array(problems[before...])
            problems.removeSubrange(before...)
            files[targets[i].id] = set
            targets[i].sourceFiles = set.sources.sorted()
        }
        let snapshot = targets
        CodeClosure.link(&targets, direct: { self.directLinks(of: $0, in: snapshot) }, files: files, parents: parents)
        var bundles: [AppBundle] = []
        for target in targets {
            guard let kind = target.bundleKind else { continue }
            let resolver = resolvers[target.id] ?? empty
            var bundle = makeBundle(target, kind: kind, resolver: resolver, files: files[target.id] ?? TargetFiles())
            bundle.parentID = parents[target.id].map(bundleID)
            problems += fileProblems.removeValue(forKey: target.id) ?? []
            bundle.otherConfigurationEntitlements = checkFileSettingsOfOtherConfigurations(target, chosen: resolver, others: otherResolvers[target.id] ?? [])
            bundle.configuration = target.chosenConfiguration
            bundles.append(bundle)
        }
        for target in targets { problems += fileProblems.removeValue(forKey: target.id) ?? [] }
        problems += paths.problems
        // A file that a script, a generator or a download produces, or documentation, is not
        // missing from a checkout that lacks it (ExpectedAbsentFiles).
        let absent = expectedAbsentFiles(resolvers: resolvers).expected(problems.compactMap { p in
            if case .missingReference = p.kind { return p.path } else { return nil }
        })
        problems.removeAll { p in
            if case .missingReference = p.kind { return absent.contains(p.path) }
            return false
        }
        var result = ProjectLoadResult(targets: targets, bundles: bundles, problems: Self.deduplicated(problems),
                                       configurationNames: projectConfigs.names, configuration: chosen)
        result.usesRemotePackages = graph.objects.keys.contains { graph.isa($0) == "XCRemoteSwiftPackageReference" }
        result.remotePackages = remotePackageReferences()
        return result
    }

    /// Every `XCRemoteSwiftPackageReference` with a repository URL, in the order of their ids.
    func remotePackageReferences() -> [RemotePackageReference] {
        graph.objects.keys.sorted().compactMap { id -> RemotePackageReference? in
            guard graph.isa(id) == "XCRemoteSwiftPackageReference", let url = graph.string(id, "repositoryURL"), !url.isEmpty else { return nil }
            let r = graph.object(id)?["requirement"]
            let requirement: String?
            switch r?["kind"]?.string {
            case "upToNextMajorVersion"?, "upToNextMinorVersion"?: requirement = r?["minimumVersion"]?.string.map { "from " + $0 }
            case "exactVersion"?: requirement = r?["version"]?.string.map { "exactly " + $0 }
            case "versionRange"?: requirement = r?["minimumVersion"]?.string.map { "from " + $0 + (r?["maximumVersion"]?.string.map { " to " + $0 } ?? "") }
            case "branch"?: requirement = r?["branch"]?.string.map { "branch " + $0 }
            case "revision"?: requirement = r?["revision"]?.string.map { "revision " + String($0.prefix(12)) }
            default: requirement = graph.string(id, "preflightRequirement")  // a generator spec's, in words
            }
            return RemotePackageReference(repositoryURL: url, requirement: requirement, location: graph.location(id, key: "repositoryURL"))
        }
    }

    static func deduplicated(_ problems: [LoadProblem]) -> [LoadProblem] {
        // LoadProblem is Equatable only; its full description is a faithful key.
        var seen = Set<String>()
        return problems.filter { seen.insert(String(reflecting: $0)).inserted }
    }
}
