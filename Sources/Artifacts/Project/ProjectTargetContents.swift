import Foundation
import Formats

/// A target's own files: its build phases (limited to the platform built), its synchronized
/// folders, and the local packages and pods it links.
extension ProjectLoading {
    /// The files a target compiles or copies itself, and the local packages it links.
    func targetFiles(_ target: ProjectTarget, resolver: BuildSettingsResolver) -> TargetFiles {
        var files = TargetFiles()
        let name = target.name
        collectBuildPhases(target.id, bundle: name, platform: Self.filterPlatform(resolver.value("PLATFORM_NAME")), into: &files)
        for path in synchronized.members(of: target.id, bundle: name, problems: &problems) {
            if ProjectFileRole.isSource(path) { files.sources.insert(path) }
            files.addResource(path)
        }
        files.packages = localPackages(target.id, bundle: name)
        files.pods = pods(resolver: resolver)
        return files
    }

    // MARK: - Build phases

    /// The name build files use in `platformFilter(s)` for an SDK platform.
    static func filterPlatform(_ platformName: String?) -> String {
        switch platformName {
        case "watchos": return "watchos"
        case "appletvos": return "tvos"
        case "xros": return "xros"
        case "macosx": return "macos"
        default: return "ios"
        }
    }

    /// A build file limited to other platforms (`platformFilters = (maccatalyst, )`) is not
    /// built for this one.
    func isBuilt(_ buildFile: String, for platform: String) -> Bool {
        var filters = graph.ids(buildFile, "platformFilters")
        if let one = graph.string(buildFile, "platformFilter") { filters.append(one) }
        return filters.isEmpty || filters.contains(platform)
    }

    func collectBuildPhases(_ targetID: String, bundle: String, platform: String, into files: inout TargetFiles) {
        for phase in graph.ids(targetID, "buildPhases") {
            guard let isa = graph.isa(phase) else {
                problems.append(graph.malformed("build phase \(phase) is not in 'objects'", at: targetID, key: "buildPhases", bundle: bundle))
                continue
            }
            let isSources = isa == "PBXSourcesBuildPhase"
            guard isSources || isa == "PBXResourcesBuildPhase" else { continue }
            for buildFile in graph.ids(phase, "files") {
                guard graph.object(buildFile) != nil else {
                    problems.append(graph.malformed("build file \(buildFile) is not in 'objects'", at: phase, key: "files", bundle: bundle))
                    continue
                }
                guard let ref = graph.string(buildFile, "fileRef") else { continue } // package products have productRef
                guard isBuilt(buildFile, for: platform) else { continue }
                for path in referencedFiles(ref, from: buildFile, bundle: bundle) {
                    if isSources {
                        // Code only: not Core Data models, intent definitions or shaders.
                        if ProjectFileRole.isSource(path) { files.sources.insert(path) }
                    } else {
                        files.addResource(path)
                    }
                }
            }
        }
    }

    /// Existing files a file reference or variant group stands for (checked, case-corrected).
    func referencedFiles(_ ref: String, from buildFile: String, bundle: String) -> [String] {
        guard let isa = graph.isa(ref) else {
            problems.append(graph.malformed("file reference \(ref) is not in 'objects'", at: buildFile, key: "fileRef", bundle: bundle))
            return []
        }
        let refs: [String]
        switch isa {
        case "PBXVariantGroup": refs = graph.ids(ref, "children")
        case "PBXFileReference", "XCVersionGroup": refs = [ref]
        default: refs = [ref]
        }
        var out: [String] = []
        for r in refs {
            guard graph.object(r) != nil else {
                problems.append(graph.malformed("file reference \(r) is not in 'objects'", at: ref, key: "children", bundle: bundle))
                continue
            }
            guard case .input(let p)? = paths.path(of: r) else { continue }
            let key = graph.object(r)?.entry("path") != nil ? "path" : nil
            if let actual = checkReference(p, setting: "PBXFileReference", bundle: bundle,
                                           from: graph.location(r, key: key), into: &problems) {
                out.append(actual)
            }
        }
        return out
    }
}
