import Foundation
import Artifacts
import Formats

/// Turns each bundle's parsed Mach-O files into usages through the catalog matcher.
public enum BinaryEvidence {
    public static func usages(in product: Product, catalog: ProtectedResourceCatalog = .detection) -> [Usage] {
        var out: [Usage] = []
        for bundle in product.bundles {
            for binary in bundle.binaries {
                guard let file = binary.macho else { continue }
                var seen = Set<CapabilityUse>()
                for slice in file.slices {
                    let refs = BinaryReferences(objcClasses: Set(slice.objcClassRefs), selectors: Set(slice.objcSelectorRefs),
                                                importedSymbols: slice.importedSymbols + slice.boundSymbols)
                    let platform = platformOf(slice.platform) ?? .iOS
                    let matcher = BinaryReferenceMatcher(catalog: catalog, platform: platform, deploymentTarget: slice.minOS)
                    for use in matcher.match(refs) where seen.insert(use).inserted {
                        out.append(Usage(capability: use.capability, key: use.key, api: use.proof,
                                         location: .binary(path: binary.path, symbol: use.proof), bundle: bundle.name,
                                         origin: bundle.kind == .framework ? .sdk(bundle.name) : .app,
                                         strength: use.strength))
                    }
                }
            }
        }
        return out
    }

    /// The platform names `MachONames` gives `LC_BUILD_VERSION`/`LC_VERSION_MIN_*`.
    static func platformOf(_ name: String?) -> ApplePlatform? {
        guard let name else { return nil }
        if name.hasPrefix("iOS") { return .iOS }
        if name.hasPrefix("Mac Catalyst") { return .macCatalyst }
        if name.hasPrefix("macOS") { return .macOS }
        if name.hasPrefix("tvOS") { return .tvOS }
        if name.hasPrefix("watchOS") { return .watchOS }
        if name.hasPrefix("visionOS") { return .visionOS }
        return nil
    }
}
