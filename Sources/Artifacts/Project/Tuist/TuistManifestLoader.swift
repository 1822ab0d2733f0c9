import Foundation
import Formats

/// Reads Tuist manifests (`Project.swift`, and the projects a `Workspace.swift` lists) with the
/// injected Swift reader. Without a reader every manifest is reported as unreadable and the
/// folder is read without it.
enum TuistManifestLoader {
    static let format = "Tuist manifest"

    static func read(manifests: [String], reader: ManifestExpressionReader?, source: FileSource, index: FileIndex,
                     limits: ReaderLimits) -> [GeneratedProjectRead] {
        guard let reader else {
            return manifests.map { path in
                GeneratedProjectRead(problems: [LoadProblem(.unreadable(FormatError(.unsupported, format: format,
                    reason: "no Swift manifest reader was given to the loader, so the Tuist project is not read")), path: path)])
            }
        }
        var projects = manifests.filter { PathUtil.lastComponent($0) == "Project.swift" }
        var reads: [GeneratedProjectRead] = []
        // A workspace names project folders; those not found by discovery (none should be) are added.
        for workspace in manifests where PathUtil.lastComponent(workspace) == "Workspace.swift" {
            var problems: [LoadProblem] = []
            guard let file = parse(workspace, reader: reader, source: source, index: index, limits: limits, problems: &problems) else {
                reads.append(GeneratedProjectRead(problems: problems))
                continue
            }
            var scope = ManifestScope(file: file, path: workspace, limits: limits)
            for folder in TuistWorkspace.projectFolders(in: &scope, folder: PathUtil.parent(workspace), index: index) {
                let p = PathUtil.join(folder, "Project.swift")
                if index.entry(p) != nil, !projects.contains(p) { projects.append(p) }
            }
            reads.append(GeneratedProjectRead(problems: problems + scope.problems))
        }
        var helpers: [String: [ManifestFile]] = [:]
        for path in projects.sorted() {
            var problems: [LoadProblem] = []
            guard let file = parse(path, reader: reader, source: source, index: index, limits: limits, problems: &problems) else {
                reads.append(GeneratedProjectRead(problems: problems))
                continue
            }
            let prefix = rootPrefix(of: path, index: index)
            let root = ProjectPaths.join(PathUtil.parent(path), prefix) ?? ""
            if helpers[root] == nil {
                var read = GeneratedProjectRead()
                helpers[root] = helperFiles(root: root, reader: reader, source: source, index: index, limits: limits,
                                            problems: &read.problems)
                for manifest in TuistPackages.manifests(root: root, index: index, source: source, limits: limits) {
                    guard let packageFile = parse(manifest, reader: reader, source: source, index: index, limits: limits,
                                                  problems: &read.problems, marker: nil) else { continue }
                    var packageScope = ManifestScope(file: packageFile, path: manifest, limits: limits)
                    read.packageReferences += TuistPackages.references(in: &packageScope)
                    read.problems += packageScope.problems
                }
                reads.append(read)
            }
            var scope = ManifestScope(file: file, path: path, limits: limits, helpers: helpers[root] ?? [])
            scope.rootPrefix = prefix
            var reader = TuistProjectReader(scope: scope, index: index)
            var read = reader.read()
            // A helper met by several manifests is one problem where the helper is written.
            read.problems = (problems + read.problems).filter { p in
                !(p.path != path && reads.contains { $0.problems.contains(p) })
            }
            reads.append(read)
        }
        return reads
    }

    /// The way from a manifest's folder up to the Tuist root: the nearest folder above it with
    /// a `Tuist` folder, `Tuist.swift` or `Workspace.swift`, else the input's root.
    static func rootPrefix(of manifest: String, index: FileIndex) -> String {
        var folder = PathUtil.parent(manifest)
        var ups = 0
        while true {
            let markers = ["Tuist", "Tuist.swift", "Workspace.swift"].map { folder.isEmpty ? $0 : PathUtil.join(folder, $0) }
            if markers.contains(where: { index.entry($0) != nil }) || folder.isEmpty { break }
            folder = PathUtil.parent(folder)
            ups += 1
        }
        return String(repeating: "../", count: ups)
    }

    /// The files of `Tuist/ProjectDescriptionHelpers` under the Tuist root, read once per root.
    static let maxHelperFiles = 200

    static func helperFiles(root: String, reader: ManifestExpressionReader, source: FileSource, index: FileIndex,
                            limits: ReaderLimits, problems: inout [LoadProblem]) -> [ManifestFile] {
        let folder = root.isEmpty ? "Tuist/ProjectDescriptionHelpers" : PathUtil.join(root, "Tuist/ProjectDescriptionHelpers")
        let paths = index.files(under: folder).filter { $0.kind == .file && PathUtil.pathExtension($0.path) == "swift" }.map(\.path).sorted()
        return paths.prefix(maxHelperFiles).compactMap { path in
            parse(path, reader: reader, source: source, index: index, limits: limits, problems: &problems)?.stamped(path)
        }
    }

    static func parse(_ path: String, reader: ManifestExpressionReader, source: FileSource, index: FileIndex,
                      limits: ReaderLimits, problems: inout [LoadProblem], marker: String? = "import ProjectDescription") -> ManifestFile? {
        do {
            if let e = index.entry(path), e.size > Int64(limits.maxSourceFileBytes) {
                throw FormatError(.limitExceeded("max-source-file-bytes"), format: format,
                                  reason: "\(path) is \(e.size) bytes, more than \(limits.maxSourceFileBytes)")
            }
            let text = try ProjectFiles.readText(path, source: source, index: index, limits: limits, format: format)
            // An app's own `Project.swift` model file is not a manifest.
            if let marker, !text.contains(marker) { return nil }
            return try reader.read(source: text, path: path, limits: limits)
        } catch {
            problems.append(LoadProblem(unreadable: error, path: path, bundle: nil))
            return nil
        }
    }
}
