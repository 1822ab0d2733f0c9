/// Facts the Swift scanner's data flow resolves (`FlowResolver`): a value's origin known at a
/// sink. Each usage's API text holds the path: the source, each step with its line, the sink.
extension ProtectedResourceCatalog.Security {
    /// A constant (literal, literal bytes, a file constant) given as an encryption key. Key: the API.
    public static let hardcodedKey = "security.crypto.hardcoded_key"
    /// A constant given as an IV or nonce. Key: the API.
    public static let staticIV = "security.crypto.static_iv"
    /// A constant salt given to a password-based KDF. Key: the API.
    public static let kdfConstantSalt = "security.crypto.kdf_constant_salt"
    /// A constant password given to a password-based KDF. Key: the API.
    public static let kdfConstantPassword = "security.crypto.kdf_constant_password"
    /// A constant iteration count below the floor for the KDF's PRF. Key: the count.
    public static let kdfIterations = "security.crypto.kdf_iterations"
    /// A sensitive value hashed with MD5/SHA-1, or a password with a fast hash. Key: the hash.
    public static let weakHashOfSensitive = "security.crypto.weak_hash_sensitive"
    /// A TLS version below 1.2 set as the minimum (or maximum) in code. Key: the constant.
    public static let tlsBelow12 = "security.network.tls_below_1_2"
    /// A server-trust challenge answered with a credential for the trust without evaluating it. Key: the delegate method.
    public static let trustNotEvaluated = "security.network.trust_not_evaluated"
    /// A sensitive value written to a database in clear: SQLite's C API, GRDB, SQLite.swift, a
    /// Realm object, a Core Data managed object. Key: the API.
    public static let databaseCleartext = "security.storage.database_cleartext"
    /// A Realm configuration given an encryption key (the target's Realm files are encrypted). Key: the API.
    public static let realmEncrypted = "security.storage.realm_encrypted"
    /// A sensitive value put into the query of an `http://` URL. Key: the value's name.
    public static let cleartextCredential = "security.network.cleartext_credential"

    /// OWASP Password Storage Cheat Sheet (PBKDF2): 1,300,000 iterations with HMAC-SHA1,
    /// 600,000 with HMAC-SHA256, 210,000 with HMAC-SHA512. An unknown PRF gets the lowest.
    public static func pbkdf2Floor(prf: String?) -> UInt64 {
        switch prf?.lowercased() {
        case let p? where p.contains("sha1"): 1_300_000
        case let p? where p.contains("sha256"): 600_000
        default: 210_000
        }
    }

    /// Protocol versions below TLS 1.2, in Swift and C spellings (`tls_protocol_version_t`,
    /// `SSLProtocol`, their Swift member names).
    public static let tlsVersionsBelow12: Set<String> = [
        "TLSv10", "TLSv11", "DTLSv10", "tlsProtocol1", "tlsProtocol11", "sslProtocol3", "sslProtocol2", "sslProtocolAll",
        "kTLSProtocol1", "kTLSProtocol11", "kSSLProtocol3", "kSSLProtocol2", "kSSLProtocolAll", "kDTLSProtocol1",
        "tls_protocol_version_TLSv10", "tls_protocol_version_TLSv11", "tls_protocol_version_DTLSv10",
        // Swift 2's spellings of `SSLProtocol`.
        "TLSProtocol1", "TLSProtocol11", "SSLProtocol3", "SSLProtocol2", "SSLProtocolAll",
    ]
    /// `URLSessionConfiguration` properties that bound the TLS version (Swift spellings; Objective-C capitalises `TLS`).
    public static let tlsVersionProperties: Set<String> = ["tlsMinimumSupportedProtocolVersion", "tlsMinimumSupportedProtocol",
                                                           "tlsMaximumSupportedProtocolVersion", "tlsMaximumSupportedProtocol",
                                                           "TLSMinimumSupportedProtocol", "TLSMaximumSupportedProtocol"]
    /// Network.framework's setters (`sec_protocol_options_t`, version second).
    public static let tlsVersionFunctions: Set<String> = ["sec_protocol_options_set_min_tls_protocol_version",
                                                          "sec_protocol_options_set_max_tls_protocol_version"]

    /// CommonCrypto cryptor calls and the argument positions (0-based) of their key and IV.
    public static let cryptorKeyAndIV: [String: (key: Int, iv: Int)] = [
        "CCCrypt": (3, 5), "CCCryptorCreate": (3, 5), "CCCryptorCreateFromData": (3, 5), "CCCryptorCreateWithMode": (5, 4),
    ]
}
