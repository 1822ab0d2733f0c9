import Foundation
import Formats
import Rules
import Yams

/// Reads `.preflight.yml`: every mistake is an error naming the file and the line (an unknown
/// key or rule, a value of the wrong type, a suppression without a reason).
struct ConfigurationFile {
    let path: String

    static let keys: Set<String> = ["disabled_rules", "opt_in_rules", "only_rules", "severity", "limits", "fail_on",
                                    "configuration", "include_tests", "suppressions"]

    func error(_ node: Node?, _ message: String) -> Configuration.Error {
        Configuration.Error(description: "\(path)" + (node?.mark.map { ":\($0.line)" } ?? "") + ": \(message)")
    }

    func parse(_ yaml: String) throws -> Configuration {
        let root: Node?
        do { root = try Yams.compose(yaml: yaml) } catch {
            throw Configuration.Error(description: "\(path): invalid YAML: \(error)")
        }
        var c = Configuration()
        guard let root else { return c }
        guard let mapping = root.mapping else { throw error(root, "expected a mapping at the top level") }
        for (keyNode, value) in mapping {
            guard let key = keyNode.string, Self.keys.contains(key) else {
                throw error(keyNode, "unknown key '\(keyNode.string ?? "")'; known: \(Self.keys.sorted().joined(separator: ", "))")
            }
            switch key {
            case "disabled_rules": c.disabledRules = try ruleList(key, value)
            case "opt_in_rules": c.enabledRules = try ruleList(key, value)
            case "only_rules": c.onlyRules = try ruleList(key, value)
            case "severity":
                guard let map = value.mapping else { throw error(value, "severity must map rule identifiers to error, warning or note") }
                for (idNode, levelNode) in map {
                    let id = try rule(idNode, in: "severity")
                    guard let level = levelNode.string, let s = Severity(rawValue: level) else {
                        throw error(levelNode, "severity of \(id) must be error, warning or note")
                    }
                    c.severityOverrides[id] = s
                }
            case "limits":
                guard let map = value.mapping else { throw error(value, "limits must map limit names to integers") }
                for (nameNode, valueNode) in map {
                    guard let name = nameNode.string, let v = valueNode.int else { throw error(valueNode, "limits must map limit names to integers") }
                    do { try c.setLimit(name, to: v) } catch let e as Configuration.Error { throw error(nameNode, e.description) }
                }
            case "fail_on":
                guard let s = value.string, let sev = Severity(rawValue: s) else { throw error(value, "fail_on must be error, warning or note") }
                c.failOn = sev
            case "configuration":
                guard let s = value.string, value.scalar != nil else { throw error(value, "configuration must be a string") }
                c.buildConfiguration = s
            case "include_tests":
                guard let b = value.bool else { throw error(value, "include_tests must be true or false") }
                c.includeTests = b
            case "suppressions":
                guard let list = value.sequence else { throw error(value, "suppressions must be a list") }
                c.suppressions = try list.map(suppression)
            default:
                break
            }
        }
        return c
    }

    func ruleList(_ key: String, _ value: Node) throws -> Set<String> {
        guard let list = value.sequence else { throw error(value, "\(key) must be a list of rule identifiers") }
        return Set(try list.map { try rule($0, in: key) })
    }

    /// A rule's identifier (an alias gives the current one).
    func rule(_ node: Node, in key: String) throws -> String {
        guard let id = node.string, let rule = RuleRegistry.rule(id) else {
            throw error(node, "\(key) names unknown rule '\(node.string ?? "")'")
        }
        return rule.description.identifier
    }

    func suppression(_ node: Node) throws -> Suppression {
        guard let map = node.mapping else { throw error(node, "a suppression is a mapping of rule, bundle, path, key and reason") }
        var s = Suppression(reason: "")
        for (keyNode, value) in map {
            guard let text = value.string, value.scalar != nil else { throw error(value, "\(keyNode.string ?? "a key") must be a string") }
            switch keyNode.string {
            case "rule": s.rule = try rule(value, in: "a suppression")
            case "bundle": s.bundle = text
            case "path": s.path = text
            case "key": s.key = text
            case "reason": s.reason = text
            default: throw error(keyNode, "unknown suppression key '\(keyNode.string ?? "")'; known: rule, bundle, path, key, reason")
            }
        }
        guard !s.reason.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw error(node, "a suppression needs a reason (reports show it)")
        }
        guard s.rule != nil || s.bundle != nil || s.path != nil || s.key != nil else {
            throw error(node, "a suppression needs at least one of rule, bundle, path or key")
        }
        return s
    }
}
