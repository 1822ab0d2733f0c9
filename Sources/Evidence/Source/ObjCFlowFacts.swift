/// The data-flow facts Objective-C and C code shows on the token stream `ObjCCryptoFacts`
/// already reads (one lexing per file):
/// - a TLS version below 1.2 given to `TLSMinimumSupportedProtocol(Version)`,
///   `TLSMaximumSupportedProtocol(Version)` (property or setter) or
///   `sec_protocol_options_set_min/max_tls_protocol_version`;
/// - a string literal (or a local or file-level variable assigned only one) as the key or IV
///   argument of a CommonCrypto cryptor call, through `UTF8String`, `dataUsingEncoding:` and
///   `.bytes`;
/// - a value named for a credential (`password`, `[self.authToken UTF8String]`, `_apiKey`)
///   bound with `sqlite3_bind_text`/`_text16`/`_blob` (`cleartext_database_storage`), unless a
///   hash, KDF or cipher call is part of the argument.
enum ObjCFlowFacts {
    typealias Security = ProtectedResourceCatalog.Security

    /// Byte needles that send a file to the token pass (with `ObjCCryptoFacts.needles`).
    static let needles: [[UInt8]] = ["TLSMinimumSupportedProtocol", "TLSMaximumSupportedProtocol", "sec_protocol_options_set_m", "sqlite3_bind_"]
        .map { Array($0.utf8) }

    /// Words around a literal that keep its bytes: messages, properties, encodings and casts.
    static let keeping: Set<String> = ["UTF8String", "bytes", "dataUsingEncoding", "NSUTF8StringEncoding", "NSASCIIStringEncoding",
                                       "cStringUsingEncoding", "char", "const", "unsigned", "uint8_t", "void"]
    static let properties: Set<String> = ["TLSMinimumSupportedProtocol", "TLSMinimumSupportedProtocolVersion",
                                          "TLSMaximumSupportedProtocol", "TLSMaximumSupportedProtocolVersion"]

    static func facts(_ reader: ObjCTokenReader, at i: Int, emit: (_ capability: String, _ key: String, _ api: String, _ at: Int) -> Void) {
        let tokens = reader.tokens
        let name = reader.texts[i]
        let isSetter = name.hasPrefix("setTLS")
        let property = isSetter ? String(name.dropFirst(3)) : name
        if properties.contains(property), i + 2 < tokens.count, tokens[i + 1].kind == (isSetter ? .colon : .assign),
           tokens[i + 2].kind == .identifier, Security.tlsVersionsBelow12.contains(reader.texts[i + 2]) {
            emit(Security.tlsBelow12, reader.texts[i + 2], "\(property) = \(reader.texts[i + 2])", i + 2)
            return
        }
        guard i + 1 < tokens.count, tokens[i + 1].kind == .leftParen else { return }
        if Security.tlsVersionFunctions.contains(name) {
            let arguments = reader.arguments(from: i + 1)
            if arguments.count == 2, let v = reader.values(arguments[1]).first, reader.values(arguments[1]).count == 1,
               tokens[v].kind == .identifier, Security.tlsVersionsBelow12.contains(reader.texts[v]) {
                emit(Security.tlsBelow12, reader.texts[v], "\(name)(…, \(reader.texts[v]))", v)
            }
        } else if sqliteBinds.contains(name) {
            let arguments = reader.arguments(from: i + 1)
            if arguments.count >= 3, let at = credential(reader, arguments[2]) {
                emit(Security.databaseCleartext, name, "\(reader.texts[at]) → \(name)", at)
            }
        } else if let roles = Security.cryptorKeyAndIV[name] {
            let arguments = reader.arguments(from: i + 1)
            for (index, capability, role) in [(roles.key, Security.hardcodedKey, "key"), (roles.iv, Security.staticIV, "IV")]
            where index < arguments.count {
                if let at = constant(reader, arguments[index], before: i) {
                    emit(capability, "\(name) \(role)", "a string literal → \(name) \(role)", at)
                }
            }
        }
    }

    static let sqliteBinds: Set<String> = ["sqlite3_bind_text", "sqlite3_bind_text16", "sqlite3_bind_blob"]

    /// The token of a credential's name in an argument (`password`, `self.password`,
    /// `[session authToken]`, `_password.UTF8String`), or nil; nil too when a call in it may
    /// hash, derive or encrypt the value, or when the name is only `token` (a room's, a page's).
    static func credential(_ reader: ObjCTokenReader, _ range: Range<Int>) -> Int? {
        var found: Int?
        for j in reader.values(range) where reader.tokens[j].kind == .identifier {
            let text = reader.texts[j]
            let lower = text.lowercased()
            if ["hash", "digest", "encrypt", "seal", "pbkdf", "derive", "hmac", "sha", "md5", "cipher", "bcrypt", "scrypt"]
                .contains(where: lower.contains) { return nil }
            let name = text.hasPrefix("_") ? String(text.dropFirst()) : text
            if found == nil, LoggedCredential.isCredential(name), SecretNames.words(name) != ["token"] { found = j }
        }
        return found
    }

    /// Where an argument is a string literal, or a variable assigned only one: the argument's first value token.
    static func constant(_ reader: ObjCTokenReader, _ range: Range<Int>, before call: Int) -> Int? {
        let values = reader.values(range)
        if literalOnly(reader, values) != nil { return values.first }
        // `key`, `[kSecretKey UTF8String]`: one variable among keeping words.
        var named: Int?
        for j in values {
            switch reader.tokens[j].kind {
            case .identifier where keeping.contains(reader.texts[j]): continue
            case .identifier:
                guard named == nil else { return nil }
                named = j
            case .leftBracket, .rightBracket, .colon, .dot, .at: continue
            default: return nil
            }
        }
        guard let named, let assigned = reader.localValue(of: reader.texts[named], before: call),
              literalOnly(reader, reader.values(assigned)) != nil else { return nil }
        return values.first
    }

    /// The string literal a value is made of, when nothing but keeping words surround it.
    static func literalOnly(_ reader: ObjCTokenReader, _ values: [Int]) -> Int? {
        var literal: Int?
        for j in values {
            switch reader.tokens[j].kind {
            case .literal where reader.texts[j].contains("\"") && reader.texts[j].count > 2: literal = literal ?? j
            case .identifier where keeping.contains(reader.texts[j]): continue
            case .leftBracket, .rightBracket, .colon, .dot, .at: continue
            default: return nil
            }
        }
        return literal
    }
}
