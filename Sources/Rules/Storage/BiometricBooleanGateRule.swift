import Foundation
import Artifacts
import Evidence

public struct BiometricBooleanGateRule: Rule {
    public init() {}
    typealias Security = ProtectedResourceCatalog.Security

    public static let description = RuleDescription(
        identifier: "biometric_boolean_gate",
        name: "Biometrics as a boolean gate",
        summary: "A bundle calls LAContext.evaluatePolicy but binds no keychain item to user presence or biometry: the success flag is an if that a patched binary or a hooked method bypasses.",
        rationale: """
        `evaluatePolicy` returns a Boolean to the app's own process. When that Boolean is all \
        that stands between the user and the data (`if success { showVault() }`), anyone who can \
        change the process — a debugger, a hooking framework on a jailbroken device, a patched \
        binary — skips the check, and the data it guarded was readable all along. MASVS-AUTH-2 \
        and Apple's *Accessing Keychain Items with Face ID or Touch ID* ask for the other design: \
        keep the secret in the keychain with an access control \
        (`SecAccessControlCreateWithFlags` with `.biometryCurrentSet` or `.userPresence`), so the \
        Secure Enclave releases it only after the match, or pass the evaluated `LAContext` to the \
        keychain (`kSecUseAuthenticationContext`).

        Reported once per bundle that calls `evaluatePolicy` (Swift, Objective-C, binaries) while nothing in its \
        code — sources, packages, binaries — creates an access control or passes an \
        authentication context to the keychain. An app that uses biometrics only as a \
        convenience lock over data that needs no protection can ignore it.

        Severity: a **warning** where the check plainly guards secrets — the file that calls \
        `evaluatePolicy` also writes keychain items (naming their `kSecAttrAccessible` class), or \
        the bundle is an AutoFill credential provider; a **note** otherwise (an app lock over a \
        screen, a kiosk mode: the code cannot say what is behind it) and for code the bundle may \
        not run.
        """,
        area: .storage, severity: .warning, tags: ["security", "authentication", "MASVS-AUTH-2"],
        references: ["https://developer.apple.com/documentation/localauthentication/accessing-keychain-items-with-face-id-or-touch-id",
                     "https://mas.owasp.org/MASVS/controls/MASVS-AUTH-2/"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Vault.swift": """
                         import LocalAuthentication

                         final class Vault {
                             var isUnlocked = false

                             func store(_ secret: Data) -> OSStatus {
                                 SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccessible: kSecAttrAccessibleWhenUnlocked,
                                             kSecValueData: secret] as CFDictionary, nil)
                             }

                             func unlock() {
                                 ↓LAContext().evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Open the vault") { success, error in
                                     if success { self.isUnlocked = true } else { print(error as Any) }
                                 }
                             }
                         }
                         """]),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Gate.swift": """
                         import LocalAuthentication

                         func gate() async throws -> Bool {
                             try await ↓LAContext().evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Sign in")
                         }
                         """]),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/TouchID.m": """
                         #import <LocalAuthentication/LocalAuthentication.h>

                         void Authenticate(NSString *reason) {
                             LAContext *passcode = [[LAContext alloc] init];
                             NSError *error = nil;
                             if ([passcode canEvaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics error:&error]) {
                                 [passcode ↓evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics
                                   localizedReason:reason reply:^(BOOL success, NSError *error) {
                                     if (success) {
                                         // User authenticated successfully
                                     }
                                 }];
                             }
                         }
                         """],
                        note: "The seed's own Touch ID sample: success is an if."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Vault.swift": """
                         import LocalAuthentication
                         import Security

                         func storeSecret(_ data: Data) -> OSStatus {
                             guard let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                                                                                .biometryCurrentSet, nil) else { return errSecParam }
                             return SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccessControl: access,
                                                kSecValueData: data] as CFDictionary, nil)
                         }

                         func canUseBiometrics() -> Bool {
                             LAContext().canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: nil)
                         }

                         func warmUp(_ done: @escaping (Bool) -> Void) {
                             LAContext().evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock") { ok, error in done(ok && error == nil) }
                         }
                         """],
                        note: "The secret is bound to biometry by an access control."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Read.swift": """
                         import LocalAuthentication
                         import Security

                         func read(with context: LAContext) -> OSStatus {
                             context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Read") { _, _ in }
                             var result: AnyObject?
                             return SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecUseAuthenticationContext: context,
                                                         kSecReturnData: true] as CFDictionary, &result)
                         }
                         """],
                        note: "The evaluated context is handed to the keychain."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Vault.m": """
                         #import <LocalAuthentication/LocalAuthentication.h>
                         #import <Security/Security.h>

                         OSStatus StoreSecret(NSData *secret) {
                             SecAccessControlRef access = SecAccessControlCreateWithFlags(kCFAllocatorDefault,
                                 kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, kSecAccessControlBiometryCurrentSet, NULL);
                             NSDictionary *item = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
                                                    (__bridge id)kSecAttrAccessControl: (__bridge id)access,
                                                    (__bridge id)kSecValueData: secret};
                             return SecItemAdd((__bridge CFDictionaryRef)item, NULL);
                         }

                         void Unlock(LAContext *context, void (^done)(BOOL)) {
                             [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@"Unlock"
                                               reply:^(BOOL success, NSError *error) { done(success && error == nil); }];
                         }
                         """],
                        note: "Objective-C: the secret is bound to biometry by an access control."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Biometry.m": """
                         #import <LocalAuthentication/LocalAuthentication.h>

                         BOOL CanUseBiometrics(void) {
                             return [[[LAContext alloc] init] canEvaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics error:NULL];
                         }
                         """],
                        note: "canEvaluatePolicy:error: only asks whether biometry is available."),
        ])

    /// A password manager: an AutoFill credential provider, by entitlement or extension point.
    static func providesCredentials(_ b: AppBundle) -> Bool {
        if BundleEntitlements(b)?.root["com.apple.developer.authentication-services.autofill-credential-provider"] != nil { return true }
        return b.infoValue("NSExtension")?.node.dictionary?["NSExtensionPointIdentifier"]?.string
            == "com.apple.authentication-services-credential-provider-ui"
    }

    public func check(_ context: RuleContext) -> [Finding] {
        let facts = SecurityFacts(context)
        let bound = Set(facts.byHost(Security.keychainUserPresence).map(\.host.name))
        // Files that write keychain items themselves, and hosts that provide credentials.
        let itemFiles = Set(facts.all(Security.keychainAccessible).compactMap { entry -> String? in
            guard case .source(let path, _, _) = entry.fact.usage.location else { return nil }
            return entry.host.name + "|" + path
        })
        var out: [Finding] = []
        for (host, policies) in facts.byHost(Security.biometricPolicy) where !bound.contains(host.name) {
            let direct = policies.filter { $0.direct && !SecurityFacts.isPackaged($0.usage) && $0.holder.kind != .framework }
            guard let shown = (direct + policies).first else { continue }
            let u = shown.usage
            var f = finding("\(host.name) calls \(u.api) (\(UsageReading.describe(u))) but no keychain item of its code is bound to user presence or biometry: the success flag is the only gate",
                            bundle: host.name, at: SecurityFacts.location(u), key: u.key,
                            evidence: policies.prefix(5).map { UsageReading.evidenceRef($0.usage) },
                            fix: "Keep what the check protects in the keychain with SecAccessControlCreateWithFlags(…, .biometryCurrentSet or .userPresence) and read it after the match, or pass the LAContext as kSecUseAuthenticationContext.",
                            fingerprint: ["gate"])
            let guardsSecrets = Self.providesCredentials(host) || direct.contains { d in
                guard case .source(let path, _, _) = d.usage.location else { return false }
                return itemFiles.contains(host.name + "|" + path)
            }
            if direct.isEmpty || !guardsSecrets {
                f.severity = .note
                if !guardsSecrets { f.message += "; if what it unlocks is a secret, bind it to the keychain" }
            }
            out.append(f)
        }
        return out
    }
}
