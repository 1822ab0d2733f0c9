import XCTest
import Formats
@testable import Rules

/// Key paths of duplicate_plist_key beyond its examples: keys in dictionaries inside arrays.
final class DuplicatePlistKeyTests: XCTestCase {
    func testADuplicateInsideAnArrayIsNamedByItsIndex() {
        func string(_ s: String) -> PlistNode { PlistNode(.string(s)) }
        let urlType = PlistNode(.dictionary(PlistDictionary([
            PlistEntry(key: "CFBundleURLName", value: string("com.example.app")),
            PlistEntry(key: "CFBundleURLName", value: string("com.example.app.oauth")),
        ])))
        let root = PlistNode(.dictionary(PlistDictionary([
            PlistEntry(key: "CFBundleURLTypes", value: PlistNode(.array([PlistNode(.dictionary(PlistDictionary())), urlType]))),
            PlistEntry(key: "CFBundleName", value: string("App")),
            PlistEntry(key: "CFBundleName", value: string("App")),
        ])))
        let found = DuplicatePlistKeyRule.duplicates(in: root)
        XCTAssertEqual(found.map(\.keyPath), ["CFBundleName", "CFBundleURLTypes[1].CFBundleURLName"])
        XCTAssertEqual(found.last?.last?.value.string, "com.example.app.oauth", "the entry iOS keeps is the last one")
    }
}
