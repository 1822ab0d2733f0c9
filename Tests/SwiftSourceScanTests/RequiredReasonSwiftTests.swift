import XCTest

@testable import Evidence
@testable import SwiftSourceScan

/// Swift spellings of the required-reason APIs, and the look-alikes that must stay quiet.
final class RequiredReasonSwiftTests: XCTestCase {
    func categories(_ source: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        let found = SwiftSourceScanner.scan(source: "import Foundation\nimport UIKit\nimport SwiftUI\n" + source, path: "T.swift")
        return found.filter { ProtectedResourceCatalog.RequiredReasonAPI.isRequiredReason($0.capability) }
            .map { "\($0.key.replacingOccurrences(of: "NSPrivacyAccessedAPICategory", with: "")) \($0.strength.rawValue) \($0.api)" }
    }

    func testEachCategoryInSwift() {
        XCTAssertEqual(categories("let d = UserDefaults.standard.bool(forKey: \"k\")"), ["UserDefaults definite UserDefaults"])
        XCTAssertEqual(categories("let g = UserDefaults(suiteName: \"group.example\")"), ["UserDefaults definite UserDefaults(suiteName:)"])
        XCTAssertEqual(categories("struct V: View { @AppStorage(\"k\") var k = 1\n var body: some View { Text(\"\") } }"),
                       ["UserDefaults indicative AppStorage"])
        XCTAssertEqual(categories("let up = ProcessInfo.processInfo.systemUptime"), ["SystemBootTime definite ProcessInfo.systemUptime"])
        XCTAssertEqual(categories("let t = mach_absolute_time()"), ["SystemBootTime definite mach_absolute_time()"])
        XCTAssertEqual(categories("let m = UITextInputMode.activeInputModes"), ["ActiveKeyboards definite UITextInputMode.activeInputModes"])
        XCTAssertEqual(categories("let k = URLResourceKey.creationDateKey"), ["FileTimestamp definite URLResourceKey.creationDateKey"])
        XCTAssertEqual(categories("let v = try url.resourceValues(forKeys: [.contentModificationDateKey])"),
                       ["FileTimestamp definite .contentModificationDateKey"])
        XCTAssertEqual(categories("let a = try FileManager.default.attributesOfItem(atPath: p)\nlet d = a[.creationDate]"),
                       ["FileTimestamp definite .creationDate"])
        XCTAssertEqual(categories("let d = FileAttributeKey.modificationDate"), ["FileTimestamp definite FileAttributeKey.modificationDate"])
        XCTAssertEqual(categories("var s = stat()\nlet r = lstat(path, &s)"), ["FileTimestamp definite lstat(_:_:)"])
        XCTAssertEqual(categories("let v = try url.resourceValues(forKeys: [.volumeAvailableCapacityForImportantUsageKey])"),
                       ["DiskSpace definite .volumeAvailableCapacityForImportantUsageKey"])
        XCTAssertEqual(categories("let a = try FileManager.default.attributesOfFileSystem(forPath: p)\nlet s = a[.systemSize]"),
                       ["DiskSpace definite .systemSize"])
        XCTAssertEqual(categories("var s = statfs()\n_ = statfs(\"/\", &s)"), ["DiskSpace definite statfs(_:_:)"])
    }

    func testLookAlikesAreNotUses() {
        // A model's own dates, the Darwin structs created empty, @SceneStorage, CFPreferences
        // (not on Apple's list), CACurrentMediaTime (not on the list), a date key with no
        // FileAttributeKey API in the file.
        XCTAssertEqual(categories("""
            struct Note { var creationDate: Date; var modificationDate: Date }
            func sort(_ n: [Note]) -> [Note] { n.sorted { $0.creationDate < $1.creationDate } }
            enum SortKey { case creationDate, systemSize }
            let key: SortKey = .creationDate
            let size: SortKey = .systemSize
            var info = stat()
            var fs = statfs()
            struct V: View { @SceneStorage("tab") var tab = 0
                var body: some View { Text("") } }
            let value = CFPreferencesCopyAppValue("k" as CFString, kCFPreferencesCurrentApplication)
            let now = CACurrentMediaTime()
            let text = "UserDefaults.standard and mach_absolute_time() in a string"
            // UserDefaults.standard in a comment
            """), [])
    }

    func testDebugOnlyCodeDoesNotShip() {
        let found = SwiftSourceScanner.scan(source: "import Foundation\n#if DEBUG\nlet t = mach_absolute_time()\n#endif\n", path: "T.swift")
        XCTAssertEqual(found.map(\.ships), [false])
    }

    func testAUserTypeNamedUserDefaultsShadowsFoundations() {
        XCTAssertEqual(categories("final class UserDefaults { static let standard = UserDefaults() }\nlet d = UserDefaults.standard"), [])
    }
}
