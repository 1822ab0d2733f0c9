import XCTest
import Foundation
import TestSupport
import PreflightKit

/// Built `.ipa` files for the built-app gaps of issue 23, made from the committed fixtures
/// (`Tests/Fixtures/MachO/signing`, `Tests/Fixtures/Interface`) and scanned end to end.
final class BuiltAppGapsIPATests: XCTestCase {
    static let fixtures = CLITests.packageRoot.appendingPathComponent("Tests/Fixtures")

    func fixture(_ path: String) throws -> Data { try Data(contentsOf: Self.fixtures.appendingPathComponent(path)) }

    /// `Demo.app` signed by the Sealed fixture: its Info.plist, CodeResources and greeting.txt as sealed.
    func sealedApp(prefix: String = "Payload/Demo.app/", change: (inout ZipWriter, String) throws -> Void = { _, _ in }) throws -> URL {
        var z = ZipWriter()
        z.add(prefix + "Info.plist", data: try fixture("MachO/signing/Sealed-Info.plist"))
        z.add(prefix + "Demo", data: try fixture("MachO/signing/Sealed"))
        z.add(prefix + "_CodeSignature/CodeResources", data: try fixture("MachO/signing/Sealed-CodeResources"))
        z.add(prefix + "greeting.txt", data: try fixture("MachO/signing/Sealed-greeting.txt"))
        try change(&z, prefix)
        return try z.write(name: "Sealed.ipa")
    }

    func findings(_ url: URL, _ rule: String) throws -> [Finding] {
        try PreflightScanner.scan(url.path).findings.filter { $0.rule == rule }
    }

    func testSealAsSignedIsClean() throws {
        XCTAssertEqual(try findings(try sealedApp(), "code_signature_seal_broken").map(\.message), [])
    }

    func testITMS90035FileAddedAfterSigning() throws {
        let url = try sealedApp { z, p in z.add(p + "config.json", "{}") }
        let found = try findings(url, "code_signature_seal_broken")
        XCTAssertEqual(found.count, 1, "\(found.map(\.message))")
        XCTAssertEqual(found.first?.file, "Payload/Demo.app/config.json")
        XCTAssertTrue(found.first?.message.contains("ITMS-90035") == true)
    }

    func testITMS90035InfoPlistEditedAfterSigning() throws {
        var z = ZipWriter()
        let p = "Payload/Demo.app/"
        let info = String(decoding: try fixture("MachO/signing/Sealed-Info.plist"), as: UTF8.self)
            .replacingOccurrences(of: "</dict>", with: "\t<key>CFBundleVersion</key>\n\t<string>43</string>\n</dict>")
        z.add(p + "Info.plist", info)
        z.add(p + "Demo", data: try fixture("MachO/signing/Sealed"))
        z.add(p + "_CodeSignature/CodeResources", data: try fixture("MachO/signing/Sealed-CodeResources"))
        z.add(p + "greeting.txt", "hello again\n")
        let found = try findings(try z.write(name: "Edited.ipa"), "code_signature_seal_broken")
        XCTAssertEqual(Set(found.compactMap(\.file)), ["Payload/Demo.app/Info.plist", "Payload/Demo.app/greeting.txt"], "\(found.map(\.message))")
    }

    func testPayloadOneFolderDownIsReadAndSaid() throws {
        let url = try sealedApp(prefix: "build/Payload/Demo.app/")
        let report = try PreflightScanner.scan(url.path)
        XCTAssertEqual(report.findings.filter { $0.rule == "ipa_payload_not_at_root" }.map(\.file), ["build/Payload"])
        XCTAssertEqual(report.findings.filter { $0.rule == "code_signature_seal_broken" }.map(\.message), [], "the app is read whole")
    }

    func testUIWebViewInCompiledStoryboard() throws {
        let url = try sealedApp { z, p in
            z.add(p + "Base.lproj/Main.storyboardc/Browser.nib", data: try fixture("Interface/UIWebView-NIBArchive.nib"))
            z.add(p + "Legacy.nib", data: try fixture("Interface/WKWebView-keyed.nib"))
        }
        let found = try findings(url, "uiwebview_reference")
        XCTAssertEqual(found.map(\.file), ["Payload/Demo.app/Base.lproj/Main.storyboardc/Browser.nib"])
    }

    /// A pre-asset-catalog app: CFBundleIconFiles names Icon-60 but only Icon.png ships; its
    /// launch images are found by file name.
    func testLegacyIconFilesAndLaunchImages() throws {
        var z = ZipWriter()
        let p = "Payload/Old.app/"
        z.add(p + "Info.plist", ReadinessIPATests.info("Old", id: "com.example.old", minOS: "9.0", extra: """
          <key>UIDeviceFamily</key><array><integer>1</integer></array>
          <key>DTSDKName</key><string>iphoneos9.3</string>
          <key>CFBundleIcons</key><dict><key>CFBundlePrimaryIcon</key><dict><key>CFBundleIconFiles</key><array><string>Icon</string><string>Icon-60</string></array></dict></dict>
          """))
        z.add(p + "Old", data: try fixture("MachO/App"))
        for name in ["Icon.png", "Icon@2x.png", "Default.png", "Default-568h@2x.png"] { z.add(p + name, "png") }
        let report = try PreflightScanner.scan(try z.write(name: "Old.ipa").path)
        let icons = report.findings.filter { $0.rule == "app_icon_files_missing" }
        XCTAssertEqual(icons.map(\.message).count, 1, "\(icons.map(\.message))")
        XCTAssertTrue(icons.first?.message.contains("icon file \"Icon-60\"") == true, icons.first?.message ?? "")
        XCTAssertTrue(icons.first?.message.contains("ITMS-90032") == true)
        XCTAssertEqual(report.findings.filter { $0.rule == "missing_launch_screen" }.map(\.message), [])
    }

    func testFrameworksFolderInExtensionAndFrameworkWithoutInfoPlist() throws {
        var z = ZipWriter()
        let p = "Payload/Demo.app/"
        z.add(p + "Info.plist", ReadinessIPATests.info("Demo", id: "com.example.demo"))
        z.add(p + "Demo", data: try fixture("MachO/App"))
        z.add(p + "PlugIns/Share.appex/Info.plist", ReadinessIPATests.info("Share", id: "com.example.demo.share"))
        z.add(p + "PlugIns/Share.appex/Share", data: try fixture("MachO/App"))
        z.add(p + "PlugIns/Share.appex/Frameworks/README.txt", "left by a copy phase")
        z.add(p + "Frameworks/MyKit.framework/MyKit", data: try fixture("MachO/MyKit.framework/MyKit"))
        let url = try z.write(name: "Nested.ipa")
        let report = try PreflightScanner.scan(url.path)
        XCTAssertEqual(report.findings.filter { $0.rule == "nested_frameworks" }.map(\.file), ["Payload/Demo.app/PlugIns/Share.appex/Frameworks"])
        let missing = report.findings.filter { $0.rule == "missing_info_plist" }
        XCTAssertEqual(missing.map(\.file), ["Payload/Demo.app/Frameworks/MyKit.framework"])
        XCTAssertTrue(missing.first?.message.contains("App Store Connect rejects a framework") == true)
        let loaded = try PreflightScanner.load(url.path)
        let kit = loaded.product.bundles.first { $0.name == "MyKit.framework" }
        XCTAssertEqual(kit?.binaries.map(\.path), ["Payload/Demo.app/Frameworks/MyKit.framework/MyKit"], "the framework's binary is still read")
        XCTAssertNotNil(kit?.binaries.first?.macho)
    }

    /// `inspect`, `diff` and `privacy report` write a JSON error document for an unreadable input.
    func testJSONCommandsWriteAnErrorDocument() throws {
        let dir = try Scratch.folder("json-errors")
        try Data("not a zip".utf8).write(to: dir.appendingPathComponent("Broken.ipa"))
        let good = try sealedApp()
        for args in [["inspect", "Broken.ipa", "--format", "json"], ["privacy", "report", "Broken.ipa", "--format", "json"],
                     ["diff", good.path, "Broken.ipa", "--format", "json"]] {
            let r = try CLITests.run(args, cwd: dir)
            XCTAssertEqual(r.status, 1, "\(args)")
            let document = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
            XCTAssertEqual((document?["errors"] as? [String])?.count, 1, "\(args): \(r.stdout)")
            XCTAssertEqual(document?["schemaVersion"] as? Int, 1)
            XCTAssertTrue(r.stderr.contains("Broken.ipa"), r.stderr)
        }
    }

    /// The diff gate pairs the apps by role when the bundle identifier changed.
    func testDiffGatePairsRenamedApps() throws {
        func version(_ id: String, _ extra: String) throws -> URL {
            var z = ZipWriter()
            z.add("Payload/Trails.app/Info.plist", ReadinessIPATests.info("Trails", id: id, extra: extra))
            z.add("Payload/Trails.app/Trails", data: try fixture("MachO/App"))
            z.add("Payload/Trails.app/PlugIns/Share.appex/Info.plist", ReadinessIPATests.info("Share", id: id + ".share", extra:
                "<key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string></dict>"))
            z.add("Payload/Trails.app/PlugIns/Share.appex/Share", data: try fixture("MachO/App"))
            return try z.write(name: id + ".ipa")
        }
        let camera = "<key>NSCameraUsageDescription</key><string>Scan trail markers.</string>"
        let old = try version("com.example.trails", camera)
        let same = try version("com.example.hiking", camera)
        let more = try version("com.example.walks", camera + "<key>NSMicrophoneUsageDescription</key><string>Record voice notes on the trail.</string>")
        let renamed = try CLITests.run(["diff", old.path, same.path, "--fail-on-new-permission"])
        XCTAssertEqual(renamed.status, 0, renamed.stdout + renamed.stderr)
        XCTAssertTrue(renamed.stdout.contains("~ bundle [Trails.app] CFBundleIdentifier: com.example.trails → com.example.hiking"), renamed.stdout)
        XCTAssertTrue(renamed.stdout.contains("CFBundleIdentifier: com.example.trails.share → com.example.hiking.share"), renamed.stdout)
        let gained = try CLITests.run(["diff", old.path, more.path, "--fail-on-new-permission"])
        XCTAssertEqual(gained.status, 2, gained.stdout)
        XCTAssertTrue(gained.stdout.contains("+ permission [Trails.app] NSMicrophoneUsageDescription"), gained.stdout)
    }
}
