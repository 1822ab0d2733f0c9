import Foundation
import Artifacts
import Evidence

public struct WeakKeyDerivationRule: Rule {
    public init() {}
    typealias Security = ProtectedResourceCatalog.Security

    public static let description = RuleDescription(
        identifier: "weak_key_derivation",
        name: "Weak password-based key derivation",
        summary: "A password-based KDF (CCKeyDerivationPBKDF, CryptoSwift PBKDF2/PBKDF1/scrypt/HKDF, RNCryptor's password API) runs with a constant salt, a constant password, or fewer iterations than OWASP's current floor for its PRF.",
        rationale: """
        A password-based KDF is only as strong as its inputs. A **constant salt** (the same for \
        every user and install) lets an attacker precompute one table for all of them and shows \
        which users share a password (CWE-760). A **constant password** makes the derived key a \
        constant: anyone with the app derives it (CWE-321, CWE-798). **Too few iterations** make \
        each guess cheap: OWASP's Password Storage Cheat Sheet asks for at least 1,300,000 \
        iterations of PBKDF2-HMAC-SHA1, 600,000 of PBKDF2-HMAC-SHA256 and 210,000 of \
        PBKDF2-HMAC-SHA512 (CWE-916). OWASP MASVS-CRYPTO-2.

        Found by following the salt, password and rounds arguments back through their function, \
        the file's constants, and — for a parameter (`pbkdf2(password:salt:rounds: Int = 1000)`) — \
        the values the same file's calls pass or the parameter's default, as for \
        `hardcoded_crypto_key`; a constant salt or password declared in another file of the \
        target, or passed by a caller in another file, is joined as for that rule (the iteration \
        count is judged in the file only). Sinks: CommonCrypto \
        `CCKeyDerivationPBKDF` (password, salt, PRF, rounds) and CryptoSwift \
        `PKCS5.PBKDF2(password:salt:iterations:keyLength:variant:)`, whose default is 4,096 \
        iterations of HMAC-SHA256, and `PKCS5.PBKDF1` (default 4,096 of SHA-1); CryptoSwift \
        `Scrypt(password:salt:…)` (password and salt; its N, r, p are a memory cost, not judged) and \
        `HKDF(password:…)` (the input keying material only: RFC 5869 lets HKDF's salt be a \
        fixed, public value); RNCryptor's `encrypt`/`decrypt(data:withPassword:)`, \
        `Encryptor`/`Decryptor(password:)`, `FormatV3.keyForPassword(_:salt:)` and its \
        Objective-C classes `RNEncryptor`/`RNDecryptor` (from Swift or Objective-C), which run \
        PBKDF2 inside (a constant password there is a constant key). The iteration floor follows the PRF written at the call; one \
        the call does not show gets the lowest floor (210,000), so a count is reported only when \
        it is below every floor that may apply. A count the code computes \
        (`CCCalibratePBKDF`) is never reported. In Objective-C, only a literal (or a variable \
        assigned one) as RNCryptor's `password:`.

        Severity: a **warning**; a constant password is an **error** (the key is in the \
        binary). A **note** in a package or pod; debug-only code is not reported.

        Fix: a random salt of at least 16 bytes per user or per item (`SecRandomCopyBytes`), \
        stored beside the derived value; the user's own secret as the password; and at least \
        OWASP's iteration count for the PRF (or `CCCalibratePBKDF` for a target time) — or a \
        random key in the keychain when no password is involved.
        """,
        area: .storage, severity: .warning, tags: ["security", "crypto", "MASVS-CRYPTO-2", "CWE-760", "CWE-916"],
        references: ["https://mas.owasp.org/MASVS/controls/MASVS-CRYPTO-2/",
                     "https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html#pbkdf2",
                     "https://cwe.mitre.org/data/definitions/760.html",
                     "https://cwe.mitre.org/data/definitions/916.html"],
        triggering: [
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/KeyMaker.swift": """
                         import CommonCrypto
                         import Foundation

                         let kdfSalt = "com.example.app.salt"

                         func deriveKey(from password: String) -> [UInt8] {
                             var derived = [UInt8](repeating: 0, count: 32)
                             let salt = Array(kdfSalt.utf8)
                             _ = CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), password, password.utf8.count, ↓salt, salt.count,
                                                      CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256), ↓10_000, &derived, derived.count)
                             return derived
                         }
                         """],
                        note: "A global constant salt, and 10,000 rounds of HMAC-SHA256 (OWASP: 600,000)."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Store.swift": """
                         import CryptoSwift

                         func databaseKey() throws -> [UInt8] {
                             let passphrase = "correct horse battery staple"
                             return try ↓PKCS5.PBKDF2(password: ↓Array(passphrase.utf8), salt: ↓Array("NaCl".utf8), keyLength: 32).calculate()
                         }
                         """],
                        note: "CryptoSwift with a constant password and salt, and its default 4,096 iterations."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Archive.swift": """
                         import CryptoSwift
                         import Foundation
                         import RNCryptor

                         enum Vault {
                             static let archivePassword = "archive-2024"
                         }

                         func sealArchive(_ data: Data) -> Data {
                             RNCryptor.encrypt(data: data, withPassword: ↓Vault.archivePassword)
                         }

                         func legacyKeys(from password: String) throws -> ([UInt8], [UInt8]) {
                             let salt: [UInt8] = [9, 8, 7, 6, 5, 4, 3, 2]
                             let scrypt = try Scrypt(password: Array(password.utf8), salt: ↓salt, dkLen: 32, N: 16384, r: 8, p: 1).calculate()
                             let old = try PKCS5.PBKDF1(password: Array(password.utf8), salt: ↓salt, iterations: ↓100, keyLength: 16).calculate()
                             return (scrypt, old)
                         }
                         """],
                        note: "RNCryptor with a password constant (it derives the key from it), scrypt and PBKDF1 with a constant salt, PBKDF1 with 100 iterations."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Legacy.swift": """
                         import Foundation
                         import RNCryptor

                         func sealLegacy(_ data: Data) throws -> Data {
                             try RNEncryptor.encryptData(data, with: kRNCryptorAES256Settings, password: ↓"@pp-w1de-pass")
                         }
                         """,
                         "App/Backup.m": """
                         #import "RNEncryptor.h"

                         @implementation Backup
                         - (NSData *)seal:(NSData *)data {
                             NSError *error = nil;
                             return [RNEncryptor encryptData:data withSettings:kRNCryptorAES256Settings password:↓@"backup-2019" error:&error];
                         }
                         @end
                         """],
                        note: "RNCryptor's Objective-C API with a literal password, called from Swift and from Objective-C."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/KeyMaker.swift": """
                         import CryptoSwift
                         import Security

                         func newSalt() -> [UInt8] {
                             var salt = [UInt8](repeating: 0, count: 16)
                             _ = SecRandomCopyBytes(kSecRandomDefault, salt.count, &salt)
                             return salt
                         }

                         func deriveKey(from password: String, salt: [UInt8]) throws -> [UInt8] {
                             try PKCS5.PBKDF2(password: Array(password.utf8), salt: salt, iterations: 600_000, keyLength: 32,
                                              variant: .sha2(.sha256)).calculate()
                         }
                         """],
                        note: "The user's password, a salt from SecRandomCopyBytes, OWASP's 600,000 iterations of HMAC-SHA256."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Calibrated.swift": """
                         import CommonCrypto
                         import Foundation

                         func deriveKey(from password: String, salt: [UInt8]) -> [UInt8] {
                             var derived = [UInt8](repeating: 0, count: 32)
                             let rounds = CCCalibratePBKDF(CCPBKDFAlgorithm(kCCPBKDF2), password.utf8.count, salt.count,
                                                           CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA512), derived.count, 500)
                             _ = CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), password, password.utf8.count, salt, salt.count,
                                                      CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA512), rounds, &derived, derived.count)
                             return derived
                         }
                         """],
                        note: "A salt the caller passes and a round count calibrated at run time."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Session.swift": """
                         import CryptoSwift
                         import Foundation
                         import RNCryptor

                         func seal(_ note: Data, password: String) -> Data {
                             RNCryptor.encrypt(data: note, withPassword: password)
                         }

                         func sessionKey(sharedSecret: [UInt8]) throws -> [UInt8] {
                             try HKDF(password: sharedSecret, salt: Array("chat-v1".utf8), info: Array("session".utf8), keyLength: 32,
                                      variant: .sha2(.sha256)).calculate()
                         }
                         """],
                        note: "RNCryptor with the user's password; HKDF over a shared secret with a fixed salt (RFC 5869 allows a fixed, public salt: only HKDF's input keying material is judged)."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        let fix = "Use a random salt of 16+ bytes per user or item (SecRandomCopyBytes), the user's own secret as the password, and at least OWASP's PBKDF2 iteration count for the PRF (600,000 for HMAC-SHA256)."
        let salts = FlowFacts.findings(self, context, Security.kdfConstantSalt, lowered: .note, fix: fix) { host, u in
            "\(host.name) derives a key with a salt written in its code, the same for every user, so one precomputed table serves them all: \(UsageReading.describe(u))"
        }
        let rounds = FlowFacts.findings(self, context, Security.kdfIterations, lowered: .note, fix: fix) { host, u in
            "\(host.name) derives a key with \(u.key) PBKDF iterations, fewer than OWASP's floor, which makes each password guess cheap: \(UsageReading.describe(u))"
        }
        let passwords = FlowFacts.findings(self, context, Security.kdfConstantPassword, severity: .error, lowered: .warning, fix: fix) { host, u in
            "\(host.name) derives a key from a password written in its code, so the key is as public as the app: \(UsageReading.describe(u))"
        }
        return salts + rounds + passwords
    }
}
