import XCTest
@testable import Evidence

final class SourceFactsTests: XCTestCase {
    let scanner = SourceFactsScanner(names: ["CLLocationManager", "LocationManager", "requestAccess", "PHPhotoLibrary", "LAContext"])

    func facts(_ text: String) -> SourceFacts { scanner.scan(Array(text.utf8)) }

    func testSwiftImports() {
        let f = facts("""
        import UIKit
        @testable import MyKit
        @_exported import CoreLocation
        import class Photos.PHPhotoLibrary
        import protocol Intents.INIntentHandling
        import struct Foundation.URL // import Contacts
        /* import EventKit */
        let s = "import Speech"
        """)
        XCTAssertEqual(f.imports, ["UIKit", "MyKit", "CoreLocation", "Photos", "Intents", "Foundation"])
        XCTAssertEqual(f.exportedImports, ["CoreLocation"])
        XCTAssertEqual(f.mentioned, ["PHPhotoLibrary"])
    }

    func testObjCImports() {
        let f = facts("""
        #import <AVFoundation/AVFoundation.h>
        #include <Contacts/CNContactStore.h>
        #import "LocalHeader.h"
        @import Photos;
        # import <CoreLocation/CoreLocation.h>
        @interface CLLocationManager : NSObject
        @end
        """)
        XCTAssertEqual(f.imports, ["AVFoundation", "Contacts", "Photos", "CoreLocation"])
        XCTAssertEqual(f.declared, ["CLLocationManager"])
    }

    func testSwiftDeclarations() {
        let f = facts("""
        final class LocationManager: NSObject {
            private let manager = CLLocationManager()
            func requestAccess() {}
        }
        // class LAContext {}
        let context = LAContext()
        protocol PHPhotoLibrary {}
        """)
        XCTAssertEqual(f.declared, ["LocationManager", "requestAccess", "PHPhotoLibrary"])
        XCTAssertEqual(f.mentioned, ["LocationManager", "CLLocationManager", "requestAccess", "LAContext", "PHPhotoLibrary"])
    }

    func testNamesInsideLongerIdentifiersDoNotCount() {
        XCTAssertEqual(facts("let x = MyCLLocationManagerFactory(); let y = LAContextual()").mentioned, [])
    }

    func testDeclaredAndBoundNamesAreNotReferences() {
        let f = facts("""
        enum L10n { static var requestAccess: String { "" } }
        class LAContext {}
        let CLLocationManager = 1
        """)
        XCTAssertEqual(f.mentioned, ["requestAccess", "LAContext", "CLLocationManager"])
        XCTAssertEqual(f.declared, ["LAContext"])
        XCTAssertEqual(f.referenced, [])
        XCTAssertEqual(facts("store.requestAccess(to: .event) { _, _ in }; var m = CLLocationManager()").referenced,
                       ["requestAccess", "CLLocationManager"])
    }

    func testReservedWordCountsOnlyAsMember() {
        let scanner = SourceFactsScanner(names: ["default", "video"])
        let keyword = scanner.scan(Array("switch x { case 1: break\ndefault: break }".utf8))
        XCTAssertEqual(keyword.referenced, [])
        let member = scanner.scan(Array("let d = AVCaptureDevice.default(for: .video)".utf8))
        XCTAssertEqual(member.referenced, ["default", "video"])
    }

    func testSwiftStringTextIsSkippedButInterpolationsAreCode() {
        let f = facts(##"""
        let a = "PHPhotoLibrary \(LAContext()) \"CLLocationManager\" \(f("requestAccess"))"
        let b = """
            LocationManager "quoted" \(CLLocationManager.self)
            """
        let c = #"raw \(PHPhotoLibrary) \#(requestAccess) "# + #"""
            ""\"" LAContext
            """#
        """##)
        XCTAssertEqual(f.referenced, ["LAContext", "CLLocationManager", "requestAccess"])
    }

    func testUnterminatedSwiftStringEndsAtTheLine() {
        XCTAssertEqual(facts("let s = \"open\nlet m = CLLocationManager()").referenced, ["CLLocationManager"])
    }

    func testCFamilyStringsAndCharactersAreSkipped() {
        let f = scanner.scan(Array(##"""
        NSString *s = @"CLLocationManager \" LAContext"; char q = '"'; char e = '\'';
        [PHPhotoLibrary requestAuthorization:nil];
        """##.utf8), language: .cFamily)
        XCTAssertEqual(f.referenced, ["PHPhotoLibrary"])
    }
}
