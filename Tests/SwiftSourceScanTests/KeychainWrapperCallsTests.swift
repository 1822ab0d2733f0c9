import XCTest
import Evidence
@testable import SwiftSourceScan

/// Keychain options given through a wrapper's public API (`KeychainWrapperCalls`).
final class KeychainWrapperCallsTests: XCTestCase {
    typealias Security = ProtectedResourceCatalog.Security

    func facts(_ source: String) -> [String] {
        SwiftSourceScanner.scan(source: source, path: "T.swift")
            .filter { Security.isSecurity($0.capability) && $0.capability != Security.keychainAccessibleReference }
            .map { "\($0.capability.dropFirst(Security.capabilityPrefix.count)) \($0.key) \($0.line)" + ($0.ships ? "" : " debug") }
    }

    func testKeychainAccessChain() {
        XCTAssertEqual(facts("""
        import KeychainAccess
        let tokens = Keychain(service: "com.example")
            .synchronizable(true)
            .accessibility(.afterFirstUnlockThisDeviceOnly)
        let old = Keychain(service: "s", accessGroup: "ABCDE12345.shared").accessibility(.always)
        let bio = Keychain().accessibility(Accessibility.whenPasscodeSetThisDeviceOnly, authenticationPolicy: .userPresence)
        #if DEBUG
        let debug = Keychain().accessibility(.alwaysThisDeviceOnly)
        #endif
        """), [
            "keychain.synchronizable_this_device_only kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly 3",
            "keychain.accessible kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly 4",
            "keychain.access_group ABCDE12345.shared 5",
            "keychain.accessible kSecAttrAccessibleAlways 5",
            "keychain.accessible kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly 6",
            "keychain.user_presence Keychain.accessibility(_:authenticationPolicy:) 6",
            "keychain.accessible kSecAttrAccessibleAlwaysThisDeviceOnly 8 debug",
        ])
    }

    func testKeychainAccessQualifiedAndOlderSpellings() {
        XCTAssertEqual(facts("""
        import KeychainAccess
        var keychain: KeychainAccess.Keychain { KeychainAccess.Keychain(service: "s").accessibility(.always) }
        let old = Keychain().accessibility(.Always)
        let web = Keychain(server: url, protocolType: .https).accessibility(.alwaysThisDeviceOnly).synchronizable(true)
        """), [
            "keychain.accessible kSecAttrAccessibleAlways 2",
            "keychain.accessible kSecAttrAccessibleAlways 3",
            "keychain.accessible kSecAttrAccessibleAlwaysThisDeviceOnly 4",
            "keychain.synchronizable_this_device_only kSecAttrAccessibleAlwaysThisDeviceOnly 4",
        ], "KeychainAccess 2 spelled the cases with a capital")
    }

    func testKeychainAccessNeedsItsImportAndItsType() {
        XCTAssertEqual(facts("""
        import SwiftUI
        let a = Keychain(service: "s").accessibility(.always)
        """), [], "no import KeychainAccess: another Keychain")
        XCTAssertEqual(facts("""
        import KeychainAccess
        import SwiftUI
        struct Row: View {
            var body: some View { Text("x").accessibility(hidden: true) }
        }
        let schedule = Scheduler().accessibility(.always)
        let local = Keychain(service: "s").synchronizable(false).accessibility(.whenUnlockedThisDeviceOnly)
        """), ["keychain.accessible kSecAttrAccessibleWhenUnlockedThisDeviceOnly 7"], "an unrelated .always; synchronizable(false)")
    }

    func testValetKeychainSwiftWrapperSAMKeychainSimpleKeychain() {
        XCTAssertEqual(facts("""
        import Valet
        import KeychainSwift
        import SwiftKeychainWrapper
        let valet = Valet.valet(with: Identifier(nonEmpty: "Druidia")!, accessibility: .always)
        let cloud = Valet.iCloudValet(with: Identifier(nonEmpty: "Druidia")!, accessibility: CloudAccessibility.afterFirstUnlock)
        let enclave = SecureEnclaveValet.valet(with: Identifier(nonEmpty: "Druidia")!, accessControl: .userPresence)
        let keychain = KeychainSwift()
        func save(_ token: String) {
            keychain.set(token, forKey: "token", withAccess: .accessibleAlwaysThisDeviceOnly)
            KeychainWrapper.standard.set(token, forKey: "t", withAccessibility: .afterFirstUnlockThisDeviceOnly, isSynchronizable: true)
            SAMKeychain.setAccessibilityType(kSecAttrAccessibleAlways)
        }
        let wrapper = KeychainWrapper(serviceName: "s", accessGroup: "group.example")
        let simple = SimpleKeychain(service: "s", accessibility: .whenUnlockedThisDeviceOnly, synchronizable: true)
        """), [
            "keychain.accessible kSecAttrAccessibleAlways 4",
            "keychain.accessible kSecAttrAccessibleAfterFirstUnlock 5",
            "keychain.user_presence SecureEnclaveValet 6",
            "keychain.accessible kSecAttrAccessibleAlwaysThisDeviceOnly 9",
            "keychain.accessible kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly 10",
            "keychain.synchronizable_this_device_only kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly 10",
            "keychain.accessible kSecAttrAccessibleAlways 11",
            "keychain.access_group group.example 13",
            "keychain.accessible kSecAttrAccessibleWhenUnlockedThisDeviceOnly 14",
            "keychain.synchronizable_this_device_only kSecAttrAccessibleWhenUnlockedThisDeviceOnly 14",
        ])
    }

    func testOtherReceiversAndTheWrappersOwnSourceSayNothing() {
        XCTAssertEqual(facts("""
        let cache = MyCache()
        cache.set(value, forKey: "k", withAccess: .accessibleAlways)
        store.set(value, forKey: "k", withAccessibility: .always)
        KeychainWrapper.standard.string(forKey: "k", withAccessibility: .always)
        """), [], "an unknown receiver; a read is no item")
        XCTAssertEqual(facts("""
        open class KeychainWrapper {
            public static let standard = KeychainWrapper()
            func migrate() { KeychainWrapper.standard.set(1, forKey: "k", withAccessibility: .always) }
        }
        """), [], "the wrapper's own source")
    }
}
