import Foundation
import Formats

/// A target's settings levels for one configuration: Xcode's defaults, then the project's and
/// the target's xcconfig and `buildSettings`, as one resolver.
extension ProjectLoading {
    func settingsResolver(target: String, name: String, productType: String, configName: String,
                          targetConfigID: String?, projectConfigID: String?, recordProblems: Bool) -> BuildSettingsResolver {
        var levels: [[SettingDefinition]] = [[]]
        var problemsHere: [LoadProblem] = []
        if let projectConfigID {
            levels.append(xcconfigDefinitions(of: projectConfigID, bundle: name, problems: &problemsHere))
            levels.append(settingsDefinitions(of: projectConfigID))
        }
        if let targetConfigID {
            levels.append(xcconfigDefinitions(of: targetConfigID, bundle: name, problems: &problemsHere))
            levels.append(settingsDefinitions(of: targetConfigID))
        }
        if recordProblems { problems += problemsHere }

        func make(_ platform: String) -> BuildSettingsResolver {
            var l = levels
            l[0] = XcodeDefaultSettings.definitions(.init(projectName: projectName, targetName: name, productType: productType,
                                                          configuration: configName, platform: platform))
            return BuildSettingsResolver(levels: l, context: SettingsContext(sdk: platform, configuration: configName))
        }
        let first = make("iphoneos")
        let platform = XcodeDefaultSettings.platform(forSDKRoot: first.value("SDKROOT") ?? "iphoneos")
        return platform == "iphoneos" ? first : make(platform)
    }

    /// The `buildSettings` of a configuration as definitions, in the order written.
    func settingsDefinitions(of configID: String) -> [SettingDefinition] {
        guard let settings = graph.object(configID)?["buildSettings"]?.dictionary else { return [] }
        var out: [SettingDefinition] = []
        for e in settings.entries {
            guard let (key, conditions) = SettingDefinition.parseKey(e.key) else { continue }
            let value: String
            switch e.value.value {
            case .string(let s): value = s
            case .array(let items):
                value = items.compactMap(\.string).map { $0.contains(where: { $0 == " " || $0 == "\t" }) && !$0.hasPrefix("\"") ? "\"\($0)\"" : $0 }
                    .joined(separator: " ")
            case .integer(let i): value = String(i)
            default: continue
            }
            out.append(SettingDefinition(key: key, conditions: conditions, value: value,
                                         location: FileLocation(path: graph.path, position: e.keyPosition ?? e.value.position)))
        }
        return out
    }

    /// The definitions of a configuration's `baseConfigurationReference` xcconfig (with includes).
    func xcconfigDefinitions(of configID: String, bundle: String, problems: inout [LoadProblem]) -> [SettingDefinition] {
        let setting = "baseConfigurationReference"
        var path: String?
        if let ref = graph.string(configID, setting) {
            guard graph.object(ref) != nil else {
                problems.append(graph.malformed("\(setting) \(ref) is not in 'objects'", at: configID, key: setting, bundle: bundle))
                return []
            }
            if case .input(let p)? = paths.path(of: ref) { path = p }
        } else if let anchor = graph.string(configID, "baseConfigurationReferenceAnchor"),
                  let rel = graph.string(configID, "baseConfigurationReferenceRelativePath"),
                  case .input(let root)? = paths.path(of: anchor) {
            // Xcode 16: an xcconfig inside a synchronized folder.
            path = ProjectPaths.join(root, rel)
        }
        guard let path else { return [] }
        let from = graph.location(configID, key: graph.object(configID)?.entry(setting) != nil ? setting : "baseConfigurationReferenceRelativePath")
        guard let actual = checkReference(path, setting: setting, bundle: bundle, from: from, into: &problems) else { return [] }
        let result: XCConfigReader.Result
        if let cached = xcconfigs[actual] {
            result = cached
        } else {
            result = XCConfigReader.read(path: actual, source: source, index: index, limits: limits, projectDir: projectDir)
            xcconfigs[actual] = result
        }
        // Problems inside an xcconfig concern the file, whichever targets use it.
        problems += result.problems
        return result.definitions
    }
}
