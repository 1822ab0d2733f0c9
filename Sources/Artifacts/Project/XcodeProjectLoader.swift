import Foundation
import Formats

/// Reads Xcode projects (`*.xcodeproj/project.pbxproj`) into targets with resolved build
/// settings and into `Bundle`s that rules judge like the bundles of a built app.
public enum XcodeProjectLoader {
    /// Folders whose projects belong to dependencies or build output, at any depth.
    public static let skippedFolders: Set<String> = ["Pods", "Carthage", "DerivedData", ".build", "build"]

    /// Paths (relative to the input root) of every `.xcodeproj` folder that contains a
    /// `project.pbxproj`, skipping anything under Pods/, Carthage/, DerivedData/, .build/ and
    /// build/ at any depth, sorted.
    public static func discoverProjects(in index: FileIndex) -> [String] {
        var found = Set<String>()
        for e in index.entries where e.kind == .file && PathUtil.lastComponent(e.path) == "project.pbxproj" {
            let project = PathUtil.parent(e.path)
            guard PathUtil.pathExtension(project) == "xcodeproj" else { continue }
            let folders = PathUtil.parent(project).split(separator: "/")
            if folders.contains(where: { skippedFolders.contains(String($0)) }) { continue }
            found.insert(project)
        }
        return found.sorted()
    }

    /// Parses one project and returns its targets as Bundles. `configuration` nil = "Release" if
    /// present, else the project's defaultConfigurationName, else the first.
    ///
    /// Throws `FormatError` when the pbxproj cannot be parsed or lacks its root object,
    /// `XcodeProjectError` when it is absent or the configuration does not exist, `SourceError`
    /// when it cannot be read. Everything else (missing objects, missing files, unreadable
    /// xcconfigs, cyclic groups) is a `LoadProblem` in the result.
    public static func load(project: String, source: FileSource, index: FileIndex,
                            limits: ReaderLimits = .default, configuration: String? = nil) throws -> ProjectLoadResult {
        let project = PathUtil.normalize(project)
        let pbxPath = PathUtil.join(project, "project.pbxproj")
        guard index.entry(pbxPath) != nil else { throw XcodeProjectError.noProjectFile(project) }
        let text = try ProjectFiles.readText(pbxPath, source: source, index: index, limits: limits, format: PBXObjectGraph.format)
        let root = try OpenStepParser.parse(text: text, limits: limits, format: PBXObjectGraph.format)
        let graph = try PBXObjectGraph(root: root, path: pbxPath)
        let loading = ProjectLoading(graph: graph, project: project, source: source, index: index, limits: limits)
        return try loading.run(configuration: configuration)
    }
}
