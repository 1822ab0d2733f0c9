import Foundation
import Formats

/// A target's bundle as the model has it: build settings, identifier, Info.plist (the file or
/// the generated keys), entitlements, code, privacy manifests and localizations.
extension ProjectLoading {
    /// A target's bundle id: the project and the target's object id, unique in the input.
    func bundleID(_ targetID: String) -> String { project + "#" + targetID }

    func makeBundle(_ target: ProjectTarget, kind: BundleKind, resolver: BuildSettingsResolver, files: TargetFiles) -> AppBundle {
        let name = target.name
        var bundle = AppBundle(name: name, kind: kind, path: projectDir, id: bundleID(target.id))
        bundle.buildSettings = resolver.resolvedAll().mapValues {
            SettingValue(ProjectPaths.display($0.value, projectDir: projectDir), location: $0.location)
        }
        if let id = resolver.value("PRODUCT_BUNDLE_IDENTIFIER"), !id.isEmpty {
            bundle.settingsIdentifier = ProjectPaths.display(id, projectDir: projectDir)
        }
        if let info = settingPath("INFOPLIST_FILE", resolver: resolver, bundle: name) {
            bundle.infoPlistPath = info
            bundle.path = PathUtil.parent(info)
        }
        bundle.entitlementsPath = settingPath("CODE_SIGN_ENTITLEMENTS", resolver: resolver, bundle: name)
        if resolver.value("GENERATE_INFOPLIST_FILE") == "YES" {
            bundle.generatedInfoPlistKeys = GeneratedInfoPlist.keys(resolver: resolver, projectDir: projectDir, fallback: target.location)
        }
        bundle.sourceFiles = target.sourceFiles
        bundle.linkedCode = target.linkedCode
        bundle.privacyManifestPaths = files.privacyManifests.sorted()
        bundle.assetCatalogPaths = files.assetCatalogs.sorted()
        bundle.iconDocumentPaths = files.iconDocuments.sorted()
        bundle.localizations = files.localizations.values.sorted { $0.path < $1.path }
        bundle.interfaceFiles = files.interfaceFiles.sorted()
        bundle.resourcePaths = files.resources.sorted()
        return bundle
    }
}
