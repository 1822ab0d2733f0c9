import Foundation
import Artifacts
import Evidence

public struct SensitiveDataWeakHashRule: Rule {
    public init() {}
    typealias Security = ProtectedResourceCatalog.Security

    public static let description = RuleDescription(
        identifier: "sensitive_data_weak_hash",
        name: "Sensitive data hashed weakly",
        summary: "A password, token, key or other credential is hashed with MD5 or SHA-1 (CC_MD5, CC_SHA1, Insecure.MD5/SHA1, CryptoSwift md5()/sha1()), or a password with a fast hash (SHA-2) instead of a KDF.",
        rationale: """
        MD5 and SHA-1 are broken for collision resistance, and every unsalted fast hash of a \
        credential can be reversed by lookup or brute force: a GPU tries billions of MD5 or \
        SHA-256 guesses a second, so a hashed password, PIN or short token is as good as the \
        value itself once the hash leaks (OWASP MASVS-CRYPTO-1, MASTG-TEST-0211 "Weak Hashing \
        Algorithms"; CWE-328, CWE-916). A SHA-256 of a long random token is fine; of a \
        password it is not — passwords need a slow, salted KDF.

        Reported where the value hashed comes, through its function's bindings and \
        conversions, from something sensitive: a name a reviewer reads as a credential \
        (`password`, `authToken`, `apiKey`, `secret`; not `passwordHash`, `tokenType` or \
        `isPasswordSet`), a keychain read, key material (`SymmetricKey`, `SecKey`), or the \
        text of a secure text field. Sinks: `CC_MD5`, `CC_SHA1`, CryptoKit \
        `Insecure.MD5.hash(data:)` and `Insecure.SHA1.hash(data:)` (and `update(data:)` on a \
        hasher the function makes, `var h = Insecure.MD5()`), CryptoSwift `md5()`, `sha1()`, \
        `Digest.md5(_:)` and `MD5()`/`SHA1().calculate(for:)` (in a file that imports \
        CryptoSwift); and for a password only, `CC_SHA256`/`CC_SHA512`, \
        `SHA256/384/512.hash(data:)` or a `SHA256()` hasher's `update(data:)`, `sha256()`, \
        `SHA2(variant:).calculate(for:)`. \
        SHA-1 in a file that works with Have I Been Pwned's range API (a `HIBP…` or \
        `…Pwned…` name) is not reported: that protocol asks for SHA-1 of the password and sends \
        only a 5-character prefix. MD5 of a file or a cache key is not reported (the `weak_hash_function` rule lists those \
        uses in binaries). Swift sources only.

        Severity: a **warning** (a **note** in a package or pod); debug-only code is not reported.

        Fix: store a password verifier with PBKDF2 (600,000 iterations of HMAC-SHA256, a random \
        salt), or do not hash it on the device at all; for a token's fingerprint use SHA-256; \
        for integrity under a key use HMAC-SHA256.
        """,
        area: .storage, severity: .warning, tags: ["security", "crypto", "MASVS-CRYPTO-1", "CWE-328"],
        references: ["https://mas.owasp.org/MASVS/controls/MASVS-CRYPTO-1/",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-CRYPTO/MASTG-TEST-0211/",
                     "https://cwe.mitre.org/data/definitions/328.html",
                     "https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html"],
        triggering: [
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Login.swift": """
                         import CryptoKit
                         import Foundation
                         import UIKit

                         func passwordDigest(_ password: String) -> String {
                             let digest = Insecure.MD5.hash(data: ↓Data(password.utf8))
                             return digest.map { String(format: "%02x", $0) }.joined()
                         }

                         func verifier(_ passwordField: UITextField) -> Data {
                             passwordField.isSecureTextEntry = true
                             let entered = passwordField.text ?? ""
                             return Data(SHA256.hash(data: ↓Data(entered.utf8)))
                         }
                         """],
                        note: "MD5 of a password; SHA-256 of a secure field's text (a fast hash for a password)."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Signer.swift": """
                         import CryptoSwift

                         struct Session {
                             var authToken: String
                         }

                         func signature(_ session: Session, path: String) -> String {
                             let token = session.authToken
                             return ↓(path + token).sha1()
                         }
                         """],
                        note: "CryptoSwift sha1() of a token, through a binding and a concatenation."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Verifier.swift": """
                         import CryptoKit
                         import Foundation

                         func verifier(passcode: String, salt: Data) -> Insecure.SHA1.Digest {
                             var hasher = Insecure.SHA1()
                             hasher.update(data: salt)
                             hasher.update(data: ↓Data(passcode.utf8))
                             return hasher.finalize()
                         }
                         """],
                        note: "A passcode fed to an incremental SHA-1 hasher (the salt is not sensitive)."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Hashes.swift": """
                         import CryptoKit
                         import Foundation

                         func fingerprint(accessToken: String) -> SHA256.Digest {
                             SHA256.hash(data: Data(accessToken.utf8))
                         }

                         func etag(_ fileData: Data) -> String {
                             Insecure.MD5.hash(data: fileData).map { String(format: "%02x", $0) }.joined()
                         }
                         """],
                        note: "SHA-256 of a token (not a password), and MD5 of file contents."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Legacy.swift": """
                         import CryptoSwift

                         func legacyCheck(passwordHash: String, tokenType: String, isPasswordSet: Bool) -> String {
                             let migrated = passwordHash.md5()
                             return migrated + tokenType.sha1() + String(isPasswordSet)
                         }
                         """],
                        note: "A password's hash and a token's type are not the credential."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        FlowFacts.findings(self, context, Security.weakHashOfSensitive, lowered: .note,
                           fix: "Protect passwords with PBKDF2 (a random salt, 600,000 iterations of HMAC-SHA256) or do not hash them on the device; use SHA-256 for a token's fingerprint and HMAC-SHA256 for integrity.") { host, u in
            "\(host.name) hashes sensitive data with \(u.key), which a lookup or brute force reverses: \(UsageReading.describe(u))"
        }
    }
}
