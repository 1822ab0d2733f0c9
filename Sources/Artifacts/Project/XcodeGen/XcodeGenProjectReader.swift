import Foundation
import Formats

/// Reads an XcodeGen spec (`project.yml` and what it includes) into a `GeneratedProject`.
///
/// Read: `name`, `include`, `options` (`bundleIdPrefix`, `deploymentTarget`), `configs`,
/// `configFiles`, `settings`, `settingGroups` (and the older `settingPresets`), `packages`
/// (`path:` local, `url:` remote), `targetTemplates` and `targets` (`type`, `platform`, also
/// as a list, `productName`, `deploymentTarget`, `sources` with `excludes` / `includes` /
/// `buildPhase` / `type: folder` / `optional`, `info`, `entitlements`, `settings`,
/// `configFiles`, `dependencies`, `templates`, `templateAttributes`). XcodeGen's setting
/// presets are reduced to what Preflight reads (`GeneratedPresets`).
enum XcodeGenProjectReader {
    /// Top-level keys that make a `project.yml` an XcodeGen spec.
    static let specKeys: Set<String> = ["targets", "include", "targetTemplates", "packages", "settings"]

    static func read(_ specPath: String, source: FileSource, index: FileIndex, limits: ReaderLimits) -> GeneratedProjectRead {
        var files = XcodeGenSpecFiles(source: source, index: index, limits: limits)
        let spec = files.read(specPath)
        var read = GeneratedProjectRead(problems: files.problems, includedFiles: files.included)
        guard let spec, spec.mapping?.contains(where: { specKeys.contains($0.key) }) == true else { return read }
        let dir = PathUtil.parent(specPath)
        var project = GeneratedProject(name: spec["name"]?.string ?? PathUtil.lastComponent(dir.isEmpty ? "Project" : dir),
                                       specPath: specPath, directory: dir)
        var configs: [(name: String, type: String)] = (spec["configs"]?.mapping ?? []).map { ($0.key, $0.value.string ?? "release") }
        if configs.isEmpty { configs = [("Debug", "debug"), ("Release", "release")] }
        project.configurations = configs.map(\.name)

        var groups: [String: YAMLNode] = [:]
        for key in ["settingPresets", "settingGroups"] {
            for e in spec[key]?.mapping ?? [] { groups[e.key] = e.value }
        }
        var settings = XcodeGenSettings(groups: groups)
        project.settings.xcconfigs = XcodeGenSettings.configFiles(spec["configFiles"], configs: project.configurations)
        var budget = GeneratedSettingsBudget(limits: limits)
        for (name, type) in configs {
            let values = GeneratedPresets.project(configType: type) + settings.assignments(spec["settings"], config: name)
            guard budget.charge(values.count) else { break }
            project.settings.values[name] = values
        }
        read.problems += settings.problems
        settings.problems = []

        for e in spec["packages"]?.mapping ?? [] {
            if let pathNode = e.value["path"], let folder = ProjectPaths.join(pathNode.baseDir, pathNode.string ?? "") {
                project.localPackages[e.key] = folder
            } else {
                project.remotePackages.insert(e.key)
                let github = e.value["github"]?.string.map { "https://github.com/" + $0 }
                if let url = e.value["url"]?.string ?? github {
                    project.remotePackageSources[e.key] = (url, Self.requirement(e.value), e.keyPosition)
                }
            }
        }
        for item in spec["localPackages"]?.sequence ?? [] {
            if let p = item.string, let folder = ProjectPaths.join(item.baseDir, p) { project.localPackages[PathUtil.lastComponent(folder)] = folder }
        }

        var templates = XcodeGenTemplates(templates: Dictionary(
            (spec["targetTemplates"]?.mapping ?? []).map { ($0.key, $0.value) }, uniquingKeysWith: { _, b in b }), limits: limits)
        var reader = XcodeGenTargetReader(projectDir: dir, configs: configs, options: spec["options"],
                                          packages: project.localPackages, index: index,
                                          files: GeneratedSourceFiles(index: index, limits: limits), settings: settings,
                                          budget: budget)
        for e in spec["targets"]?.mapping ?? [] where !reader.budget.exhausted {
            let node = templates.apply(to: e.value, name: e.key)
            for (name, variant) in XcodeGenTemplates.platformVariants(e.key, node) {
                if let t = reader.read(name: name, variant, keyPosition: e.keyPosition) { project.targets.append(t) }
            }
        }
        read.problems += templates.problems + reader.problems
        if let p = reader.files.exhaustedProblem(specPath) { read.problems.append(p) }
        if let p = reader.budget.problem(specPath) { read.problems.append(p) }
        project.remotePackages.formUnion(reader.remotePackages)
        project.usesExternalCode = reader.usesExternalCode || !project.remotePackages.isEmpty
        read.project = project
        return read
    }

    /// A package's version requirement as XcodeGen writes it, in words (`from 5.0.0`).
    static func requirement(_ node: YAMLNode) -> String? {
        func value(_ key: String) -> String? { node[key]?.string.flatMap { $0.isEmpty ? nil : $0 } }
        if let v = value("from") ?? value("majorVersion") ?? value("minorVersion") { return "from " + v }
        if let v = value("exactVersion") ?? value("version") { return "exactly " + v }
        if let low = value("minVersion") { return "from " + low + (value("maxVersion").map { " to " + $0 } ?? "") }
        if let b = value("branch") { return "branch " + b }
        if let r = value("revision") { return "revision " + String(r.prefix(12)) }
        return nil
    }
}
