import Foundation
import Artifacts
import Evidence
import Formats

/// What the shipping code of each bundle (with the frameworks it embeds, and in projects the
/// code it links) uses of the APIs Info.plist declarations stand for: the feature APIs
/// (`FeatureAPIs`) and the purpose-string resources (location, Bluetooth, camera…).
struct FeatureUse {
    let product: Product
    /// Bundle name → capability → the first use found.
    private let uses: [String: [String: Usage]]

    init(_ context: RuleContext) {
        product = context.product
        let chains = EmbeddingChains(context.product)
        let shipping = Set(context.product.bundles.filter { $0.kind.ships }.map(\.name))
        let tests = Set(context.product.bundles.filter { !$0.kind.ships }.map(\.name)).subtracting(shipping)
        var uses: [String: [String: Usage]] = [:]
        for u in context.evidence.featureUsages + context.evidence.usages where u.ships && !tests.contains(u.bundle) {
            for b in chains.chain(of: u.bundle) where uses[b.name]?[u.capability] == nil { uses[b.name, default: [:]][u.capability] = u }
        }
        self.uses = uses
    }

    /// A use of a capability the predicate accepts by the bundle's code, if any.
    func use(in b: AppBundle, where matches: (String) -> Bool) -> Usage? {
        (uses[b.name] ?? [:]).filter { matches($0.key) }.sorted { $0.key < $1.key }.first?.value
    }

    func uses(_ capability: String, in b: AppBundle) -> Usage? { uses[b.name]?[capability] }

    /// Whether Preflight saw all of the bundle's code, so that finding no use means there is
    /// none: a built app whose binaries are readable and not App Store encrypted (selectors
    /// live in the encrypted part), or a project target's sources when the project uses no
    /// code Preflight cannot read (pods, binary frameworks, remote packages). Never for a folder
    /// of files.
    func sawAllCode(of b: AppBundle) -> Bool {
        guard product.kind != .folder, !product.usesExternalCode, PurposeKeyUse.sawCode(b) else { return false }
        return !product.bundles.flatMap(\.binaries).contains { bin in
            bin.macho.map { m in m.slices.contains { $0.isEncrypted } } ?? true
        }
    }
}
