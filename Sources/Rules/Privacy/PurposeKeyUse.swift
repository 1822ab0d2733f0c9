import Foundation
import Artifacts
import Evidence

/// Whether a purpose key matters for a bundle: does iOS read it for the bundle's deployment
/// target, and does the bundle's code use the resource it guards. The rules about purpose keys
/// (deployment target, translations, unused keys) ask here instead of each deciding alone.
struct PurposeKeyUse {
    /// What Preflight knows of a bundle's use of the resource a key guards.
    enum CodeUse: Equatable {
        /// Shipping code of the bundle, or of a framework it embeds, uses the resource (any
        /// strength of evidence, any provenance).
        case used
        /// Preflight read the bundle's code (a built app's binaries, a project target's sources
        /// and linked code, the sources below a folder bundle's Info.plist), found no use, and
        /// the input uses no code Preflight cannot read.
        case notUsed
        /// No code of the bundle could be seen (a folder of data files, an unreadable binary),
        /// or the input also uses code Preflight cannot read (pods, binary frameworks, remote
        /// packages): a use may exist.
        case unknown
    }

    let product: Product
    /// Bundle name → keys used by its own code and by the frameworks it embeds.
    private let usedKeys: [String: Set<String>]
    /// Bundle name → keys its own shipping code uses with definite evidence.
    private let definiteKeys: [String: Set<String>]

    init(_ context: RuleContext) {
        product = context.product
        var used: [String: Set<String>] = [:]
        // Frameworks' and resource bundles' code runs in the bundle that embeds them.
        let chains = EmbeddingChains(product)
        let usages = context.shippingUsages
        for u in usages where !u.key.isEmpty {
            for b in chains.chain(of: u.bundle) { used[b.name, default: []].insert(u.key) }
        }
        usedKeys = used
        var definite: [String: Set<String>] = [:]
        for u in usages where u.strength == .definite && !u.key.isEmpty {
            definite[u.bundle, default: []].insert(u.key)
        }
        definiteKeys = definite
    }

    // MARK: Does iOS read the key?

    /// The iOS deployment target when it is known and a version number (nil for watch apps and
    /// non-iOS targets, whose versions count differently, and for unresolved settings).
    static func iOSDeploymentTarget(_ bundle: AppBundle) -> String? {
        guard bundle.kind != .watchApp, bundle.sourcePlatform ?? "iOS" == "iOS",
              let v = bundle.minimumOSVersion, v.first?.isNumber == true else { return nil }
        return v
    }

    /// For a legacy key, the iOS version from which iOS no longer reads it (`"13.0"` for
    /// NSBluetoothPeripheralUsageDescription), from the catalog.
    static func replacedSince(_ key: String) -> String? {
        ProtectedResourceCatalog.standard.resource(forKey: key)?.neededOnlyBelowIOS
    }

    /// False only when iOS reads the key on no OS version the bundle supports: a legacy key in a
    /// bundle whose iOS deployment target is known and at or above the version that replaced it.
    /// An unknown target counts as possibly old (the key may be read).
    static func isRead(_ key: String, by bundle: AppBundle) -> Bool {
        if !existsOnPlatform(key, of: bundle) { return false }
        guard let since = replacedSince(key), let target = iOSDeploymentTarget(bundle) else { return true }
        return VersionOrder.compare(target, since) == .orderedAscending
    }

    /// False when a project target's platform has no such prompt: NSLocationUsageDescription
    /// (macOS) in an iOS target, Face ID keys in a tvOS one. Targets built for Mac Catalyst
    /// read macOS keys too; bundles whose platform is unknown (built apps, folders) keep every key.
    static func existsOnPlatform(_ key: String, of bundle: AppBundle) -> Bool {
        guard let platform = bundle.sourcePlatform.flatMap(ApplePlatform.init(rawValue:)),
              let resource = ProtectedResourceCatalog.standard.resource(forKey: key) else { return true }
        if resource.platforms.contains(platform) { return true }
        let catalyst = bundle.buildSettings["SUPPORTS_MACCATALYST"]?.value == "YES"
        return platform == .iOS && catalyst && !resource.platforms.isDisjoint(with: [.macCatalyst, .macOS])
    }

    /// Whether missing_purpose_string reports `key` missing for this bundle's code: definite,
    /// shipping evidence for that very key.
    func definitelyUses(_ key: String, in bundle: AppBundle) -> Bool {
        definiteKeys[bundle.name]?.contains(key) == true
    }

    /// Whether definite evidence of the bundle's code uses any key of `key`'s family.
    func usesDefinitely(family key: String, in bundle: AppBundle) -> Bool {
        !(definiteKeys[bundle.name] ?? []).isDisjoint(with: Self.family(of: key))
    }

    // MARK: Does the code use it?

    /// The keys guarding the same resource as `key`, itself included: a use of one may show
    /// the prompt of another (the catalog's key families).
    static func family(of key: String) -> [String] {
        ProtectedResourceCatalog.keyFamilies.first { $0.keys.contains(key) }?.keys ?? [key]
    }

    /// Keys the shipping code of a bundle (with the frameworks it embeds) uses.
    func usedKeys(in bundle: AppBundle) -> Set<String> { usedKeys[bundle.name] ?? [] }

    /// Whether Preflight saw any code of the bundle at all.
    static func sawCode(_ bundle: AppBundle) -> Bool {
        !bundle.sourceFiles.isEmpty || !bundle.linkedCode.isEmpty || bundle.binaries.contains { $0.macho != nil }
    }

    /// Whether the bundle's code uses the resource `key` guards (any key of its family).
    func codeUse(of key: String, in bundle: AppBundle) -> CodeUse {
        if !usedKeys(in: bundle).isDisjoint(with: Self.family(of: key)) { return .used }
        return Self.sawCode(bundle) && !product.usesExternalCode ? .notUsed : .unknown
    }

    /// Whether the bundle's users may ever see the prompt of `key`: iOS reads the key for the
    /// bundle's deployment target, and its code uses the resource or could not be seen whole.
    func mayPrompt(_ key: String, in bundle: AppBundle) -> Bool {
        ProtectedResourceCatalog.keysWithoutPrompt[key] == nil && Self.isRead(key, by: bundle) && codeUse(of: key, in: bundle) != .notUsed
    }
}
