import XCTest
@testable import Evidence

/// Keychain attributes and data-at-rest constants the Objective-C scanner reports.
final class ObjCSecurityFactsTests: XCTestCase {
    typealias Security = ProtectedResourceCatalog.Security

    func facts(_ source: String) -> [String] {
        ObjCSourceScanner.scan(source: source, path: "T.m")
            .filter { Security.isSecurity($0.capability) }
            .map { "\($0.capability.dropFirst(Security.capabilityPrefix.count)) \($0.key) \($0.line)" }
    }

    func testPairingsOfKeyAndValue() {
        XCTAssertEqual(facts("""
        NSDictionary *a = @{(__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleAlways};
        query[(__bridge id)kSecAttrAccessible] = (__bridge id)kSecAttrAccessibleAfterFirstUnlock;
        [dict setObject:(__bridge id)kSecAttrAccessibleAlwaysThisDeviceOnly forKey:(__bridge id)kSecAttrAccessible];
        CFDictionaryAddValue(d, kSecAttrAccessGroup, CFSTR("x"));
        [dict setObject:@"ABCDE12345.group" forKey:(__bridge id)kSecAttrAccessGroup];
        SecAccessControlRef ac = SecAccessControlCreateWithFlags(kCFAllocatorDefault, kSecAttrAccessibleWhenUnlocked, 0, NULL);
        """), [
            "keychain.accessible kSecAttrAccessibleAlways 1",
            "keychain.accessible_reference kSecAttrAccessibleAlways 1",
            "keychain.accessible kSecAttrAccessibleAfterFirstUnlock 2",
            "keychain.accessible kSecAttrAccessibleAlwaysThisDeviceOnly 3",
            "keychain.accessible_reference kSecAttrAccessibleAlwaysThisDeviceOnly 3",
            "keychain.access_group ABCDE12345.group 5",
            "keychain.user_presence kSecUseAuthenticationContext 6",
            "keychain.accessible kSecAttrAccessibleWhenUnlocked 6",
        ])
    }

    func testSwitchTableAndCommentsAreNoItem() {
        XCTAssertEqual(facts("""
        // kSecAttrAccessible: kSecAttrAccessibleAlways
        CFTypeRef Map(int o) { switch (o) { case 0: return kSecAttrAccessibleAlways; default: return kSecAttrAccessibleWhenUnlocked; } }
        """), ["keychain.accessible_reference kSecAttrAccessibleAlways 2"])
    }

    func testFileProtectionAndKeyValueStore() {
        XCTAssertEqual(facts("""
        [data writeToFile:p options:NSDataWritingFileProtectionNone error:NULL];
        NSDictionary *o = @{NSFileProtectionKey: NSFileProtectionComplete};
        [[NSUbiquitousKeyValueStore defaultStore] synchronize];
        """), ["file_protection none 1", "file_protection complete 2", "kvstore NSUbiquitousKeyValueStore 3"])
    }
}
