/// Cryptography facts resolved from source (MASVS-CRYPTO): a weak cipher or ECB mode given to
/// CommonCrypto (or CryptoSwift), and a non-cryptographic random generator whose value becomes
/// a secret. Binaries cannot show them: `CCCrypt`'s algorithm and options are integer
/// arguments that leave no symbol, and importing `rand` says nothing about what it produces.
extension ProtectedResourceCatalog.Security {
    /// A weak algorithm passed as the algorithm argument of a CommonCrypto cryptor call, or a
    /// CryptoSwift `Blowfish` cipher. Key: the constant (`kCCAlgorithmDES`) or type (`Blowfish`).
    public static let weakCipher = "security.crypto.weak_cipher"
    /// ECB mode: `kCCOptionECBMode` in the options argument, `kCCModeECB` as the mode of
    /// `CCCryptorCreateWithMode`, CryptoSwift's `ECB()` block mode. Key: what selected it.
    public static let ecbMode = "security.crypto.ecb_mode"
    /// A non-cryptographic generator (`rand`, `random`, `drand48`, GameplayKit's seeded sources)
    /// whose value goes into something named as a secret, or that is called in a function named
    /// as producing one. Key: the generator; the API text says where the value goes.
    public static let insecureRandom = "security.crypto.insecure_random"

    /// CommonCrypto's weak algorithms (`CCAlgorithm`), by constant, with the value each
    /// constant has in `CommonCryptor.h` (so a literal argument resolves too).
    public static let weakCipherConstants: [String: UInt32] = [
        "kCCAlgorithmDES": 1, "kCCAlgorithm3DES": 2, "kCCAlgorithmTripleDES": 2, "kCCAlgorithmCAST": 3,
        "kCCAlgorithmRC4": 4, "kCCAlgorithmRC2": 5, "kCCAlgorithmBlowfish": 6,
    ]

    /// The constant naming a weak algorithm's value (`CCCrypt(0, 1, …)` is DES).
    public static func weakCipherConstant(value: UInt64) -> String? {
        switch value {
        case 1: "kCCAlgorithmDES"
        case 2: "kCCAlgorithm3DES"
        case 3: "kCCAlgorithmCAST"
        case 4: "kCCAlgorithmRC4"
        case 5: "kCCAlgorithmRC2"
        case 6: "kCCAlgorithmBlowfish"
        default: nil
        }
    }

    /// `kCCOptionECBMode` (options bit 2) and `kCCModeECB` (mode 1).
    public static let ecbOption = "kCCOptionECBMode", ecbOptionBit: UInt64 = 2
    public static let ecbModeConstant = "kCCModeECB", ecbModeValue: UInt64 = 1

    /// Cryptor calls and the argument positions (0-based) of their algorithm, options and mode.
    public struct CryptorCall: Sendable {
        public var algorithm: Int
        public var options: Int?
        public var mode: Int?
    }

    public static let cryptorCalls: [String: CryptorCall] = [
        "CCCrypt": CryptorCall(algorithm: 1, options: 2),
        "CCCryptorCreate": CryptorCall(algorithm: 1, options: 2),
        "CCCryptorCreateFromData": CryptorCall(algorithm: 1, options: 2),
        // CCCryptorCreateWithMode(op, mode, alg, padding, iv, key, keyLength, tweak, tweakLength,
        // numRounds, options, cryptorRef): its options are mode options (CTR byte order).
        "CCCryptorCreateWithMode": CryptorCall(algorithm: 2, options: nil, mode: 1),
    ]

    /// C generators that are not cryptographic: a linear congruential or additive-feedback
    /// generator, predictable from a few outputs and, seeded with the time, from the clock.
    /// Their seeders (`srand`, `srandom`, `srand48`) produce nothing and are not listed: the
    /// call that produces the value is the one reported.
    public static let insecureRandomFunctions: Set<String> = [
        "rand", "random", "drand48", "lrand48", "mrand48", "erand48", "nrand48", "jrand48",
    ]

    /// GameplayKit's deterministic sources ("not suitable for cryptography", Apple's GKRandomSource docs).
    public static let insecureRandomSources: Set<String> = [
        "GKMersenneTwisterRandomSource", "GKLinearCongruentialRandomSource", "GKARC4RandomSource",
    ]
}
