import Foundation
import Formats
import Rules
import Yams

/// `.preflight.yml`: which rules run, their severities, reader limits and the failure threshold.
public struct Configuration: Sendable, Equatable {
    public var disabledRules: Set<String> = []
    /// Opt-in rules to enable.
    public var enabledRules: Set<String> = []
    /// Run only these rules (empty: all enabled rules).
    public var onlyRules: Set<String> = []
    public var severityOverrides: [String: Severity] = [:]
    public var limits: ReaderLimits = .default
    public var failOn: Severity = .error
    /// Build configuration to read from Xcode projects (nil: Release, else the default one).
    public var buildConfiguration: String?
    /// Parse every source file, also those that mention no API the scanners match on
    /// (same findings, slower: the benchmark compares both).
    public var fullSourceParse = false
    /// Keep findings that concern only unit-test and UI-test bundles (as warnings at most);
    /// by default they are dropped, since those bundles never ship.
    public var includeTests = false

    public init() {}

    public struct Error: Swift.Error, CustomStringConvertible, Equatable {
        public var description: String
    }

    public static let fileName = ".preflight.yml"

    /// Highest values a user may give a limit. Nested values are freed recursively, two stack
    /// frames a level: a debug build with the 512 KiB stack of a macOS worker thread overflows
    /// between 1,600 and 2,000 levels, so a deeper limit would let a file crash Preflight.
    public static let limitCeilings: [String: Int] = ["max-nesting-depth": 1_024]

    /// Sets a reader limit from `--limit` or `limits:`, refusing unknown names and values that
    /// are not positive or above the limit's ceiling.
    public mutating func setLimit(_ name: String, to value: Int) throws {
        guard value > 0 else { throw Error(description: "limit \(name) must be a positive integer, got \(value)") }
        if let ceiling = Self.limitCeilings[name], value > ceiling {
            throw Error(description: "limit \(name) can be at most \(ceiling), got \(value)")
        }
        guard limits.set(name, to: value) else {
            throw Error(description: "unknown limit '\(name)'; known: \(limits.named.map(\.0).joined(separator: ", "))")
        }
    }

    public static func parse(yaml: String, path: String = fileName) throws -> Configuration {
        let node: Any?
        do { node = try Yams.load(yaml: yaml) } catch {
            throw Error(description: "\(path): invalid YAML: \(error)")
        }
        guard let dict = (node ?? [String: Any]()) as? [String: Any] else {
            throw Error(description: "\(path): expected a mapping at the top level")
        }
        var c = Configuration()
        let known = Set(RuleRegistry.all.map { $0.description.identifier })
        func ruleList(_ key: String) throws -> Set<String> {
            guard let v = dict[key] else { return [] }
            guard let list = v as? [String] else { throw Error(description: "\(path): \(key) must be a list of rule identifiers") }
            for id in list where RuleRegistry.rule(id) == nil {
                throw Error(description: "\(path): \(key) names unknown rule '\(id)'")
            }
            return Set(list.map { RuleRegistry.rule($0)?.description.identifier ?? $0 })
        }
        for key in dict.keys where !["disabled_rules", "opt_in_rules", "only_rules", "severity", "limits", "fail_on", "configuration", "include_tests"].contains(key) {
            throw Error(description: "\(path): unknown key '\(key)'")
        }
        c.disabledRules = try ruleList("disabled_rules")
        c.enabledRules = try ruleList("opt_in_rules")
        c.onlyRules = try ruleList("only_rules")
        if let sev = dict["severity"] {
            guard let map = sev as? [String: String] else { throw Error(description: "\(path): severity must map rule identifiers to error, warning or note") }
            for (id, level) in map {
                guard known.contains(id) || RuleRegistry.rule(id) != nil else { throw Error(description: "\(path): severity names unknown rule '\(id)'") }
                guard let s = Severity(rawValue: level) else { throw Error(description: "\(path): severity of \(id) must be error, warning or note") }
                c.severityOverrides[RuleRegistry.rule(id)!.description.identifier] = s
            }
        }
        if let lim = dict["limits"] {
            guard let map = lim as? [String: Int] else { throw Error(description: "\(path): limits must map limit names to integers") }
            for (name, value) in map.sorted(by: { $0.key < $1.key }) {
                do { try c.setLimit(name, to: value) } catch let e as Error { throw Error(description: "\(path): \(e.description)") }
            }
        }
        if let f = dict["fail_on"] {
            guard let s = f as? String, let sev = Severity(rawValue: s) else { throw Error(description: "\(path): fail_on must be error, warning or note") }
            c.failOn = sev
        }
        if let cfg = dict["configuration"] {
            guard let s = cfg as? String else { throw Error(description: "\(path): configuration must be a string") }
            c.buildConfiguration = s
        }
        if let t = dict["include_tests"] {
            guard let b = t as? Bool else { throw Error(description: "\(path): include_tests must be true or false") }
            c.includeTests = b
        }
        return c
    }

    /// The rules this configuration runs.
    public var activeRules: [any Rule.Type] {
        RuleRegistry.all.filter { r in
            let d = r.description
            if !onlyRules.isEmpty { return onlyRules.contains(d.identifier) }
            if disabledRules.contains(d.identifier) { return false }
            return !d.optIn || enabledRules.contains(d.identifier)
        }
    }
}
