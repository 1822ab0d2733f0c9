/// Cases for key material, IVs, KDF inputs, modes, TLS versions and hashes.
extension PeerCases {
    static let constantPassword: [PeerCase] = [
        .bad(.constantPassword, "PBKDF2 with a literal password", ["App/Vault.swift": """
            import CryptoSwift

            func vaultKey(salt: [UInt8]) throws -> [UInt8] {
                try PKCS5.PBKDF2(password: Array("correct horse".utf8), salt: salt, iterations: 700_000, keyLength: 32,
                                 variant: .sha2(.sha256)).calculate()
            }
            """]),
        .bad(.constantPassword, "CommonCrypto PBKDF with a constant", ["App/Vault.swift": """
            import CommonCrypto
            import Foundation

            let masterPassphrase = "open sesame"

            func vaultKey(salt: [UInt8]) -> [UInt8] {
                var key = [UInt8](repeating: 0, count: 32)
                CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), masterPassphrase, masterPassphrase.utf8.count, salt, salt.count,
                                     CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256), 700_000, &key, key.count)
                return key
            }
            """]),
        .bad(.constantPassword, "HKDF over literal bytes", ["App/Vault.swift": """
            import CryptoSwift

            func sessionKey(salt: [UInt8]) throws -> [UInt8] {
                let seed: [UInt8] = [0x13, 0x37, 0xbe, 0xef, 0x42, 0x24, 0x11, 0x99]
                return try HKDF(password: seed, salt: salt, info: nil, keyLength: 32, variant: .sha2(.sha256)).calculate()
            }
            """]),
        .bad(.constantPassword, "scrypt with a constant password", ["App/Vault.swift": """
            import CryptoSwift

            func vaultKey(salt: [UInt8]) throws -> [UInt8] {
                try Scrypt(password: Array("letmein-forever".utf8), salt: salt, dkLen: 32, N: 16384, r: 8, p: 1).calculate()
            }
            """]),
        .bad(.constantPassword, "RNCryptor with a literal password", ["App/Vault.swift": """
            import Foundation
            import RNCryptor

            func seal(_ note: Data) -> Data {
                RNCryptor.encrypt(data: note, withPassword: "s3cr3t-app-pass")
            }
            """]),
        .bad(.constantPassword, "RNCryptor encryptor, password from another file", [
            "App/Secrets.swift": """
            enum Secrets {
                static let archivePassword = "archive-2024"
            }
            """,
            "App/Vault.swift": """
            import Foundation
            import RNCryptor

            func seal(_ note: Data) -> Data {
                let encryptor = RNCryptor.Encryptor(password: Secrets.archivePassword)
                return encryptor.encrypt(data: note)
            }
            """]),
        .bad(.constantPassword, "RNCryptor's Objective-C API from Swift", ["App/Vault.swift": """
            import Foundation
            import RNCryptor

            func seal(_ note: Data) throws -> Data {
                try RNEncryptor.encryptData(note, with: kRNCryptorAES256Settings, password: "vault-pass-1")
            }
            """]),
        .bad(.constantPassword, "Objective-C RNEncryptor with a literal password", ["App/Vault.m": """
            #import "RNEncryptor.h"

            @implementation Vault
            - (NSData *)seal:(NSData *)note {
                NSError *error = nil;
                return [RNEncryptor encryptData:note withSettings:kRNCryptorAES256Settings password:@"vault-pass-1" error:&error];
            }
            @end
            """]),
        .good(.constantPassword, "the user's password into PBKDF2", ["App/Vault.swift": """
            import CryptoSwift

            func vaultKey(password: String, salt: [UInt8]) throws -> [UInt8] {
                try PKCS5.PBKDF2(password: Array(password.utf8), salt: salt, iterations: 700_000, keyLength: 32,
                                 variant: .sha2(.sha256)).calculate()
            }
            """]),
        .good(.constantPassword, "RNCryptor with the user's password", ["App/Vault.swift": """
            import Foundation
            import RNCryptor

            func seal(_ note: Data, password: String) -> Data {
                RNCryptor.encrypt(data: note, withPassword: password)
            }
            """]),
        .good(.constantPassword, "HKDF over a random secret", ["App/Vault.swift": """
            import CryptoSwift
            import Foundation

            func sessionKey(salt: [UInt8]) throws -> [UInt8] {
                var seed = [UInt8](repeating: 0, count: 32)
                _ = SecRandomCopyBytes(kSecRandomDefault, seed.count, &seed)
                return try HKDF(password: seed, salt: salt, info: nil, keyLength: 32, variant: .sha2(.sha256)).calculate()
            }
            """]),
    ]

    static let constantSalt: [PeerCase] = [
        .bad(.constantSalt, "CommonCrypto PBKDF with a literal salt", ["App/KDF.swift": """
            import CommonCrypto
            import Foundation

            func derive(password: String) -> [UInt8] {
                let salt = Array("NaCl-NaCl".utf8)
                var key = [UInt8](repeating: 0, count: 32)
                CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), password, password.utf8.count, salt, salt.count,
                                     CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256), 700_000, &key, key.count)
                return key
            }
            """]),
        .bad(.constantSalt, "CryptoSwift PBKDF2 with literal bytes", ["App/KDF.swift": """
            import CryptoSwift

            func derive(password: String) throws -> [UInt8] {
                try PKCS5.PBKDF2(password: Array(password.utf8), salt: [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08],
                                 iterations: 700_000, keyLength: 32, variant: .sha2(.sha256)).calculate()
            }
            """]),
        .bad(.constantSalt, "salt from another file", [
            "App/Constants.swift": """
            enum Crypto {
                static let salt: [UInt8] = [0xde, 0xad, 0xbe, 0xef, 0xfe, 0xed, 0xfa, 0xce]
            }
            """,
            "App/KDF.swift": """
            import CryptoSwift

            func derive(password: String) throws -> [UInt8] {
                try PKCS5.PBKDF2(password: Array(password.utf8), salt: Crypto.salt, iterations: 700_000, keyLength: 32,
                                 variant: .sha2(.sha256)).calculate()
            }
            """]),
        .bad(.constantSalt, "HKDF with a constant salt", ["App/KDF.swift": """
            import CryptoSwift

            func derive(secret: [UInt8]) throws -> [UInt8] {
                try HKDF(password: secret, salt: Array("app-salt".utf8), info: nil, keyLength: 32, variant: .sha2(.sha256)).calculate()
            }
            """], knownMiss: "by design: RFC 5869 lets HKDF's salt be a fixed, public value; HKDF is not a password KDF, only its input keying material is judged"),
        .bad(.constantSalt, "scrypt with a constant salt", ["App/KDF.swift": """
            import CryptoSwift

            func derive(password: String) throws -> [UInt8] {
                let salt: [UInt8] = [9, 8, 7, 6, 5, 4, 3, 2]
                return try Scrypt(password: Array(password.utf8), salt: salt, dkLen: 32, N: 16384, r: 8, p: 1).calculate()
            }
            """]),
        .bad(.constantSalt, "PBKDF1 with a constant salt", ["App/KDF.swift": """
            import CryptoSwift

            func derive(password: String) throws -> [UInt8] {
                try PKCS5.PBKDF1(password: Array(password.utf8), salt: Array("12345678".utf8), iterations: 700_000, keyLength: 16).calculate()
            }
            """]),
        .good(.constantSalt, "salt from SecRandomCopyBytes", ["App/KDF.swift": """
            import CommonCrypto
            import Foundation

            func derive(password: String) -> (salt: [UInt8], key: [UInt8]) {
                var salt = [UInt8](repeating: 0, count: 16)
                _ = SecRandomCopyBytes(kSecRandomDefault, salt.count, &salt)
                var key = [UInt8](repeating: 0, count: 32)
                CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), password, password.utf8.count, salt, salt.count,
                                     CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256), 700_000, &key, key.count)
                return (salt, key)
            }
            """]),
        .good(.constantSalt, "a salt the caller stores per user", ["App/KDF.swift": """
            import CryptoSwift

            func derive(password: String, salt: [UInt8]) throws -> [UInt8] {
                try Scrypt(password: Array(password.utf8), salt: salt, dkLen: 32, N: 16384, r: 8, p: 1).calculate()
            }
            """]),
        .good(.constantSalt, "random salt from the system generator", ["App/KDF.swift": """
            import CryptoSwift

            func derive(password: String) throws -> [UInt8] {
                var generator = SystemRandomNumberGenerator()
                let salt = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
                return try PKCS5.PBKDF2(password: Array(password.utf8), salt: salt, iterations: 700_000, keyLength: 32,
                                        variant: .sha2(.sha256)).calculate()
            }
            """]),
    ]

    static let hardcodedKey: [PeerCase] = [
        .bad(.hardcodedKey, "CryptoSwift AES with literal bytes", ["App/Cipher.swift": """
            import CryptoSwift

            func seal(_ plain: [UInt8], iv: [UInt8]) throws -> [UInt8] {
                let key: [UInt8] = [0x10, 0x21, 0x32, 0x43, 0x54, 0x65, 0x76, 0x87, 0x98, 0xa9, 0xba, 0xcb, 0xdc, 0xed, 0xfe, 0x0f]
                return try AES(key: key, blockMode: CBC(iv: iv), padding: .pkcs7).encrypt(plain)
            }
            """]),
        .bad(.hardcodedKey, "CryptoKit SymmetricKey from a string", ["App/Cipher.swift": """
            import CryptoKit
            import Foundation

            func seal(_ plain: Data) throws -> Data {
                let key = SymmetricKey(data: "0123456789abcdef0123456789abcdef".data(using: .utf8)!)
                return try AES.GCM.seal(plain, using: key).combined!
            }
            """]),
        .bad(.hardcodedKey, "CCCrypt key from another file", [
            "App/Keys.swift": """
            enum Keys {
                static let storage = "K3yK3yK3yK3yK3y!"
            }
            """,
            "App/Cipher.swift": """
            import CommonCrypto
            import Foundation

            func seal(_ plain: [UInt8], iv: [UInt8], out: inout [UInt8], moved: inout Int) {
                let key = Array(Keys.storage.utf8)
                CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding),
                        key, key.count, iv, plain, plain.count, &out, out.count, &moved)
            }
            """]),
        .bad(.hardcodedKey, "key from a helper that returns a constant", ["App/Cipher.swift": """
            import CryptoSwift

            func storageKey() -> [UInt8] {
                Array("abcdefghijklmnopabcdefghijklmnop".utf8)
            }

            func seal(_ plain: [UInt8], iv: [UInt8]) throws -> [UInt8] {
                try AES(key: storageKey(), blockMode: GCM(iv: iv, mode: .combined), padding: .noPadding).encrypt(plain)
            }
            """]),
        .bad(.hardcodedKey, "Blowfish with a string key", ["App/Cipher.swift": """
            import CryptoSwift

            func seal(_ plain: [UInt8], iv: String) throws -> [UInt8] {
                try Blowfish(key: "legacy-blowfish-key", iv: iv).encrypt(plain)
            }
            """]),
        .bad(.hardcodedKey, "CryptoSwift HMAC with a constant key", ["App/Signer.swift": """
            import CryptoSwift

            func sign(_ message: [UInt8]) throws -> [UInt8] {
                let secret = Array("hmac-signing-secret".utf8)
                return try HMAC(key: secret, variant: .sha2(.sha256)).authenticate(message)
            }
            """]),
        .bad(.hardcodedKey, "ChaCha20 with a constant key", ["App/Cipher.swift": """
            import CryptoSwift

            let streamKey: [UInt8] = Array(repeating: 0x5a, count: 32)

            func seal(_ plain: [UInt8], nonce: [UInt8]) throws -> [UInt8] {
                try ChaCha20(key: streamKey, iv: nonce).encrypt(plain)
            }
            """]),
        .bad(.hardcodedKey, "RNCryptor V3 with literal keys", ["App/Cipher.swift": """
            import Foundation
            import RNCryptor

            func seal(_ plain: Data) -> Data {
                let encryptionKey = Data("0123456789abcdef0123456789abcdef".utf8)
                let hmacKey = Data("fedcba9876543210fedcba9876543210".utf8)
                return RNCryptor.EncryptorV3(encryptionKey: encryptionKey, hmacKey: hmacKey).encrypt(data: plain)
            }
            """]),
        .bad(.hardcodedKey, "Objective-C CCCrypt with a literal key", ["App/Cipher.m": """
            #import <CommonCrypto/CommonCryptor.h>

            @implementation Cipher
            - (NSData *)seal:(NSData *)plain iv:(NSData *)iv {
                char out[1024];
                size_t moved = 0;
                CCCrypt(kCCEncrypt, kCCAlgorithmAES, kCCOptionPKCS7Padding, "0123456789abcdef", kCCKeySizeAES128,
                        iv.bytes, plain.bytes, plain.length, out, sizeof(out), &moved);
                return [NSData dataWithBytes:out length:moved];
            }
            @end
            """]),
        .bad(.hardcodedKey, "AES(key:iv:) with string constants", ["App/Cipher.swift": """
            import CryptoSwift

            func seal(_ plain: [UInt8], iv: String) throws -> [UInt8] {
                let keyString = "sixteen byte key"
                return try AES(key: keyString, iv: iv).encrypt(plain)
            }
            """]),
        .bad(.hardcodedKey, "Rabbit with a literal key", ["App/Cipher.swift": """
            import CryptoSwift

            func seal(_ plain: [UInt8]) throws -> [UInt8] {
                try Rabbit(key: "0123456789abcdef").encrypt(plain)
            }
            """]),
        .good(.hardcodedKey, "SymmetricKey(size:)", ["App/Cipher.swift": """
            import CryptoKit
            import Foundation

            func seal(_ plain: Data) throws -> (SymmetricKey, Data) {
                let key = SymmetricKey(size: .bits256)
                return (key, try AES.GCM.seal(plain, using: key).combined!)
            }
            """]),
        .good(.hardcodedKey, "key from SecRandomCopyBytes", ["App/Cipher.swift": """
            import CryptoSwift
            import Foundation

            func seal(_ plain: [UInt8], iv: [UInt8]) throws -> ([UInt8], [UInt8]) {
                var key = [UInt8](repeating: 0, count: 32)
                _ = SecRandomCopyBytes(kSecRandomDefault, key.count, &key)
                return (key, try AES(key: key, blockMode: CBC(iv: iv), padding: .pkcs7).encrypt(plain))
            }
            """]),
        .good(.hardcodedKey, "key derived from the user's password", ["App/Cipher.swift": """
            import CryptoSwift

            func seal(_ plain: [UInt8], password: String, salt: [UInt8], iv: [UInt8]) throws -> [UInt8] {
                let key = try PKCS5.PBKDF2(password: Array(password.utf8), salt: salt, iterations: 700_000, keyLength: 32,
                                           variant: .sha2(.sha256)).calculate()
                return try AES(key: key, blockMode: CBC(iv: iv), padding: .pkcs7).encrypt(plain)
            }
            """]),
        .good(.hardcodedKey, "HMAC with a key from the keychain", ["App/Signer.swift": """
            import CryptoSwift

            func sign(_ message: [UInt8], keychainKey: [UInt8]) throws -> [UInt8] {
                try HMAC(key: keychainKey, variant: .sha2(.sha256)).authenticate(message)
            }
            """]),
    ]

    static let staticIV: [PeerCase] = [
        .bad(.staticIV, "CBC with a zero IV", ["App/Cipher.swift": """
            import CryptoSwift

            func seal(_ plain: [UInt8], key: [UInt8]) throws -> [UInt8] {
                try AES(key: key, blockMode: CBC(iv: [UInt8](repeating: 0, count: 16)), padding: .pkcs7).encrypt(plain)
            }
            """]),
        .bad(.staticIV, "AES(key:iv:) with a literal IV", ["App/Cipher.swift": """
            import CryptoSwift

            func seal(_ plain: [UInt8], key: String) throws -> [UInt8] {
                try AES(key: key, iv: "fedcba9876543210").encrypt(plain)
            }
            """]),
        .bad(.staticIV, "CCCrypt IV through a variable", ["App/Cipher.swift": """
            import CommonCrypto
            import Foundation

            func seal(_ plain: [UInt8], key: [UInt8], out: inout [UInt8], moved: inout Int) {
                let iv = Array("1234567890123456".utf8)
                CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding),
                        key, key.count, iv, plain, plain.count, &out, out.count, &moved)
            }
            """]),
        .bad(.staticIV, "CTR with an IV from another file", [
            "App/Constants.swift": """
            let counterStart: [UInt8] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
            """,
            "App/Cipher.swift": """
            import CryptoSwift

            func seal(_ plain: [UInt8], key: [UInt8]) throws -> [UInt8] {
                try AES(key: key, blockMode: CTR(iv: counterStart), padding: .noPadding).encrypt(plain)
            }
            """]),
        .bad(.staticIV, "GCM nonce constant", ["App/Cipher.swift": """
            import CryptoSwift

            func seal(_ plain: [UInt8], key: [UInt8]) throws -> [UInt8] {
                let nonce: [UInt8] = [1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144]
                return try AES(key: key, blockMode: GCM(iv: nonce, mode: .combined), padding: .noPadding).encrypt(plain)
            }
            """]),
        .bad(.staticIV, "CFB with a global constant IV", ["App/Cipher.swift": """
            import CryptoSwift

            let fixedIV = Array("abcdefghijklmnop".utf8)

            func sealA(_ plain: [UInt8], key: [UInt8]) throws -> [UInt8] {
                try AES(key: key, blockMode: CFB(iv: fixedIV), padding: .noPadding).encrypt(plain)
            }
            """]),
        .bad(.staticIV, "ChaCha20 with a constant nonce", ["App/Cipher.swift": """
            import CryptoSwift

            func seal(_ plain: [UInt8], key: [UInt8]) throws -> [UInt8] {
                try ChaCha20(key: key, iv: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).encrypt(plain)
            }
            """]),
        .bad(.staticIV, "CCCryptorCreateWithMode with a constant IV", ["App/Cipher.swift": """
            import CommonCrypto
            import Foundation

            func makeCryptor(key: [UInt8]) -> CCCryptorRef? {
                let iv = [UInt8](repeating: 0x41, count: kCCBlockSizeAES128)
                var cryptor: CCCryptorRef?
                CCCryptorCreateWithMode(CCOperation(kCCEncrypt), CCMode(kCCModeCTR), CCAlgorithm(kCCAlgorithmAES), CCPadding(ccNoPadding),
                                        iv, key, key.count, nil, 0, 0, CCModeOptions(kCCModeOptionCTR_BE), &cryptor)
                return cryptor
            }
            """]),
        .bad(.staticIV, "Objective-C CCCrypt with a literal IV", ["App/Cipher.m": """
            #import <CommonCrypto/CommonCryptor.h>

            @implementation Cipher
            - (NSData *)seal:(NSData *)plain key:(NSData *)key {
                char out[1024];
                size_t moved = 0;
                CCCrypt(kCCEncrypt, kCCAlgorithmAES, kCCOptionPKCS7Padding, key.bytes, key.length,
                        "abcdefghijklmnop", plain.bytes, plain.length, out, sizeof(out), &moved);
                return [NSData dataWithBytes:out length:moved];
            }
            @end
            """]),
        .bad(.staticIV, "OCB with a constant nonce", ["App/Cipher.swift": """
            import CryptoSwift

            func seal(_ plain: [UInt8], key: [UInt8]) throws -> [UInt8] {
                let nonce = Array("fixed-nonce!".utf8)
                return try AES(key: key, blockMode: OCB(nonce: nonce, mode: .combined), padding: .noPadding).encrypt(plain)
            }
            """]),
        .good(.staticIV, "CryptoSwift random IV", ["App/Cipher.swift": """
            import CryptoSwift

            func seal(_ plain: [UInt8], key: [UInt8]) throws -> ([UInt8], [UInt8]) {
                let iv = AES.randomIV(AES.blockSize)
                return (iv, try AES(key: key, blockMode: CBC(iv: iv), padding: .pkcs7).encrypt(plain))
            }
            """]),
        .good(.staticIV, "IV filled by SecRandomCopyBytes", ["App/Cipher.swift": """
            import CommonCrypto
            import Foundation

            func seal(_ plain: [UInt8], key: [UInt8], out: inout [UInt8], moved: inout Int) -> [UInt8] {
                var iv = [UInt8](repeating: 0, count: kCCBlockSizeAES128)
                _ = SecRandomCopyBytes(kSecRandomDefault, iv.count, &iv)
                CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding),
                        key, key.count, iv, plain, plain.count, &out, out.count, &moved)
                return iv
            }
            """]),
        .good(.staticIV, "CryptoKit picks the nonce", ["App/Cipher.swift": """
            import CryptoKit
            import Foundation

            func seal(_ plain: Data, key: SymmetricKey) throws -> Data {
                try ChaChaPoly.seal(plain, using: key).combined
            }
            """]),
    ]

    static let ecb: [PeerCase] = [
        .bad(.ecb, "CryptoSwift ECB() inline", ["App/Cipher.swift": """
            import CryptoSwift

            func seal(_ plain: [UInt8], key: [UInt8]) throws -> [UInt8] {
                try AES(key: key, blockMode: ECB(), padding: .pkcs7).encrypt(plain)
            }
            """]),
        .bad(.ecb, "ECB through a variable", ["App/Cipher.swift": """
            import CryptoSwift

            func seal(_ plain: [UInt8], key: [UInt8]) throws -> [UInt8] {
                let mode = ECB()
                let aes = try AES(key: key, blockMode: mode, padding: .pkcs7)
                return try aes.encrypt(plain)
            }
            """]),
        .bad(.ecb, "CCCrypt options with the ECB bit", ["App/Cipher.swift": """
            import CommonCrypto
            import Foundation

            func seal(_ plain: [UInt8], key: [UInt8], out: inout [UInt8], moved: inout Int) {
                CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionECBMode | kCCOptionPKCS7Padding),
                        key, key.count, nil, plain, plain.count, &out, out.count, &moved)
            }
            """]),
        .bad(.ecb, "CCCryptorCreateWithMode ECB", ["App/Cipher.swift": """
            import CommonCrypto
            import Foundation

            func makeCryptor(key: [UInt8]) -> CCCryptorRef? {
                var cryptor: CCCryptorRef?
                CCCryptorCreateWithMode(CCOperation(kCCEncrypt), CCMode(kCCModeECB), CCAlgorithm(kCCAlgorithmAES), CCPadding(ccPKCS7Padding),
                                        nil, key, key.count, nil, 0, 0, 0, &cryptor)
                return cryptor
            }
            """]),
        .bad(.ecb, "Objective-C CCCrypt ECB", ["App/Cipher.m": """
            #import <CommonCrypto/CommonCryptor.h>

            @implementation Cipher
            - (NSData *)seal:(NSData *)plain key:(NSData *)key {
                char out[1024];
                size_t moved = 0;
                CCCrypt(kCCEncrypt, kCCAlgorithmAES128, kCCOptionPKCS7Padding | kCCOptionECBMode, key.bytes, key.length,
                        NULL, plain.bytes, plain.length, out, sizeof(out), &moved);
                return [NSData dataWithBytes:out length:moved];
            }
            @end
            """]),
        .bad(.ecb, "options constant of the type", ["App/Cipher.swift": """
            import CommonCrypto
            import Foundation

            struct Cipher {
                static let options = CCOptions(kCCOptionPKCS7Padding | kCCOptionECBMode)

                func seal(_ plain: [UInt8], key: [UInt8], out: inout [UInt8], moved: inout Int) {
                    CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), Cipher.options,
                            key, key.count, nil, plain, plain.count, &out, out.count, &moved)
                }
            }
            """]),
        .good(.ecb, "CBC with a random IV", ["App/Cipher.swift": """
            import CryptoSwift

            func seal(_ plain: [UInt8], key: [UInt8]) throws -> [UInt8] {
                try AES(key: key, blockMode: CBC(iv: AES.randomIV(AES.blockSize)), padding: .pkcs7).encrypt(plain)
            }
            """]),
        .good(.ecb, "CCCrypt with padding only (CBC)", ["App/Cipher.swift": """
            import CommonCrypto
            import Foundation

            func seal(_ plain: [UInt8], key: [UInt8], iv: [UInt8], out: inout [UInt8], moved: inout Int) {
                CCCrypt(CCOperation(kCCEncrypt), CCAlgorithm(kCCAlgorithmAES), CCOptions(kCCOptionPKCS7Padding),
                        key, key.count, iv, plain, plain.count, &out, out.count, &moved)
            }
            """]),
        .good(.ecb, "AES-GCM", ["App/Cipher.swift": """
            import CryptoKit
            import Foundation

            func seal(_ plain: Data, key: SymmetricKey) throws -> Data {
                try AES.GCM.seal(plain, using: key).combined!
            }
            """]),
    ]

    static let tls: [PeerCase] = [
        .bad(.tls, "session minimum TLS 1.0", ["App/Network.swift": """
            import Foundation

            func makeSession() -> URLSession {
                let configuration = URLSessionConfiguration.default
                configuration.tlsMinimumSupportedProtocolVersion = .TLSv10
                return URLSession(configuration: configuration)
            }
            """]),
        .bad(.tls, "fully qualified TLS 1.1", ["App/Network.swift": """
            import Foundation

            func makeSession() -> URLSession {
                let configuration = URLSessionConfiguration.ephemeral
                configuration.tlsMinimumSupportedProtocolVersion = tls_protocol_version_t.TLSv11
                return URLSession(configuration: configuration)
            }
            """]),
        .bad(.tls, "through a variable", ["App/Network.swift": """
            import Foundation

            func makeSession() -> URLSession {
                let floor = tls_protocol_version_t.TLSv11
                let configuration = URLSessionConfiguration.default
                configuration.tlsMinimumSupportedProtocolVersion = floor
                return URLSession(configuration: configuration)
            }
            """]),
        .bad(.tls, "maximum pinned to TLS 1.0", ["App/Network.swift": """
            import Foundation

            func makeSession() -> URLSession {
                let configuration = URLSessionConfiguration.default
                configuration.tlsMaximumSupportedProtocolVersion = .TLSv10
                return URLSession(configuration: configuration)
            }
            """]),
        .bad(.tls, "deprecated SSLProtocol minimum", ["App/Network.swift": """
            import Foundation

            func makeSession() -> URLSession {
                let configuration = URLSessionConfiguration.default
                configuration.tlsMinimumSupportedProtocol = .tlsProtocol1
                return URLSession(configuration: configuration)
            }
            """]),
        .bad(.tls, "Network.framework options", ["App/Network.swift": """
            import Network

            func makeParameters() -> NWParameters {
                let tls = NWProtocolTLS.Options()
                sec_protocol_options_set_min_tls_protocol_version(tls.securityProtocolOptions, .TLSv10)
                return NWParameters(tls: tls)
            }
            """]),
        .bad(.tls, "Objective-C session configuration", ["App/Network.m": """
            #import <Foundation/Foundation.h>

            @implementation Network
            - (NSURLSession *)makeSession {
                NSURLSessionConfiguration *configuration = [NSURLSessionConfiguration defaultSessionConfiguration];
                configuration.TLSMinimumSupportedProtocolVersion = tls_protocol_version_TLSv10;
                return [NSURLSession sessionWithConfiguration:configuration];
            }
            @end
            """]),
        .bad(.tls, "version constant from another file", [
            "App/Config.swift": """
            import Foundation

            enum NetworkConfig {
                static let minimumTLS = tls_protocol_version_t.TLSv11
            }
            """,
            "App/Network.swift": """
            import Foundation

            func makeSession() -> URLSession {
                let configuration = URLSessionConfiguration.default
                configuration.tlsMinimumSupportedProtocolVersion = NetworkConfig.minimumTLS
                return URLSession(configuration: configuration)
            }
            """], knownMiss: "TLS versions are followed through a let of the same function, not to a constant of another file"),
        .good(.tls, "TLS 1.2 minimum", ["App/Network.swift": """
            import Foundation

            func makeSession() -> URLSession {
                let configuration = URLSessionConfiguration.default
                configuration.tlsMinimumSupportedProtocolVersion = .TLSv12
                return URLSession(configuration: configuration)
            }
            """]),
        .good(.tls, "Network.framework TLS 1.3", ["App/Network.swift": """
            import Network

            func makeParameters() -> NWParameters {
                let tls = NWProtocolTLS.Options()
                sec_protocol_options_set_min_tls_protocol_version(tls.securityProtocolOptions, .TLSv13)
                return NWParameters(tls: tls)
            }
            """]),
        .good(.tls, "system defaults", ["App/Network.swift": """
            import Foundation

            func makeSession() -> URLSession {
                URLSession(configuration: .default)
            }
            """]),
        .good(.tls, "maximum TLS 1.3", ["App/Network.swift": """
            import Foundation

            func makeSession() -> URLSession {
                let configuration = URLSessionConfiguration.default
                configuration.tlsMaximumSupportedProtocolVersion = .TLSv13
                return URLSession(configuration: configuration)
            }
            """]),
    ]

    static let iterations: [PeerCase] = [
        .bad(.iterations, "CommonCrypto 1,000 rounds", ["App/KDF.swift": """
            import CommonCrypto
            import Foundation

            func derive(password: String, salt: [UInt8]) -> [UInt8] {
                var key = [UInt8](repeating: 0, count: 32)
                CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), password, password.utf8.count, salt, salt.count,
                                     CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256), 1000, &key, key.count)
                return key
            }
            """]),
        .bad(.iterations, "CryptoSwift PBKDF2 10,000", ["App/KDF.swift": """
            import CryptoSwift

            func derive(password: String, salt: [UInt8]) throws -> [UInt8] {
                try PKCS5.PBKDF2(password: Array(password.utf8), salt: salt, iterations: 10_000, keyLength: 32,
                                 variant: .sha2(.sha256)).calculate()
            }
            """]),
        .bad(.iterations, "rounds through a variable", ["App/KDF.swift": """
            import CommonCrypto
            import Foundation

            func derive(password: String, salt: [UInt8]) -> [UInt8] {
                let rounds: UInt32 = 5_000
                var key = [UInt8](repeating: 0, count: 32)
                CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), password, password.utf8.count, salt, salt.count,
                                     CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA1), rounds, &key, key.count)
                return key
            }
            """]),
        .bad(.iterations, "rounds from a parameter default", ["App/KDF.swift": """
            import CryptoSwift

            func derive(password: String, salt: [UInt8], rounds: Int = 2_048) throws -> [UInt8] {
                try PKCS5.PBKDF2(password: Array(password.utf8), salt: salt, iterations: rounds, keyLength: 32,
                                 variant: .sha2(.sha256)).calculate()
            }

            func unlock(password: String, salt: [UInt8]) throws -> [UInt8] {
                try derive(password: password, salt: salt)
            }
            """]),
        .bad(.iterations, "PBKDF1 with few iterations", ["App/KDF.swift": """
            import CryptoSwift

            func derive(password: String, salt: [UInt8]) throws -> [UInt8] {
                try PKCS5.PBKDF1(password: Array(password.utf8), salt: salt, iterations: 100, keyLength: 16).calculate()
            }
            """]),
        .good(.iterations, "600,000 rounds of HMAC-SHA256", ["App/KDF.swift": """
            import CommonCrypto
            import Foundation

            func derive(password: String, salt: [UInt8]) -> [UInt8] {
                var key = [UInt8](repeating: 0, count: 32)
                CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), password, password.utf8.count, salt, salt.count,
                                     CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256), 600_000, &key, key.count)
                return key
            }
            """]),
        .good(.iterations, "calibrated rounds", ["App/KDF.swift": """
            import CommonCrypto
            import Foundation

            func derive(password: String, salt: [UInt8]) -> [UInt8] {
                let rounds = CCCalibratePBKDF(CCPBKDFAlgorithm(kCCPBKDF2), password.utf8.count, salt.count,
                                              CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256), 32, 250)
                var key = [UInt8](repeating: 0, count: 32)
                CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), password, password.utf8.count, salt, salt.count,
                                     CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256), rounds, &key, key.count)
                return key
            }
            """]),
        .good(.iterations, "CryptoSwift SHA-512 with 250,000", ["App/KDF.swift": """
            import CryptoSwift

            func derive(password: String, salt: [UInt8]) throws -> [UInt8] {
                try PKCS5.PBKDF2(password: Array(password.utf8), salt: salt, iterations: 250_000, keyLength: 64,
                                 variant: .sha2(.sha512)).calculate()
            }
            """]),
    ]

    static let weakHash: [PeerCase] = [
        .bad(.weakHash, "CryptoKit MD5 of a password", ["App/Hash.swift": """
            import CryptoKit
            import Foundation

            func fingerprint(password: String) -> String {
                Insecure.MD5.hash(data: Data(password.utf8)).map { String(format: "%02x", $0) }.joined()
            }
            """]),
        .bad(.weakHash, "CC_MD5 of a password", ["App/Hash.swift": """
            import CommonCrypto
            import Foundation

            func fingerprint(password: String) -> [UInt8] {
                let bytes = Array(password.utf8)
                var digest = [UInt8](repeating: 0, count: Int(CC_MD5_DIGEST_LENGTH))
                CC_MD5(bytes, CC_LONG(bytes.count), &digest)
                return digest
            }
            """]),
        .bad(.weakHash, "CryptoSwift md5()", ["App/Hash.swift": """
            import CryptoSwift

            func loginParameter(password: String) -> String {
                password.md5()
            }
            """]),
        .bad(.weakHash, "SHA-1 of a token through a variable", ["App/Hash.swift": """
            import CryptoKit
            import Foundation

            func tokenDigest(authToken: String) -> Insecure.SHA1.Digest {
                let tokenData = authToken.data(using: .utf8)!
                return Insecure.SHA1.hash(data: tokenData)
            }
            """]),
        .bad(.weakHash, "CryptoSwift sha1 of a secret", ["App/Hash.swift": """
            import CryptoSwift

            func verifier(clientSecret: String) -> String {
                clientSecret.sha1()
            }
            """]),
        .bad(.weakHash, "incremental MD5 hasher over a password", ["App/Hash.swift": """
            import CryptoKit
            import Foundation

            func fingerprint(password: String, salt: Data) -> Insecure.MD5.Digest {
                var hasher = Insecure.MD5()
                hasher.update(data: salt)
                hasher.update(data: Data(password.utf8))
                return hasher.finalize()
            }
            """]),
        .good(.weakHash, "incremental MD5 of file chunks", ["App/Hash.swift": """
            import CryptoKit
            import Foundation

            func checksum(chunks: [Data]) -> Insecure.MD5.Digest {
                var hasher = Insecure.MD5()
                for chunk in chunks { hasher.update(data: chunk) }
                return hasher.finalize()
            }
            """]),
        .good(.weakHash, "MD5 of file contents", ["App/Hash.swift": """
            import CryptoKit
            import Foundation

            func checksum(of fileData: Data) -> String {
                Insecure.MD5.hash(data: fileData).map { String(format: "%02x", $0) }.joined()
            }
            """]),
        .good(.weakHash, "SHA-256 of a token", ["App/Hash.swift": """
            import CryptoKit
            import Foundation

            func tokenFingerprint(accessToken: String) -> SHA256.Digest {
                SHA256.hash(data: Data(accessToken.utf8))
            }
            """]),
        .good(.weakHash, "MD5 of a cache key", ["App/Hash.swift": """
            import CryptoSwift

            func cacheName(for url: String) -> String {
                url.md5()
            }
            """]),
    ]

    static let passwordHash: [PeerCase] = [
        .bad(.passwordHash, "SHA-256 of a password", ["App/Hash.swift": """
            import CryptoKit
            import Foundation

            func verifier(password: String) -> SHA256.Digest {
                SHA256.hash(data: Data(password.utf8))
            }
            """]),
        .bad(.passwordHash, "CC_SHA256 of a password", ["App/Hash.swift": """
            import CommonCrypto
            import Foundation

            func verifier(password: String) -> [UInt8] {
                let bytes = Array(password.utf8)
                var digest = [UInt8](repeating: 0, count: Int(CC_SHA256_DIGEST_LENGTH))
                CC_SHA256(bytes, CC_LONG(bytes.count), &digest)
                return digest
            }
            """]),
        .bad(.passwordHash, "CryptoSwift sha512 of a passcode", ["App/Hash.swift": """
            import CryptoSwift

            func verifier(passcode: String) -> String {
                passcode.sha512()
            }
            """]),
        .bad(.passwordHash, "SHA-512 through a variable", ["App/Hash.swift": """
            import CryptoKit
            import Foundation

            func verifier(newPassword: String) -> SHA512.Digest {
                let material = Data(newPassword.utf8)
                return SHA512.hash(data: material)
            }
            """]),
        .bad(.passwordHash, "CryptoSwift SHA2 object over a password", ["App/Hash.swift": """
            import CryptoSwift

            func verifier(password: String) -> [UInt8] {
                SHA2(variant: .sha256).calculate(for: Array(password.utf8))
            }
            """]),
        .good(.passwordHash, "PBKDF2 of a password", ["App/Hash.swift": """
            import CommonCrypto
            import Foundation

            func verifier(password: String, salt: [UInt8]) -> [UInt8] {
                var key = [UInt8](repeating: 0, count: 32)
                CCKeyDerivationPBKDF(CCPBKDFAlgorithm(kCCPBKDF2), password, password.utf8.count, salt, salt.count,
                                     CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256), 600_000, &key, key.count)
                return key
            }
            """]),
        .good(.passwordHash, "SHA-256 of a session id", ["App/Hash.swift": """
            import CryptoKit
            import Foundation

            func fingerprint(sessionIdentifier: String) -> SHA256.Digest {
                SHA256.hash(data: Data(sessionIdentifier.utf8))
            }
            """]),
        .good(.passwordHash, "SHA-256 of a document", ["App/Hash.swift": """
            import CryptoKit
            import Foundation

            func digest(document: Data) -> SHA256.Digest {
                SHA256.hash(data: document)
            }
            """]),
    ]
}
