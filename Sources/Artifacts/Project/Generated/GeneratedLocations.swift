import Foundation
import Formats

/// The object graph has one file (the top spec), so a setting written in an included file
/// comes out of `ProjectLoading` located in the top spec without a line. This puts back the
/// file and line it was written at: the target's own assignment for that configuration, else
/// the project's.
enum GeneratedLocations {
    static func apply(_ project: GeneratedProject, to result: inout ProjectLoadResult) {
        func written(_ settings: GeneratedSettings, _ config: String) -> [String: FileLocation] {
            var out: [String: FileLocation] = [:]
            for s in settings.values[config] ?? [] {
                guard let loc = s.location, loc.path != project.specPath,
                      let key = SettingDefinition.parseKey(s.key)?.key else { continue }
                out[key] = loc
            }
            return out
        }
        func fix(_ value: inout SettingValue, _ found: FileLocation?) {
            guard let found, value.location?.path == project.specPath, value.location?.position == nil else { return }
            value.location = found
        }
        for target in project.targets {
            var byConfig: [String: [String: FileLocation]] = [:]
            for config in project.configurations {
                byConfig[config] = written(project.settings, config).merging(written(target.settings, config)) { _, t in t }
            }
            if let i = result.targets.firstIndex(where: { $0.name == target.name }) {
                for (config, settings) in result.targets[i].configurations {
                    for key in settings.keys { fix(&result.targets[i].configurations[config]![key]!, byConfig[config]?[key]) }
                }
            }
            guard let b = result.bundles.firstIndex(where: { $0.name == target.name }),
                  let chosen = result.targets.first(where: { $0.name == target.name })?.chosenConfiguration,
                  let found = byConfig[chosen] else { continue }
            for key in result.bundles[b].buildSettings.keys { fix(&result.bundles[b].buildSettings[key]!, found[key]) }
            for key in result.bundles[b].generatedInfoPlistKeys.keys {
                fix(&result.bundles[b].generatedInfoPlistKeys[key]!, found["INFOPLIST_KEY_" + key])
            }
        }
    }
}
