import XCTest
@testable import Evidence

/// Credentials the Objective-C scanner sees written to a log.
final class ObjCLoggingFactsTests: XCTestCase {
    typealias Security = ProtectedResourceCatalog.Security

    func facts(_ source: String, definitions: [String: String] = [:]) -> [String] {
        ObjCSourceScanner.scan(source: source, path: "T.m", definitions: definitions)
            .filter { $0.capability == Security.credentialSystemLog || $0.capability == Security.credentialStandardOutput }
            .map { "\($0.capability == Security.credentialSystemLog ? "log" : "stdout") \($0.key) \($0.line)" + ($0.ships ? "" : " debug") }
    }

    func testArgumentsThatNameASecret() {
        XCTAssertEqual(facts("""
        - (void)f {
            NSLog(@"%@ %@", self.user, self.password);
            NSLog(@"%@", [[Session shared] accessToken]);
            NSLog(@"%@", (NSString *)_authToken);
            printf("%s", password.UTF8String);
            fprintf(stderr, "%s\\n", [secret UTF8String]);
            fprintf(logFile, "%s\\n", [secret UTF8String]);
            NSLog(@"%@ %@ %@", json[@"access_token"], [json objectForKey:@"refresh_token"], json[@"user_id"]);
        }
        """), ["log password 2", "log accessToken 3", "log authToken 4", "stdout password 5", "stdout secret 6",
               "log access_token 8", "log refresh_token 8"])
    }

    func testOSLogFormatDecides() {
        XCTAssertEqual(facts("""
        os_log(OS_LOG_DEFAULT, "token %@", token);
        os_log_error(log, "token %{public}@ and %{private}@", token, password);
        os_log_with_type(log, OS_LOG_TYPE_INFO, "pin %d", passcode);
        """), ["log token 2", "log passcode 3"])
    }

    func testLiteralsFlagsMessagesWithArgumentsAndClassesAreNot() {
        XCTAssertEqual(facts("""
        NSLog(@"Password reset failed");
        NSLog(@"%d %lu", self.isPasswordSet, (unsigned long)password.length);
        NSLog(@"%@", [keychain passwordForService:service]);
        NSLog(@"%@", Token);
        NSLog(@"%@", deviceToken);
        NSLog(@"%@ %@", self.roomToken, changeToken);
        """), [])
    }

    func testDebugOnlyMacroAndBlock() {
        let source = """
        #ifdef DEBUG
        #define DLog(...) NSLog(__VA_ARGS__)
        #else
        #define DLog(...)
        #endif
        void f(void) {
            DLog(@"%@", self.password);
        #ifdef DEBUG
            NSLog(@"%@", self.password);
        #endif
        #if DEBUG
            NSLog(@"%@", token);
        #else
            NSLog(@"no token");
        #endif
        }
        """
        XCTAssertEqual(facts(source), ["log password 9 debug", "log token 12 debug"])
        // A release build that defines DEBUG ships the block (the macro stays the project's own call).
        XCTAssertEqual(facts(source, definitions: ["DEBUG": "1"]), ["log password 9", "log token 12"])
    }

    func testNestedUnclosedCallsStayLinear() {
        let source = String(repeating: "NSLog(", count: 1_000_000) + "password"
        let start = Date()
        XCTAssertEqual(facts(source), [])
        XCTAssertLessThan(Date().timeIntervalSince(start), 30)  // unbudgeted: 4 billion steps
    }
}
