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
    /// Findings accepted on purpose, each with the reason reports show.
    public var suppressions: [Suppression] = []

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
        try ConfigurationFile(path: path).parse(yaml)
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
