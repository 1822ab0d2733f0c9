import XCTest
import Evidence
@testable import SwiftSourceScan

/// The data-at-rest facts the Swift scanner resolves (`ProtectedResourceCatalog.Security`).
final class SecurityVisitorTests: XCTestCase {
    typealias Security = ProtectedResourceCatalog.Security

    func facts(_ source: String) -> [String] {
        SwiftSourceScanner.scan(source: source, path: "T.swift")
            .filter { Security.isSecurity($0.capability) }
            .map { "\($0.capability.dropFirst(Security.capabilityPrefix.count)) \($0.key) \($0.line)" + ($0.ships ? "" : " debug") }
    }

    func testKeychainDictionaryLiteralResolvesTheClassThroughCasts() {
        XCTAssertEqual(facts("""
        import Security
        let q: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                String(kSecAttrAccessible): kSecAttrAccessibleAlways as String,
                                kSecAttrSynchronizable as String: kCFBooleanTrue!]
        """), ["keychain.accessible kSecAttrAccessibleAlways 3"])
    }

    func testSubscriptAssignmentsInOneFunctionAreOneItem() {
        XCTAssertEqual(facts("""
        func add() {
            var query = [String: Any]()
            query[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
            query[kSecAttrSynchronizable as String] = true
            query[kSecAttrAccessGroup as String] = "ABCDE12345.shared"
        }
        func other() {
            var query = [String: Any]()
            query[kSecAttrSynchronizable as String] = true
        }
        """), ["keychain.accessible kSecAttrAccessibleWhenUnlockedThisDeviceOnly 3",
               "keychain.synchronizable_this_device_only kSecAttrAccessibleWhenUnlockedThisDeviceOnly 4",
               "keychain.access_group ABCDE12345.shared 5"])
    }

    func testMappingTableIsAReferenceOnly() {
        XCTAssertEqual(facts("""
        enum Accessibility {
            case always
            var value: CFString {
                switch self { case .always: return kSecAttrAccessibleAlways }
            }
        }
        """), ["keychain.accessible_reference kSecAttrAccessibleAlways 4"])
    }

    func testAccessControlAndAuthenticationContext() {
        XCTAssertEqual(facts("""
        let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .biometryCurrentSet, nil)
        let q = [kSecUseAuthenticationContext: context]
        """), ["keychain.user_presence SecAccessControlCreateWithFlags 1",
               "keychain.accessible kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly 1",
               "keychain.user_presence kSecUseAuthenticationContext 2",
               "keychain.user_presence kSecUseAuthenticationContext 2"], "the key as a name, and as an attribute of the item")
    }

    func testFileProtectionInWritesAttributesAndResourceValues() {
        XCTAssertEqual(facts("""
        import Foundation
        func f(_ d: Data, _ u: URL) throws {
            try d.write(to: u, options: [.atomic, .noFileProtection])
            try FileManager.default.setAttributes([.protectionKey: FileProtectionType.complete], ofItemAtPath: u.path)
            var v = URLResourceValues()
            v.fileProtection = .completeUnlessOpen
            let options = [NSPersistentStoreFileProtectionKey: FileProtectionType.none]
            if case .none = Optional<Int>.none {}
        }
        #if DEBUG
        let debug = Data.WritingOptions.noFileProtection
        #endif
        """), ["file_protection none 3", "file_protection complete 4", "file_protection completeUnlessOpen 6",
               "file_protection none 7", "file_protection none 11 debug"])
    }

    func testEvaluatePolicyAndItsReply() {
        XCTAssertEqual(facts("""
        import LocalAuthentication
        func a(_ c: LAContext) {
            c.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "r") { ok, _ in print(ok) }
            c.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "r") { ok, error in print(ok, error as Any) }
            c.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "r") { print($0, $1 as Any) }
            c.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "r") { ok, _ in print(ok) }
        }
        """), ["biometrics.policy deviceOwnerAuthenticationWithBiometrics 3",
               "biometrics.error_ignored deviceOwnerAuthenticationWithBiometrics 3",
               "biometrics.policy deviceOwnerAuthenticationWithBiometrics 4",
               "biometrics.policy deviceOwnerAuthenticationWithBiometrics 5",
               "biometrics.policy deviceOwnerAuthentication 6"])
    }

    func testSecretsInPreferencesByKeyAndByValue() {
        XCTAssertEqual(facts("""
        import Foundation
        final class Store { func set(_ v: Any?, forKey k: String) {} }
        let defaults = UserDefaults.standard
        func f(token: String, password: String, deviceToken: String) {
            defaults.set(token, forKey: "access_token")
            UserDefaults.standard.set(password, forKey: "p")
            UserDefaults.standard.set(deviceToken, forKey: "apnsToken")
            UserDefaults.standard.set(true, forKey: "hasPassword")
            Store().set(token, forKey: "authToken")
        }
        """), ["preferences.secret access_token 5", "preferences.secret p 6"])
    }

    func testOwnTypeShadowsTheKeyValueStore() {
        XCTAssertEqual(facts("let s = NSUbiquitousKeyValueStore.default"), ["kvstore NSUbiquitousKeyValueStore 1"])
        XCTAssertEqual(facts("class NSUbiquitousKeyValueStore {}\nlet s = NSUbiquitousKeyValueStore()"), [])
    }

    func testSecretNames() {
        for secret in ["password", "userPassword", "authToken", "refresh_token", "apiKey", "API_KEY", "privateKey", "jwt", "token", "clientSecret"] {
            XCTAssertTrue(SecretNames.isSecret(secret), secret)
        }
        for plain in ["passwordEnabled", "isPasscodeSet", "pushToken", "deviceToken", "tokenExpiry", "theme", "tokenizer", "lastTokenRefresh",
                      "hasSeenPasswordHint", "username", "fcmToken"] {
            XCTAssertFalse(SecretNames.isSecret(plain), plain)
        }
    }
}
