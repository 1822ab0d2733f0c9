import Foundation
import Formats

/// The work of loading one project: configurations, settings levels, targets and bundles.
final class ProjectLoading {
    let graph: PBXObjectGraph
    let project: String
    let projectDir: String
    let projectName: String
    let source: FileSource
    let index: FileIndex
    let limits: ReaderLimits
    let paths: GroupTreePaths
    var problems: [LoadProblem] = []
    private var xcconfigs: [String: XCConfigReader.Result] = [:]
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

    // MARK: - Configurations

    struct ConfigurationList {
        var configurations: [(name: String, id: String)] = []
        var defaultName: String?
        var names: [String] { configurations.map(\.name) }
        func id(_ name: String) -> String? { configurations.first { $0.name == name }?.id }
    }

    func configurationList(of owner: String, bundle: String?) -> ConfigurationList {
        var list = ConfigurationList()
        guard let listID = graph.string(owner, "buildConfigurationList") else { return list }
        guard graph.isa(listID) == "XCConfigurationList" else {
            problems.append(graph.malformed("buildConfigurationList \(listID) is not an XCConfigurationList in 'objects'",
                                            at: owner, key: "buildConfigurationList", bundle: bundle))
            return list
        }
        list.defaultName = graph.string(listID, "defaultConfigurationName")
        for id in graph.ids(listID, "buildConfigurations") {
            guard graph.isa(id) == "XCBuildConfiguration", let name = graph.string(id, "name") else {
                problems.append(graph.malformed("build configuration \(id) is missing or not an XCBuildConfiguration with a name",
                                                at: listID, key: "buildConfigurations", bundle: bundle))
                continue
            }
            list.configurations.append((name, id))
        }
        return list
    }

    static func choose(_ requested: String?, in list: ConfigurationList) -> String? {
        if let requested, list.id(requested) != nil { return requested }
        if list.id("Release") != nil { return "Release" }
        if let d = list.defaultName, list.id(d) != nil { return d }
        return list.configurations.first?.name
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
        var bundles: [Bundle] = []
        for target in targets {
            guard let kind = target.bundleKind else { continue }
            let resolver = resolvers[target.id] ?? empty
            var bundle = makeBundle(target, kind: kind, resolver: resolver, files: files[target.id] ?? TargetFiles())
            bundle.parent = parents[target.id]
            problems += fileProblems.removeValue(forKey: target.id) ?? []
            checkTargetFilestingsOfOtherConfigurations(target, chosen: resolver, others: otherResolvers[target.id] ?? [])
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
        return result
    }

    static func deduplicated(_ problems: [LoadProblem]) -> [LoadProblem] {
        // LoadProblem is Equatable only; its full description is a faithful key.
        var seen = Set<String>()
        return problems.filter { seen.insert(String(reflecting: $0)).inserted }
    }

    // MARK: - Settings

    func settingsResolver(target: String, name: String, productType: String, configName: String,
                          targetConfigID: String?, projectConfigID: String?, recordProblems: Bool) -> BuildSettingsResolver {
        var levels: [[SettingDefinition]] = [[]]
        var problemsHere: [LoadProblem] = []
        if let projectConfigID {
            levels.append(xcconfigDefinitions(of: projectConfigID, bundle: name, problems: &problemsHere))
            levels.append(settingsDefinitions(of: projectConfigID))
        }
        if let targetConfigID {
            levels.append(xcconfigDefinitions(of: targetConfigID, bundle: name, problems: &problemsHere))
            levels.append(settingsDefinitions(of: targetConfigID))
        }
        if recordProblems { problems += problemsHere }

        func make(_ platform: String) -> BuildSettingsResolver {
            var l = levels
            l[0] = XcodeDefaultSettings.definitions(.init(projectName: projectName, targetName: name, productType: productType,
                                                          configuration: configName, platform: platform))
            return BuildSettingsResolver(levels: l, context: SettingsContext(sdk: platform, configuration: configName))
        }
        let first = make("iphoneos")
        let platform = XcodeDefaultSettings.platform(forSDKRoot: first.value("SDKROOT") ?? "iphoneos")
        return platform == "iphoneos" ? first : make(platform)
    }

    /// The `buildSettings` of a configuration as definitions, in the order written.
    func settingsDefinitions(of configID: String) -> [SettingDefinition] {
        guard let settings = graph.object(configID)?["buildSettings"]?.dictionary else { return [] }
        var out: [SettingDefinition] = []
        for e in settings.entries {
            guard let (key, conditions) = SettingDefinition.parseKey(e.key) else { continue }
            let value: String
            switch e.value.value {
            case .string(let s): value = s
            case .array(let items):
                value = items.compactMap(\.string).map { $0.contains(where: { $0 == " " || $0 == "\t" }) && !$0.hasPrefix("\"") ? "\"\($0)\"" : $0 }
                    .joined(separator: " ")
            case .integer(let i): value = String(i)
            default: continue
            }
            out.append(SettingDefinition(key: key, conditions: conditions, value: value,
                                         location: FileLocation(path: graph.path, position: e.keyPosition ?? e.value.position)))
        }
        return out
    }

    /// The definitions of a configuration's `baseConfigurationReference` xcconfig (with includes).
    func xcconfigDefinitions(of configID: String, bundle: String, problems: inout [LoadProblem]) -> [SettingDefinition] {
        let setting = "baseConfigurationReference"
        var path: String?
        if let ref = graph.string(configID, setting) {
            guard graph.object(ref) != nil else {
                problems.append(graph.malformed("\(setting) \(ref) is not in 'objects'", at: configID, key: setting, bundle: bundle))
                return []
            }
            if case .input(let p)? = paths.path(of: ref) { path = p }
        } else if let anchor = graph.string(configID, "baseConfigurationReferenceAnchor"),
                  let rel = graph.string(configID, "baseConfigurationReferenceRelativePath"),
                  case .input(let root)? = paths.path(of: anchor) {
            // Xcode 16: an xcconfig inside a synchronized folder.
            path = ProjectPaths.join(root, rel)
        }
        guard let path else { return [] }
        let from = graph.location(configID, key: graph.object(configID)?.entry(setting) != nil ? setting : "baseConfigurationReferenceRelativePath")
        guard let actual = checkReference(path, setting: setting, bundle: bundle, from: from, into: &problems) else { return [] }
        let result: XCConfigReader.Result
        if let cached = xcconfigs[actual] {
            result = cached
        } else {
            result = XCConfigReader.read(path: actual, source: source, index: index, limits: limits, projectDir: projectDir)
            xcconfigs[actual] = result
        }
        // Problems inside an xcconfig concern the file, whichever targets use it.
        problems += result.problems
        return result.definitions
    }

    /// The `Pods` or `Carthage` folder a path lies in, if any.
    static func generatedFolder(in path: String) -> String? {
        let parts = PathUtil.normalize(path).split(separator: "/")
        guard let i = parts.firstIndex(where: { $0 == "Pods" || $0 == "Carthage" }) else { return nil }
        return parts[...i].joined(separator: "/")
    }

    /// Checks that a referenced path exists; returns the path to use (the actual one on a
    /// letter-case mismatch) or nil when missing.
    func checkReference(_ path: String, setting: String, bundle: String?, from: FileLocation?,
                        into problems: inout [LoadProblem]) -> String? {
        switch index.lookup(path) {
        case .exact(let e):
            return e.path
        case .caseMismatch(let e):
            problems.append(LoadProblem(.caseMismatch(setting: setting, actualPath: e.path), path: path, bundle: bundle, referencedFrom: from))
            return e.path
        case .missing:
            // A folder is there when files are, even if the listing has no entry for the folder itself.
            if path.isEmpty || folders.contains(PathUtil.normalize(path)) { return PathUtil.normalize(path) }
            // Dependency managers generate these folders (`pod install`, `carthage bootstrap`);
            // a checkout without them is not missing anything of its own.
            if let generated = Self.generatedFolder(in: path), !folders.contains(generated) { return nil }
            problems.append(LoadProblem(.missingReference(setting: setting), path: path, bundle: bundle, referencedFrom: from))
            return nil
        }
    }

    /// A build setting naming a file, resolved and checked. `label` names the setting in
    /// problems (with the configuration when it is not the one read).
    func settingPath(_ key: String, resolver: BuildSettingsResolver, bundle: String, label: String? = nil) -> String? {
        guard let raw = resolver.value(key)?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
        let from = resolver.definition(key)?.location
        guard let path = ProjectPaths.inputPath(raw, projectDir: projectDir) else {
            problems.append(LoadProblem(.missingReference(setting: label ?? key), path: raw, bundle: bundle, referencedFrom: from))
            return nil
        }
        return checkReference(path, setting: label ?? key, bundle: bundle, from: from, into: &problems)
    }

    /// Debug and other configurations build too (on CI, on case-sensitive disks): their file
    /// settings are checked where they differ from the configuration that was read.
    func checkTargetFilestingsOfOtherConfigurations(_ target: ProjectTarget, chosen: BuildSettingsResolver,
                                                others: [(String, BuildSettingsResolver)]) {
        for (configName, resolver) in others {
            for key in ["INFOPLIST_FILE", "CODE_SIGN_ENTITLEMENTS"] where resolver.value(key) != chosen.value(key) {
                _ = settingPath(key, resolver: resolver, bundle: target.name, label: "\(key) [\(configName)]")
            }
        }
    }
}
