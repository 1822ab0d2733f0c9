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
        XCTAssertEqual(f.imports, ["UIKit", "MyKit", "CoreLocation", "Photos", "Intents", "Foundation", "Speech"],
                       "a string is not told apart (harmless: imports only widen what is visible)")
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
}
