import Foundation
import Artifacts

/// For each bundle, itself and the bundles that embed it, up to the first that runs code of
/// its own (an app, extension, App Clip or watch app): a framework's or resource bundle's
/// code runs in that host.
struct EmbeddingChains {
    static let hostKinds: Set<BundleKind> = [.app, .appExtension, .appClip, .watchApp]

    private var chains: [String: [AppBundle]] = [:]

    init(_ product: Product) {
        let byID = Dictionary(product.bundles.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for b in product.bundles {
            var chain = [b]
            var current = b
            while !Self.hostKinds.contains(current.kind), let p = current.parentID, let parent = byID[p],
                  !chain.contains(where: { $0.id == parent.id }) {
                chain.append(parent)
                current = parent
            }
            chains[b.name] = chain
        }
    }

    /// The bundle named and its embedders, innermost first (empty for an unknown name).
    func chain(of name: String) -> [AppBundle] { chains[name] ?? [] }

    /// The host whose process runs the bundle's code, if the chain reaches one.
    func host(of name: String) -> AppBundle? {
        chain(of: name).last.flatMap { Self.hostKinds.contains($0.kind) ? $0 : nil }
    }
}
