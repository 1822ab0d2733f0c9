import Foundation
import Artifacts
import Formats

/// APIs that need no purpose string but matter to rules: reading the advertising identifier.
/// Found in binaries, where SDKs that read it live.
public enum SignalEvidence {
    /// Capability id of advertising-identifier reads (not a catalog capability: no key).
    public static let advertisingIdentifier = "signal.advertisingIdentifier"
    /// Capability id of `-[UIDevice uniqueIdentifier]` (the UDID, removed in iOS 7).
    public static let udid = "signal.udid"

    public static func usages(in product: Product) -> [Usage] {
        var out: [Usage] = []
        for bundle in product.bundles {
            for binary in bundle.binaries {
                guard let slices = binary.macho?.slices else { continue }
                let reads = slices.contains { s in
                    (s.objcClassRefs.contains("ASIdentifierManager") || s.importedSymbols.contains("_OBJC_CLASS_$_ASIdentifierManager"))
                        && s.objcSelectorRefs.contains("advertisingIdentifier")
                }
                let udid = slices.contains { s in
                    (s.objcClassRefs.contains("UIDevice") || s.importedSymbols.contains("_OBJC_CLASS_$_UIDevice"))
                        && s.objcSelectorRefs.contains("uniqueIdentifier")
                }
                if udid {
                    out.append(Usage(capability: Self.udid, key: "", api: "-[UIDevice uniqueIdentifier]",
                                     location: .binary(path: binary.path, symbol: "uniqueIdentifier"), bundle: bundle.name,
                                     origin: bundle.kind == .framework ? .sdk(bundle.name) : .app, strength: .indicative))
                }
                if reads {
                    out.append(Usage(capability: advertisingIdentifier, key: "", api: "ASIdentifierManager.advertisingIdentifier",
                                     location: .binary(path: binary.path, symbol: "advertisingIdentifier"), bundle: bundle.name,
                                     origin: bundle.kind == .framework ? .sdk(bundle.name) : .app, strength: .definite))
                }
            }
        }
        return out
    }
}
