import Foundation
import TestSupport
import XCTest

@testable import PreflightKit

/// `preflight scan` on a Swift package folder: targets read statically from Package.swift,
/// each with its sources and privacy manifest, so SDK vendors check what they ship.
final class SwiftPackageInputTests: XCTestCase {
    func package(_ manifest: String, files: [String: String]) throws -> URL {
        let root = try Scratch.folder("swift-package")
        try Data(manifest.utf8).write(to: root.appendingPathComponent("Package.swift"))
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    let manifestDeclaringDefaults = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>NSPrivacyAccessedAPITypes</key><array><dict>
        <key>NSPrivacyAccessedAPIType</key><string>NSPrivacyAccessedAPICategoryUserDefaults</string>
        <key>NSPrivacyAccessedAPITypeReasons</key><array><string>C56D.1</string></array></dict></array></dict></plist>
        """

    func testTargetsFromTheManifestWithTheirPathsExcludesAndManifests() throws {
        let root = try package("""
            // swift-tools-version:5.9
            import PackageDescription

            let package = Package(
                name: "Kit",
                targets: [
                    .target(name: "Kit", resources: [.copy("PrivacyInfo.xcprivacy")]),
                    .target(name: "Clock", path: "Modules/Clock", exclude: ["Debug"]),
                    .testTarget(name: "KitTests", dependencies: ["Kit"]),
                ]
            )
            """, files: [
                "Sources/Kit/Store.swift": "import Foundation\npublic let store = UserDefaults.standard\n",
                "Sources/Kit/PrivacyInfo.xcprivacy": manifestDeclaringDefaults,
                "Modules/Clock/Clock.swift": "import Foundation\npublic func now() -> UInt64 { mach_absolute_time() }\n",
                "Modules/Clock/Debug/Probe.swift": "import Foundation\nlet probe = UserDefaults.standard\n",
                "Tests/KitTests/KitTests.swift": "import Foundation\nlet t = mach_absolute_time()\n",
            ])
        let result = try PreflightScanner.scan(root.path)
        XCTAssertEqual(result.product.kind, .package)
        XCTAssertEqual(result.product.bundles.map { "\($0.name) \($0.kind.rawValue) \($0.sourceFiles.count)" }.sorted(),
                       ["Clock framework 1", "Kit framework 1", "KitTests unit-tests 1"])
        XCTAssertEqual(result.findings.map { "\($0.rule) \($0.bundle ?? "") \($0.key ?? "")" }, [
            "required_reason_api_undeclared Clock NSPrivacyAccessedAPICategorySystemBootTime",
        ], "Kit declares its defaults; Clock's excluded folder and the test target do not count")
    }

    func testTargetsBuiltInCodeFallBackToTheSourcesFolders() throws {
        let root = try package("""
            // swift-tools-version:5.9
            import PackageDescription

            let names = ["Net"]
            let package = Package(name: "Net", targets: names.map { .target(name: $0) })
            """, files: ["Sources/Net/Net.swift": "import Foundation\nlet d = UserDefaults.standard\n"])
        let result = try PreflightScanner.scan(root.path)
        XCTAssertEqual(result.product.bundles.map(\.name), ["Net"])
        XCTAssertEqual(result.findings.map(\.rule), ["required_reason_api_undeclared"])
    }
}
