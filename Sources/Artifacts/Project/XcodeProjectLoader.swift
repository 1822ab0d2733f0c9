import Foundation
import Formats

/// Reads Xcode projects (`*.xcodeproj/project.pbxproj`) into targets with resolved build
/// settings and into `AppBundle`s that rules judge like the bundles of a built app.
///
/// Choices, where Xcode leaves room:
/// - Settings are resolved for the iOS device SDK (`iphoneos`, arm64) unless the target's
///   SDKROOT names another platform (a watchOS target matches `[sdk=watchos*]`). See
///   `BuildSettingsResolver` for levels, `$(inherited)`, `$NAME` (expanded, as Xcode's parser
///   still does) and operators; unresolvable references stay as written.
/// - SRCROOT, PROJECT_DIR and SOURCE_ROOT are the folder holding the `.xcodeproj` (plus
///   `projectDirPath`), relative to the input root ("." for the root). INFOPLIST_FILE and
///   CODE_SIGN_ENTITLEMENTS are relative to it unless they start with `$(SRCROOT)`.
/// - A path that is absolute, or that climbs out of the input with `..`, is a missing
///   reference; one that exists only with other letter case is used and reported.
/// - `AppBundle.path` is the Info.plist's folder, else the project's folder.
/// - `generatedInfoPlistKeys` (GENERATE_INFOPLIST_FILE = YES) omit keys whose setting is
///   empty, as Xcode does; `<Key>_Generation = YES` yields `<Key>` = "YES".
/// - Local Swift packages contribute every `.swift/.m/.mm/.c/.cc/.cpp/.h` under `Sources/`,
///   without reading Package.swift to narrow it to the linked product's targets.
/// - Test bundles get no parent (they are hosted, not embedded).
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
