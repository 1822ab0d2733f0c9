import Foundation
import TestSupport
import XCTest

@testable import PreflightKit

/// `preflight scan Kit.xcframework`: each library slice is a framework of its own, with its
/// manifest and binary, so SDK vendors check what they ship.
final class XCFrameworkInputTests: XCTestCase {
    let binary = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/MachO/RequiredReasons/defaults")

    func plist(_ body: String) -> Data {
        Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(body)\n</dict>\n</plist>\n".utf8)
    }

    func xcframework(named name: String = "Kit") throws -> URL {
        let root = try Scratch.folder("xcframework").appendingPathComponent("\(name).xcframework")
        let fm = FileManager.default
        try fm.createDirectory(at: root, withIntermediateDirectories: true)
        try plist("<key>CFBundlePackageType</key><string>XFWK</string><key>XCFrameworkFormatVersion</key><string>1.0</string>")
            .write(to: root.appendingPathComponent("Info.plist"))
        for slice in ["ios-arm64", "ios-arm64_x86_64-simulator"] {
            let dir = root.appendingPathComponent("\(slice)/Kit.framework")
            try fm.createDirectory(at: dir, withIntermediateDirectories: true)
            try plist("<key>CFBundleExecutable</key><string>Kit</string><key>CFBundleIdentifier</key><string>com.example.kit</string>")
                .write(to: dir.appendingPathComponent("Info.plist"))
            try Data(contentsOf: binary).write(to: dir.appendingPathComponent("Kit"))
        }
        // Only the device slice carries the manifest.
        try plist("<key>NSPrivacyAccessedAPITypes</key><array><dict><key>NSPrivacyAccessedAPIType</key><string>NSPrivacyAccessedAPICategoryUserDefaults</string><key>NSPrivacyAccessedAPITypeReasons</key><array><string>C56D.1</string></array></dict></array>")
            .write(to: root.appendingPathComponent("ios-arm64/Kit.framework/PrivacyInfo.xcprivacy"))
        return root
    }

    func testEachSliceIsAFrameworkJudgedOnItsOwn() throws {
        let result = try PreflightScanner.scan(try xcframework().path)
        XCTAssertEqual(result.product.kind, .xcframework)
        XCTAssertEqual(result.product.bundles.map(\.name).sorted(), ["Kit.framework (ios-arm64)", "Kit.framework (ios-arm64_x86_64-simulator)"])
        XCTAssertTrue(result.product.bundles.allSatisfy { $0.kind == .framework && !$0.binaries.isEmpty })
        XCTAssertEqual(result.findings.map { "\($0.rule) \($0.bundle ?? "")" }, [
            "required_reason_api_undeclared Kit.framework (ios-arm64_x86_64-simulator)",
        ], "the root Info.plist is the container's, not an app's; the slice without a manifest is reported, the other is not")
    }

    /// A vendor's build of an SDK on Apple's list: the input itself is the SDK, so its missing
    /// signature and manifest are what App Store Connect will reject in apps that add it.
    func testAListedSDKsXCFrameworkNeedsItsSignatureAndManifest() throws {
        let root = try xcframework(named: "Alamofire")
        try FileManager.default.removeItem(at: root.appendingPathComponent("ios-arm64/Kit.framework/PrivacyInfo.xcprivacy"))
        var rules = try PreflightScanner.scan(root.path).findings.map(\.rule)
        XCTAssertTrue(rules.contains("listed_sdk_without_signature"), "\(rules)")
        XCTAssertTrue(rules.contains("listed_sdk_without_manifest"), "\(rules)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("_CodeSignature"), withIntermediateDirectories: true)
        try Data("sig".utf8).write(to: root.appendingPathComponent("_CodeSignature/CodeSignature"))
        rules = try PreflightScanner.scan(root.path).findings.map(\.rule)
        XCTAssertFalse(rules.contains("listed_sdk_without_signature"), "\(rules)")
    }
}
