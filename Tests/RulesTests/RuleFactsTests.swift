import XCTest
@testable import Evidence
@testable import Rules

/// The facts rules read from the catalog agree with the catalog's entries.
final class RuleFactsTests: XCTestCase {
    let catalog = ProtectedResourceCatalog.standard

    func testKeyReplacementsMatchTheLegacyEntries() {
        for r in ProtectedResourceCatalog.keyReplacements {
            XCTAssertEqual(catalog.resource(forKey: r.legacy)?.neededOnlyBelowIOS, r.sinceIOS, "\(r.legacy): sinceIOS disagrees with its entry")
            XCTAssertFalse(r.current.isEmpty, r.legacy)
            for key in r.current {
                XCTAssertNotNil(catalog.resource(forKey: key), "\(key), which replaces \(r.legacy), has no entry")
                XCTAssertNil(catalog.resource(forKey: key)?.neededOnlyBelowIOS, "\(key) replaces \(r.legacy) but is legacy itself")
            }
            // A use of the current keys is a use of the legacy one's resource.
            XCTAssertEqual(Set(PurposeKeyUse.family(of: r.legacy)).intersection(r.current), Set(r.current), "\(r.legacy) and its replacements are one family")
        }
    }

    func testFamiliesAreCatalogKeysInOneFamilyEach() {
        var seen = Set<String>()
        for family in ProtectedResourceCatalog.keyFamilies {
            XCTAssertGreaterThan(family.keys.count, 1, family.resource)
            for key in family.keys {
                XCTAssertNotNil(catalog.resource(forKey: key), "\(key) of the \(family.resource) family has no entry")
                XCTAssertTrue(seen.insert(key).inserted, "\(key) is in two families")
            }
        }
        for key in ProtectedResourceCatalog.alwaysLocationKeys {
            XCTAssertEqual(catalog.resource(forKey: key)?.capability.hasPrefix("location.always"), true, key)
            XCTAssertTrue(PurposeKeyUse.family(of: key).contains("NSLocationWhenInUseUsageDescription"), key)
        }
        for key in ProtectedResourceCatalog.keysWithoutPrompt.keys {
            XCTAssertNotNil(catalog.resource(forKey: key), "\(key) has no entry")
        }
    }

    func testOtherPurposeKeysAreNeitherEntriesNorExclusions() {
        for (key, source) in ProtectedResourceCatalog.otherPurposeStringKeys {
            XCTAssertNil(catalog.resource(forKey: key), "\(key) has an entry")
            XCTAssertNil(catalog.excludedKeys[key], "\(key) is excluded already")
            XCTAssertTrue(key.hasSuffix("UsageDescription"), key)
            XCTAssertFalse(source.isEmpty, "\(key) has no source")
            XCTAssertTrue(catalog.knowsPurposeKey(key), key)
        }
        XCTAssertTrue(catalog.knowsPurposeKey("NSCameraUsageDescription"))
        XCTAssertTrue(catalog.knowsPurposeKey("NSDesktopFolderUsageDescription"), "an excluded key exists")
        XCTAssertFalse(catalog.knowsPurposeKey("NSCameraUsageUsageDescription"))
    }

    func testCapabilityIdsNameCatalogEntries() {
        XCTAssertEqual(catalog.resource(forCapability: ProtectedResourceCatalog.Capability.tracking)?.key, "NSUserTrackingUsageDescription")
        XCTAssertNil(catalog.resource(forCapability: ProtectedResourceCatalog.Capability.recordingAtLaunch), "a signal, not a purpose key")
    }
}
