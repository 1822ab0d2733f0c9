import XCTest
@testable import Artifacts
import Formats

/// Bundle kinds guessed from an Info.plist when no project says them.
final class FolderKindTests: XCTestCase {
    func kind(_ path: String, _ body: String) throws -> BundleKind {
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(body)\n</dict>\n</plist>\n"
        let root = try PropertyListReader.read(Data(xml.utf8)).root
        return FolderLoader.kind(infoPlistPath: path, root: root)
    }

    func testUnresolvedPackageTypeWithoutAppKeysIsAFramework() throws {
        // Xcode's framework template (kDriveCore, MailCore): only CFBundle keys.
        XCTAssertEqual(try kind("Core/Info.plist", "<key>CFBundleExecutable</key><string>$(EXECUTABLE_NAME)</string><key>CFBundlePackageType</key><string>$(PRODUCT_BUNDLE_PACKAGE_TYPE)</string>"), .framework)
        XCTAssertEqual(try kind("App/Info.plist", "<key>CFBundlePackageType</key><string>$(PRODUCT_BUNDLE_PACKAGE_TYPE)</string><key>UILaunchStoryboardName</key><string>Launch</string>"), .app)
        XCTAssertEqual(try kind("App/Info.plist", "<key>CFBundlePackageType</key><string>$(PRODUCT_BUNDLE_PACKAGE_TYPE)</string><key>NSCameraUsageDescription</key><string>Scan.</string>"), .app)
        XCTAssertEqual(try kind("App/Info.plist", "<key>CFBundleIdentifier</key><string>com.example</string>"), .app,
                       "no package type at all: an app, as before")
    }
}
