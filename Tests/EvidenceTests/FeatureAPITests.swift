import XCTest
@testable import Evidence

/// The feature APIs (`FeatureAPIs`: the code behind background modes and device capabilities)
/// are found in binaries and Objective-C sources like the purpose-string APIs.
final class FeatureAPITests: XCTestCase {
    typealias F = ProtectedResourceCatalog.FeatureAPI

    func features(classes: Set<String> = [], selectors: Set<String> = [], symbols: [String] = []) -> Set<String> {
        Set(BinaryReferenceMatcher().match(BinaryReferences(objcClasses: classes, selectors: selectors, importedSymbols: symbols))
            .filter { F.isFeature($0.capability) }.map { "\($0.capability) \($0.proof)" })
    }

    func testBinaryReferences() {
        XCTAssertEqual(features(symbols: ["_OBJC_CLASS_$_BGTaskScheduler"]), ["\(F.backgroundTasks) BGTaskScheduler"])
        XCTAssertEqual(features(classes: ["UIApplication"], selectors: ["registerForRemoteNotifications"]),
                       ["\(F.remoteNotifications) registerForRemoteNotifications"])
        // A selector of the same name on another class is not APNs registration.
        XCTAssertEqual(features(selectors: ["registerForRemoteNotifications"]), [])
        XCTAssertEqual(features(classes: ["ARWorldTrackingConfiguration"], selectors: ["isSupported"]),
                       ["\(F.arkit) ARWorldTrackingConfiguration", "\(F.arkitSupportCheck) isSupported"])
        XCTAssertEqual(features(symbols: ["_$s10RealityKit6ARViewCMa"]), ["\(F.arkit) _$s10RealityKit6ARViewCMa"])
        XCTAssertEqual(features(symbols: ["_AudioOutputUnitStart"]), ["\(F.audio) _AudioOutputUnitStart"])
    }

    func testObjectiveCSources() {
        let found = ObjCSourceScanner.scan(source: "void f(void) { [[UIApplication sharedApplication] registerForRemoteNotifications]; }",
                                           path: "Push.m", definitions: [:])
        XCTAssertEqual(found.filter { F.isFeature($0.capability) }.map(\.capability), [F.remoteNotifications])
    }

    func testFeaturesAreNotPurposeStringResources() {
        for r in ProtectedResourceCatalog.featureResources {
            XCTAssertTrue(F.isFeature(r.capability), r.capability)
            XCTAssertNil(ProtectedResourceCatalog.standard.resource(forCapability: r.capability))
        }
    }
}
