import Foundation
import Formats

/// `.settings(base:, configurations:, defaultSettings:)` of a project or target.
struct TuistSettings {
    /// Configurations (name, debug/release) and the settings per configuration.
    mutating func read(_ value: ManifestValue?, scope: inout ManifestScope, dir: String)
        -> (configs: [(name: String, type: String)], settings: GeneratedSettings) {
        var configs: [(name: String, type: String)] = []
        var out = GeneratedSettings()
        guard let value else { return ([("Debug", "debug"), ("Release", "release")], out) }
        let v = scope.resolve(value)
        guard let call = v.call else {
            scope.unreadable(v, "settings")
            return ([("Debug", "debug"), ("Release", "release")], out)
        }
        let base = dictionary(call.arguments["base"], scope: &scope)
        var perConfig: [String: [GeneratedSetting]] = [:]
        // `.settings(base:, debug:, release:)`: the two default configurations' own settings.
        for (label, name) in [("debug", "Debug"), ("release", "Release")] where call.arguments[label] != nil {
            perConfig[name] = dictionary(call.arguments[label], scope: &scope)
        }
        for item in scope.array(call.arguments["configurations"], "configuration list") {
            guard let c = item.call else { scope.unreadable(item, "configuration"); continue }
            let type = c.name.hasSuffix("release") ? "release" : "debug"
            let name = configurationName(c.arguments["name"], type: type, scope: &scope)
            configs.append((name, type))
            perConfig[name] = dictionary(c.arguments["settings"], scope: &scope)
            if let xc = c.arguments["xcconfig"], let p = scope.string(xc, "xcconfig"), let path = ProjectPaths.join(dir, p) {
                out.xcconfigs[name] = (path, scope.location(xc))
            }
        }
        if configs.isEmpty { configs = [("Debug", "debug"), ("Release", "release")] }
        var budget = GeneratedSettingsBudget(limits: scope.limits)
        for (name, _) in configs {
            let values = base + (perConfig[name] ?? [])
            guard budget.charge(values.count) else {
                if let p = budget.problem(scope.path) { scope.problems.append(p) }
                break
            }
            out.values[name] = values
        }
        return (configs, out)
    }

    func configurationName(_ value: ManifestValue?, type: String, scope: inout ManifestScope) -> String {
        guard let value else { return type == "release" ? "Release" : "Debug" }
        let v = scope.resolve(value)
        switch v.kind {
        case .member(let m) where m.hasSuffix("release"): return "Release"
        case .member(let m) where m.hasSuffix("debug"): return "Debug"
        case .call(let n, _, let args) where n.hasSuffix("configuration"):
            return args.firstUnlabelled.flatMap { scope.string($0, "configuration name") } ?? type.capitalized
        default: return scope.string(v, "configuration name") ?? type.capitalized
        }
    }

    /// A `SettingsDictionary`: `["KEY": "value", "FLAG": true, "LIST": ["a", "b"]]`, with
    /// `.merging(…)`, `.marketingVersion(…)`, `.currentProjectVersion(…)` applied.
    func dictionary(_ value: ManifestValue?, scope: inout ManifestScope) -> [GeneratedSetting] {
        guard let value else { return [] }
        let v = scope.resolve(value)
        switch v.kind {
        case .dictionary(let entries):
            return entries.compactMap { e in
                guard let key = scope.string(e.key, "setting name"), let s = settingValue(e.value, scope: &scope) else { return nil }
                return GeneratedSetting(key: key, value: s, location: scope.location(e.key))
            }
        case .call(let name, let base, let args):
            guard scope.enter(v) else { return [] }
            defer { scope.leave() }
            let own = base.map { dictionary($0, scope: &scope) } ?? []
            let loc = scope.location(v)
            switch name {
            case ".merging", "merging": return own + dictionary(args.firstUnlabelled, scope: &scope)
            case ".marketingVersion", "marketingVersion":
                return own + (args.firstUnlabelled.flatMap { scope.string($0, "version") }.map {
                    [GeneratedSetting(key: "MARKETING_VERSION", value: $0, location: loc)] } ?? [])
            case ".currentProjectVersion", "currentProjectVersion":
                return own + (args.firstUnlabelled.flatMap { scope.string($0, "version") }.map {
                    [GeneratedSetting(key: "CURRENT_PROJECT_VERSION", value: $0, location: loc)] } ?? [])
            default:
                scope.unreadable(v, "settings")
                return own
            }
        default:
            scope.unreadable(v, "settings")
            return []
        }
    }

    func settingValue(_ value: ManifestValue, scope: inout ManifestScope) -> String? {
        let v = scope.resolve(value)
        switch v.kind {
        case .bool(let b): return b ? "YES" : "NO"
        case .array(let items):
            return items.compactMap { scope.string($0, "setting value") }
                .map { $0.contains(" ") ? "\"\($0)\"" : $0 }.joined(separator: " ")
        case .call(let n, _, let args) where n == ".string" || n == ".array":
            guard scope.enter(v) else { return nil }
            defer { scope.leave() }
            return args.firstUnlabelled.flatMap { settingValue($0, scope: &scope) }
        default: return scope.string(v, "setting value")
        }
    }
}
