import Foundation
import XCTest
import Evidence
@testable import SwiftSourceScan

/// Credentials the Swift scanner sees written to a log.
final class LoggingVisitorTests: XCTestCase {
    typealias Security = ProtectedResourceCatalog.Security

    func facts(_ source: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        let found = SwiftSourceScanner.scan(source: source, path: "T.swift")
            .filter { $0.capability == Security.credentialSystemLog || $0.capability == Security.credentialStandardOutput }
        // Every snippet that logs a credential passes the prefilter: skipping a parse never loses one.
        if !found.isEmpty {
            let facts = SourceFactsScanner(names: SwiftSourceScanning.names).scan(Array(source.utf8))
            XCTAssertTrue(SwiftSourceScanning().mayUse(facts, bytes: Data(source.utf8)), "the prefilter would skip it", file: file, line: line)
        }
        return found.filter { $0.link == nil }.map { u in
            "\(u.capability == Security.credentialSystemLog ? "log" : "stdout") \(u.key) \(u.line):\(u.column)" + (u.ships ? "" : " debug")
        }
    }

    func testInterpolationSegmentsAndArgumentsThatAreSecretNames() {
        XCTAssertEqual(facts("""
        func f(user: User, password: String) {
            print("login \\(user.name) with \\(user.password)")
            NSLog("%@ %@", user.name, password)
            debugPrint(self.accessToken ?? "", String(describing: refreshToken))
            dump(credentials)
            NSLog("%@ %@", json["access_token"] as! String, defaults.string(forKey: "authToken")!, json["user"])
        }
        """), ["stdout password 2:38", "log password 3:31", "stdout accessToken 4:16", "stdout refreshToken 4:40", "stdout credentials 5:10",
               "log access_token 6:20", "log authToken 6:53"])
    }

    func testLoggerShowsOnlyPublicInterpolations() {
        XCTAssertEqual(facts("""
        import os
        let logger = Logger(subsystem: "s", category: "c")
        func f(token: String, password: String) {
            logger.info("token \\(token)")
            logger.error("token \\(token, privacy: .private)")
            logger.notice("token \\(token, privacy: .auto)")
            logger.debug("token \\(token, privacy: .public) password \\(password, privacy: OSLogPrivacy.public)")
            os_log(.error, log: .default, "\\(password, privacy: .public)")
        }
        """), ["log token 7:27", "log password 7:63", "log password 8:38"])
    }

    func testOSLogFormatDecidesWhichArgumentsShow() {
        XCTAssertEqual(facts("""
        import os
        func f(token: String, passcode: Int, password: String) {
            os_log("a %@ b %{public}@", log: .default, type: .info, token, password)
            os_log("%{private}d %d", passcode, passcode)
            os_log("%s", password)
        }
        """), ["log password 3:68", "log passcode 4:40"])
    }

    func testLiteralsFlagsAndOtherValuesAreNotCredentials() {
        XCTAssertEqual(facts("""
        var isPasswordSet = false
        var tokenValid: Bool = true
        func f(password: String, deviceToken: String) {
            print("Password reset failed")
            NSLog("password: %@", "***")
            print(isPasswordSet, tokenValid, password.count, password.isEmpty, deviceToken, Token.self)
            print("token", to: &buffer)
            NSLog("%@", passwordField.text)
            print("room \\(roomToken), next \\(nextPageToken), \\(cancellationToken)")
        }
        """), [])
    }

    func testDebugOnlyCodeDoesNotShip() {
        XCTAssertEqual(facts("""
        #if DEBUG
        func debugDump(password: String) { print(password) }
        #endif
        func f(password: String) {
            #if DEBUG
            NSLog("%@", password)
            #else
            NSLog("logged in")
            #endif
        }
        """), ["stdout password 2:42 debug", "log password 6:17 debug"])
    }

    func testAFunctionOfTheFilesOwnIsNotTheSystemsPrint() {
        XCTAssertEqual(facts("""
        func print(_ items: Any...) {
            #if DEBUG
            Swift.print(items)
            #endif
        }
        func f(password: String) { print(password); Swift.print(password) }
        """), ["stdout password 6:57"])
    }

    func testPrefilterNeedsACallAndASecretWord() {
        XCTAssertTrue(LoggingVisitor.mayFind(in: "print(user.PASSWORD)"))
        XCTAssertFalse(LoggingVisitor.mayFind(in: "print(user.name)"))
        XCTAssertFalse(LoggingVisitor.mayFind(in: "let password = 1"))
        XCTAssertTrue(LoggingVisitor.mayFind(in: "logger.info(\"\\(apiKey, privacy: .public)\")"))
    }

    /// Calls that pass only plain string literals log nothing of the app's data: a file whose
    /// calls are all such (`fatalError("init(coder:) has not been implemented")`) is not parsed
    /// for this visitor, wrapper or not.
    func testPrefilterSkipsCallsWithOnlyPlainLiterals() {
        XCTAssertFalse(LoggingVisitor.mayFind(in: "required init?(coder: NSCoder) { fatalError(\"init(coder:) has not been implemented\") }"))
        XCTAssertFalse(LoggingVisitor.mayFind(in: "func f() { print( \"token refreshed\" , \"\"\"\n(password)\n\"\"\") ; fatalError() }"))
        XCTAssertFalse(LoggingVisitor.mayFind(in: "func f() { print(\"a \\\"token\\\" b\") }"))
        // A name, an interpolation, a raw string or a label may pass a value.
        for call in ["print(token)", "print(\"t \\(token)\")", "print(#\"token\"#)", "print(\"token\", terminator: \"\")",
                     "NSLog(\"%@\", secret)", "fatalError(\"\"\"\n\\(password)\n\"\"\")", "print(\"unterminated token"] {
            XCTAssertTrue(LoggingVisitor.mayFind(in: "func f() { \(call) }"), call)
        }
        // A wrapper forwards its parameter, whatever the file's words.
        XCTAssertTrue(LoggingVisitor.mayFind(in: "func log(_ m: String) { NSLog(m) }"))
    }

    func testLogFormatArguments() {
        XCTAssertEqual(LogFormat.shownArguments("%@ %{public}@ %{private}d %d %% %*s %{public, name}s %lld"),
                       [false, true, false, true, true, false, true, true])
    }
}
