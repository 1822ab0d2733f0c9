import Foundation
import Artifacts
import Evidence

public struct HardcodedCryptoKeyRule: Rule {
    public init() {}
    typealias Security = ProtectedResourceCatalog.Security

    public static let description = RuleDescription(
        identifier: "hardcoded_crypto_key",
        name: "Hard-coded encryption key",
        summary: "An encryption key is a constant written in the code: a literal, literal bytes or a file constant reaches CCCrypt's key, SymmetricKey(data:), a CryptoSwift cipher or MAC key, RNCryptor's keys or SecKeyCreateWithData.",
        rationale: """
        A key compiled into the app is in every copy of it: anyone who downloads the app reads \
        it from the binary (`strings`, a disassembler) and decrypts whatever it protects, on \
        every device and for every user at once. Encryption with a published key protects \
        nothing (OWASP MASVS-CRYPTO-2, MASTG-TEST-0213 "Use of Hardcoded Cryptographic Keys in \
        Code"; CWE-321).

        Found by following the key argument's value back through the function that makes the \
        call: `let`/`var` bindings, `if let`/`guard let`, `Data(x.utf8)`, `x.data(using:)`, \
        `Array(x)`, `[UInt8](x)`, `String(x)`, concatenation and interpolation, and the file's \
        own constants (`static let`, globals) and functions' return values; when the key is a \
        parameter of the function, the constants the same file's calls pass for it (or its \
        default value) — one level of callers, in the same file. Across files of the target's \
        code closure (its sources and the targets, packages and pods it links): a `static let` \
        or global `let` declared in another file (`Keys.aes`, `encryptionKey`) when every \
        declaration of that name (and type) in the closure is a constant, a zero-argument \
        function of another file that returns one (`makeKey()`), and the callers in other files \
        of a function whose parameter reaches the key (an extension method \
        `data.aes(keyData:)` around `CCCrypt`) or leave a parameter to a constant default, up \
        to three functions deep and only where one \
        file of the closure declares a function of that name; the path names each step's file \
        and line. A name no file of the closure declares (a constant of another target, of a \
        binary SDK) is not joined. A constant reaches \
        the sink when every part of it is written in the code (a hash of a constant is one too). \
        A key from `SymmetricKey(size:)`, `SecRandomCopyBytes`, the keychain, a parameter or a \
        KDF over the user's password is not reported. Sinks: CommonCrypto `CCCrypt`, \
        `CCCryptorCreate`, `CCCryptorCreateFromData`, `CCCryptorCreateWithMode` (key argument), \
        CryptoKit `SymmetricKey(data:)`, CryptoSwift `AES(key:…)`, `ChaCha20(key:…)`, \
        `Blowfish(key:…)`, `Rabbit(key:…)` and the MACs `HMAC(key:)`, `CBCMAC(key:)`, \
        `CMAC(key:)`, `Poly1305(key:)` (in a file that imports CryptoSwift), RNCryptor's \
        `EncryptorV3`/`DecryptorV3(encryptionKey:hmacKey:)` (both keys), and \
        `SecKeyCreateWithData`. Swift sources only; the finding shows the path from the \
        constant to the call.

        Severity: an **error** in the app's own shipping code; a **warning** in a package or \
        pod; code only under `#if DEBUG` is not reported.

        Fix: generate the key on the device (`SymmetricKey(size: .bits256)`, \
        `SecKeyCreateRandomKey`) and keep it in the keychain (or the Secure Enclave), or \
        derive it from the user's secret with PBKDF2 and a random salt; a key the server must \
        share goes through a key exchange, never the binary.
        """,
        area: .storage, severity: .error, tags: ["security", "crypto", "MASVS-CRYPTO-2", "CWE-321"],
        references: ["https://mas.owasp.org/MASVS/controls/MASVS-CRYPTO-2/",
                     "https://mas.owasp.org/MASTG/tests/ios/MASVS-CRYPTO/MASTG-TEST-0213/",
                     "https://cwe.mitre.org/data/definitions/321.html",
                     "https://developer.apple.com/documentation/cryptokit/symmetrickey"],
        triggering: [
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Box.swift": """
                         import CommonCrypto
                         import CryptoKit
                         import Foundation

                         enum Secrets {
                             static let aesKey = "0123456789abcdef0123456789abcdef"
                         }

                         func seal(_ message: Data) throws -> Data {
                             let keyData = Data(Secrets.aesKey.utf8)
                             let key = SymmetricKey(data: ↓keyData)
                             return try AES.GCM.seal(message, using: key).combined!
                         }

                         func legacyEncrypt(_ data: [UInt8], iv: [UInt8], out: inout [UInt8], moved: inout Int) {
                             let keyBytes: [UInt8] = [0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c]
                             CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding),
                                     ↓keyBytes, keyBytes.count, iv, data, data.count, &out, out.count, &moved)
                         }
                         """],
                        note: "A static constant through Data(x.utf8) into CryptoKit; literal bytes into CCCrypt."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Vault.swift": """
                         import CryptoSwift

                         final class Vault {
                             private let key = "s3cr3t-k3y-0f-32-charact3rs-long"

                             func encrypt(_ text: String, iv: String) throws -> [UInt8] {
                                 let aes = try AES(key: ↓key, iv: iv)
                                 return try aes.encrypt(Array(text.utf8))
                             }
                         }
                         """],
                        note: "CryptoSwift's AES with a key held in a property."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Crypt.m": """
                         #import <CommonCrypto/CommonCryptor.h>

                         static NSString *const kSecretKey = @"0123456789abcdef";

                         NSData *Encrypt(NSData *plain, NSData *iv, void *out, size_t n, size_t *moved) {
                             const char *backup = "fedcba9876543210";
                             CCCrypt(kCCEncrypt, kCCAlgorithmAES, kCCOptionPKCS7Padding, ↓[kSecretKey UTF8String], kCCKeySizeAES128, iv.bytes,
                                     plain.bytes, plain.length, out, n, moved);
                             CCCrypt(kCCDecrypt, kCCAlgorithmAES, kCCOptionPKCS7Padding, ↓backup, kCCKeySizeAES128, iv.bytes,
                                     plain.bytes, plain.length, out, n, moved);
                             return nil;
                         }
                         """],
                        note: "Objective-C: a file-level string constant and a local C string as CCCrypt's key."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Keys.swift": """
                         enum Keys {
                             static let aes = "0123456789abcdef0123456789abcdef"
                         }

                         let encryptionKey = "AAAAAAAAAAAAAAAA"
                         """,
                         "App/Cipher.swift": """
                         import CommonCrypto
                         import CryptoKit
                         import Foundation

                         extension Data {
                             func aes(operation: Int, keyData: Data) -> Data {
                                 var out = [UInt8](repeating: 0, count: count + kCCBlockSizeAES128)
                                 var moved = 0
                                 keyData.withUnsafeBytes { k in
                                     _ = CCCrypt(CCOperation(operation), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding),
                                                 k.baseAddress, keyData.count, nil, [UInt8](self), count, &out, out.count, &moved)
                                 }
                                 return Data(out.prefix(moved))
                             }
                         }

                         func seal(_ message: Data) throws -> Data {
                             let key = SymmetricKey(data: ↓Data(Keys.aes.utf8))
                             return try AES.GCM.seal(message, using: key).combined!
                         }
                         """,
                         "App/Store.swift": """
                         import Foundation

                         final class Store {
                             func save(_ secret: Data) -> Data {
                                 let k = encryptionKey.data(using: .utf8)!
                                 return secret.aes(operation: 0, keyData: ↓k)
                             }
                         }
                         """],
                        note: "Across files: a static constant of another file into SymmetricKey(data:), and a global constant of a third file passed to an extension method whose parameter reaches CCCrypt's key."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Signer.swift": """
                         import CryptoSwift
                         import Foundation
                         import RNCryptor

                         func sign(_ body: [UInt8]) throws -> [UInt8] {
                             let secret = Array("request-signing-secret".utf8)
                             return try HMAC(key: ↓secret, variant: .sha2(.sha256)).authenticate(body)
                         }

                         func sealed(_ plain: Data) -> Data {
                             let encryptionKey = Data("0123456789abcdef0123456789abcdef".utf8)
                             let hmacKey = Data("fedcba9876543210fedcba9876543210".utf8)
                             return RNCryptor.EncryptorV3(encryptionKey: ↓encryptionKey, hmacKey: ↓hmacKey).encrypt(data: plain)
                         }
                         """],
                        note: "A CryptoSwift HMAC key and RNCryptor's encryption and HMAC keys written in the code."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Cipher.swift": """
                         import CommonCrypto
                         import Foundation

                         extension Data {
                             func encrypted(keyData: Data, iv: Data) -> Data {
                                 var out = [UInt8](repeating: 0, count: count + kCCBlockSizeAES128)
                                 var moved = 0
                                 _ = CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding),
                                             [UInt8](keyData), keyData.count, [UInt8](iv), [UInt8](self), count, &out, out.count, &moved)
                                 return Data(out.prefix(moved))
                             }
                         }
                         """,
                         "App/Store.swift": """
                         import Foundation
                         import Security

                         func randomBytes(_ n: Int) -> Data {
                             var bytes = [UInt8](repeating: 0, count: n)
                             _ = SecRandomCopyBytes(kSecRandomDefault, n, &bytes)
                             return Data(bytes)
                         }

                         func save(_ secret: Data, keychainKey: Data) -> Data {
                             secret.encrypted(keyData: keychainKey, iv: randomBytes(16))
                         }
                         """],
                        note: "An extension method around CCCrypt called from another file with a key the caller does not make constant (a parameter) and a random IV."),
            RuleExample(["project.yml": "name: Demo\ntargets:\n  App:\n    type: application\n    platform: iOS\n    sources: [App]\n"
                            + "    settings: {base: {INFOPLIST_FILE: App/Info.plist, PRODUCT_BUNDLE_IDENTIFIER: com.example.app}}\n"
                            + "  Tool:\n    type: application\n    platform: iOS\n    sources: [Tool]\n"
                            + "    settings: {base: {INFOPLIST_FILE: Tool/Info.plist, PRODUCT_BUNDLE_IDENTIFIER: com.example.tool}}\n",
                         "App/Info.plist": FlowFacts.infoPlist,
                         "Tool/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.tool</string>"),
                         "App/Box.swift": """
                         import CryptoKit
                         import Foundation

                         func seal(_ message: Data) throws -> Data {
                             let key = SymmetricKey(data: Data(sharedKey.utf8))
                             return try AES.GCM.seal(message, using: key).combined!
                         }
                         """,
                         "Tool/Keys.swift": """
                         let sharedKey = "0123456789abcdef0123456789abcdef"
                         """],
                        kind: .project,
                        note: "The constant is declared in another target whose code the app does not compile or link: not joined."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Keys.swift": """
                         import CryptoKit
                         import Foundation
                         import Security

                         func storedKey(_ query: [String: Any]) -> SymmetricKey? {
                             var item: CFTypeRef?
                             guard SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess, let data = item as? Data else { return nil }
                             return SymmetricKey(data: data)
                         }

                         func randomKeyBytes() -> Data {
                             var bytes = [UInt8](repeating: 0, count: 32)
                             _ = SecRandomCopyBytes(kSecRandomDefault, bytes.count, &bytes)
                             return Data(bytes)
                         }

                         func wrap(_ message: Data) throws -> Data {
                             let key = SymmetricKey(data: randomKeyBytes())
                             return try AES.GCM.seal(message, using: key).combined!
                         }
                         """],
                        note: "A key read from the keychain, and random bytes from SecRandomCopyBytes (the zero-filled buffer is filled before use)."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Derived.swift": """
                         import CryptoKit
                         import Foundation

                         func key(for password: String) -> SymmetricKey {
                             SymmetricKey(data: SHA256.hash(data: Data(password.utf8)))
                         }

                         #if DEBUG
                         let fixtureKey = SymmetricKey(data: Data("0123456789abcdef0123456789abcdef".utf8))
                         #endif
                         """],
                        note: "A key made from the user's password (weak_key_derivation judges how), and a fixture key in debug-only code."),
            RuleExample(["App/Info.plist": FlowFacts.infoPlist,
                         "App/Signer.swift": """
                         import CryptoSwift
                         import Foundation
                         import RNCryptor

                         func sign(_ body: [UInt8], keychainKey: [UInt8]) throws -> [UInt8] {
                             try HMAC(key: keychainKey, variant: .sha2(.sha256)).authenticate(body)
                         }

                         func sealed(_ plain: Data) -> (Data, Data, Data) {
                             let encryptionKey = RNCryptor.randomData(ofLength: 32)
                             let hmacKey = RNCryptor.randomData(ofLength: 32)
                             return (encryptionKey, hmacKey, RNCryptor.EncryptorV3(encryptionKey: encryptionKey, hmacKey: hmacKey).encrypt(data: plain))
                         }
                         """],
                        note: "An HMAC key the caller reads from the keychain; RNCryptor keys from its random generator."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        FlowFacts.findings(self, context, Security.hardcodedKey, lowered: .warning,
                           fix: "Generate the key on the device (SymmetricKey(size: .bits256), SecKeyCreateRandomKey) and keep it in the keychain, or derive it from the user's secret with PBKDF2 and a random salt; never ship it in the binary.") { host, u in
            "\(host.name) encrypts with a key written in its code, which anyone can read from the app: \(UsageReading.describe(u))"
        }
    }
}
