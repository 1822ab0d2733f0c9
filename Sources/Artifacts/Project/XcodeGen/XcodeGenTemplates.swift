import Foundation
import Formats

/// `targetTemplates` and multi-platform targets, expanded before targets are read.
struct XcodeGenTemplates {
    let templates: [String: YAMLNode]
    var problems: [LoadProblem] = []

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
                let at = node["templates"]?.location
                problems.append(LoadProblem(.unreadable(FormatError(.malformed, format: XcodeGenSpecFiles.format,
                    reason: "target template '\(name)' is not defined in targetTemplates", line: at?.position?.line,
                    column: at?.position?.column)), path: node.file))
                continue
            }
            guard visiting.insert(name).inserted else { continue }
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
        return list.compactMap(\.string).map { platform in
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
