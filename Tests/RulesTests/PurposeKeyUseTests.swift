import XCTest
@testable import Artifacts
import Evidence
@testable import Rules

/// The shared answers of the purpose-key rules: does iOS read a key, does the code use it.
final class PurposeKeyUseTests: XCTestCase {
    func bundle(_ kind: BundleKind = .app, target: String? = nil, sdk: String? = nil, sources: [String] = []) -> AppBundle {
        var b = AppBundle(name: "App", kind: kind, path: "App")
        if let target { b.buildSettings["IPHONEOS_DEPLOYMENT_TARGET"] = SettingValue(target) }
        if let sdk { b.buildSettings["SDKROOT"] = SettingValue(sdk) }
        b.sourceFiles = sources
        return b
    }

    func testLegacyKeysAreReadOnlyBelowTheVersionThatReplacedThem() {
        XCTAssertTrue(PurposeKeyUse.isRead("NSCalendarsUsageDescription", by: bundle(target: "16.4")))
        XCTAssertFalse(PurposeKeyUse.isRead("NSCalendarsUsageDescription", by: bundle(target: "17.0")))
        XCTAssertFalse(PurposeKeyUse.isRead("NSBluetoothPeripheralUsageDescription", by: bundle(target: "13")))
        XCTAssertTrue(PurposeKeyUse.isRead("NSBluetoothPeripheralUsageDescription", by: bundle(target: "12.4")))
        XCTAssertFalse(PurposeKeyUse.isRead("NSLocationAlwaysUsageDescription", by: bundle(target: "11.0")))
        // Current keys are always read.
        XCTAssertTrue(PurposeKeyUse.isRead("NSBluetoothAlwaysUsageDescription", by: bundle(target: "18.0")))
    }

    func testUnknownOrNonIOSTargetsCountAsPossiblyOld() {
        XCTAssertTrue(PurposeKeyUse.isRead("NSCalendarsUsageDescription", by: bundle()))
        XCTAssertTrue(PurposeKeyUse.isRead("NSCalendarsUsageDescription", by: bundle(target: "$(TARGET)")))
        XCTAssertTrue(PurposeKeyUse.isRead("NSCalendarsUsageDescription", by: bundle(.watchApp, target: "17.0")))
        XCTAssertTrue(PurposeKeyUse.isRead("NSCalendarsUsageDescription", by: bundle(target: "17.0", sdk: "macosx")))
    }

    func testCodeUseCountsTheKeysFamilyAndKnowsWhatItCouldNotSee() {
        let app = bundle(target: "15.0", sources: ["App/Reader.swift"])
        let bluetooth = Usage(capability: "bluetooth", key: "NSBluetoothAlwaysUsageDescription", api: "CBCentralManager",
                              location: .source(path: "App/Reader.swift", line: 1, column: 1), bundle: "App", strength: .definite)
        var product = Product(kind: .project, input: "Example", bundles: [app])
        let use = PurposeKeyUse(RuleContext(product: product, evidence: EvidenceIndex(usages: [bluetooth])))
        XCTAssertEqual(use.codeUse(of: "NSBluetoothPeripheralUsageDescription", in: app), .used)
        XCTAssertEqual(use.codeUse(of: "NSCameraUsageDescription", in: app), .notUsed)
        XCTAssertFalse(use.mayPrompt("NSCameraUsageDescription", in: app))

        // Code Preflight cannot read may use anything; no code at all shows nothing.
        product.usesExternalCode = true
        XCTAssertEqual(PurposeKeyUse(RuleContext(product: product, evidence: EvidenceIndex())).codeUse(of: "NSCameraUsageDescription", in: app), .unknown)
        let dataOnly = bundle(target: "15.0")
        let plain = PurposeKeyUse(RuleContext(product: Product(kind: .folder, input: "Example", bundles: [dataOnly]), evidence: EvidenceIndex()))
        XCTAssertEqual(plain.codeUse(of: "NSCameraUsageDescription", in: dataOnly), .unknown)
        XCTAssertTrue(plain.mayPrompt("NSCameraUsageDescription", in: dataOnly))
    }

    func testEmbeddedFrameworksCodeCountsForItsHost() {
        let app = bundle(sources: ["App/Main.swift"])
        var kit = AppBundle(name: "Kit.framework", kind: .framework, path: "Kit", parentID: app.id)
        kit.sourceFiles = ["Kit/Camera.swift"]
        let camera = Usage(capability: "camera", key: "NSCameraUsageDescription", api: "AVCaptureDevice.requestAccess(for: .video)",
                           location: .source(path: "Kit/Camera.swift", line: 1, column: 1), bundle: "Kit.framework", strength: .definite)
        let notShipping = Usage(capability: "microphone", key: "NSMicrophoneUsageDescription", api: "AVAudioSession.requestRecordPermission",
                                location: .source(path: "App/Main.swift", line: 1, column: 1), bundle: "App", strength: .definite, ships: false)
        let use = PurposeKeyUse(RuleContext(product: Product(kind: .project, input: "Example", bundles: [app, kit]),
                                            evidence: EvidenceIndex(usages: [camera, notShipping])))
        XCTAssertEqual(use.codeUse(of: "NSCameraUsageDescription", in: app), .used)
        XCTAssertEqual(use.codeUse(of: "NSMicrophoneUsageDescription", in: app), .notUsed)
    }
}
