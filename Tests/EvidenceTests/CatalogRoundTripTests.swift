import XCTest
@testable import Evidence

/// Every trigger of the catalog, presented alone, is found by the matcher with its strength.
final class CatalogRoundTripTests: XCTestCase {
    func references(for trigger: Trigger, of kind: TriggerKind) -> BinaryReferences {
        var references = BinaryReferences()
        switch kind {
        case .objcClass: references.importedSymbols = ["_OBJC_CLASS_$_" + trigger.name]
        case .selector: references.selectors = [trigger.name]
        case .cFunction: references.importedSymbols = [trigger.name]
        case .swiftSymbol: references.importedSymbols = ["_$s" + trigger.name + "Ma"]
        }
        if let companion = trigger.alongsideClass { references.objcClasses.insert(companion) }
        return references
    }

    func testEveryTriggerIsFoundAlone() {
        let catalog = ProtectedResourceCatalog.standard
        var matchers: [ApplePlatform: BinaryReferenceMatcher] = [:]
        var checked = 0
        for resource in catalog.resources {
            let platform = ApplePlatform.allCases.first { resource.platforms.contains($0) }!
            let matcher = matchers[platform] ?? BinaryReferenceMatcher(catalog: catalog, platform: platform)
            matchers[platform] = matcher
            for (kind, trigger) in resource.triggers.all {
                let found = matcher.match(references(for: trigger, of: kind)).filter {
                    $0.capability == resource.capability && $0.proofKind == kind
                        && $0.alongsideClass == trigger.alongsideClass
                }
                XCTAssertEqual(found.map(\.strength), [trigger.strength],
                               "\(resource.capability): \(kind) \(trigger.name)")
                checked += 1
            }
        }
        print("round-tripped \(checked) triggers")
    }
}
