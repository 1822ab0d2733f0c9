import Foundation
import Formats

/// One condition of a conditional build setting, such as `sdk=iphoneos*` in
/// `OTHER_LDFLAGS[sdk=iphoneos*]`.
public struct SettingCondition: Sendable, Equatable {
    public var name: String
    public var pattern: String
    public init(name: String, pattern: String) {
        self.name = name
        self.pattern = pattern
    }
}

/// One assignment of a build setting as written in a pbxproj `buildSettings` dictionary, an
/// `.xcconfig` line, or Xcode's defaults.
public struct SettingDefinition: Sendable, Equatable {
    /// The setting name without conditions.
    public var key: String
    public var conditions: [SettingCondition]
    /// The value as written (array values joined with spaces).
    public var value: String
    public var location: FileLocation?

    public init(key: String, conditions: [SettingCondition] = [], value: String, location: FileLocation? = nil) {
        self.key = key
        self.conditions = conditions
        self.value = value
        self.location = location
    }

    /// Splits `KEY[sdk=iphoneos*][arch=arm64]` into the name and its conditions; nil when the
    /// text is not a valid setting name.
    public static func parseKey(_ raw: String) -> (key: String, conditions: [SettingCondition])? {
        let trimmed = raw.trimmingWhitespace()
        guard let bracket = trimmed.firstIndex(of: "[") else {
            return isSettingName(trimmed) ? (trimmed, []) : nil
        }
        let key = String(trimmed[..<bracket])
        guard isSettingName(key) else { return nil }
        var conditions: [SettingCondition] = []
        var rest = trimmed[bracket...]
        while let open = rest.first, open == "[" {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            let body = rest[rest.index(after: rest.startIndex)..<close]
            // `[sdk=iphoneos*,arch=arm64]` is accepted too.
            for part in body.split(separator: ",") {
                guard let eq = part.firstIndex(of: "=") else { return nil }
                let name = part[..<eq].trimmingWhitespace()
                let pattern = part[part.index(after: eq)...].trimmingWhitespace()
                guard !name.isEmpty else { return nil }
                conditions.append(SettingCondition(name: name, pattern: pattern))
            }
            rest = rest[rest.index(after: close)...]
        }
        guard rest.isEmpty else { return nil }
        return (key, conditions)
    }

    static func isSettingName(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else {
            return false
        }
        return s.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
    }
}

/// What conditional settings are matched against. Preflight audits what ships to devices, so
/// the defaults are the iOS device SDK and arm64.
public struct SettingsContext: Sendable, Equatable {
    public var sdk: String
    public var arch: String
    public var configuration: String
    public var variant: String

    public init(sdk: String = "iphoneos", arch: String = "arm64", configuration: String = "Release", variant: String = "normal") {
        self.sdk = sdk
        self.arch = arch
        self.configuration = configuration
        self.variant = variant
    }

    /// True when every condition matches. Unknown condition names never match.
    public func matches(_ conditions: [SettingCondition]) -> Bool {
        conditions.allSatisfy { c in
            switch c.name {
            case "sdk": return Glob.matches(c.pattern, sdk)
            case "arch": return Glob.matches(c.pattern, arch)
            case "config": return Glob.matches(c.pattern, configuration)
            case "variant": return Glob.matches(c.pattern, variant)
            default: return false
            }
        }
    }
}

/// `*` and `?` wildcards as Xcode uses them in setting conditions.
enum Glob {
    static func matches(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern.unicodeScalars), t = Array(text.unicodeScalars)
        // Iterative matcher with backtracking to the last `*`: linear in practice, no recursion.
        var pi = 0, ti = 0, star = -1, mark = 0
        while ti < t.count {
            if pi < p.count, p[pi] == "?" || p[pi] == t[ti] {
                pi += 1; ti += 1
            } else if pi < p.count, p[pi] == "*" {
                star = pi; mark = ti; pi += 1
            } else if star >= 0 {
                pi = star + 1; mark += 1; ti = mark
            } else {
                return false
            }
        }
        while pi < p.count, p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}
