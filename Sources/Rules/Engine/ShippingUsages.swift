import Foundation
import Artifacts
import Evidence

extension RuleContext {
    /// The uses of protected APIs in code that ships: the evidence says so (`Usage.ships`: not
    /// compiled out, not in a test target's sources) and its bundle is not a test bundle.
    /// Binary evidence does not know its bundle's kind, and Xcode copies unit-test bundles into
    /// an app built for testing (`PlugIns/AppTests.xctest`), whose code never reaches users —
    /// though it would otherwise count as code of the app that embeds it.
    var shippingUsages: [Usage] {
        let shipping = Set(product.bundles.filter { $0.kind.ships }.map(\.name))
        let tests = Set(product.bundles.filter { !$0.kind.ships }.map(\.name)).subtracting(shipping)
        return evidence.usages.filter { $0.ships && !tests.contains($0.bundle) }
    }
}
