import Foundation
import Artifacts
import Evidence

public struct WeakCipherRule: Rule {
    public init() {}
    typealias Security = ProtectedResourceCatalog.Security

    public static let description = RuleDescription(
        identifier: "weak_cipher",
        name: "Weak cipher",
        summary: "Code encrypts with DES, 3DES, RC4, RC2, CAST or Blowfish: the algorithm argument of a CommonCrypto cryptor call, or CryptoSwift's Blowfish.",
        rationale: """
        DES's 56-bit key falls to exhaustive search; 3DES, Blowfish, CAST-128 and RC2 have \
        64-bit blocks, so a few gigabytes under one key leak plaintext through block collisions \
        (Sweet32), and NIST no longer allows 3DES for encryption; RC4's keystream is biased \
        (RFC 7465 banned it from TLS). Data they protect is not protected against a determined \
        attacker (OWASP MASVS-CRYPTO-1).

        Reported where the algorithm argument of `CCCrypt`, `CCCryptorCreate`, \
        `CCCryptorCreateFromData` or `CCCryptorCreateWithMode` is such a constant (through \
        Swift's `CCAlgorithm(…)` wrapping), its integer value, or a `let` of the same function \
        or type that holds one — a constant named anywhere else, such as an enum that maps \
        options to algorithms, is not a use. Binaries are left out: the algorithm is an integer \
        argument that leaves no symbol.

        Severity: a **warning** — some uses are forced by a peer (VNC's DES challenge, a \
        device's legacy protocol); suppress those with a note saying so. A **note** in a \
        package or pod compiled into the app.

        Fix: use AES-GCM (CryptoKit `AES.GCM.seal`, or `ChaChaPoly`), or at least AES \
        (`kCCAlgorithmAES`) in CBC mode with a random IV and a MAC.
        """,
        area: .storage, severity: .warning, tags: ["security", "crypto", "MASVS-CRYPTO-1"],
        references: ["https://mas.owasp.org/MASVS/controls/MASVS-CRYPTO-1/",
                     "https://mas.owasp.org/MASTG/0x06e-Testing-Cryptography/",
                     "https://developer.apple.com/documentation/cryptokit/aes/gcm"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Legacy.swift": """
                         import CommonCrypto

                         func encrypt(_ data: [UInt8], key: [UInt8], out: inout [UInt8], moved: inout Int) -> CCCryptorStatus {
                             CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(↓kCCAlgorithmDES), CCOptions(kCCOptionPKCS7Padding),
                                     key, kCCKeySizeDES, key, data, data.count, &out, out.count, &moved)
                         }

                         func stream(_ ref: inout CCCryptorRef?, key: [UInt8]) {
                             let algorithm = CCAlgorithm(kCCAlgorithmRC4)
                             CCCryptorCreate(CCOperation(kCCEncrypt), ↓algorithm, 0, key, key.count, nil, &ref)
                         }
                         """],
                        note: "Swift's wrapping, and a local constant passed as the algorithm."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/DES.m": """
                         #import <CommonCrypto/CommonCryptor.h>

                         NSData *Encrypt(NSData *data, NSData *key, void *out, size_t outLength, size_t *moved) {
                             CCCrypt(kCCEncrypt, ↓kCCAlgorithm3DES, kCCOptionPKCS7Padding, key.bytes, kCCKeySize3DES,
                                     NULL, data.bytes, data.length, out, outLength, moved);
                             return nil;
                         }
                         """],
                        note: "Objective-C."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Cipher.swift": """
                         import CommonCrypto

                         enum Cipher {
                             case des, aes
                             var algorithm: CCAlgorithm { self == .des ? CCAlgorithm(kCCAlgorithmDES) : CCAlgorithm(kCCAlgorithmAES) }
                         }

                         func encrypt(_ cipher: Cipher, key: [UInt8], data: [UInt8], out: inout [UInt8], moved: inout Int) {
                             CCCrypt(CCOperation(kCCEncrypt), cipher.algorithm, CCOptions(kCCOptionPKCS7Padding),
                                     key, key.count, nil, data, data.count, &out, out.count, &moved)
                             CCCrypt(0, CCAlgorithm(kCCAlgorithmAES), 1, key, kCCKeySizeAES256, nil, data, data.count, &out, out.count, &moved)
                         }
                         """],
                        note: "An enum's mapping names DES, but the call's argument is not resolved to it; AES."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Legacy.m": """
                         #import <CommonCrypto/CommonCryptor.h>

                         static const CCAlgorithm kAlgorithms[] = { kCCAlgorithmAES, kCCAlgorithmDES };
                         // CCCrypt(kCCEncrypt, kCCAlgorithmDES, …) was removed in 2.0
                         #ifdef DEBUG
                         void DebugDecrypt(const void *k, const void *in, size_t n, void *out, size_t *moved) {
                             CCCrypt(kCCDecrypt, kCCAlgorithmDES, 0, k, 8, NULL, in, n, out, n, moved);
                         }
                         #endif
                         """],
                        note: "A table, a comment and debug-only code."),
        ])

    /// Why each algorithm is weak, for the message.
    static let reasons: [String: String] = [
        "kCCAlgorithmDES": "DES's 56-bit key falls to exhaustive search",
        "kCCAlgorithm3DES": "3DES's 64-bit block leaks plaintext after a few GB under one key (Sweet32)",
        "kCCAlgorithmTripleDES": "3DES's 64-bit block leaks plaintext after a few GB under one key (Sweet32)",
        "kCCAlgorithmCAST": "CAST-128's 64-bit block leaks plaintext after a few GB under one key (Sweet32)",
        "kCCAlgorithmRC4": "RC4's keystream is biased (banned from TLS by RFC 7465)",
        "kCCAlgorithmRC2": "RC2's 64-bit block and weak key schedule",
        "kCCAlgorithmBlowfish": "Blowfish's 64-bit block leaks plaintext after a few GB under one key (Sweet32)",
        "Blowfish": "Blowfish's 64-bit block leaks plaintext after a few GB under one key (Sweet32)",
    ]

    public func check(_ context: RuleContext) -> [Finding] {
        SecurityFacts(context).all(Security.weakCipher).map { host, fact in
            let u = fact.usage
            let place = SecurityFacts.location(u)
            let reason = Self.reasons[u.key] ?? "a weak cipher"
            let f = finding("\(host.name) encrypts with \(u.key) (\(UsageReading.describe(u))): \(reason)",
                            bundle: host.name, at: place, key: u.key, evidence: [UsageReading.evidenceRef(u)],
                            fix: "Use AES-GCM (CryptoKit AES.GCM.seal or ChaChaPoly), or kCCAlgorithmAES with CBC, a random IV and a MAC; keep the old cipher only where a peer's protocol requires it, and suppress with that reason.",
                            fingerprint: [u.key, place.path])
            return fact.lowered(f, to: .note, "code the bundle may not run or a protocol may require")
        }
    }
}
