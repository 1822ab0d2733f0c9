import Foundation
import Artifacts
import Evidence

public struct BiometricReplyIgnoresErrorRule: Rule {
    public init() {}
    typealias Security = ProtectedResourceCatalog.Security

    public static let description = RuleDescription(
        identifier: "biometric_reply_ignores_error",
        name: "Biometric reply ignores its error",
        summary: "LAContext.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics) is called with a reply that never reads its error: the user's fallback, cancel and biometry lockout all look like a plain failure.",
        rationale: """
        With `.deviceOwnerAuthenticationWithBiometrics` the system offers no passcode: after a \
        failed match the user can tap the fallback button, and after too many failures biometry \
        locks out. The reply tells these apart only through its error (`LAError.userFallback`, \
        `.userCancel`, `.biometryLockout`, `.biometryNotEnrolled`); Apple's *Logging a User into \
        Your App with Face ID or Touch ID* asks the app to handle the fallback with its own \
        authentication (or to use `.deviceOwnerAuthentication`, which adds the passcode). A \
        reply that ignores the error either locks the user out or treats a tap on \"Enter \
        Password\" as a failure with no way forward.

        Reported for Swift replies whose error parameter is `_` or never used, and for Objective-C \
        reply blocks written in place whose error parameter the block never reads (a reply passed \
        as a variable is not judged), as a **note**: an \
        app whose own sign-in or PIN screen stays up after a failed match has a fallback the \
        reply need not name. Use `.deviceOwnerAuthentication` for the passcode fallback, or switch \
        on `LAError.Code`.
        """,
        area: .storage, severity: .note, tags: ["security", "authentication", "MASVS-AUTH-2"],
        references: ["https://developer.apple.com/documentation/localauthentication/logging-a-user-into-your-app-with-face-id-or-touch-id",
                     "https://developer.apple.com/documentation/localauthentication/laerror"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Unlock.swift": """
                         import LocalAuthentication

                         func unlock(_ done: @escaping (Bool) -> Void) {
                             let context = LAContext()
                             context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock your notes") ↓{ success, _ in
                                 done(success)
                             }
                         }
                         """]),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Unlock.swift": """
                         import LocalAuthentication

                         func unlock(_ done: @escaping (Bool) -> Void) {
                             LAContext().evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock",
                                                        reply: ↓{ (success: Bool, error: Error?) in done(success) })
                         }
                         """],
                        note: "A named error parameter the body never reads."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/LockViewController.m": """
                         #import <LocalAuthentication/LocalAuthentication.h>

                         @implementation LockViewController
                         - (void)unlock {
                             LAContext *context = [[LAContext alloc] init];
                             [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics
                                     localizedReason:@"Unlock your notes"
                                               reply:↓^(BOOL success, NSError * _Nullable error) {
                                 if (success) { dispatch_async(dispatch_get_main_queue(), ^{ [self dismiss]; }); }
                             }];
                         }
                         @end
                         """],
                        note: "Objective-C: the reply block never reads error."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Unlock.swift": """
                         import LocalAuthentication

                         func unlock(_ done: @escaping (Bool) -> Void, fallback: @escaping () -> Void) {
                             let context = LAContext()
                             context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { success, error in
                                 if let error = error as? LAError, error.code == .userFallback { fallback() } else { done(success) }
                             }
                         }
                         """],
                        note: "The reply handles LAError."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Unlock.swift": """
                         import LocalAuthentication

                         func unlock(_ done: @escaping (Bool) -> Void) {
                             LAContext().evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock") { success, _ in done(success) }
                         }
                         """],
                        note: "The policy with the passcode fallback built in."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/LockViewController.m": """
                         #import <LocalAuthentication/LocalAuthentication.h>

                         @implementation LockViewController
                         - (void)unlock {
                             LAContext *context = [[LAContext alloc] init];
                             NSError *canError = nil;
                             if (![context canEvaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics error:&canError]) { return; }
                             [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@"Unlock"
                                               reply:^(BOOL success, NSError *error) {
                                 if (error.code == LAErrorUserFallback) { [self showPasswordField]; } else if (success) { [self dismiss]; }
                             }];
                             [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@"Unlock" reply:self.replyHandler];
                         }
                         @end
                         """],
                        note: "Objective-C: the block handles LAErrorUserFallback; canEvaluatePolicy:error: is no evaluation; a reply passed as a value is not judged."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        SecurityFacts(context).all(Security.biometricErrorIgnored).map { host, fact in
            let u = fact.usage
            let f = finding("\(host.name) asks for biometrics only and the reply ignores its error (\(UsageReading.describe(u))): fallback, cancel and lockout look alike; unless the app's own sign-in stays up, the user has no way forward",
                            bundle: host.name, at: SecurityFacts.location(u), key: u.key, evidence: [UsageReading.evidenceRef(u)],
                            fix: "Use .deviceOwnerAuthentication to let the passcode back biometrics up, or handle LAError.userFallback (the app's own sign-in), .biometryLockout and .userCancel in the reply.",
                            fingerprint: [SecurityFacts.location(u).path, u.container.joined(separator: ".")])
            return f
        }
    }
}
