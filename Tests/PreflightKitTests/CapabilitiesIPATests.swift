import XCTest
import Foundation
import TestSupport
import PreflightKit

/// One `.ipa` per App Store Connect upload error of the device, orientation, launch-screen,
/// background-mode and bundle-structure rules, built from the committed Mach-O fixtures and
/// scanned end to end (as `ReadinessIPATests`): each must produce the rule's finding, and a
/// complete iPad app none of them.
final class CapabilitiesIPATests: XCTestCase {

    static let rules: Set<String> = ["ipad_multitasking_orientations", "ipad_multitasking_launch_screen", "missing_launch_screen",
                                     "requires_full_screen_deprecated", "background_processing_identifiers", "unknown_background_mode",
                                     "unused_background_mode", "missing_push_entitlement", "arm64_capability_missing",
                                     "minimum_os_version_too_low", "standalone_binary", "invalid_device_capability",
                                     "unused_device_capability", "arkit_capability_undeclared"]

    static let allOrientations = """
        <array><string>UIInterfaceOrientationPortrait</string><string>UIInterfaceOrientationPortraitUpsideDown</string>
        <string>UIInterfaceOrientationLandscapeLeft</string><string>UIInterfaceOrientationLandscapeRight</string></array>
        """

    /// A universal app's Info.plist: iPhone and iPad, all orientations, a launch storyboard.
    static func info(minOS: String = "15.0", orientations: String = allOrientations,
                     launch: String = "<key>UILaunchStoryboardName</key><string>LaunchScreen</string>", extra: String = "") -> String {
        ReadinessIPATests.info("Demo", id: "com.example.demo", minOS: minOS, extra: """
            <key>CFBundleName</key><string>Demo</string>
            <key>UIDeviceFamily</key><array><integer>1</integer><integer>2</integer></array>
            <key>UISupportedInterfaceOrientations</key>\(orientations)
            \(launch)
            \(extra)
            """)
    }

    static let storyboard = ["Base.lproj/LaunchScreen.storyboardc/Info.plist": "<plist version=\"1.0\"><dict/></plist>",
                             "Base.lproj/LaunchScreen.storyboardc/01J-lp-oVM-view-Ze5-6b-2t3.nib": "nib"]

    /// `Payload/Demo.app` with the given Info.plist, executable fixture, files and binaries.
    func ipa(_ info: String = info(), files: [String: String] = storyboard, binaries: [String: String] = [:], appBinary: String = "App") throws -> URL {
        try ReadinessIPATests.demoIPA(appInfo: info, files: files, binaries: binaries, appBinary: appBinary, name: "Capabilities.ipa")
    }

    func found(_ url: URL) throws -> [Finding] {
        try PreflightScanner.scan(url.path).findings.filter { Self.rules.contains($0.rule) }
    }

    /// The rule finds something in the `.ipa`, a message names the code, and the rule lists it.
    func assertFinds(_ rule: String, _ code: String, in url: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let found = try found(url).filter { $0.rule == rule }
        XCTAssertFalse(found.isEmpty, "\(rule) found nothing", file: file, line: line)
        XCTAssertTrue(found.contains { $0.message.contains(code) }, "\(rule): no message names \(code): \(found.map(\.message))", file: file, line: line)
        XCTAssertTrue(RuleRegistryLookup.itms(of: rule).contains(code), "\(rule) does not list \(code) in its metadata", file: file, line: line)
    }

    func testCompleteIPadAppHasNoFinding() throws {
        XCTAssertEqual(try found(try ipa()).map(\.message), [])
    }

    func testITMS90474PortraitOnlyIPadApp() throws {
        let url = try ipa(Self.info(orientations: "<array><string>UIInterfaceOrientationPortrait</string></array>"))
        try assertFinds("ipad_multitasking_orientations", "ITMS-90474", in: url)
        // The iPad variant wins over the plain key.
        let ipadOnly = try ipa(Self.info(orientations: "<array><string>UIInterfaceOrientationPortrait</string></array>",
                                         extra: "<key>UISupportedInterfaceOrientations~ipad</key>\(Self.allOrientations)"))
        XCTAssertEqual(try found(ipadOnly).map(\.rule), [])
    }

    func testITMS90475NoLaunchStoryboard() throws {
        try assertFinds("ipad_multitasking_launch_screen", "ITMS-90475", in: try ipa(Self.info(launch: ""), files: [:]))
        // Named but not shipped.
        try assertFinds("ipad_multitasking_launch_screen", "ITMS-90475", in: try ipa(files: [:]))
        // UIRequiresFullScreen opts out of both multitasking checks, and is reported as deprecated.
        let fullScreen = try found(try ipa(Self.info(orientations: "<array><string>UIInterfaceOrientationPortrait</string></array>",
                                                     launch: "<key>UIRequiresFullScreen</key><true/>"), files: [:]))
        XCTAssertEqual(Set(fullScreen.map(\.rule)), ["requires_full_screen_deprecated", "missing_launch_screen"])
    }

    func testITMS90096IPhoneAppWithoutLaunchScreen() throws {
        let plist = Self.info(launch: "").replacingOccurrences(of: "<integer>1</integer><integer>2</integer>", with: "<integer>1</integer>")
        try assertFinds("missing_launch_screen", "ITMS-90096", in: try ipa(plist, files: [:]))
    }

    func testITMS90771ProcessingWithoutIdentifiers() throws {
        let url = try ipa(Self.info(extra: "<key>UIBackgroundModes</key><array><string>processing</string></array>"))
        try assertFinds("background_processing_identifiers", "ITMS-90771", in: url)
        // The App fixture schedules no task either.
        XCTAssertTrue(try found(url).contains { $0.rule == "unused_background_mode" && $0.message.contains("processing") })
    }

    func testITMS90078RegistersWithoutPushEntitlement() throws {
        // The Push fixture calls registerForRemoteNotifications; its signature has entitlements, none for push.
        try assertFinds("missing_push_entitlement", "ITMS-90078", in: try ipa(appBinary: "Push"))
        // The App fixture is signed without entitlements: nothing is known, nothing is said.
        let unsigned = try ipa(Self.info(extra: "<key>UIBackgroundModes</key><array><string>remote-notification</string></array>"))
        XCTAssertFalse(try found(unsigned).contains { $0.rule == "missing_push_entitlement" })
        XCTAssertTrue(try found(unsigned).contains { $0.rule == "unused_background_mode" && $0.message.contains("remote-notification") })
        // Registering is using the mode.
        let registered = try ipa(Self.info(extra: "<key>UIBackgroundModes</key><array><string>remote-notification</string></array>"), appBinary: "Push")
        XCTAssertFalse(try found(registered).contains { $0.rule == "unused_background_mode" })
    }

    func testITMS90502Arm64OnlyBelowIOS11() throws {
        let url = try ipa(Self.info(minOS: "10.0", extra: "<key>UIRequiredDeviceCapabilities</key><array><string>armv7</string></array>"))
        try assertFinds("arm64_capability_missing", "ITMS-90502", in: url)
        let declared = try ipa(Self.info(minOS: "10.0", extra: "<key>UIRequiredDeviceCapabilities</key><array><string>arm64</string></array>"))
        XCTAssertFalse(try found(declared).contains { $0.rule == "arm64_capability_missing" })
    }

    func testITMS90068MinimumOSBelow15() throws {
        try assertFinds("minimum_os_version_too_low", "ITMS-90068", in: try ipa(Self.info(minOS: "14.0")))
    }

    func testITMS90171LooseDylib() throws {
        let url = try ipa(files: Self.storyboard, binaries: ["Frameworks/libcrypto.dylib": "MyKit.framework/MyKit",
                                                             "Frameworks/libswiftCore.dylib": "MyKit.framework/MyKit"])
        try assertFinds("standalone_binary", "ITMS-90171", in: url)
        XCTAssertEqual(try found(url).filter { $0.rule == "standalone_binary" }.map(\.file), ["Payload/Demo.app/Frameworks/libcrypto.dylib"])
    }

    func testDeviceCapabilitiesAndBackgroundModes() throws {
        let url = try ipa(Self.info(extra: """
            <key>UIRequiredDeviceCapabilities</key><array><string>arm64</string><string>gps</string><string>camera</string></array>
            <key>UIBackgroundModes</key><array><string>location</string><string>remote-notifications</string></array>
            """))
        let rules = try found(url).map { "\($0.rule): \($0.message)" }
        // The App fixture uses Core Location (CLLocationManager) and the camera: gps and location are used.
        XCTAssertTrue(rules.contains { $0.hasPrefix("invalid_device_capability") && $0.contains("\"camera\"") }, "\(rules)")
        XCTAssertTrue(rules.contains { $0.hasPrefix("unknown_background_mode") && $0.contains("did you mean remote-notification") }, "\(rules)")
        XCTAssertFalse(rules.contains { $0.hasPrefix("unused_device_capability") }, "\(rules)")
        XCTAssertFalse(rules.contains { $0.hasPrefix("unused_background_mode") }, "\(rules)")
    }

    /// The codes of this area that cannot be found say why in the coverage table.
    func testUndetectableCodesSayWhy() {
        let status = Dictionary(uniqueKeysWithValues: ITMSCoverage.codes.map { ($0.code, $0.status) })
        XCTAssertNotNil(status["ITMS-90783"] ?? nil)
        for code in ["ITMS-90474", "ITMS-90475", "ITMS-90771", "ITMS-90078", "ITMS-90502", "ITMS-90068", "ITMS-90171", "ITMS-90096"] {
            XCTAssertFalse(RuleRegistry.all.filter { $0.description.itms.contains(code) }.isEmpty, "\(code) has no rule")
        }
    }
}
