import Foundation
import Artifacts
import Evidence

public struct StaticIVRule: Rule {
    public init() {}
    typealias Security = ProtectedResourceCatalog.Security

    public static let description = RuleDescription(
        identifier: "static_iv",
        name: "Static IV or nonce",
        summary: "An initialization vector or nonce is a constant written in the code (literal bytes, zero-filled bytes, a file constant) given to CCCrypt, CryptoSwift's block modes or AES.GCM.Nonce(data:).",
        rationale: """
        An IV or nonce must differ for every message encrypted under one key. With CBC, a fixed \
        IV makes equal plaintext prefixes encrypt to equal ciphertext prefixes, which leaks what \
        messages share and enables chosen-plaintext attacks; with GCM, CTR or ChaCha20-Poly1305 \
        a repeated nonce is catastrophic: two messages XOR to the XOR of their plaintexts and \
        GCM's authentication key can be recovered, so messages can be forged (OWASP \
        MASVS-CRYPTO-1; CWE-329, CWE-1204).

        Found by following the IV argument back through its function (bindings, conversions, \
        concatenation, the file's constants, and one level of the same file's callers when it is \
        a parameter) and across the files of the target's code closure (constants declared \
        elsewhere, callers in other files, a parameter's constant default that a call in another \
        file leaves out — reported once, at the IV), as for `hardcoded_crypto_key`. Sinks: CommonCrypto \
        `CCCrypt`, `CCCryptorCreate`, `CCCryptorCreateFromData` (IV argument), \
        `CCCryptorCreateWithMode`; CryptoSwift `CBC(iv:)`, `GCM(iv:)`, `CTR(iv:)`, `CFB(iv:)`, \
        `OFB(iv:)`, `PCBC(iv:)`, `CCM(iv:)`, `OCB(nonce:)` and `AES(key:iv:)`/`ChaCha20(key:iv:)` (in a file \
        that imports CryptoSwift); CryptoKit `AES.GCM.Nonce(data:)` and \
        `ChaChaPoly.Nonce(data:)`. A zero-filled buffer counts as a constant unless something \
        fills it first (`SecRandomCopyBytes(…, &iv)`, `iv.withUnsafeMutableBytes`). A `nil` IV \
        is not reported here. Swift sources only.

        Severity: a **warning** (a **note** in a package or pod); debug-only code is not reported.

        Fix: a fresh random IV per message (`SecRandomCopyBytes`), sent beside the ciphertext; \
        with CryptoKit, let `AES.GCM.seal` pick the nonce (omit `nonce:`).
        """,
        area: .storage, severity: .warning, tags: ["security", "crypto", "MASVS-CRYPTO-1", "CWE-329"],
        references: ["https://mas.owasp.org/MASVS/controls/MASVS-CRYPTO-1/",
                     "https://mas.owasp.org/MASTG/0x06e-Testing-Cryptography/",
                     "https://cwe.mitre.org/data/definitions/329.html",
                     "https://developer.apple.com/documentation/cryptokit/aes/gcm/nonce"],
        triggering: [
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Cipher.swift": """
                         import CommonCrypto
                         import CryptoKit
                         import Foundation

                         func encrypt(_ data: [UInt8], key: [UInt8], out: inout [UInt8], moved: inout Int) {
                             let iv = [UInt8](repeating: 0, count: kCCBlockSizeAES128)
                             CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding),
                                     key, key.count, ↓iv, data, data.count, &out, out.count, &moved)
                         }

                         func seal(_ message: Data, key: SymmetricKey) throws -> Data {
                             let nonce = try AES.GCM.Nonce(data: ↓Data(repeating: 7, count: 12))
                             return try AES.GCM.seal(message, using: key, nonce: nonce).combined!
                         }
                         """],
                        note: "A zero IV into CCCrypt; a fixed nonce for AES-GCM."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Box.swift": """
                         import CryptoSwift

                         struct Box {
                             static let iv = "abcdefghijklmnop"

                             func seal(_ text: String, key: [UInt8]) throws -> [UInt8] {
                                 let mode = CBC(iv: ↓Array(Box.iv.utf8))
                                 return try AES(key: key, blockMode: mode, padding: .pkcs7).encrypt(Array(text.utf8))
                             }

                             func sealAuthenticated(_ text: String, key: [UInt8]) throws -> [UInt8] {
                                 let nonce: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
                                 return try AES(key: key, blockMode: OCB(nonce: ↓nonce, mode: .combined), padding: .noPadding).encrypt(Array(text.utf8))
                             }
                         }
                         """],
                        note: "CryptoSwift CBC with an IV from a static constant, and OCB with a constant nonce."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Cipher.swift": """
                         import CommonCrypto
                         import CryptoKit
                         import Foundation

                         func encrypt(_ data: [UInt8], key: [UInt8], out: inout [UInt8], moved: inout Int) -> [UInt8] {
                             var iv = [UInt8](repeating: 0, count: kCCBlockSizeAES128)
                             _ = SecRandomCopyBytes(kSecRandomDefault, iv.count, &iv)
                             CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding),
                                     key, key.count, iv, data, data.count, &out, out.count, &moved)
                             return iv
                         }

                         func seal(_ message: Data, key: SymmetricKey) throws -> Data {
                             try AES.GCM.seal(message, using: key, nonce: AES.GCM.Nonce()).combined!
                         }
                         """],
                        note: "The IV filled by SecRandomCopyBytes before use, and CryptoKit's random nonce."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Box.swift": """
                         import CryptoSwift

                         func seal(_ text: String, key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
                             try AES(key: key, blockMode: GCM(iv: iv, mode: .combined), padding: .noPadding).encrypt(Array(text.utf8))
                         }

                         #if DEBUG
                         func fixture(_ key: [UInt8]) throws -> [UInt8] {
                             try AES(key: key, blockMode: CBC(iv: Array("0000000000000000".utf8)), padding: .pkcs7).encrypt([1])
                         }
                         #endif
                         """],
                        note: "An IV the caller passes (made where it is known), and a constant IV in debug-only code."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        FlowFacts.findings(self, context, Security.staticIV, lowered: .note,
                           fix: "Make a fresh random IV for every message with SecRandomCopyBytes and send it with the ciphertext; with CryptoKit, let AES.GCM.seal choose the nonce.") { host, u in
            "\(host.name) encrypts with an IV or nonce written in its code, the same for every message: \(UsageReading.describe(u))"
        }
    }
}
