import XCTest
@testable import Evidence

final class BinaryReferenceMatcherTests: XCTestCase {
    let matcher = BinaryReferenceMatcher()

    func uses(classes: Set<String> = [], selectors: Set<String> = [], symbols: [String] = [],
              matcher: BinaryReferenceMatcher? = nil) -> [CapabilityUse] {
        // Feature uses (FeatureAPITests) and data-at-rest facts (`security.*`) have their own tests.
        (matcher ?? self.matcher).match(BinaryReferences(objcClasses: classes, selectors: selectors, importedSymbols: symbols))
            .filter { !ProtectedResourceCatalog.FeatureAPI.isFeature($0.capability) && !ProtectedResourceCatalog.Security.isSecurity($0.capability) }
    }

    func summary(_ uses: [CapabilityUse]) -> Set<String> {
        Set(uses.map { "\($0.capability) \($0.strength.rawValue) \($0.proof)" })
    }

    // MARK: positive cases

    func testLocationRequestIsDefiniteAndAlwaysNeedsBothKeys() {
        let found = uses(classes: ["CLLocationManager"],
                         selectors: ["requestAlwaysAuthorization", "startUpdatingLocation"])
        XCTAssertEqual(summary(found), [
            "location.whenInUse indicative CLLocationManager",
            "location.whenInUse definite requestAlwaysAuthorization",
            "location.whenInUse definite startUpdatingLocation",
            "location.always definite requestAlwaysAuthorization",
            "location.alwaysLegacy definite requestAlwaysAuthorization",
        ])
    }

    /// The media type a binary imports decides whose request `requestAccessForMediaType:` is.
    func testMediaTypeConstantDecidesCameraOrMicrophone() {
        let selectors: Set<String> = ["requestAccessForMediaType:completionHandler:"]
        XCTAssertEqual(summary(uses(selectors: selectors, symbols: ["_AVMediaTypeVideo"])),
                       ["camera definite requestAccessForMediaType:completionHandler:"])
        XCTAssertEqual(summary(uses(selectors: selectors, symbols: ["_AVMediaTypeAudio"])),
                       ["microphone definite requestAccessForMediaType:completionHandler:"])
        XCTAssertEqual(summary(uses(selectors: selectors, symbols: ["_AVMediaTypeVideo", "_AVMediaTypeAudio"])), [
            "camera indicative requestAccessForMediaType:completionHandler:",
            "microphone indicative requestAccessForMediaType:completionHandler:",
        ], "both constants: either may be requested")
        XCTAssertEqual(summary(uses(selectors: selectors)), [
            "camera indicative requestAccessForMediaType:completionHandler:",
            "microphone indicative requestAccessForMediaType:completionHandler:",
        ])
        XCTAssertEqual(summary(uses(selectors: ["authorizationStatusForMediaType:"], symbols: ["_AVMediaTypeVideo"])),
                       ["camera indicative authorizationStatusForMediaType:"], "reading the status prompts for nothing")
    }

    func testClassesCountWhenOnlyImportedAsSymbols() {
        let found = uses(symbols: ["_OBJC_CLASS_$_CBCentralManager", "_OBJC_CLASS_$_NSObject"],
                         matcher: BinaryReferenceMatcher(deploymentTarget: "15.0"))
        XCTAssertEqual(summary(found), ["bluetooth indicative CBCentralManager"])
    }

    func testSelectorWithCompanionClassNeedsThatClass() {
        XCTAssertEqual(uses(selectors: ["initWithDelegate:queue:"]), [],
                       "a common selector alone must not be read as Core Bluetooth")
        let found = uses(selectors: ["initWithDelegate:queue:"],
                         symbols: ["_OBJC_CLASS_$_CBCentralManager"],
                         matcher: BinaryReferenceMatcher(deploymentTarget: "16.0"))
        XCTAssertTrue(found.contains(CapabilityUse(
            capability: "bluetooth", key: "NSBluetoothAlwaysUsageDescription", proof: "initWithDelegate:queue:",
            proofKind: .selector, strength: .definite, alongsideClass: "CBCentralManager")))
    }

    func testCFunctionsMatchWithTheirUnderscore() {
        let found = uses(symbols: ["_ABAddressBookCreateWithOptions", "_UIImageWriteToSavedPhotosAlbum",
                                   "_AudioQueueNewInput", "ABAddressBookCreate"])
        XCTAssertEqual(summary(found), [
            "contacts definite _ABAddressBookCreateWithOptions",
            "photos.addOnly definite _UIImageWriteToSavedPhotosAlbum",
            "microphone definite _AudioQueueNewInput",
        ])
    }

    func testSwiftOnlyAPIsMatchInsideMangledSymbols() {
        let symbols = [
            "_$s12CoreLocation16CLLocationUpdateV11liveUpdatesyAC7UpdatesVAC16LiveConfigurationVFZ",
            "_$s12CoreLocation16CLLocationUpdateVMa",
            "_$s7Network9NWBrowserCMa",
        ]
        let found = uses(symbols: symbols)
        XCTAssertEqual(summary(found), [
            "location.whenInUse definite _$s12CoreLocation16CLLocationUpdateVMa",
            "local_network definite _$s7Network9NWBrowserCMa",
        ], "one use per pattern, proved by the shortest symbol")
    }

    func testSwiftSubstringNeedsALengthBoundary() {
        XCTAssertEqual(uses(symbols: ["_$s17Network9NWBrowserCMa", "_$s5ARKit20HandTrackingProviderCMa"]), [],
                       "visionOS keys do not apply to iOS, and 17Network is another module")
        let vision = BinaryReferenceMatcher(platform: .visionOS)
        XCTAssertEqual(summary(uses(symbols: ["_$s5ARKit20HandTrackingProviderCMa"], matcher: vision)),
                       ["visionos.handTracking definite _$s5ARKit20HandTrackingProviderCMa"])
    }

    // MARK: look-alikes

    func testNoPermissionLookAlikesMatchNothing() {
        let found = uses(
            classes: ["PHPickerViewController", "PHPickerConfiguration", "UIImagePickerController",
                      "CNContactPickerViewController", "EKEventEditViewController", "EKEventStore",
                      "UIDocumentPickerViewController", "LAContext", "CMMotionManager", "ASIdentifierManager",
                      "MKMapView", "CLGeocoder"],
            selectors: ["canEvaluatePolicy:error:", "biometryType", "setSourceType:", "isSourceTypeAvailable:"],
            symbols: ["_$s8PhotosUI0A6PickerVMa", "_$s8PhotosUI0A10PickerItemVMa",
                      "_$s015_PhotosUI_SwiftB00A6PickerVMa"])
        XCTAssertEqual(found, [])
    }

    func testEveryCatalogLookAlikeNameMatchesNothing() {
        for lookAlike in ProtectedResourceCatalog.standard.lookAlikes {
            for name in lookAlike.names {
                let references: BinaryReferences
                switch lookAlike.kind {
                case .objcClass: references = BinaryReferences(objcClasses: [name])
                case .selector: references = BinaryReferences(selectors: [name])
                case .cFunction: references = BinaryReferences(importedSymbols: [name])
                case .swiftSymbol: references = BinaryReferences(importedSymbols: ["_$s" + name + "Ma"])
                }
                XCTAssertEqual(matcher.match(references), [], "\(lookAlike.api): \(name)")
            }
        }
    }

    func testFaceIDNeedsEvaluatePolicyNotJustLAContext() {
        XCTAssertEqual(uses(classes: ["LAContext"], selectors: ["canEvaluatePolicy:error:"]), [])
        XCTAssertEqual(summary(uses(classes: ["LAContext"], selectors: ["evaluatePolicy:localizedReason:reply:"])),
                       ["faceid definite evaluatePolicy:localizedReason:reply:"])
    }

    func testImagePickerCameraSettersPointToTheCamera() {
        XCTAssertEqual(summary(uses(classes: ["UIImagePickerController"], selectors: ["setCameraDevice:"])),
                       ["camera indicative setCameraDevice:"])
    }

    // MARK: ambiguous selectors

    func testMediaTypeRequestIsIndicativeForCameraAndMicrophone() {
        let found = uses(selectors: ["requestAccessForMediaType:completionHandler:"])
        XCTAssertEqual(summary(found), [
            "camera indicative requestAccessForMediaType:completionHandler:",
            "microphone indicative requestAccessForMediaType:completionHandler:",
        ])
    }

    func testPhotoAccessLevelRequestIsIndicativeForBothLevels() {
        XCTAssertEqual(summary(uses(selectors: ["requestAuthorizationForAccessLevel:handler:"])), [
            "photos.read indicative requestAuthorizationForAccessLevel:handler:",
            "photos.addOnly indicative requestAuthorizationForAccessLevel:handler:",
        ])
    }

    func testSharedRequestAuthorizationSelectorFollowsTheClass() {
        let found = uses(classes: ["SFSpeechRecognizer"], selectors: ["requestAuthorization:"])
        XCTAssertEqual(summary(found), [
            "speech indicative SFSpeechRecognizer",
            "speech definite requestAuthorization:",
        ])
    }

    func testSharedSelectorWithSeveralReceiversIsOnlyIndicative() {
        let found = uses(classes: ["SFSpeechRecognizer", "MPMediaLibrary"], selectors: ["requestAuthorization:"])
        XCTAssertEqual(summary(found), [
            "speech indicative SFSpeechRecognizer",
            "speech indicative requestAuthorization:",
            "media_library indicative MPMediaLibrary",
            "media_library indicative requestAuthorization:",
        ])
    }

    func testReceiversOfTheSameCapabilityKeepTheSelectorDefinite() {
        let found = uses(classes: ["CBCentralManager", "CBPeripheralManager"], selectors: ["initWithDelegate:queue:"],
                         matcher: BinaryReferenceMatcher(deploymentTarget: "13.0"))
        XCTAssertEqual(Set(found.filter { $0.proofKind == .selector }.map(\.strength)), [.definite])
    }

    func testLegacyEventKitRequestIsIndicativeForCalendarsAndReminders() {
        let old = BinaryReferenceMatcher(deploymentTarget: "15.0")
        XCTAssertEqual(summary(uses(selectors: ["requestAccessToEntityType:completion:"], matcher: old)), [
            "calendars.legacy indicative requestAccessToEntityType:completion:",
            "reminders.legacy indicative requestAccessToEntityType:completion:",
        ])
        let current = BinaryReferenceMatcher(deploymentTarget: "17.0")
        XCTAssertEqual(uses(selectors: ["requestAccessToEntityType:completion:"], matcher: current), [])
    }

    // MARK: platform, deployment target, order

    func testDeploymentTargetDropsLegacyKeysOnly() {
        let references = BinaryReferences(selectors: ["requestAlwaysAuthorization"])
        let capabilities = { (target: String?) in
            Set(BinaryReferenceMatcher(deploymentTarget: target).match(references).map(\.capability))
        }
        XCTAssertEqual(capabilities(nil), ["location.whenInUse", "location.always", "location.alwaysLegacy"])
        XCTAssertEqual(capabilities("10.3"), ["location.whenInUse", "location.always", "location.alwaysLegacy"])
        XCTAssertEqual(capabilities("11"), ["location.whenInUse", "location.always"])
    }

    func testMacOSOnlyKeysApplyOnlyToMacOS() {
        let references = BinaryReferences(objcClasses: ["SBApplication"])
        XCTAssertEqual(matcher.match(references), [])
        XCTAssertEqual(BinaryReferenceMatcher(platform: .macOS).match(references).map(\.capability),
                       ["macos.appleEvents"])
    }

    func testOutputIsSortedAndDeduplicated() {
        let references = BinaryReferences(
            objcClasses: ["CBCentralManager", "AVCaptureDevice"],
            selectors: ["requestAccessForMediaType:completionHandler:", "scanForPeripheralsWithServices:options:"],
            importedSymbols: ["_OBJC_CLASS_$_CBCentralManager", "_OBJC_CLASS_$_AVCaptureDevice"])
        let first = matcher.match(references)
        XCTAssertEqual(first, first.sorted())
        XCTAssertEqual(Set(first).count, first.count)
        XCTAssertEqual(first, matcher.match(references), "deterministic")
        XCTAssertEqual(first.filter { $0.proof == "CBCentralManager" && $0.capability == "bluetooth" }.count, 1)
    }

    // MARK: speed

    func testHundredThousandSymbolsMatchQuickly() {
        var symbols: [String] = []
        symbols.reserveCapacity(100_000)
        for index in 0..<100_000 {
            switch index % 4 {
            case 0: symbols.append("_$s7MyModule\(index % 97)SomeTypeV\(index)methodyySiF")
            case 1: symbols.append("_OBJC_CLASS_$_MyClass\(index)")
            case 2: symbols.append("_some_c_function_\(index)")
            default: symbols.append("_$sSo8NSObjectC10FoundationE\(index)descriptionSSvg")
            }
        }
        symbols.append("_$s12CoreLocation16CLLocationUpdateVMa")
        symbols.append("_OBJC_CLASS_$_CLLocationManager")
        let references = BinaryReferences(selectors: ["requestWhenInUseAuthorization"], importedSymbols: symbols)
        let start = Date()
        let found = matcher.match(references)
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertEqual(Set(found.map(\.capability)), ["location.whenInUse"])
        print("matched 100k symbols in \(Int(elapsed * 1000)) ms")
        // Generous for debug builds on a shared machine; release runs in milliseconds.
        XCTAssertLessThan(elapsed, 2.0)
    }
}
