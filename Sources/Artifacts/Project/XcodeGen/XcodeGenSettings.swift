import Foundation
import Formats

/// XcodeGen `settings`: either a mapping of settings, or `base:` / `configs:` / `groups:`
/// where groups name `settingGroups` (themselves settings) applied first, then `base`, then
/// the `configs` entry whose name matches the configuration (case-insensitively).
struct XcodeGenSettings {
    let groups: [String: YAMLNode]
    var problems: [LoadProblem] = []

    static func isStructured(_ node: YAMLNode) -> Bool {
        node.mapping?.contains { ["base", "configs", "groups"].contains($0.key) } ?? false
    }

    /// The assignments `node` makes for `config`, lowest first.
    mutating func assignments(_ node: YAMLNode?, config: String) -> [GeneratedSetting] {
        var visiting = Set<String>()
        return assignments(node, config: config, visiting: &visiting)
    }

    private mutating func assignments(_ node: YAMLNode?, config: String, visiting: inout Set<String>) -> [GeneratedSetting] {
        guard let node, node.mapping != nil else { return [] }
        guard Self.isStructured(node) else { return Self.plain(node) }
        var out: [GeneratedSetting] = []
        for name in node["groups"]?.strings ?? [] {
            guard let group = groups[name] else {
                problems.append(XcodeGenSpecFiles.malformed("settings group '\(name)' is not defined in settingGroups",
                                                            at: node["groups"]?.location ?? node.location))
                continue
            }
            guard visiting.insert(name).inserted else { continue }
            out += assignments(group, config: config, visiting: &visiting)
            visiting.remove(name)
        }
        out += Self.plain(node["base"])
        for entry in node["configs"]?.mapping ?? [] where entry.key.lowercased() == config.lowercased() {
            out += assignments(entry.value, config: config, visiting: &visiting)
        }
        return out
    }

    static func plain(_ node: YAMLNode?) -> [GeneratedSetting] {
        (node?.mapping ?? []).compactMap { e in
            e.value.settingValue.map {
                GeneratedSetting(key: e.key, value: $0, location: FileLocation(path: e.value.file, position: e.keyPosition))
            }
        }
    }

    /// `configFiles: {Debug: path}` → configuration → xcconfig path (relative to the input root).
    static func configFiles(_ node: YAMLNode?, configs: [String]) -> [String: (path: String, location: FileLocation?)] {
        var out: [String: (path: String, location: FileLocation?)] = [:]
        for e in node?.mapping ?? [] {
            guard let rel = e.value.string, let path = ProjectPaths.join(e.value.baseDir, rel) else { continue }
            for c in configs where c.lowercased() == e.key.lowercased() {
                out[c] = (path, FileLocation(path: e.value.file, position: e.keyPosition))
            }
        }
        return out
    }
}
