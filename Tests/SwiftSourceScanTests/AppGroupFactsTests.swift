import XCTest
import Evidence
@testable import SwiftSourceScan

/// App groups named in `UserDefaults(suiteName:)` and `containerURL(forSecurityApplicationGroupIdentifier:)`:
/// literals and `let` constants of the same file only, `group.` names only.
final class AppGroupFactsTests: XCTestCase {
    func groups(_ source: String) -> [String] {
        SwiftSourceScanner.scan(source: source, path: "T.swift")
            .filter { $0.capability == ProtectedResourceCatalog.Security.appGroup }
            .map { "\($0.key) \($0.line)" + ($0.ships ? "" : " debug") }
    }

    func testLiteralsAndFileConstants() {
        XCTAssertEqual(groups("""
        import Foundation
        enum Shared {
            static let group: String = "group.com.example.app"
            static let defaults = UserDefaults(suiteName: Shared.group)
        }
        let a = UserDefaults.init(suiteName: "group.com.example.a")
        let url = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: Shared.group)
        #if DEBUG
        let d = UserDefaults(suiteName: "group.com.example.debug")
        #endif
        """), ["group.com.example.app 4", "group.com.example.a 6", "group.com.example.app 7", "group.com.example.debug 9 debug"])
    }

    func testWhatSaysNothing() {
        XCTAssertEqual(groups("""
        import Foundation
        let prefix = "group."
        var mutable = "group.com.example.mutable"
        let twice = "group.com.example.one"
        func f(twice: String) -> UserDefaults? { UserDefaults(suiteName: twice) }
        let built = UserDefaults(suiteName: "group.\\(Bundle.main.bundleIdentifier!)")
        let m = UserDefaults(suiteName: mutable)
        let p = UserDefaults(suiteName: prefix)
        let privateDomain = UserDefaults(suiteName: "com.example.settings")
        let other = Other(suiteName: "group.com.example.other")
        let elsewhere = UserDefaults(suiteName: Constants.appGroup)
        """), [])
    }
}
