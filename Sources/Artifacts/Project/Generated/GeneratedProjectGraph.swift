import Foundation
import Formats

/// Writes a `GeneratedProject` as the object graph of the `project.pbxproj` its generator
/// would write, and loads that with `ProjectLoading`: settings levels, Xcode defaults,
/// INFOPLIST_FILE / CODE_SIGN_ENTITLEMENTS checks, build phases, embedding and code closures
/// are the pbxproj reader's own. Objects carry the spec's positions, so locations name the spec.
enum GeneratedProjectGraph {
    static func load(_ project: GeneratedProject, source: FileSource, index: FileIndex, limits: ReaderLimits,
                     configuration: String?) throws -> ProjectLoadResult {
        var table = ObjectTable(specPath: project.specPath, projectDir: project.directory)
        let root = table.write(project)
        let graph = try PBXObjectGraph(root: root, path: project.specPath)
        let virtualProject = PathUtil.join(project.directory, project.name + ".xcodeproj")
        let loading = ProjectLoading(graph: graph, project: virtualProject, source: source, index: index, limits: limits)
        var result = try loading.run(configuration: configuration)
        GeneratedPlists.apply(project, to: &result)
        GeneratedLocations.apply(project, to: &result)
        if !project.remotePackages.isEmpty { result.usesRemotePackages = true }
        return result
    }

    /// `path` (relative to the input root) as seen from `dir`, climbing with `..` when needed.
    static func relative(_ path: String, from dir: String) -> String {
        let p = path.split(separator: "/"), d = dir.split(separator: "/")
        var common = 0
        while common < p.count, common < d.count, p[common] == d[common] { common += 1 }
        let up = Array(repeating: "..", count: d.count - common)
        let parts = up + p[common...].map(String.init)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}

/// The `objects` table being written.
private struct ObjectTable {
    let specPath: String
    let projectDir: String
    var entries: [PlistEntry] = []
    var counter = 0

    init(specPath: String, projectDir: String) {
        self.specPath = specPath
        self.projectDir = projectDir
    }

    /// The position of a location in the spec file itself (others have none in this graph).
    func position(_ location: FileLocation?) -> SourcePosition? {
        location?.path == specPath ? location?.position : nil
    }

    mutating func add(_ isa: String, _ fields: [(String, PlistNode)], at location: FileLocation? = nil) -> String {
        counter += 1
        let id = String(format: "GEN%021d", counter)
        let pos = position(location)
        var entries = [PlistEntry(key: "isa", value: Self.string(isa))]
        entries += fields.map { PlistEntry(key: $0.0, keyPosition: $0.1.position ?? pos, value: $0.1) }
        self.entries.append(PlistEntry(key: id, keyPosition: pos, value: PlistNode(.dictionary(PlistDictionary(entries)), position: pos)))
        return id
    }

    static func string(_ s: String, _ pos: SourcePosition? = nil) -> PlistNode { PlistNode(.string(s), position: pos) }
    static func ids(_ ids: [String]) -> PlistNode { PlistNode(.array(ids.map { string($0) })) }

    mutating func fileReference(_ path: String, tree: String = "SOURCE_ROOT") -> String {
        let rel = tree == "SOURCE_ROOT" ? GeneratedProjectGraph.relative(path, from: projectDir) : path
        return add("PBXFileReference", [("path", Self.string(rel)), ("sourceTree", Self.string(tree))])
    }

    mutating func configurationList(_ names: [String], settings: GeneratedSettings, at location: FileLocation?) -> String {
        var ids: [String] = []
        for name in names {
            var fields: [(String, PlistNode)] = [("name", Self.string(name))]
            let values = (settings.values[name] ?? []).map {
                PlistEntry(key: $0.key, keyPosition: position($0.location), value: Self.string($0.value, position($0.location)))
            }
            fields.append(("buildSettings", PlistNode(.dictionary(PlistDictionary(values)))))
            if let xc = settings.xcconfigs[name] {
                let ref = fileReference(xc.path)
                fields.append(("baseConfigurationReference", Self.string(ref, position(xc.location))))
            }
            ids.append(add("XCBuildConfiguration", fields, at: location))
        }
        let defaultName = names.contains("Release") ? "Release" : names.first ?? "Release"
        return add("XCConfigurationList", [("buildConfigurations", Self.ids(ids)),
                                           ("defaultConfigurationName", Self.string(defaultName))], at: location)
    }

    mutating func buildFiles(_ refs: [String]) -> [String] {
        refs.map { add("PBXBuildFile", [("fileRef", Self.string($0))]) }
    }

    mutating func write(_ project: GeneratedProject) -> PlistNode {
        let specLocation = FileLocation(path: project.specPath, position: SourcePosition(line: 1, column: 1))
        // Packages first: targets refer to them.
        var packageRefs: [String: String] = [:]
        for (name, folder) in project.localPackages.sorted(by: { $0.key < $1.key }) {
            packageRefs[name] = add("XCLocalSwiftPackageReference",
                                    [("relativePath", Self.string(GeneratedProjectGraph.relative(folder, from: projectDir)))])
        }
        for name in project.remotePackages.sorted() where packageRefs[name] == nil {
            let known = project.remotePackageSources[name]
            var fields = [("repositoryURL", Self.string(known?.url ?? name, known?.position))]
            if let requirement = known?.requirement { fields.append(("preflightRequirement", Self.string(requirement))) }
            packageRefs[name] = add("XCRemoteSwiftPackageReference", fields,
                                    at: known?.position.map { FileLocation(path: project.specPath, position: $0) })
        }
        // Product references, so that build phases can name what they link and embed.
        var products: [String: String] = [:]
        var targetIndex: [String: Int] = [:]
        for (i, t) in project.targets.enumerated() where targetIndex[t.name] == nil { targetIndex[t.name] = i }
        for t in project.targets where products[t.name] == nil {
            products[t.name] = fileReference(t.productName ?? t.name, tree: "BUILT_PRODUCTS_DIR")
        }
        // Target ids are known only once written; dependencies need them, so write in two passes.
        let placeholders = project.targets.map { _ in add("PBXTargetDependency", []) }
        let placeholderSlots = Array((entries.count - placeholders.count)..<entries.count)
        var written: [String] = []
        for t in project.targets {
            let sources = add("PBXSourcesBuildPhase", [("files", Self.ids(buildFiles(t.sources.map { fileReference($0) })))])
            let resources = add("PBXResourcesBuildPhase", [("files", Self.ids(buildFiles(t.resources.map { fileReference($0) })))])
            let targetDeps = t.dependencies.filter { $0.kind == .target && products[$0.name] != nil }
            let linked = buildFiles(targetDeps.filter(\.link).compactMap { products[$0.name] })
            let frameworks = add("PBXFrameworksBuildPhase", [("files", Self.ids(linked))])
            let embedded = buildFiles(targetDeps.filter(\.embed).compactMap { products[$0.name] })
            let copy = add("PBXCopyFilesBuildPhase", [("files", Self.ids(embedded))])
            var packageProducts: [String] = []
            for dep in t.dependencies {
                guard case .package(let product) = dep.kind, let ref = packageRefs[dep.name] else { continue }
                packageProducts.append(add("XCSwiftPackageProductDependency",
                                           [("package", Self.string(ref)), ("productName", Self.string(product ?? dep.name))]))
            }
            let list = configurationList(project.configurations, settings: t.settings, at: t.location)
            var fields: [(String, PlistNode)] = [
                ("name", Self.string(t.name, position(t.location))),
                ("productType", Self.string(t.productType)),
                ("buildConfigurationList", Self.string(list)),
                ("buildPhases", Self.ids([sources, resources, frameworks, copy])),
                ("packageProductDependencies", Self.ids(packageProducts)),
            ]
            if let p = products[t.name] { fields.append(("productReference", Self.string(p))) }
            if let n = t.productName { fields.append(("productName", Self.string(n))) }
            // Dependencies point at placeholders filled below.
            let deps = targetDeps.compactMap { d in targetIndex[d.name].map { placeholders[$0] } }
            fields.append(("dependencies", Self.ids(deps)))
            let id = add("PBXNativeTarget", fields, at: t.location)
            written.append(id)
        }
        // Fill the placeholders: dependency i targets target i.
        for (i, slot) in placeholderSlots.enumerated() {
            entries[slot].value = PlistNode(.dictionary(PlistDictionary([
                PlistEntry(key: "isa", value: Self.string("PBXTargetDependency")),
                PlistEntry(key: "target", value: Self.string(written[i])),
            ])))
        }
        let projectList = configurationList(project.configurations, settings: project.settings, at: specLocation)
        let rootID = add("PBXProject", [("buildConfigurationList", Self.string(projectList)),
                                        ("targets", Self.ids(written)),
                                        ("packageReferences", Self.ids(packageRefs.values.sorted()))], at: specLocation)
        return PlistNode(.dictionary(PlistDictionary([
            PlistEntry(key: "objects", value: PlistNode(.dictionary(PlistDictionary(entries)))),
            PlistEntry(key: "rootObject", value: Self.string(rootID)),
        ])))
    }
}
