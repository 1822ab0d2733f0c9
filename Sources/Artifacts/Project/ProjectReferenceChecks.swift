import Foundation
import Formats

/// Checks that the paths a project references exist, and records a problem for each that does
/// not (or differs in letter case).
extension ProjectLoading {
    /// The `Pods` or `Carthage` folder a path lies in, if any.
    static func generatedFolder(in path: String) -> String? {
        let parts = PathUtil.normalize(path).split(separator: "/")
        guard let i = parts.firstIndex(where: { $0 == "Pods" || $0 == "Carthage" }) else { return nil }
        return parts[...i].joined(separator: "/")
    }

    /// Checks that a referenced path exists; returns the path to use (the actual one on a
    /// letter-case mismatch) or nil when missing.
    func checkReference(_ path: String, setting: String, bundle: String?, from: FileLocation?,
                        into problems: inout [LoadProblem]) -> String? {
        switch index.lookup(path) {
        case .exact(let e):
            return e.path
        case .caseMismatch(let e):
            problems.append(LoadProblem(.caseMismatch(setting: setting, actualPath: e.path), path: path, bundle: bundle, referencedFrom: from))
            return e.path
        case .missing:
            // A folder is there when files are, even if the listing has no entry for the folder itself.
            if path.isEmpty || folders.contains(PathUtil.normalize(path)) { return PathUtil.normalize(path) }
            // Dependency managers generate these folders (`pod install`, `carthage bootstrap`);
            // a checkout without them is not missing anything of its own.
            if let generated = Self.generatedFolder(in: path), !folders.contains(generated) { return nil }
            problems.append(LoadProblem(.missingReference(setting: setting), path: path, bundle: bundle, referencedFrom: from))
            return nil
        }
    }

    /// A build setting naming a file, resolved and checked. `label` names the setting in
    /// problems (with the configuration when it is not the one read).
    func settingPath(_ key: String, resolver: BuildSettingsResolver, bundle: String, label: String? = nil) -> String? {
        guard let raw = resolver.value(key)?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
        let from = resolver.definition(key)?.location
        guard let path = ProjectPaths.inputPath(raw, projectDir: projectDir) else {
            problems.append(LoadProblem(.missingReference(setting: label ?? key), path: raw, bundle: bundle, referencedFrom: from))
            return nil
        }
        return checkReference(path, setting: label ?? key, bundle: bundle, from: from, into: &problems)
    }

    /// Debug and other configurations build too (on CI, on case-sensitive disks): their file
    /// settings are checked where they differ from the configuration that was read.
    /// Returns the entitlements files of the configurations where `CODE_SIGN_ENTITLEMENTS` differs.
    @discardableResult
    func checkFileSettingsOfOtherConfigurations(_ target: ProjectTarget, chosen: BuildSettingsResolver,
                                                others: [(String, BuildSettingsResolver)]) -> [ConfigurationEntitlements] {
        var entitlements: [ConfigurationEntitlements] = []
        for (configName, resolver) in others {
            for key in ["INFOPLIST_FILE", "CODE_SIGN_ENTITLEMENTS"] where resolver.value(key) != chosen.value(key) {
                let path = settingPath(key, resolver: resolver, bundle: target.name, label: "\(key) [\(configName)]")
                if key == "CODE_SIGN_ENTITLEMENTS" {
                    let raw = resolver.value(key)?.trimmingCharacters(in: .whitespaces) ?? ""
                    // A file that does not exist is a missing reference (reported above), not a configuration without entitlements.
                    guard path != nil || raw.isEmpty else { continue }
                    entitlements.append(ConfigurationEntitlements(configuration: configName, path: path,
                                                                  setting: resolver.definition(key)?.location ?? chosen.definition(key)?.location))
                }
            }
        }
        return entitlements
    }
}
