import XCTest
import Artifacts
import Formats
@testable import Evidence

/// Objective-C sees a framework through header chains: a use counts when some source or header
/// of the input imports the module, and never when the project declares the class itself.
final class SourceEvidenceVisibilityTests: XCTestCase {
    func apis(_ files: [String: String]) throws -> [String] {
        var all = files
        all["App/Info.plist"] = "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>CFBundleIdentifier</key><string>a</string></dict></plist>"
        let source = MemorySource(name: "F", files: all.mapValues { Data($0.utf8) })
        let loaded = try ProductLoader.load(source: source, kind: .folder)
        return SourceEvidence.usages(in: loaded, scanners: [ObjCSourceScanning()]).map { "\($0.api) [\($0.basis ?? "-")]" }
    }

    let use = "#import \"Locator.h\"\n@implementation Locator\n- (void)start { [[CLLocationManager new] requestWhenInUseAuthorization]; }\n@end\n"

    func testAFrameworkImportedThroughAProjectHeaderCounts() throws {
        let found = try apis(["App/Locator.m": use, "App/Locator.h": "#import <CoreLocation/CoreLocation.h>\n@interface Locator : NSObject\n@end\n"])
        XCTAssertTrue(found.contains("CLLocationManager [CoreLocation imported by a header of the project]"), "\(found)")
    }

    func testNoImportOfTheFrameworkAnywhereDoesNotCount() throws {
        XCTAssertEqual(try apis(["App/Locator.m": use, "App/Locator.h": "#import <UIKit/UIKit.h>\n@interface Locator : NSObject\n@end\n"])
            .filter { $0.hasPrefix("CLLocationManager") }, [])
    }

    func testAClassTheProjectDeclaresInAnotherFileIsNotApples() throws {
        let found = try apis(["App/Locator.m": use, "App/Locator.h": "#import <CoreLocation/CoreLocation.h>\n",
                              "App/Fake.h": "@interface CLLocationManager : NSObject\n@end\n", "App/Fake.m": "#import \"Fake.h\"\n"])
        XCTAssertEqual(found.filter { $0.hasPrefix("CLLocationManager") }, [])
    }
}
