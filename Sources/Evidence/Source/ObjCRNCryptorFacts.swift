import Formats

/// RNCryptor's Objective-C API with its secrets written in the code (`weak_key_derivation`,
/// `hardcoded_crypto_key`): a string literal, or a local or file variable assigned only one,
/// as the `password:` of a message to `RNEncryptor`/`RNDecryptor` (a class method, or
/// `[[RNEncryptor alloc] initWith…]`) — RNCryptor derives the key from it with PBKDF2, so the
/// key is as public as the app — or as its `encryptionKey:`/`HMACKey:`.
enum ObjCRNCryptorFacts {
    typealias Security = ProtectedResourceCatalog.Security
    static let classes: Set<String> = ["RNEncryptor", "RNDecryptor"]

    static func mayFind(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(b)
        return ByteSearch.firstOffset(of: Array("RNEncryptor".utf8), in: raw, from: 0) != nil
            || ByteSearch.firstOffset(of: Array("RNDecryptor".utf8), in: raw, from: 0) != nil
    }

    static func facts(_ reader: ObjCTokenReader, at i: Int, emit: (_ capability: String, _ key: String, _ api: String, _ at: Int) -> Void) {
        let tokens = reader.tokens
        guard classes.contains(reader.texts[i]), i >= 1, tokens[i - 1].kind == .leftBracket else { return }
        var selector = i + 1
        // `[[RNEncryptor alloc] initWithSettings:… password:… handler:…]`.
        if selector + 2 < tokens.count, reader.texts[selector] == "alloc", tokens[selector + 1].kind == .rightBracket { selector += 2 }
        guard selector + 2 < tokens.count, tokens[selector].kind == .identifier, tokens[selector + 1].kind == .colon else { return }
        let parts = ObjCStoreFacts.keywordArguments(reader, from: selector + 2)
        for (index, part) in parts.enumerated() {
            let keyword = index == 0 ? reader.texts[selector] : part.keyword
            let role: (String, String)?
            switch keyword.lowercased() {
            case let k where k.hasSuffix("password"): role = (Security.kdfConstantPassword, "password")
            case let k where k.hasSuffix("encryptionkey"): role = (Security.hardcodedKey, "encryptionKey")
            case let k where k.hasSuffix("hmackey"): role = (Security.hardcodedKey, "HMACKey")
            default: role = nil
            }
            guard let (capability, name) = role, let at = ObjCFlowFacts.constant(reader, part.range, before: i) else { continue }
            emit(capability, "\(reader.texts[i]) \(name)", "a string literal → [\(reader.texts[i]) …\(keyword):]", at)
        }
    }
}
