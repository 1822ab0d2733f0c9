import Foundation
import Formats

/// `targetTemplates` and multi-platform targets, expanded before targets are read.
struct XcodeGenTemplates {
    let templates: [String: YAMLNode]
    var problems: [LoadProblem] = []
    /// Nodes templates may still copy into targets (`max-plist-objects`): many targets using
    /// a large template would otherwise multiply the spec.
    var budget: Int
    private var sizes: [String: Int] = [:]

    init(templates: [String: YAMLNode], limits: ReaderLimits) {
        self.templates = templates
        budget = limits.maxPlistObjects
    }

    /// The target with its `templates` merged under it (a template's own templates first),
    /// `${target_name}` and `templateAttributes` substituted in what the templates bring.
    mutating func apply(to target: YAMLNode, name: String) -> YAMLNode {
        var visiting = Set<String>()
        var attributes: [String: String] = ["target_name": name]
        for e in target["templateAttributes"]?.mapping ?? [] { if let v = e.value.string { attributes[e.key] = v } }
        guard let base = expanded(target, visiting: &visiting) else { return target }
        let substituted = base.mapScalars { Self.substitute($0, attributes) }
        return XcodeGenSpecFiles.merge(substituted, target)
    }

    private mutating func expanded(_ node: YAMLNode, visiting: inout Set<String>) -> YAMLNode? {
        var merged: YAMLNode?
        for name in node["templates"]?.strings ?? [] {
            guard let template = templates[name] else {
                problems.append(XcodeGenSpecFiles.malformed("target template '\(name)' is not defined in targetTemplates",
                                                            at: node["templates"]?.location ?? node.location))
                continue
            }
            guard visiting.insert(name).inserted else { continue }
            let size = sizes[name] ?? template.nodeCount
            sizes[name] = size
            budget -= size
            guard budget >= 0 else {
                if budget + size >= 0 {
                    problems.append(XcodeGenSpecFiles.malformed(
                        "target templates copy more than max-plist-objects nodes into targets; the rest are not applied",
                        at: node.location))
                }
                budget = -1
                return merged
            }
            var t = template
            if let inner = expanded(template, visiting: &visiting) { t = XcodeGenSpecFiles.merge(inner, template) }
            visiting.remove(name)
            merged = merged.map { XcodeGenSpecFiles.merge($0, t) } ?? t
        }
        return merged
    }

    /// `${name}` and `$name` for each attribute.
    static func substitute(_ s: String, _ attributes: [String: String]) -> String {
        guard s.contains("$") else { return s }
        var out = s
        for (k, v) in attributes {
            out = out.replacingOccurrences(of: "${\(k)}", with: v).replacingOccurrences(of: "$\(k)", with: v)
        }
        return out
    }

    /// A target whose `platform` is a list becomes one target per platform, named
    /// `<name>_<platform>`, with `$platform` substituted.
    static func platformVariants(_ name: String, _ node: YAMLNode) -> [(String, YAMLNode)] {
        guard let list = node["platform"]?.sequence else { return [(name, node)] }
        // Only platforms XcodeGen knows, once each: a long list cannot multiply the spec.
        let known = ["iOS", "tvOS", "watchOS", "macOS", "visionOS"]
        let platforms = known.filter { p in list.contains { $0.string == p } }
        return platforms.map { platform in
            let variantName = substitute(name.contains("$platform") || name.contains("${platform}") ? name : name + "_${platform}",
                                         ["platform": platform])
            var n = node.mapScalars { substitute($0, ["platform": platform]) }
            if var pairs = n.mapping, let i = pairs.firstIndex(where: { $0.key == "platform" }) {
                pairs[i].value = YAMLNode(value: .scalar(platform, quoted: false), file: node.file, baseDir: node.baseDir,
                                          position: pairs[i].value.position)
                n.value = .mapping(pairs)
            }
            return (variantName, n)
        }
    }
}
