import Evidence
import SwiftSyntax

/// Third-party crypto libraries' sinks beyond CryptoSwift's ciphers and PBKDF2: CryptoSwift's
/// other KDFs and MACs, and RNCryptor (its password API derives the key with PBKDF2 inside, so
/// a constant password is a constant key; its key API takes the keys themselves).
extension FlowVisitor {
    /// Names a file must refer to for one of these sinks (the parse gate).
    static let libraryNames: Set<String> = ["HKDF", "Scrypt", "PBKDF1", "HMAC", "CBCMAC", "CMAC", "Poly1305", "OCB", "RNCryptor", "NWConnection", "MD5", "SHA1", "SHA2",
                                            "RNEncryptor", "RNDecryptor"]
    /// RNCryptor's Objective-C classes, called from Swift (`RNEncryptor.encryptData(_:with:password:)`).
    static let rnCryptorObjCClasses: Set<String> = ["RNEncryptor", "RNDecryptor"]
    /// CryptoSwift's MACs that take a key (`HMAC(key:variant:)`, not CryptoKit's generic `HMAC<H>`).
    static let cryptoSwiftMACs: Set<String> = ["HMAC", "CBCMAC", "CMAC", "Poly1305"]
    /// RNCryptor's encryptor and decryptor types (V3 and the current format).
    static let rnCryptorTypes: Set<String> = ["Encryptor", "Decryptor", "EncryptorV3", "DecryptorV3"]

    /// A CryptoSwift call by its type name (`HKDF(password:salt:…)`); whether it was one.
    func libraryCall(_ callee: String, _ labeled: (String) -> ExprSyntax?) -> Bool {
        switch callee {
        case "HKDF":
            // Constant input keying material is a constant key. HKDF's salt may be a fixed,
            // public value (RFC 5869 §3.1): it is not judged.
            if let password = labeled("password") {
                constantSink(password, Security.kdfConstantPassword, "HKDF password", cryptoSwift: true)
            }
        case "Scrypt":
            // N, r, p are a memory-hard cost, not an iteration count: not judged.
            if let password = labeled("password") {
                constantSink(password, Security.kdfConstantPassword, "Scrypt password", cryptoSwift: true)
            }
            if let salt = labeled("salt") { constantSink(salt, Security.kdfConstantSalt, "Scrypt salt", cryptoSwift: true) }
        case "OCB":
            // CryptoSwift's OCB mode names its IV `nonce:`.
            guard let nonce = labeled("nonce") else { return false }
            constantSink(nonce, Security.staticIV, "OCB(nonce:)", cryptoSwift: true)
        case _ where Self.rnCryptorObjCClasses.contains(callee):
            // `RNEncryptor(settings:password:handler:)`, `RNDecryptor(encryptionKey:hmacKey:handler:)`.
            rnCryptorArguments(callee, labeled)
        case _ where Self.cryptoSwiftMACs.contains(callee):
            guard let key = labeled("key") else { return false }
            constantSink(key, Security.hardcodedKey, "\(callee)(key:)", cryptoSwift: true)
        default:
            return false
        }
        return true
    }

    /// The password and keys given to an RNCryptor Objective-C class's initializer or method.
    private func rnCryptorArguments(_ api: String, _ labeled: (String) -> ExprSyntax?) {
        if let password = labeled("password") { constantSink(password, Security.kdfConstantPassword, "\(api)(password:)") }
        if let key = labeled("encryptionKey") { constantSink(key, Security.hardcodedKey, "\(api)(encryptionKey:)") }
        if let key = labeled("hmacKey") ?? labeled("HMACKey") { constantSink(key, Security.hardcodedKey, "\(api)(hmacKey:)") }
    }

    /// CryptoKit hashers made in the function (`var hasher = Insecure.MD5()`), by the digest name
    /// `hashSink` knows.
    static let hashers: [String: String] = ["Insecure.MD5()": "MD5", "Insecure.SHA1()": "SHA1", "SHA256()": "SHA256",
                                            "SHA384()": "SHA384", "SHA512()": "SHA512"]

    /// The digest of a hasher variable: the nearest `var`/`let` of that name before it in an
    /// enclosing block, made as one of `hashers`.
    static func hasherDigest(_ base: ExprSyntax) -> String? {
        guard let name = base.as(DeclReferenceExprSyntax.self)?.baseName.text else { return nil }
        var current = Syntax(base).parent
        var steps = 0
        while let n = current, steps < 256 {
            steps += 1
            if let list = n.as(CodeBlockItemListSyntax.self) {
                for item in list.reversed() where item.endPosition <= base.position {
                    guard let decl = item.item.as(VariableDeclSyntax.self) else { continue }
                    for binding in decl.bindings where binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name {
                        return binding.initializer.flatMap { hashers[$0.value.sourceText.replacingOccurrences(of: " ", with: "")] }
                    }
                }
            }
            current = n.parent
        }
        return nil
    }

    /// CryptoSwift's digest objects: `MD5()`, `SHA1()`, `SHA2(variant: .sha256)`.
    static func cryptoSwiftDigest(_ base: ExprSyntax) -> String? {
        guard let call = E.stripped(base).as(FunctionCallExprSyntax.self),
              let type = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text else { return nil }
        switch type {
        case "MD5": return "md5"
        case "SHA1": return "sha1"
        case "SHA2":
            let variant = call.arguments.first?.expression.sourceText.lowercased() ?? ""
            return ["sha224", "sha256", "sha384", "sha512"].first { variant.contains($0) }
        default: return nil
        }
    }

    /// `PKCS5.PBKDF1(…)` and RNCryptor's calls; whether the call was one.
    func libraryMember(_ name: String, base: String, _ arguments: [LabeledExprSyntax], _ labeled: (String) -> ExprSyntax?,
                       at node: FunctionCallExprSyntax) -> Bool {
        if name == "PBKDF1", base == "PKCS5", let password = labeled("password") {
            // CryptoSwift's defaults: SHA-1, 4,096 iterations.
            let variant = labeled("variant").map { $0.sourceText } ?? "sha1"
            kdf(password: password, salt: labeled("salt"), rounds: labeled("iterations"), prf: variant, api: "PKCS5.PBKDF1",
                cryptoSwift: true, at: node, defaultRounds: 4096)
            return true
        }
        if Self.rnCryptorObjCClasses.contains(base) {
            rnCryptorArguments("\(base).\(name)", labeled)
            return true
        }
        guard base == "RNCryptor" || base.hasSuffix(".RNCryptor") else {
            // `RNCryptor.FormatV3.keyForPassword(_:salt:)`, `RNCryptor.FormatV3.makeKey(forPassword:withSalt:)`.
            guard base.hasSuffix("FormatV3"), name == "keyForPassword" || name == "makeKey" else { return false }
            if let password = labeled("forPassword") ?? arguments.first.flatMap({ $0.label == nil ? $0.expression : nil }) {
                constantSink(password, Security.kdfConstantPassword, "RNCryptor \(name) password")
            }
            if let salt = labeled("salt") ?? labeled("withSalt") { constantSink(salt, Security.kdfConstantSalt, "RNCryptor \(name) salt") }
            return true
        }
        if name == "encrypt" || name == "decrypt", let password = labeled("withPassword") {
            constantSink(password, Security.kdfConstantPassword, "RNCryptor.\(name)(data:withPassword:)")
            return true
        }
        guard Self.rnCryptorTypes.contains(name) else { return false }
        if let password = labeled("password") {
            constantSink(password, Security.kdfConstantPassword, "RNCryptor.\(name)(password:)")
        }
        if let key = labeled("encryptionKey") {
            constantSink(key, Security.hardcodedKey, "RNCryptor.\(name)(encryptionKey:)")
        }
        if let key = labeled("hmacKey") {
            constantSink(key, Security.hardcodedKey, "RNCryptor.\(name)(hmacKey:)")
        }
        return true
    }
}
