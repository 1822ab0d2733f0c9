import XCTest
@testable import Evidence

/// The call-level security facts of Objective-C: `evaluatePolicy` replies and keychain wrappers.
final class ObjCCallFactsTests: XCTestCase {
    typealias Security = ProtectedResourceCatalog.Security

    func facts(_ source: String, capabilities: Set<String>? = nil) -> [String] {
        ObjCSourceScanner.scan(source: source, path: "T.m")
            .filter { Security.isSecurity($0.capability) && $0.capability != Security.keychainAccessibleReference }
            .filter { u in capabilities.map { $0.contains(u.capability) } ?? true }
            .map { "\($0.capability.dropFirst(Security.capabilityPrefix.count)) \($0.key) \($0.line):\($0.column)" + ($0.ships ? "" : " debug") }
    }

    let biometrics: Set<String> = [Security.biometricPolicy, Security.biometricErrorIgnored]

    func testReplyThatNeverReadsItsErrorIsReported() {
        XCTAssertEqual(facts("""
        [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:reason
                          reply:^(BOOL success, NSError * _Nullable error) {
            if (success) { [self unlock]; }
        }];
        """, capabilities: biometrics), [
            "biometrics.policy deviceOwnerAuthenticationWithBiometrics 1:10",
            "biometrics.error_ignored deviceOwnerAuthenticationWithBiometrics 2:25",
        ])
    }

    func testReplyThatReadsItsErrorOrOtherPoliciesAreNotIgnoringIt() {
        XCTAssertEqual(facts("""
        [ctx evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:r reply:^(BOOL ok, NSError *err) {
            if (err.code == LAErrorUserFallback) { [self askPassword]; }
        }];
        [ctx evaluatePolicy:LAPolicyDeviceOwnerAuthentication localizedReason:r reply:^(BOOL ok, NSError *err) { done(ok); }];
        """, capabilities: biometrics), [
            "biometrics.policy deviceOwnerAuthenticationWithBiometrics 1:6",
            "biometrics.policy deviceOwnerAuthentication 4:6",
        ])
    }

    func testUnknownRepliesAndPoliciesSayNothing() {
        XCTAssertEqual(facts("""
        [ctx evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:r reply:handler];
        [ctx evaluatePolicy:policy localizedReason:r reply:^(BOOL ok, NSError *err) { done(ok); }];
        [ctx evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:r reply:^{ done(); }];
        BOOL can = [ctx canEvaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics error:&error];
        - (void)evaluatePolicy:(LAPolicy)policy localizedReason:(NSString *)r reply:(void (^)(BOOL, NSError *))reply;
        [ctx evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:r reply:^(BOOL ok, NSError *) { go(ok); }];
        [ctx evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:r reply:^(BOOL ok, NSError *error) {
            if (ok) { Toast.error(@"no"); }
        }];
        """, capabilities: [Security.biometricErrorIgnored]), [])
    }

    func testDebugOnlyReplyDoesNotShip() {
        XCTAssertEqual(facts("""
        #ifdef DEBUG
        [ctx evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:r reply:^(BOOL ok, NSError *e) { go(ok); }];
        #endif
        """, capabilities: biometrics), [
            "biometrics.policy deviceOwnerAuthenticationWithBiometrics 2:6 debug",
            "biometrics.error_ignored deviceOwnerAuthenticationWithBiometrics 2:93 debug",
        ])
    }

    func testWrapperAccessibilityIsTheItemsClass() {
        XCTAssertEqual(facts("""
        [SAMKeychain setAccessibilityType:kSecAttrAccessibleAlways];
        [SSKeychain setAccessibilityType:allowBackup ? kSecAttrAccessibleAfterFirstUnlock : kSecAttrAccessibleAlwaysThisDeviceOnly];
        store.accessibility = UICKeyChainStoreAccessibilityAlways;
        [store setAccessibility:UICKeyChainStoreAccessibilityWhenPasscodeSetThisDeviceOnly authenticationPolicy:UICKeyChainStoreAuthenticationPolicyUserPresence];
        VALValet *valet = [[VALValet alloc] initWithIdentifier:@"Druidia" accessibility:VALAccessibilityAlwaysThisDeviceOnly];
        keychain.defaultAccessiblity = A0SimpleKeychainItemAccessibleAlways;
        UICKeyChainStore *shared = [UICKeyChainStore keyChainStoreWithService:@"s" accessGroup:@"ABCDE12345.shared"];
        A0SimpleKeychain *k = [[A0SimpleKeychain alloc] initWithService:@"s" accessGroup:@"group.example"];
        """), [
            "keychain.accessible kSecAttrAccessibleAlways 1:35",
            "keychain.accessible kSecAttrAccessibleAfterFirstUnlock 2:48",
            "keychain.accessible kSecAttrAccessibleAlwaysThisDeviceOnly 2:85",
            "keychain.accessible kSecAttrAccessibleAlways 3:23",
            "keychain.accessible kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly 4:25",
            "keychain.accessible kSecAttrAccessibleAlwaysThisDeviceOnly 5:81",
            "keychain.accessible kSecAttrAccessibleAlways 6:32",
            "keychain.access_group ABCDE12345.shared 7:88",
            "keychain.access_group group.example 8:82",
        ])
    }

    func testUnclosedSendsAndBlocksAreReadOnce() {
        let send = "[c evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:r reply:^(BOOL a, NSError *e) {\n"
        let usages = ObjCSourceScanner.scan(source: String(repeating: send, count: 10_000), path: "T.m")
        XCTAssertEqual(usages.filter { $0.capability == Security.biometricPolicy && $0.key != "evaluatePolicy" }.count, 10_000)
        XCTAssertEqual(usages.filter { $0.capability == Security.biometricErrorIgnored }.count, 0, "no block closes")
    }

    func testPrefilterFindsAWordAnywhereAndNothingInShortInput() {
        let words = ObjCKeychainWrapperFacts.triggers
        XCTAssertTrue(ObjCFactTokens.mentions(Array("x[SSKeychain".utf8), words), "at the very end")
        XCTAssertTrue(ObjCFactTokens.mentions(Array("VALAccessibility".utf8), words), "the whole input")
        XCTAssertFalse(ObjCFactTokens.mentions(Array("SSKeychai".utf8), words))
        XCTAssertFalse(ObjCFactTokens.mentions([], words))
        XCTAssertFalse(ObjCFactTokens.mentions(Array("VALAccessibilit SAMKeycha".utf8), words))
    }

    func testWrapperMappingTablesAndOtherReceiversAreNoItem() {
        XCTAssertEqual(facts("""
        switch (accessibility) {
            case UICKeyChainStoreAccessibilityAlways: return kSecAttrAccessibleAlways;
            case VALAccessibilityAlways: return kSecAttrAccessibleAlways;
        }
        _accessibility = UICKeyChainStoreAccessibilityAfterFirstUnlock;
        if (self.defaultAccessiblity == A0SimpleKeychainItemAccessibleAlways) { }
        [MyKeychain setAccessibilityType:kSecAttrAccessibleAlways];
        [SAMKeychain setAccessibilityType:type];
        [MyStore storeWithService:@"s" accessGroup:@"x"]; // SAMKeychain
        """), [])
    }
}
