import XCTest
import Evidence
@testable import SwiftSourceScan

/// A name is Apple's API only where the file sees the module that declares it.
final class ModuleVisibilityTests: XCTestCase {
    func apis(_ source: String, exported: Set<String> = []) -> [String] {
        SwiftSourceScanner.scan(source: source, path: "T.swift", catalog: .standard, limits: .default,
                                context: SourceScanContext(exportedModules: exported)).map { "\($0.api) [\($0.basis ?? "-")]" }
    }

    func testTheModuleMustBeImported() {
        XCTAssertEqual(apis("import CoreLocation\nlet m = CLLocationManager()"), ["CLLocationManager() [import CoreLocation]"])
        XCTAssertEqual(apis("import ClockCore\nlet m = CLLocationManager()"), [],
                       "without CoreLocation, CLLocationManager is another module's type")
        XCTAssertEqual(apis("let m = CLLocationManager()"), [])
    }

    func testReexportingImports() {
        XCTAssertEqual(apis("import MapKit\nlet m = CLLocationManager()"), ["CLLocationManager() [import MapKit (re-exports CoreLocation)]"])
        XCTAssertEqual(apis("import PhotosUI\nPHPhotoLibrary.requestAuthorization(for: .readWrite) { _ in }"),
                       ["PHPhotoLibrary.requestAuthorization(for: .readWrite) [import PhotosUI (re-exports Photos)]"])
        XCTAssertEqual(apis("import UIKit\nlet p = UIImagePickerController()\np.sourceType = .camera"),
                       ["UIImagePickerController.sourceType = .camera [import UIKit]"],
                       "a member on a variable whose type the file names is checked through that type")
    }

    func testExportedImportsOfTheTarget() {
        XCTAssertEqual(apis("import UIKit\nlet m = CLLocationManager()", exported: ["CoreLocation"]),
                       ["CLLocationManager() [@_exported import CoreLocation in the target]"])
    }

    func testImportsInsideNonShippingClausesDoNotCount() {
        XCTAssertEqual(apis("#if DEBUG\nimport CoreLocation\n#endif\nlet m = CLLocationManager()"), [])
    }

    func testUnknownReceiversAreNotImportChecked() {
        // Members are visible through any import of the module (Swift before MemberImportVisibility).
        XCTAssertEqual(apis("func f(m: Tracker) { m.manager.requestWhenInUseAuthorization() }").count, 1)
    }

    /// Every type and function name the index matches on has a module in `APIModules`.
    func testEveryCatalogNameHasAModule() {
        let index = SwiftAPIIndex.standard
        let named = Set(index.typeReferences.keys).union(index.initializers.keys).union(index.functions.keys)
            .union(SwiftAPITable.entries.filter { $0.kind != .implicitMember }.flatMap(\.receivers))
        let missing = named.filter { APIModules.module(ofSymbol: $0) == nil }.sorted()
        XCTAssertEqual(missing, [])
    }
}
