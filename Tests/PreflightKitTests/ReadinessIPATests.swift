import XCTest
import Foundation
import TestSupport
import PreflightKit

/// One `.ipa` per App Store Connect upload error the readiness rules cover, built from the
/// committed Mach-O fixtures (`Tests/Fixtures/MachO`, real clang + ld64.lld binaries) and
/// scanned end to end: each must produce the rule's finding, and a clean control none.
final class ReadinessIPATests: XCTestCase {
    static let machO = CLITests.packageRoot.appendingPathComponent("Tests/Fixtures/MachO")

    static func info(_ executable: String, id: String, short: String = "1.2", build: String = "42", minOS: String = "15.0", extra: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
          <key>CFBundleIdentifier</key><string>\(id)</string>
          <key>CFBundleExecutable</key><string>\(executable)</string>
          <key>CFBundleShortVersionString</key><string>\(short)</string>
          <key>CFBundleVersion</key><string>\(build)</string>
          <key>MinimumOSVersion</key><string>\(minOS)</string>
          \(extra)
        </dict>
        </plist>
        """
    }

    /// An `.ipa` with `Demo.app` (the `App` fixture) and the given extra files and binaries.
    func ipa(appInfo: String = info("Demo", id: "com.example.demo"), files: [String: String] = [:],
             binaries: [String: String] = [:], appBinary: String = "App") throws -> URL {
        try Self.demoIPA(appInfo: appInfo, files: files, binaries: binaries, appBinary: appBinary, name: "Readiness.ipa")
    }

    /// `Payload/Demo.app` with the given Info.plist, executable fixture, text files and binary
    /// fixtures, written under `name`.
    static func demoIPA(appInfo: String, files: [String: String], binaries: [String: String], appBinary: String,
                        name: String) throws -> URL {
        var z = ZipWriter()
        let prefix = "Payload/Demo.app/"
        z.add(prefix + "Info.plist", appInfo)
        z.add(prefix + "Demo", data: try Data(contentsOf: Self.machO.appendingPathComponent(appBinary)))
        for (path, text) in files.sorted(by: { $0.key < $1.key }) { z.add(prefix + path, text) }
        for (path, fixture) in binaries.sorted(by: { $0.key < $1.key }) {
            z.add(prefix + path, data: try Data(contentsOf: Self.machO.appendingPathComponent(fixture)))
        }
        return try z.write(name: name)
    }

    func scan(_ url: URL) throws -> [Finding] {
        try PreflightScanner.scan(url.path).findings
    }

    func framework(_ name: String, fixture: String, minOS: String = "15.0", short: String = "1.0", build: String = "1")
        -> (files: [String: String], binaries: [String: String]) {
        (["Frameworks/\(name).framework/Info.plist": Self.info(name, id: "com.example.\(name.lowercased())", short: short, build: build, minOS: minOS)],
         ["Frameworks/\(name).framework/\(name)": fixture])
    }

    static let readinessRules: Set<String> = ["invalid_bundle_version", "extension_version_mismatch", "framework_minimum_os",
                                              "binary_minimum_os", "unsupported_architectures", "missing_arm64", "embedded_bitcode",
                                              "uiwebview_reference", "invalid_minimum_os_version", "nested_frameworks", "duplicate_bundle_identifier", "bundle_identifier_prefix"]

    func assertFinds(_ rule: String, _ code: String?, in url: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let found = try scan(url).filter { $0.rule == rule }
        XCTAssertFalse(found.isEmpty, "\(rule) found nothing", file: file, line: line)
        if let code {
            XCTAssertTrue(found.contains { $0.message.contains(code) }, "\(rule): no message names \(code): \(found.map(\.message))", file: file, line: line)
            XCTAssertTrue(RuleRegistryLookup.itms(of: rule).contains(code), "\(rule) does not list \(code) in its metadata", file: file, line: line)
        }
    }

    func testCleanIPAHasNoReadinessFinding() throws {
        let kit = framework("MyKit", fixture: "MyKit.framework/MyKit")
        let url = try ipa(files: kit.files.merging(["PlugIns/Share.appex/Info.plist": Self.info("Share", id: "com.example.demo.share")]) { a, _ in a },
                          binaries: kit.binaries.merging(["PlugIns/Share.appex/Share": "App"]) { a, _ in a })
        let found = try scan(url).filter { Self.readinessRules.contains($0.rule) }
        XCTAssertEqual(found.map(\.message), [])
    }

    func testITMS90087SimulatorSlices() throws {
        let sim = framework("SimKit", fixture: "SimKit.framework/SimKit")
        try assertFinds("unsupported_architectures", "ITMS-90087", in: try ipa(files: sim.files, binaries: sim.binaries))
        let fat = framework("Tool", fixture: "Fat")
        try assertFinds("unsupported_architectures", "ITMS-90087", in: try ipa(files: fat.files, binaries: fat.binaries))
    }

    func testITMS90482Bitcode() throws {
        let bit = framework("BitKit", fixture: "BitKit.framework/BitKit")
        try assertFinds("embedded_bitcode", "ITMS-90482", in: try ipa(files: bit.files, binaries: bit.binaries))
    }

    func testITMS90809UIWebView() throws {
        try assertFinds("uiwebview_reference", "ITMS-90809", in: try ipa(appBinary: "WebView"))
    }

    func testITMS90208FrameworkMinimumOS() throws {
        let kit = framework("MyKit", fixture: "MyKit.framework/MyKit", minOS: "16.0")
        try assertFinds("framework_minimum_os", "ITMS-90208", in: try ipa(files: kit.files, binaries: kit.binaries))
        let lying = framework("MyKit", fixture: "MyKit.framework/MyKit", minOS: "13.0")
        try assertFinds("binary_minimum_os", "ITMS-90208", in: try ipa(appInfo: Self.info("Demo", id: "com.example.demo", minOS: "13.0"),
                                                                       files: lying.files, binaries: lying.binaries))
    }

    func testITMS90060And90056And90057Versions() throws {
        try assertFinds("invalid_bundle_version", "ITMS-90060", in: try ipa(appInfo: Self.info("Demo", id: "com.example.demo", short: "1.2.0-beta1")))
        let noBuild = framework("MyKit", fixture: "MyKit.framework/MyKit", build: " ")
        try assertFinds("invalid_bundle_version", "ITMS-90056", in: try ipa(files: noBuild.files, binaries: noBuild.binaries))
        let plist = Self.info("Demo", id: "com.example.demo").replacingOccurrences(of: "<key>CFBundleShortVersionString</key><string>1.2</string>", with: "")
        try assertFinds("invalid_bundle_version", "ITMS-90057", in: try ipa(appInfo: plist))
    }

    func testExtensionVersionMismatchAndMissingArm64() throws {
        try assertFinds("extension_version_mismatch", nil, in: try ipa(files: ["PlugIns/Share.appex/Info.plist": Self.info("Share", id: "com.example.demo.share", build: "41")],
                                                                      binaries: ["PlugIns/Share.appex/Share": "App"]))
        let old = framework("Old", fixture: "Armv7")
        try assertFinds("missing_arm64", nil, in: try ipa(files: old.files, binaries: old.binaries))
    }

    func testITMS90362And90530MinimumOSValue() throws {
        let old = framework("MyKit", fixture: "MyKit.framework/MyKit", minOS: "6.0")
        try assertFinds("invalid_minimum_os_version", "ITMS-90362", in: try ipa(files: old.files, binaries: old.binaries))
        try assertFinds("invalid_minimum_os_version", "ITMS-90530", in: try ipa(appInfo: Self.info("Demo", id: "com.example.demo", minOS: "")))
    }

    func testITMS90725OldSDK() throws {
        // The App fixture was linked with `-platform_version ios 15.0 17.0`: SDK 17.
        try assertFinds("outdated_sdk", "ITMS-90725", in: try ipa())
    }

    func testITMS90205And90206NestedBundles() throws {
        try assertFinds("nested_frameworks", "ITMS-90206", in: try ipa(
            files: ["PlugIns/Share.appex/Info.plist": Self.info("Share", id: "com.example.demo.share"),
                    "PlugIns/Share.appex/Frameworks/MyKit.framework/Info.plist": Self.info("MyKit", id: "com.example.mykit")],
            binaries: ["PlugIns/Share.appex/Share": "App", "PlugIns/Share.appex/Frameworks/MyKit.framework/MyKit": "MyKit.framework/MyKit"]))
        try assertFinds("nested_frameworks", "ITMS-90205", in: try ipa(
            files: ["PlugIns/Share.appex/Info.plist": Self.info("Share", id: "com.example.demo.share"),
                    "PlugIns/Share.appex/Kit.framework/Info.plist": Self.info("MyKit", id: "com.example.mykit")],
            binaries: ["PlugIns/Share.appex/Share": "App", "PlugIns/Share.appex/Kit.framework/MyKit": "MyKit.framework/MyKit"]))
    }

    func testITMS90685And90806IdentifierCollisions() throws {
        try assertFinds("duplicate_bundle_identifier", "ITMS-90685", in: try ipa(
            files: ["PlugIns/Share.appex/Info.plist": Self.info("Share", id: "com.example.demo.share"),
                    "PlugIns/Today.appex/Info.plist": Self.info("Today", id: "com.example.demo.share")],
            binaries: ["PlugIns/Share.appex/Share": "App", "PlugIns/Today.appex/Today": "App"]))
        let kit = framework("MyKit", fixture: "MyKit.framework/MyKit")
        try assertFinds("duplicate_bundle_identifier", "ITMS-90806", in: try ipa(
            files: kit.files.merging(["Watch/Watch.app/Info.plist": Self.info("Watch", id: "com.example.demo.watchkitapp"),
                                      "Watch/Watch.app/Frameworks/MyKit.framework/Info.plist": Self.info("MyKit", id: "com.example.mykit")]) { a, _ in a },
            binaries: kit.binaries))
    }

    func testITMS90360And90784RequiredKeys() throws {
        let kit = framework("MyKit", fixture: "MyKit.framework/MyKit")
        let noMinimum = kit.files.mapValues { $0.replacingOccurrences(of: "<key>MinimumOSVersion</key><string>15.0</string>", with: "") }
        try assertFinds("missing_required_info_key", "ITMS-90360", in: try ipa(
            appInfo: Self.info("Demo", id: "com.example.demo", extra: "<key>CFBundleName</key><string>Demo</string>"),
            files: noMinimum, binaries: kit.binaries))
        try assertFinds("missing_required_info_key", "ITMS-90784", in: try ipa())
    }

    /// Every ITMS code a rule names is one of the facts' codes (no typo, no invented code).
    func testRuleCodesAreKnown() {
        let known = Set(ITMSCoverage.codes.map(\.code))
        XCTAssertEqual(known.count, 57)
        for rule in RuleRegistry.all {
            for code in rule.description.itms { XCTAssertTrue(known.contains(code), "\(rule.description.identifier): unknown \(code)") }
        }
    }
}

enum RuleRegistryLookup {
    static func itms(of rule: String) -> [String] { RuleRegistry.rule(rule)?.description.itms ?? [] }
}
