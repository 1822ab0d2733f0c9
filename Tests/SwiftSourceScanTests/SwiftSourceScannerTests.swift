import Foundation
import XCTest
import Evidence
import Formats
@testable import SwiftSourceScan

/// Helpers shared by the scanner tests.
class ScannerTestCase: XCTestCase {
    /// The snippets are bodies of files that import what they use: the imports go at the end,
    /// where Swift allows them too, so lines and columns stay the snippet's.
    static let importEverything = "\n" + SwiftAPITable.appleModules.sorted().map { "import \($0)" }.joined(separator: "\n") + "\n"

    func scan(_ source: String, file: StaticString = #filePath, line: UInt = #line) -> [SourceUsage] {
        // Feature APIs (background modes, device capabilities) are the rule examples' business.
        let found = SwiftSourceScanner.scan(source: source + Self.importEverything, path: "Test.swift")
            .filter { !ProtectedResourceCatalog.FeatureAPI.isFeature($0.capability) }
        // Every snippet that holds a use also passes the prefilter: skipping a parse never loses one.
        if !found.isEmpty {
            let facts = SourceFactsScanner(names: SwiftAPIIndex.standard.names).scan(Array(source.utf8))
            XCTAssertTrue(SwiftSourceScanning().mayUse(facts), "the prefilter would skip: \(source)", file: file, line: line)
        }
        // Data-at-rest facts have their own tests (SecurityVisitorTests).
        return found.filter { !ProtectedResourceCatalog.Security.isSecurity($0.capability) }
    }

    /// `capability strength api`, one per usage.
    func summary(_ source: String) -> Set<String> {
        Set(scan(source).map { "\($0.capability) \($0.strength.rawValue) \($0.api)" })
    }

    /// Strongest strength per capability found.
    func strongest(_ source: String) -> [String: EvidenceStrength] {
        var out: [String: EvidenceStrength] = [:]
        for usage in scan(source) { out[usage.capability] = max(out[usage.capability] ?? .indicative, usage.strength) }
        return out
    }
}

final class SwiftSourceScannerTests: ScannerTestCase {
    // MARK: The demo app of the repository

    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testDemoAppUsages() throws {
        let root = Self.repositoryRoot.appendingPathComponent("Examples/DemoApp")
        let files = try XCTUnwrap(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        XCTAssertGreaterThanOrEqual(files.count, 3)
        var byFile: [String: [String]] = [:]
        for file in files {
            let source = try String(contentsOf: file, encoding: .utf8)
            byFile[file.lastPathComponent] = SwiftSourceScanner.scan(source: source, path: file.path).map {
                "\($0.capability) \($0.key) \($0.strength.rawValue) \($0.line):\($0.column) \($0.api) ships=\($0.ships)"
            }
        }
        XCTAssertEqual(byFile["ScannerViewController.swift"], [
            "camera NSCameraUsageDescription definite 7:9 AVCaptureDevice.requestAccess(for: .video) ships=true",
        ])
        XCTAssertEqual(byFile["AppDelegate.swift"], [
            "location.whenInUse NSLocationWhenInUseUsageDescription indicative 6:27 CLLocationManager() ships=true",
            "location.always NSLocationAlwaysAndWhenInUseUsageDescription definite 10:9 CLLocationManager.requestAlwaysAuthorization() ships=true",
            "location.alwaysLegacy NSLocationAlwaysUsageDescription definite 10:9 CLLocationManager.requestAlwaysAuthorization() ships=true",
            "location.whenInUse NSLocationWhenInUseUsageDescription definite 10:9 CLLocationManager.requestAlwaysAuthorization() ships=true",
        ])
        XCTAssertEqual(byFile["ShareViewController.swift"], [
            "photos.read NSPhotoLibraryUsageDescription definite 7:9 PHPhotoLibrary.requestAuthorization(for: .readWrite) ships=true",
        ])
    }

    // MARK: Real references, not text

    func testCommentsAndStringLiteralsNeverCount() {
        let source = """
        // AVCaptureDevice.requestAccess(for: .video)
        /* CLLocationManager().requestAlwaysAuthorization() */
        /// Uses `PHPhotoLibrary.requestAuthorization(for: .readWrite)`.
        let text = "CLLocationManager().requestAlwaysAuthorization()"
        let more = \"\"\"
            AVCaptureDevice.requestAccess(for: .video) { _ in }
            \"\"\"
        let raw = #"CNContactStore().requestAccess(for: .contacts)"#
        """
        XCTAssertEqual(scan(source), [])
    }

    func testCodeInsideStringInterpolationCounts() {
        XCTAssertEqual(summary(#"print("\(CMPedometer.isStepCountingAvailable())")"#), ["motion definite CMPedometer"])
    }

    func testExactLineAndColumn() {
        let source = """
        import AVFoundation

        func start() {
            if true {
                  AVCaptureDevice.requestAccess(for: .audio) { _ in }
            }
            let session = AVAudioSession.sharedInstance()
            session.requestRecordPermission { _ in }
        }
        """
        let found = scan(source).map { "\($0.line):\($0.column) \($0.capability) \($0.api)" }
        XCTAssertEqual(found, [
            "5:11 microphone AVCaptureDevice.requestAccess(for: .audio)",
            "8:5 microphone AVAudioSession.requestRecordPermission()",
        ])
    }

    // MARK: Look-alikes and mocks

    func testLocalTypeNamedLikeAppleClassDoesNotCount() {
        let source = """
        final class CLLocationManager {
            func requestAlwaysAuthorization() {}
        }
        struct AVCaptureDevice {
            static func requestAccess(for type: Int, completion: (Bool) -> Void) {}
        }
        let manager = CLLocationManager()
        manager.requestAlwaysAuthorization()
        let typed: CLLocationManager = manager
        AVCaptureDevice.requestAccess(for: .video) { _ in }
        """
        XCTAssertEqual(scan(source), [])
    }

    func testMockReceiverOfKnownTypeDoesNotCount() {
        let source = """
        protocol LocationAuthorizing { func requestAlwaysAuthorization() }
        final class MockLocationManager: LocationAuthorizing { func requestAlwaysAuthorization() {} }
        let mock = MockLocationManager()
        mock.requestAlwaysAuthorization()
        func use(_ authorizer: LocationAuthorizing) { authorizer.requestAlwaysAuthorization() }
        """
        XCTAssertEqual(scan(source), [])
    }

    func testSubclassOfAppleClassIsAReference() {
        XCTAssertEqual(summary("final class TrackingManager: CLLocationManager {}"),
                       ["location.whenInUse indicative CLLocationManager"])
    }

    func testUnrelatedRequestAccessNeedsKnownReceiverOrSpecificArguments() {
        let source = """
        struct Door { func requestAccess(for person: String) {} }
        let door = Door()
        door.requestAccess(for: "me")
        client.requestAccess(for: user)
        gate.requestAccess(to: room)
        """
        XCTAssertEqual(scan(source), [])
        // The call shape alone (`for: .video`) counts, weakly.
        XCTAssertEqual(summary("device.requestAccess(for: .video) { _ in }"),
                       ["camera indicative device.requestAccess(for: .video) (receiver type unknown; expected AVCaptureDevice)"])
    }

    func testDistinctiveMethodOnUnknownReceiverIsIndicative() {
        XCTAssertEqual(summary("func go() { manager.requestWhenInUseAuthorization() }"),
                       ["location.whenInUse indicative manager.requestWhenInUseAuthorization() (receiver type unknown; expected CLLocationManager)"])
        // Unqualified calls are the enclosing type's own methods.
        XCTAssertEqual(scan("func go() { requestWhenInUseAuthorization() }"), [])
    }

    func testReceiverTypesFromDeclarations() {
        let source = """
        import CoreLocation
        final class Tracker: NSObject {
            private var manager: CLLocationManager!
            lazy var other = CoreLocation.CLLocationManager()
            func start(with given: CLLocationManager?) {
                self.manager.startUpdatingLocation()
                given?.requestLocation()
                other.requestWhenInUseAuthorization()
            }
        }
        """
        let found = Set(scan(source).filter { $0.strength == .definite }.map { "\($0.line) \($0.api)" })
        XCTAssertEqual(found, [
            "6 CLLocationManager.startUpdatingLocation()",
            "7 CLLocationManager.requestLocation()",
            "8 CLLocationManager.requestWhenInUseAuthorization()",
        ])
    }

    func testNestedTypesOfAppleClassesAreNotUses() {
        let source = """
        let position: AVCaptureDevice.Position = .back
        let other = AVCaptureDevice.Position.front
        let status: CLAuthorizationStatus = .notDetermined
        """
        XCTAssertEqual(scan(source), [])
    }

    func testTypeReferenceForms() {
        let source = """
        let a = CLLocationManager()
        let b: CLLocationManager? = nil
        let c = CLLocationManager.self
        let d = [CLLocationManager]()
        let e = CoreLocation.CLLocationManager()
        """
        XCTAssertEqual(scan(source).map { "\($0.line):\($0.column) \($0.api)" }, [
            "1:9 CLLocationManager()", "2:8 CLLocationManager", "3:9 CLLocationManager",
            "4:10 CLLocationManager", "5:9 CLLocationManager()",
        ])
    }

    // MARK: #if

    func testDebugAndSimulatorBranchesDoNotShip() {
        let source = """
        #if DEBUG
        let a = CMPedometer()
        #elseif targetEnvironment(simulator)
        let b = CMPedometer()
        #else
        let c = CMPedometer()
        #endif
        #if targetEnvironment(simulator)
        let d = CMPedometer()
        #endif
        #if false
        let e = CMPedometer()
        #endif
        #if 0
        let f = CMPedometer()
        #endif
        """
        XCTAssertEqual(scan(source).map { "\($0.line) \($0.ships)" },
                       ["2 false", "4 false", "6 true", "9 false", "12 false", "15 false"])
    }

    func testPlatformAndUnknownConditionsMayShip() {
        let source = """
        #if os(iOS)
        let a = CMPedometer()
        #endif
        #if canImport(CoreMotion) && swift(>=5.9)
        let b = CMPedometer()
        #endif
        #if BETA_FEATURES
        let c = CMPedometer()
        #endif
        #if DEBUG || os(iOS)
        let d = CMPedometer()
        #endif
        #if DEBUG && os(iOS)
        let e = CMPedometer()
        #endif
        #if os(iOS)
        #if DEBUG
        let f = CMPedometer()
        #endif
        #endif
        #if targetEnvironment(macCatalyst)
        let g = CMPedometer()
        #endif
        """
        XCTAssertEqual(scan(source).map { "\($0.line) \($0.ships)" },
                       ["2 true", "5 true", "8 true", "11 true", "14 false", "18 false", "22 true"])
    }

    func testElseOfNotDebugDoesNotShip() {
        let source = """
        #if !DEBUG
        let a = CMPedometer()
        #else
        let b = CMPedometer()
        #endif
        #if !(DEBUG)
        #elseif os(iOS)
        let c = CMPedometer()
        #endif
        """
        XCTAssertEqual(scan(source).map { "\($0.line) \($0.ships)" }, ["2 true", "4 false", "8 false"])
    }

    func testIfConfigInsideTypesAndStatements() {
        let source = """
        final class Camera {
            #if DEBUG
            let device = AVCaptureDevice.default(for: .video)
            #endif
            func start() {
                #if targetEnvironment(simulator)
                print("no camera")
                #else
                AVCaptureDevice.requestAccess(for: .video) { _ in }
                #endif
            }
        }
        """
        XCTAssertEqual(scan(source).map { "\($0.line) \($0.capability) \($0.strength.rawValue) \($0.ships)" },
                       ["3 camera indicative false", "9 camera definite true"])
    }

    // MARK: Limits and speed

    func testFileOverTheSizeLimitGivesNothing() {
        var limits = ReaderLimits()
        limits.maxSourceFileBytes = 10
        let source = "let m = CMPedometer()"
        XCTAssertEqual(SwiftSourceScanner.scan(source: source, path: "Big.swift", catalog: .standard, limits: limits), [])
        XCTAssertTrue(SwiftSourceScanner.exceedsLimits(byteCount: source.utf8.count, limits: limits))
        XCTAssertFalse(SwiftSourceScanner.exceedsLimits(byteCount: source.utf8.count))
        XCTAssertEqual(scan(source).count, 1)
        XCTAssertEqual(SwiftSourceScanner.skipReason(source: source, limits: limits),
                       "21 bytes, over the max-source-file-bytes limit of 10")
    }

    func testDeeplyNestedIfConfigIsSkippedWithAReason() {
        // swift-syntax 600 recurses through nested #if lookahead without a limit.
        let deep = String(repeating: "#if DEBUG\n", count: 2_000) + "let p = CMPedometer()\n"
            + String(repeating: "#endif\n", count: 2_000)
        XCTAssertEqual(SwiftSourceScanner.skipReason(source: deep), "#if blocks nested deeper than 32 levels")
        XCTAssertEqual(scan(deep), [])
        XCTAssertEqual(NestingProfile("#if A\n  #if B\n  #endif\n#elseif C\n#endif\n#if D\n#endif").ifConfig, 2)
        XCTAssertEqual(NestingProfile("#iffy\n#if\tX\n#endif").ifConfig, 1)
        XCTAssertEqual(NestingProfile("let a = b(c(d(e)))\n x #if").ifConfig, 0)
    }

    func testDeeplyNestedInterpolationIsSkippedWithAReason() {
        let deep = String(repeating: "\"\\(", count: 2_000) + "CMPedometer()" + String(repeating: ")\"", count: 2_000)
        XCTAssertEqual(SwiftSourceScanner.skipReason(source: deep), "string interpolations nested deeper than 32 levels")
        XCTAssertEqual(scan(deep), [])
        XCTAssertEqual(NestingProfile(#"print("\(a(b("\(c)")))") ; f(((x)))"#).interpolation, 4)
        // An escaped backslash before `(` opens no interpolation.
        XCTAssertEqual(NestingProfile(#"let s = "\\(" ; f(x) ; g(((y)))"#).interpolation, 0)
        XCTAssertEqual(summary(#"print("\("\(CMPedometer())")")"#), ["motion definite CMPedometer()"])
    }

    func testDeepNestingIsBoundedAndDoesNotCrash() {
        // Nesting beyond the parser's limit is skipped as unexpected text (the usages after
        // it are lost), but never overflows the stack.
        for depth in [1_000, 20_000] {
            for (open, close) in [("(", ")"), ("{", "}"), ("[", "]"), ("f { ", "} ")] {
                let source = String(repeating: open, count: depth) + "CMPedometer()" + String(repeating: close, count: depth)
                _ = scan(source)
            }
        }
    }

    func testRealisticNestingParses() {
        // Forty levels: deeper than a SwiftUI body usually goes.
        let depth = 40
        let source = "import SwiftUI\n" + String(repeating: "VStack { ", count: depth) + "let p = CMPedometer()"
            + String(repeating: " }", count: depth) + "\nlet after = CMPedometer()\n"
        XCTAssertEqual(scan(source).map { "\($0.line) \($0.api)" }, ["2 CMPedometer()", "3 CMPedometer()"])
    }

    func testGarbageInputDoesNotCrash() {
        for source in ["#if", "#if DEBUG\n#else\n#else\n", "AVCaptureDevice.requestAccess(for:", "}}}{{{", "\u{0}\u{FFFF}",
                       "x.sourceType = ", "= .camera", "#if !(((DEBUG\nlet a = CMPedometer()\n#endif"] {
            _ = scan(source)
        }
    }

    func testFiveThousandLinesScanQuickly() {
        var lines: [String] = ["import AVFoundation", "import CoreLocation", "final class Big {",
                               "    let manager = CLLocationManager()"]
        var index = 0
        while lines.count < 4_998 {
            lines.append("    func f\(index)(value: Int) -> Int {")
            lines.append("        let doubled = value * 2 // requestAlwaysAuthorization in a comment")
            lines.append("        if doubled > 10 { manager.requestWhenInUseAuthorization() }")
            lines.append("        return [doubled, value].map { $0 + 1 }.reduce(0, +)")
            lines.append("    }")
            index += 1
        }
        lines.append("}")
        let source = lines.joined(separator: "\n")
        let start = Date()
        let found = scan(source)
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertEqual(found.count, 1 + index)
        // Debug builds of swift-syntax are several times slower than release; the release
        // figure is in the report (well under 100 ms). This only catches blow-ups.
        XCTAssertLessThan(elapsed, 20.0, "\(lines.count) lines took \(elapsed) s")
        print("SwiftSourceScanner: \(lines.count) lines in \(Int(elapsed * 1000)) ms")
    }
}

final class LineTableTests: XCTestCase {
    func testLineEndings() {
        let table = LineTable("ab\ncd\r\nef\rgh")
        XCTAssertEqual(table.location(ofUTF8Offset: 0).line, 1)
        XCTAssertEqual(table.location(ofUTF8Offset: 1).column, 2)
        XCTAssertEqual(table.location(ofUTF8Offset: 3).line, 2)
        XCTAssertEqual(table.location(ofUTF8Offset: 7).line, 3)
        let gh = table.location(ofUTF8Offset: 10)
        XCTAssertEqual("\(gh.line):\(gh.column)", "4:1")
    }

    func testColumnsCountUTF8BytesLikeTheCompiler() {
        let found = SwiftSourceScanner.scan(source: "let é = 1; let m = CMPedometer()\nimport CoreMotion", path: "x.swift")
        XCTAssertEqual(found.map { "\($0.line):\($0.column)" }, ["1:21"])
    }
}
