import Foundation
import Formats

/// XcodeGen specs found by what they say, under any file name (`mail-project.yml`,
/// `ios/app.json`): a YAML or JSON document whose top level has a scalar `name` and a
/// `targets` mapping in which at least one target has a type XcodeGen knows. `project.yml`
/// keeps its own, looser test (`XcodeGenProjectReader.specKeys`).
///
/// Every candidate is hostile: only files up to `maxSpecBytes` that mention both words are
/// parsed, under the reader limits, and at most `maxCandidates` are; a file that does not parse
/// is some other tool's configuration, not a problem.
enum XcodeGenSpecDiscovery {
    static let extensions: Set<String> = ["yml", "yaml", "json"]
    static let namedSpecs: Set<String> = ["project.yml", "project.yaml"]
    static let maxSpecBytes = 4 << 20
    static let maxCandidates = 256
    /// Bytes read in all while looking (a repository of many JSON files): past this, the rest
    /// (the deepest paths: candidates are read shallowest first) are not examined.
    static let maxBytesRead: Int64 = 64 << 20

    /// XcodeGen's `type` values (`PBXProductType` without `com.apple.product-type.`).
    static let targetTypes: Set<String> = [
        "application", "application.on-demand-install-capable", "application.messages", "application.watchapp",
        "application.watchapp2", "application.watchapp2-container", "app-extension", "app-extension.intents-service",
        "app-extension.messages", "app-extension.messages-sticker-pack", "bundle", "bundle.ocunit-test",
        "bundle.ui-testing", "bundle.unit-test", "extensionkit-extension", "framework", "framework.static",
        "xcframework", "instruments-package", "library.dynamic", "library.static", "tool", "tv-app-extension",
        "watchkit-extension", "watchkit2-extension", "xcode-extension", "driver-extension", "system-extension",
        "xpc-service",
    ]

    struct Found: Equatable {
        var path: String
        /// The spec's `name`: the project it generates is `<name>.xcodeproj` beside it.
        var name: String
    }

    /// True when `node` is a spec on its own (not a fragment other specs include).
    static func isSpec(_ node: YAMLNode) -> Bool {
        guard let name = node["name"]?.string, !name.isEmpty, let targets = node["targets"]?.mapping else { return false }
        return targets.contains { entry in
            guard let type = entry.value["type"]?.string else { return false }
            return targetTypes.contains(type) || type.hasPrefix("com.apple.product-type.")
        }
    }

    /// False when the targets name sources and none of them exists relative to the file: a
    /// fragment written to be included by a spec in another folder (element-ios keeps
    /// `RiotShareExtension/target.yml`, its include commented out), which XcodeGen could not
    /// generate on its own.
    static func sourcesResolve(_ node: YAMLNode, index: FileIndex) -> Bool {
        var paths: [String] = []
        for target in node["targets"]?.mapping ?? [] {
            guard let sources = target.value["sources"] else { continue }
            for item in sources.sequence ?? [sources] {
                if let p = item.string ?? item["path"]?.string { paths.append(p) }
            }
        }
        guard !paths.isEmpty else { return true }
        return paths.contains { rel in
            guard let p = ProjectPaths.join(node.baseDir, rel) else { return false }
            return index.entry(p) != nil || !index.files(under: p).isEmpty
        }
    }

    static func find(index: FileIndex, source: FileSource, limits: ReaderLimits,
                     isSkipped: (String) -> Bool) -> (found: [Found], problems: [LoadProblem]) {
        let maxBytes = Int64(min(maxSpecBytes, limits.maxFileBytes))
        let candidates = index.entries.filter { e in
            e.kind == .file && e.size <= maxBytes && extensions.contains(PathUtil.pathExtension(e.path).lowercased())
                && !namedSpecs.contains(PathUtil.lastComponent(e.path)) && !isSkipped(e.path)
                // An asset catalog's `Contents.json` files describe its images (hundreds in an app).
                && !e.path.contains(".xcassets/")
        }.sorted { a, b in
            let da = a.path.utf8.lazy.filter { $0 == 0x2F }.count, db = b.path.utf8.lazy.filter { $0 == 0x2F }.count
            return da != db ? da < db : a.path < b.path
        }
        var found: [Found] = [], problems: [LoadProblem] = []
        var parsed = 0
        var budget = maxBytesRead
        for entry in candidates {
            let path = entry.path
            budget -= entry.size
            guard budget >= 0 else {
                problems.append(LoadProblem(.unreadable(FormatError(.limitExceeded("xcodegen-candidates"), format: XcodeGenSpecFiles.format,
                    reason: "YAML/JSON files of more than \(maxBytesRead >> 20) MiB in all; deeper ones were not examined as XcodeGen specs")),
                    path: path))
                break
            }
            guard let data = try? source.read(path), data.count <= maxBytes else { continue }
            let mentions = data.withUnsafeBytes { raw in
                ByteSearch.firstOffset(of: Array("targets".utf8), in: raw) != nil && ByteSearch.firstOffset(of: Array("name".utf8), in: raw) != nil
            }
            guard mentions else { continue }
            parsed += 1
            guard parsed <= maxCandidates else {
                problems.append(LoadProblem(.unreadable(FormatError(.limitExceeded("xcodegen-candidates"), format: XcodeGenSpecFiles.format,
                    reason: "more than \(maxCandidates) YAML/JSON files mention targets; the rest were not examined as XcodeGen specs")),
                    path: path))
                break
            }
            guard let text = try? TextDecoding.decode(data, format: YAMLReader.format).0,
                  let node = try? YAMLReader.read(text, file: path, baseDir: PathUtil.parent(path), limits: limits),
                  isSpec(node), let name = node["name"]?.string, sourcesResolve(node, index: index) else { continue }
            found.append(Found(path: path, name: name))
        }
        return (found, problems)
    }
}
