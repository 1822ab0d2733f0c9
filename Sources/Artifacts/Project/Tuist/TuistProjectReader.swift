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
        // `Project(…)`, or a helper that returns one (`Project.app(name: "App", …)`).
        let projectCall = scope.ordered.lazy.compactMap { [scope] in scope.resolve($0.value).call }.first { $0.name == "Project" }
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
            } else if let urlValue = call.arguments["url"] {
                guard let url = scope.string(urlValue, "package url") else { project.remotePackages.insert("remote"); continue }
                project.remotePackages.insert(url)
                // The graph locates a package in the manifest: a URL a helper writes gets no line there.
                project.remotePackageSources[url] = (url, TuistPackages.requirement(call.arguments, scope: &scope),
                                                     urlValue.file == nil ? urlValue.position : nil)
            }
        }
    }
}
