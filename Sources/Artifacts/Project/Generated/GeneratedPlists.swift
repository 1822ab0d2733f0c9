import Foundation
import Formats

/// Info.plist and entitlements a generator writes from the spec: the bundle's file is the
/// spec's `properties` (with the spec's positions), not whatever a previous generation left
/// on disk, and a generated file that is not committed is not a missing reference.
enum GeneratedPlists {
    static func apply(_ project: GeneratedProject, to result: inout ProjectLoadResult) {
        var generatedPaths = Set<String>()
        for target in project.targets {
            guard let i = result.bundles.firstIndex(where: { $0.name == target.name }) else { continue }
            if let info = target.info {
                var bundle = result.bundles[i]
                bundle.infoPlist = PlistFile(path: info.location.path, root: info.error == nil ? info.root : nil, error: info.error)
                bundle.infoPlistPath = info.path ?? info.location.path
                if let p = info.path {
                    if info.inTargetFolder { bundle.path = PathUtil.parent(p) }
                    generatedPaths.insert(p)
                }
                let present = Set(info.root.dictionary?.keys ?? [])
                for (key, value) in info.defaults where !present.contains(key) && bundle.generatedInfoPlistKeys[key] == nil {
                    bundle.generatedInfoPlistKeys[key] = SettingValue(value, location: info.location)
                }
                result.bundles[i] = bundle
            }
            if let ent = target.entitlements {
                result.bundles[i].entitlements = PlistFile(path: ent.location.path, root: ent.root)
                result.bundles[i].entitlementsSource = ent.location.path
                result.bundles[i].entitlementsPath = ent.path ?? ent.location.path
                if let p = ent.path { generatedPaths.insert(p) }
            }
        }
        result.problems.removeAll { p in
            guard case .missingReference(let setting) = p.kind, generatedPaths.contains(p.path) else { return false }
            return setting.hasPrefix("INFOPLIST_FILE") || setting.hasPrefix("CODE_SIGN_ENTITLEMENTS")
        }
    }
}
