import XCTest
import TestSupport
import Formats
@testable import Artifacts

/// Inputs are recognized by content and layout, not by name alone.
final class InputDetectionTests: XCTestCase {
    func makeTree(_ files: [String: String]) throws -> URL {
        let root = try Scratch.folder("detect")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    func testAppFolder() throws {
        let root = try makeTree(["Demo.app/Info.plist": minimalInfoPlist, "Demo.app/Demo": "x",
                                 "Demo.app/PlugIns/Share.appex/Info.plist": minimalInfoPlist])
        let p = try ProductLoader.load(path: root.appendingPathComponent("Demo.app").path).product
        XCTAssertEqual(p.kind, .app)
        XCTAssertEqual(p.bundles.map(\.name).sorted(), ["Demo.app", "Share.appex"])
        XCTAssertEqual(p.bundle(named: "Share.appex").flatMap(p.parent)?.name, "Demo.app")
        XCTAssertEqual(p.bundle(named: "Demo.app")?.infoPlistPath, "Info.plist")
    }

    func testXcarchive() throws {
        let root = try makeTree([
            "My.xcarchive/Info.plist": "<plist><dict><key>ApplicationProperties</key><dict/></dict></plist>",
            "My.xcarchive/Products/Applications/Demo.app/Info.plist": minimalInfoPlist,
            "My.xcarchive/Products/Applications/Demo.app/Demo": "x",
            "My.xcarchive/dSYMs/Demo.app.dSYM/Contents/Info.plist": "<plist><dict/></plist>",
        ])
        let p = try ProductLoader.load(path: root.appendingPathComponent("My.xcarchive").path).product
        XCTAssertEqual(p.kind, .xcarchive)
        XCTAssertEqual(p.bundles.map(\.name), ["Demo.app"])
        XCTAssertEqual(p.bundles.first?.path, "Products/Applications/Demo.app")
    }

    func testExtractedPayloadFolderIsAnApp() throws {
        let root = try makeTree(["Payload/Demo.app/Info.plist": minimalInfoPlist, "Payload/Demo.app/Demo": "x"])
        let p = try ProductLoader.load(path: root.path).product
        XCTAssertEqual(p.bundles.first?.path, "Payload/Demo.app")
    }

    func testPlainFolderDiscoversBundlesFromInfoPlists() throws {
        let root = try makeTree([
            "App/Info.plist": minimalInfoPlist,
            "App/App.entitlements": "<plist><dict><key>aps-environment</key><string>production</string></dict></plist>",
            "App/en.lproj/InfoPlist.strings": "\"a\" = \"b\";",
            "App/PrivacyInfo.xcprivacy": "<plist><dict/></plist>",
            "Share/Info.plist": "<plist><dict><key>NSExtension</key><dict/></dict></plist>",
            "Config/GoogleService-Info.plist": "<plist><dict><key>API_KEY</key><string>x</string></dict></plist>",
            "Pods/Some/Info.plist": minimalInfoPlist,
        ])
        let p = try ProductLoader.load(path: root.path).product
        XCTAssertEqual(p.kind, .folder)
        XCTAssertEqual(p.bundles.map { "\($0.name):\($0.kind.rawValue)" }.sorted(), ["App:app", "Share:app-extension"])
        let app = try XCTUnwrap(p.bundle(named: "App"))
        XCTAssertEqual(app.entitlementsPath, "App/App.entitlements")
        XCTAssertEqual(app.privacyManifestPaths, ["App/PrivacyInfo.xcprivacy"])
        XCTAssertEqual(app.languages, ["en"])
    }

    func testEmptyFolderIsAnError() throws {
        let root = try makeTree(["README.md": "nothing"])
        XCTAssertThrowsError(try ProductLoader.load(path: root.path)) { e in
            XCTAssertEqual("\(e)", "\(root.path): no app bundle, Info.plist or Xcode project found")
        }
    }

    func testSymlinksAreListedNotFollowed() throws {
        let root = try makeTree(["Demo.app/Info.plist": minimalInfoPlist, "Demo.app/Demo": "x"])
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("Demo.app/secret").path, withDestinationPath: "/etc/passwd")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("Demo.app/Frameworks").path, withDestinationPath: "/usr/lib")
        let loaded = try ProductLoader.load(path: root.appendingPathComponent("Demo.app").path)
        XCTAssertEqual(Set(loaded.product.problems.compactMap { if case .symlinkOutsideTree(let t) = $0.kind { return t } else { return nil } }),
                       ["/etc/passwd", "/usr/lib"])
        XCTAssertThrowsError(try loaded.source.read("secret"))
        XCTAssertFalse(loaded.index.entries.contains { $0.path.hasPrefix("Frameworks/") })
    }
}
