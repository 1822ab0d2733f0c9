import Foundation
import Artifacts
import Evidence

public struct CredentialLoggedRule: Rule {
    public init() {}
    typealias Security = ProtectedResourceCatalog.Security

    public static let description = RuleDescription(
        identifier: "credential_logged",
        name: "Credential written to a log",
        summary: "Release code logs a value whose name says it is a password, token or other secret: NSLog, a public os_log or Logger argument, print.",
        rationale: """
        `NSLog` writes to the unified system log, and so do `os_log` and `Logger` for every \
        argument they show. That log persists on the device (up to its storage limit for \
        default, error and fault messages) and anyone with the unlocked device and a Mac — \
        Console, `log collect --device` — or with a sysdiagnose the user shares reads it. A \
        password, token or key written there outlives the session it protected (MASVS-STORAGE-2: \
        no sensitive data in logs). `os_log` and `Logger` redact dynamic strings and objects by \
        default (`<private>`); what unmasks them is a `%{public}@` specifier or \
        `privacy: .public`, so those and `NSLog` (which formats everything into one public \
        string) are **warnings**.

        `print`, `debugPrint`, `dump`, `printf` and `fprintf(stderr, …)` write to standard output \
        or standard error. On a device these reach no system log unless the app redirects them \
        (some crash and support SDKs capture the console); the debugger, a simulator run and \
        such a capture see them. That is a **note**: the secret should still not be there, but \
        no Apple document puts it in a persistent store. `fatalError`'s message goes to standard \
        error and into the crash report the developer receives: a note too.

        Reported where an argument, or a value a string interpolates, is a name that says it \
        holds a secret, word by word: `password`, `self.accessToken`, `user.password`, \
        `[session authToken]`. A message that merely contains the word (`"Password reset \
        failed"`), a flag (`isPasswordSet`, a name the file declares `Bool`), a `Logger` \
        interpolation without `privacy: .public`, code under `#if DEBUG` and test targets are \
        not. A Swift function of the target's own code whose parameter reaches one of these \
        calls (`func log(_ m: String) { NSLog("%@", m) }`) is followed into every file of the \
        target's code closure (its sources and the targets, packages and pods it links) that \
        calls it: `log(token)` is reported at the call, with the path through the wrapper's \
        file and line; wrappers of wrappers (a function of at most six statements that passes \
        its parameter on) up to three functions deep, and only where one file of the closure \
        declares a function of that name. A value named only `token` (a chat room's, a page's \
        or a push token as often as a credential) is not carried into another file's wrapper. \
        An Objective-C macro (`DLog`), a \
        wrapper compiled in a binary SDK, and a library's logger (CocoaLumberjack's \
        `DDLogInfo`, SwiftyBeaver) are not followed: what they write in a release build depends \
        on a definition or a configuration the sources may not show. Fix: log that the \
        credential exists or its length, never its value, or mark it `privacy: .private`.
        """,
        area: .storage, severity: .warning, tags: ["security", "logging", "MASVS-STORAGE-2"],
        references: ["https://developer.apple.com/documentation/os/generating-log-messages-from-your-code",
                     "https://developer.apple.com/documentation/os/oslogprivacy",
                     "https://developer.apple.com/documentation/foundation/nslogv(_:_:)",
                     "https://mas.owasp.org/MASVS/controls/MASVS-STORAGE-2/"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Session.swift": """
                         import Foundation
                         import os

                         final class Session {
                             let logger = Logger(subsystem: "com.example.app", category: "auth")
                             var accessToken = ""

                             func didLogIn(user: String, password: String) {
                                 NSLog("Logging in %@ with %@", user, ↓password)
                                 logger.info("Token: \\(↓self.accessToken, privacy: .public)")
                                 os_log("refresh %{public}@", log: .default, type: .info, ↓accessToken)
                                 print("token=\\(↓accessToken)")
                             }
                         }
                         """],
                        note: "NSLog, a public Logger interpolation and a public os_log argument go to the system log (warnings); print to standard output (a note)."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Login.m": """
                         #import <Foundation/Foundation.h>
                         #import <os/log.h>

                         @implementation Login
                         - (void)submit {
                             NSLog(@"user %@ password %@", self.user, ↓self.password);
                             os_log(OS_LOG_DEFAULT, "token %{public}@", ↓[self.session authToken]);
                             fprintf(stderr, "secret %s\\n", ↓_clientSecret.UTF8String);
                         }
                         @end
                         """],
                        note: "Objective-C NSLog, os_log with {public}, fprintf to standard error (a note)."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Auth.swift": """
                         import Foundation

                         final class Auth {
                             func getPassword() -> String { UserDefaults.standard.string(forKey: "pw") ?? "" }

                             func signIn() {
                                 let y = getPassword()
                                 NSLog("signing in with %@", ↓y)
                             }

                             func refreshed(_ response: [String: String]) {
                                 guard let refreshToken = response["refresh"] else { fatalError("no refresh token in \\(response)") }
                                 if refreshToken.isEmpty { fatalError("empty token \\(↓refreshToken)") }
                             }
                         }
                         """],
                        note: "Through a variable holding a same-file function's result whose name says it is a password; a refresh token in fatalError's message, which the crash report keeps (a note)."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Log.swift": """
                         import Foundation

                         func log(_ message: String) {
                             NSLog("%@", message)
                         }

                         func audit(_ event: String, detail: String) {
                             log("\\(event): \\(detail)")
                         }
                         """,
                         "App/Login.swift": """
                         final class Login {
                             func signIn(user: String, password: String, sessionToken: String) {
                                 log("signing in \\(user)")
                                 log(↓password)
                                 audit("session", detail: ↓sessionToken)
                             }
                         }
                         """],
                        note: "The app's own log(_:) wrapper in another file forwards its argument to NSLog; audit(_:detail:) forwards to log(_:) (a wrapper of a wrapper)."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Session.swift": """
                         import Foundation
                         import os

                         let logger = Logger(subsystem: "com.example.app", category: "auth")

                         func didLogIn(password: String, token: String, isPasswordSet: Bool, roomToken: String) {
                             logger.info("Token: \\(token)")
                             logger.debug("Password: \\(password, privacy: .private)")
                             os_log("refresh %@", log: .default, type: .info, token)
                             NSLog("Password reset failed")
                             print("isPasswordSet: \\(isPasswordSet), length \\(password.count)")
                             print("Joining room \\(roomToken)")
                             #if DEBUG
                             print("token=\\(token)")
                             #endif
                         }
                         """],
                        note: "Logger's default privacy and os_log's %@ redact the value; a literal, a flag, a length, a chat room's token (an identifier: Nextcloud Talk), debug-only code."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Login.m": """
                         #import <Foundation/Foundation.h>

                         #ifdef DEBUG
                         #define DLog(...) NSLog(__VA_ARGS__)
                         #else
                         #define DLog(...)
                         #endif

                         @implementation Login
                         - (void)submit {
                             DLog(@"password %@", self.password);
                         #ifdef DEBUG
                             NSLog(@"token %@", self.authToken);
                         #endif
                             NSLog(@"password changed: %d", self.passwordChanged);
                             NSLog(@"Enter your password");
                         }
                         @end
                         """],
                        note: "A macro that logs only in debug builds, an #ifdef DEBUG block, a flag, a literal."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Auth.swift": """
                         import CryptoKit
                         import Foundation

                         func signIn(password: String, passwordHash: String) {
                             let digest = SHA256.hash(data: Data(password.utf8)).description
                             NSLog("verifier %@ stored %@", digest, passwordHash)
                         }
                         """],
                        note: "A hash of the password, and a value named as a password's hash."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Log.swift": """
                         import Foundation

                         func log(_ message: String) {
                             NSLog("%@", message)
                         }

                         func track(_ value: String) {
                             NSLog("tracked a value of %ld characters", value.count)
                         }

                         func debugLog(_ message: String) {
                             #if DEBUG
                             print(message)
                             #endif
                         }
                         """,
                         "App/Login.swift": """
                         import CryptoKit
                         import Foundation

                         func signIn(password: String, passwordHash: String, token: String) {
                             track(password)
                             debugLog(token)
                             log(passwordHash)
                             log(SHA256.hash(data: Data(password.utf8)).description)
                         }
                         """],
                        note: "A wrapper that logs a length, not its argument; one that prints only in debug builds; a password's hash passed to a forwarding wrapper."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        let facts = SecurityFacts(context)
        var out: [Finding] = []
        for capability in [Security.credentialSystemLog, Security.credentialStandardOutput] {
            let systemLog = capability == Security.credentialSystemLog
            for (host, fact) in facts.all(capability) {
                let u = fact.usage
                let place = SecurityFacts.location(u)
                let how = systemLog
                    ? "to the unified system log, which keeps it on the device where a connected Mac or a sysdiagnose reads it"
                    : "to standard output, which a debugger, a simulator run or an SDK that captures the console reads"
                var f = finding("\(host.name) writes what looks like a credential ('\(u.key)') with \(u.api) \(how)",
                                bundle: host.name, at: place, key: u.key, evidence: [UsageReading.evidenceRef(u)],
                                fix: systemLog
                                    ? "Do not log the value: log that it exists or its length, or mark it privacy: .private (os_log %{private}@)."
                                    : "Remove the print of the value, or keep it under #if DEBUG.",
                                fingerprint: [u.key, place.path, FlowFacts.stable(u.api)])
                if !systemLog || !fact.direct { f.severity = .note }
                out.append(f)
            }
        }
        return out
    }
}
