import Foundation
import Formats

/// Interprets `Project(name:, packages:, settings:, targets:)` of a `Project.swift`.
struct TuistProjectReader {
    var scope: ManifestScope
    let index: FileIndex
    var dir: String { PathUtil.parent(scope.path) }

    init(scope: ManifestScope, index: FileIndex) {
        self.scope = scope
        self.index = index
    }

    mutating func read() -> GeneratedProjectRead {
        let projectCall = scope.ordered.compactMap(\.value.call).first { $0.name == "Project" }
        guard let args = projectCall?.arguments else {
            if let v = scope.bindings["project"] { scope.unreadable(v, "the project") }
            return GeneratedProjectRead(problems: scope.problems)
        }
        var project = GeneratedProject(name: scope.string(args["name"], "project name") ?? PathUtil.lastComponent(dir),
                                       specPath: scope.path, directory: dir)
        var settings = TuistSettings()
        let (configs, projectSettings) = settings.read(args["settings"], scope: &scope, dir: dir)
        project.configurations = configs.map(\.name)
        project.settings = projectSettings
        var budget = GeneratedSettingsBudget(limits: scope.limits)
        for (name, type) in configs {
            let values = GeneratedPresets.project(configType: type) + (project.settings.values[name] ?? [])
            guard budget.charge(values.count) else { break }
            project.settings.values[name] = values
        }
        readPackages(args["packages"], into: &project)
        var targets = TuistTargetReader(dir: dir, configs: configs, packages: project.localPackages,
                                        fileList: GeneratedSourceFiles(index: index, limits: scope.limits),
                                        budget: budget)
        for item in scope.array(args["targets"], "the target list") where !targets.budget.exhausted {
            if let t = targets.read(item, scope: &scope) { project.targets.append(t) }
        }
        project.usesExternalCode = targets.usesExternalCode || !project.remotePackages.isEmpty
        if let p = targets.fileList.exhaustedProblem(scope.path) { scope.problems.append(p) }
        if let p = targets.budget.problem(scope.path) { scope.problems.append(p) }
        return GeneratedProjectRead(project: project, problems: scope.problems)
    }

    /// `.package(path:)` / `.local(path:)` are local; `.package(url:…)` / `.remote(url:…)` are not.
    mutating func readPackages(_ value: ManifestValue?, into project: inout GeneratedProject) {
        for item in scope.array(value, "the package list") {
            guard let call = item.call else { scope.unreadable(item, "package"); continue }
            if let pathValue = call.arguments["path"], let p = scope.string(pathValue, "package path"),
               let folder = ProjectPaths.join(dir, p) {
                project.localPackages[PathUtil.lastComponent(folder)] = folder
            } else if let url = call.arguments["url"] {
                project.remotePackages.insert(scope.string(url, "package url") ?? "remote")
            }
        }
    }
}

/// `.settings(base:, configurations:, defaultSettings:)` of a project or target.
struct TuistSettings {
    /// Configurations (name, debug/release) and the settings per configuration.
    mutating func read(_ value: ManifestValue?, scope: inout ManifestScope, dir: String)
        -> (configs: [(name: String, type: String)], settings: GeneratedSettings) {
        var configs: [(name: String, type: String)] = []
        var out = GeneratedSettings()
        guard let value else { return ([("Debug", "debug"), ("Release", "release")], out) }
        let v = scope.resolve(value)
        guard let call = v.call else {
            scope.unreadable(v, "settings")
            return ([("Debug", "debug"), ("Release", "release")], out)
        }
        let base = dictionary(call.arguments["base"], scope: &scope)
        var perConfig: [String: [GeneratedSetting]] = [:]
        // `.settings(base:, debug:, release:)`: the two default configurations' own settings.
        for (label, name) in [("debug", "Debug"), ("release", "Release")] where call.arguments[label] != nil {
            perConfig[name] = dictionary(call.arguments[label], scope: &scope)
        }
        for item in scope.array(call.arguments["configurations"], "configuration list") {
            guard let c = item.call else { scope.unreadable(item, "configuration"); continue }
            let type = c.name.hasSuffix("release") ? "release" : "debug"
            let name = configurationName(c.arguments["name"], type: type, scope: &scope)
            configs.append((name, type))
            perConfig[name] = dictionary(c.arguments["settings"], scope: &scope)
            if let xc = c.arguments["xcconfig"], let p = scope.string(xc, "xcconfig"), let path = ProjectPaths.join(dir, p) {
                out.xcconfigs[name] = (path, FileLocation(path: scope.path, position: xc.position))
            }
        }
        if configs.isEmpty { configs = [("Debug", "debug"), ("Release", "release")] }
        var budget = GeneratedSettingsBudget(limits: scope.limits)
        for (name, _) in configs {
            let values = base + (perConfig[name] ?? [])
            guard budget.charge(values.count) else {
                if let p = budget.problem(scope.path) { scope.problems.append(p) }
                break
            }
            out.values[name] = values
        }
        return (configs, out)
    }

    func configurationName(_ value: ManifestValue?, type: String, scope: inout ManifestScope) -> String {
        guard let value else { return type == "release" ? "Release" : "Debug" }
        let v = scope.resolve(value)
        switch v.kind {
        case .member(let m) where m.hasSuffix("release"): return "Release"
        case .member(let m) where m.hasSuffix("debug"): return "Debug"
        case .call(let n, _, let args) where n.hasSuffix("configuration"):
            return args.firstUnlabelled.flatMap { scope.string($0, "configuration name") } ?? type.capitalized
        default: return scope.string(v, "configuration name") ?? type.capitalized
        }
    }

    /// A `SettingsDictionary`: `["KEY": "value", "FLAG": true, "LIST": ["a", "b"]]`, with
    /// `.merging(…)`, `.marketingVersion(…)`, `.currentProjectVersion(…)` applied.
    func dictionary(_ value: ManifestValue?, scope: inout ManifestScope) -> [GeneratedSetting] {
        guard let value else { return [] }
        let v = scope.resolve(value)
        switch v.kind {
        case .dictionary(let entries):
            return entries.compactMap { e in
                guard let key = scope.string(e.key, "setting name"), let s = settingValue(e.value, scope: &scope) else { return nil }
                return GeneratedSetting(key: key, value: s, location: FileLocation(path: scope.path, position: e.key.position))
            }
        case .call(let name, let base, let args):
            guard scope.enter(v) else { return [] }
            defer { scope.leave() }
            let own = base.map { dictionary($0, scope: &scope) } ?? []
            let loc = FileLocation(path: scope.path, position: v.position)
            switch name {
            case ".merging", "merging": return own + dictionary(args.firstUnlabelled, scope: &scope)
            case ".marketingVersion", "marketingVersion":
                return own + (args.firstUnlabelled.flatMap { scope.string($0, "version") }.map {
                    [GeneratedSetting(key: "MARKETING_VERSION", value: $0, location: loc)] } ?? [])
            case ".currentProjectVersion", "currentProjectVersion":
                return own + (args.firstUnlabelled.flatMap { scope.string($0, "version") }.map {
                    [GeneratedSetting(key: "CURRENT_PROJECT_VERSION", value: $0, location: loc)] } ?? [])
            default:
                scope.unreadable(v, "settings")
                return own
            }
        default:
            scope.unreadable(v, "settings")
            return []
        }
    }

    func settingValue(_ value: ManifestValue, scope: inout ManifestScope) -> String? {
        let v = scope.resolve(value)
        switch v.kind {
        case .bool(let b): return b ? "YES" : "NO"
        case .array(let items):
            return items.compactMap { scope.string($0, "setting value") }
                .map { $0.contains(" ") ? "\"\($0)\"" : $0 }.joined(separator: " ")
        case .call(let n, _, let args) where n == ".string" || n == ".array":
            guard scope.enter(v) else { return nil }
            defer { scope.leave() }
            return args.firstUnlabelled.flatMap { settingValue($0, scope: &scope) }
        default: return scope.string(v, "setting value")
        }
    }
}
