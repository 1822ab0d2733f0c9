import Foundation

/// What a key or certificate file holds, judged by its ASN.1 shape (DER) or PEM armour.
public enum KeyFileShape: String, Sendable {
    /// PFX: `SEQUENCE { INTEGER 3, ContentInfo { OID pkcs7-data | pkcs7-signedData, … } }`.
    case pkcs12
    /// PKCS#8 `PrivateKeyInfo`, PKCS#1 `RSAPrivateKey` or SEC 1 `ECPrivateKey` in DER.
    case derPrivateKey = "der-private-key"
    /// A PEM private-key block.
    case pemPrivateKey = "pem-private-key"
    /// A Java key store whose first entry is a private key.
    case javaKeyStorePrivateKey = "jks-private-key"
    /// Anything else (certificates, public keys, unknown bytes): nothing secret is decidable.
    case other

    public var holdsPrivateKey: Bool { self != .other }

    public static func of(_ bytes: [UInt8]) -> KeyFileShape {
        if isPKCS12(bytes) { return .pkcs12 }
        if isDERPrivateKey(bytes) { return .derPrivateKey }
        if bytes.count >= 16, bytes[0] == 0xfe, bytes[1] == 0xed, bytes[2] == 0xfe, bytes[3] == 0xed,
           readUInt32(bytes, 12) == 1 { return .javaKeyStorePrivateKey }
        let found = bytes.withUnsafeBytes { SecretScanner.scan(bytes: $0) }
        if found.contains(where: { $0.kind == .privateKey || $0.kind == .encryptedPrivateKey }) { return .pemPrivateKey }
        return .other
    }

    static func readUInt32(_ b: [UInt8], _ o: Int) -> UInt32 {
        UInt32(b[o]) << 24 | UInt32(b[o + 1]) << 16 | UInt32(b[o + 2]) << 8 | UInt32(b[o + 3])
    }

    /// The offset of the content of the DER element at `o` and its length, when it fits.
    static func element(_ b: [UInt8], _ o: Int, tag: UInt8) -> (content: Int, length: Int)? {
        guard o + 2 <= b.count, b[o] == tag else { return nil }
        let first = b[o + 1]
        if first & 0x80 == 0 {
            let len = Int(first)
            return o + 2 + len <= b.count ? (o + 2, len) : nil
        }
        let n = Int(first & 0x7f)
        guard (1...4).contains(n), o + 2 + n <= b.count else { return nil }
        var len = 0
        for k in 0..<n { len = len << 8 | Int(b[o + 2 + k]) }
        return o + 2 + n + len <= b.count ? (o + 2 + n, len) : nil
    }

    static func isPKCS12(_ b: [UInt8]) -> Bool {
        guard let outer = element(b, 0, tag: 0x30), let version = element(b, outer.content, tag: 0x02),
              version.length == 1, b[version.content] == 3,
              let info = element(b, version.content + 1, tag: 0x30),
              let oid = element(b, info.content, tag: 0x06), oid.length == 9 else { return false }
        let pkcs7: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07]
        return Array(b[oid.content..<(oid.content + 8)]) == pkcs7 && [1, 2].contains(b[oid.content + 8])
    }

    static func isDERPrivateKey(_ b: [UInt8]) -> Bool {
        guard let outer = element(b, 0, tag: 0x30), outer.content + outer.length == b.count || b.count - (outer.content + outer.length) < 16,
              let version = element(b, outer.content, tag: 0x02), version.length == 1 else { return false }
        let next = version.content + 1
        switch b[version.content] {
        case 0:
            // PKCS#8: AlgorithmIdentifier SEQUENCE { OID … } then OCTET STRING.
            if let alg = element(b, next, tag: 0x30), element(b, alg.content, tag: 0x06) != nil,
               element(b, alg.content + alg.length, tag: 0x04) != nil { return true }
            // PKCS#1: modulus INTEGER of at least 512 bits, then more INTEGERs.
            if let modulus = element(b, next, tag: 0x02), modulus.length >= 64,
               element(b, modulus.content + modulus.length, tag: 0x02) != nil { return true }
            return false
        case 1:
            // SEC 1: OCTET STRING privateKey of 20 to 66 bytes.
            if let key = element(b, next, tag: 0x04), (20...66).contains(key.length) { return true }
            return false
        default: return false
        }
    }
}
