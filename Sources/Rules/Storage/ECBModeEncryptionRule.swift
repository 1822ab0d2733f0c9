import Foundation
import Artifacts
import Evidence

public struct ECBModeEncryptionRule: Rule {
    public init() {}
    typealias Security = ProtectedResourceCatalog.Security

    public static let description = RuleDescription(
        identifier: "ecb_mode_encryption",
        name: "ECB mode encryption",
        summary: "Code encrypts in ECB mode: kCCOptionECBMode in a CommonCrypto call's options, kCCModeECB given to CCCryptorCreateWithMode, or CryptoSwift's ECB() block mode.",
        rationale: """
        ECB encrypts each block on its own: equal plaintext blocks give equal ciphertext blocks, \
        so the ciphertext shows the structure of the data (the classic ECB penguin), blocks can \
        be reordered or replayed unnoticed, and there is no IV, so the same message under the \
        same key always encrypts the same way. Whatever the cipher — AES included — ECB does not \
        give confidentiality for more than one block (OWASP MASVS-CRYPTO-1). CommonCrypto \
        selects it with `kCCOptionECBMode` in `CCCrypt`'s options or `kCCModeECB` as \
        `CCCryptorCreateWithMode`'s mode.

        Reported where the options argument holds `kCCOptionECBMode` (or an integer with its \
        bit), through Swift's `CCOptions(…)` wrapping, `|` and `?:`, or a `let` of the same \
        function or type; the mode argument is `kCCModeECB`; or CryptoSwift's `ECB()` is a \
        `blockMode:`. Clearing the bit (`& ~kCCOptionECBMode`) and a constant named elsewhere \
        are not uses; binaries are left out (an integer argument leaves no symbol).

        Severity: a **warning** — encrypting a single block (a key wrap, a device protocol's \
        challenge) can be a deliberate use; suppress those with the reason. A **note** in a \
        package or pod.

        Fix: use an authenticated mode — AES-GCM (CryptoKit `AES.GCM`) — or CBC with a fresh \
        random IV per message and a MAC.
        """,
        area: .storage, severity: .warning, tags: ["security", "crypto", "MASVS-CRYPTO-1"],
        references: ["https://mas.owasp.org/MASVS/controls/MASVS-CRYPTO-1/",
                     "https://mas.owasp.org/MASTG/0x06e-Testing-Cryptography/",
                     "https://developer.apple.com/documentation/cryptokit/aes/gcm"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Box.swift": """
                         import CommonCrypto
                         import CryptoSwift

                         func seal(_ data: [UInt8], key: [UInt8], out: inout [UInt8], moved: inout Int) throws {
                             CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding | ↓kCCOptionECBMode),
                                     key, key.count, nil, data, data.count, &out, out.count, &moved)
                             _ = try AES(key: key, blockMode: ↓ECB(), padding: .pkcs7).encrypt(data)
                         }
                         """],
                        note: "CommonCrypto's option through Swift's wrapping, and CryptoSwift's ECB()."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Transmitter.m": """
                         #import <CommonCrypto/CommonCryptor.h>

                         NSData *EncryptBlock(NSData *block, NSData *key, void *out, size_t *moved) {
                             CCCrypt(kCCEncrypt, kCCAlgorithmAES, ↓kCCOptionECBMode, key.bytes, kCCKeySizeAES128, NULL,
                                     block.bytes, block.length, out, 16, moved);
                             CCCryptorRef ref = NULL;
                             CCCryptorCreateWithMode(kCCEncrypt, ↓kCCModeECB, kCCAlgorithmAES, ccNoPadding, NULL, key.bytes, 16,
                                                     NULL, 0, 0, 0, &ref);
                             return nil;
                         }
                         """],
                        note: "Objective-C: the option and the mode."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Legacy.swift": """
                         import CryptoSwift

                         func seal(_ data: [UInt8], key: [UInt8]) throws -> [UInt8] {
                             let mode = ECB()
                             return try AES(key: key, blockMode: ↓mode, padding: .pkcs7).encrypt(data)
                         }
                         """],
                        note: "CryptoSwift's ECB() held in a let."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Box.swift": """
                         import CommonCrypto
                         import CryptoSwift

                         struct Options: OptionSet {
                             let rawValue: Int
                             static let ecb = Options(rawValue: kCCOptionECBMode)
                         }

                         func seal(_ data: [UInt8], key: [UInt8], iv: [UInt8], out: inout [UInt8], moved: inout Int, flags: CCOptions) throws {
                             CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), flags & ~CCOptions(kCCOptionECBMode),
                                     key, key.count, iv, data, data.count, &out, out.count, &moved)
                             _ = try AES(key: key, blockMode: GCM(iv: iv), padding: .noPadding).encrypt(data)
                         }
                         """],
                        note: "An option set naming the constant, the bit cleared, and GCM."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Cipher.m": """
                         #import <CommonCrypto/CommonCryptor.h>

                         NSData *Encrypt(NSData *d, NSData *k, NSData *iv, void *out, size_t n, size_t *moved) {
                             CCCrypt(kCCEncrypt, kCCAlgorithmAES, kCCOptionPKCS7Padding, k.bytes, kCCKeySizeAES256, iv.bytes,
                                     d.bytes, d.length, out, n, moved);
                             return nil;
                         }
                         #if DEBUG
                         void Dump(void) { CCCrypt(kCCEncrypt, kCCAlgorithmAES, kCCOptionECBMode, 0, 16, 0, 0, 0, 0, 0, 0); }
                         #endif
                         """],
                        note: "CBC with an IV, and ECB in debug-only code."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Modern.swift": """
                         import CryptoSwift

                         func seal(_ data: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
                             let mode = CBC(iv: iv)
                             return try AES(key: key, blockMode: mode, padding: .pkcs7).encrypt(data)
                         }
                         """],
                        note: "CBC held in a let."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        SecurityFacts(context).all(Security.ecbMode).map { host, fact in
            let u = fact.usage
            let place = SecurityFacts.location(u)
            let f = finding("\(host.name) encrypts in ECB mode (\(UsageReading.describe(u))): equal blocks encrypt to equal ciphertext and there is no IV, so the ciphertext shows the data's structure",
                            bundle: host.name, at: place, key: u.key, evidence: [UsageReading.evidenceRef(u)],
                            fix: "Use AES-GCM (CryptoKit AES.GCM.seal), or CBC with a fresh random IV per message and a MAC; keep ECB only for a single block a peer's protocol requires, and suppress with that reason.",
                            fingerprint: [u.key, place.path])
            return fact.lowered(f, to: .note, "code the bundle may not run or a protocol may require")
        }
    }
}
