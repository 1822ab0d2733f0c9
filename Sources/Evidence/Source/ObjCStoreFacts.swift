import Formats

/// Objective-C writes of a credential to a database besides SQLite's C API (`ObjCFlowFacts`),
/// on the token stream `ObjCCryptoFacts` reads (`cleartext_database_storage`):
/// - Core Data: `[object setValue:password forKey:@"…"]` where `object` is a managed object
///   of the same function (declared `NSManagedObject *`, or assigned from
///   `insertNewObjectForEntityForName:`). KVC on any other object (a request's parameters
///   dictionary) is not a store;
/// - FMDB: `executeUpdate:` / `executeUpdateWithFormat:` of an `INSERT`, `UPDATE` or `REPLACE`
///   statement given a value named for a credential, as a variadic argument or an element of
///   `withArgumentsInArray:@[…]`.
/// The value is judged by its name, as for `sqlite3_bind_text` (`ObjCFlowFacts.credential`).
/// And preferences (`secret_in_preferences`): `setObject:`/`setValue:`/`setString:`/`setData:`
/// `forKey:` sent to `[NSUserDefaults standardUserDefaults]`, `[[NSUserDefaults alloc]
/// initWithSuiteName:…]` or `[NSUbiquitousKeyValueStore defaultStore]` (or a local variable
/// of the method holding one), where the key literal says it holds a secret, or the value's
/// name does and the key does not say otherwise (as in Swift).
enum ObjCStoreFacts {
    /// Whether the bytes may hold one of these writes (part of the token pass's gate).
    static func mayFind(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(b)
        if ByteSearch.firstOffset(of: Array("executeUpdate".utf8), in: raw, from: 0) != nil { return true }
        if ByteSearch.firstOffset(of: Array("forKey:".utf8), in: raw, from: 0) != nil,
           ByteSearch.firstOffset(of: Array("NSUserDefaults".utf8), in: raw, from: 0) != nil
            || ByteSearch.firstOffset(of: Array("NSUbiquitousKeyValueStore".utf8), in: raw, from: 0) != nil { return true }
        guard ByteSearch.firstOffset(of: Array("setValue:".utf8), in: raw, from: 0) != nil else { return false }
        return ByteSearch.firstOffset(of: Array("NSManagedObject".utf8), in: raw, from: 0) != nil
            || ByteSearch.firstOffset(of: Array("insertNewObjectForEntityForName".utf8), in: raw, from: 0) != nil
    }

    static let updates: Set<String> = ["executeUpdate", "executeUpdateWithFormat"]
    static let preferenceSetters: Set<String> = ["setObject", "setValue", "setString", "setData"]
    static let preferenceClasses: Set<String> = ["NSUserDefaults", "NSUbiquitousKeyValueStore"]

    /// The preferences class a receiver ending at `end` is: a nested send on the class
    /// (`[NSUserDefaults standardUserDefaults]`), or a variable of the method declared with
    /// the class or assigned such a send.
    static func preferenceStore(_ reader: ObjCTokenReader, receiverEnd end: Int) -> String? {
        let tokens = reader.tokens
        if tokens[end].kind == .rightBracket {
            var depth = 0, j = end
            while j >= 0, end - j < 64 {
                if tokens[j].kind == .rightBracket { depth += 1 }
                if tokens[j].kind == .leftBracket {
                    depth -= 1
                    if depth == 0 { break }
                }
                j -= 1
            }
            guard j >= 0, j + 1 < end, tokens[j + 1].kind == .leftBracket || tokens[j + 1].kind == .identifier else { return nil }
            return (j...end).lazy.map { reader.texts[$0] }.first(where: preferenceClasses.contains)
        }
        guard tokens[end].kind == .identifier, end >= 1, tokens[end - 1].kind == .leftBracket else { return nil }
        let name = reader.texts[end]
        var depth = 0, j = end - 1
        while j >= 2, end - j < 20_000 {
            switch tokens[j].kind {
            case .rightBrace: depth += 1
            case .leftBrace:
                if depth == 0 && reader.isFunctionBody(j) { return nil }
                depth = max(0, depth - 1)
            case .identifier where reader.texts[j] == name:
                if reader.texts[j - 1] == "*", preferenceClasses.contains(reader.texts[j - 2]) { return reader.texts[j - 2] }
                if j + 1 < tokens.count, tokens[j + 1].kind == .assign {
                    var k = j + 2
                    while k < tokens.count, k - j < 30, tokens[k].kind != .semicolon {
                        if preferenceClasses.contains(reader.texts[k]) { return reader.texts[k] }
                        k += 1
                    }
                }
            default: break
            }
            j -= 1
        }
        return nil
    }

    static func facts(_ reader: ObjCTokenReader, at i: Int, emit: (_ capability: String, _ key: String, _ api: String, _ at: Int) -> Void) {
        let tokens = reader.tokens
        guard i >= 2, i + 2 < tokens.count, tokens[i + 1].kind == .colon else { return }
        let name = reader.texts[i]
        if preferenceSetters.contains(name), let store = preferenceStore(reader, receiverEnd: i - 1) {
            let parts = keywordArguments(reader, from: i + 2)
            guard parts.count == 2, parts[1].keyword == "forKey",
                  let keyToken = parts[1].range.first(where: { tokens[$0].kind == .literal && reader.texts[$0].contains("\"") }) else { return }
            let key = String(reader.texts[keyToken].drop(while: { $0 == "@" || $0 == "\"" }).dropLast())
            let value = reader.values(parts[0].range)
            guard value.contains(where: { tokens[$0].kind == .identifier || tokens[$0].kind == .literal && reader.texts[$0].contains("\"") }),
                  !SecretNames.saysNotSecret(key) || SecretNames.isSecret(key) else { return }
            let named = ObjCFlowFacts.credential(reader, parts[0].range)
            guard SecretNames.isSecret(key) || named != nil else { return }
            emit(Security.preferenceSecret, key, "\(store) \(name):forKey: \"\(key)\"", named ?? value.first ?? i)
            return
        }
        if name == "setValue", tokens[i - 2].kind == .leftBracket, tokens[i - 1].kind == .identifier {
            let receiver = reader.texts[i - 1]
            let parts = keywordArguments(reader, from: i + 2)
            guard parts.count == 2, parts[1].keyword == "forKey", isManagedObject(reader, receiver, before: i - 2),
                  let at = ObjCFlowFacts.credential(reader, parts[0].range) else { return }
            emit(Security.databaseCleartext, "setValue:forKey:", "\(reader.texts[at]) → [\(receiver) setValue:forKey:] (Core Data)", at)
        } else if updates.contains(name) {
            let parts = keywordArguments(reader, from: i + 2)
            guard let first = parts.first, let sql = first.values.first, isWrite(reader, sql) else { return }
            var values = Array(first.values.dropFirst())
            for part in parts.dropFirst() where part.keyword == "withArgumentsInArray" || part.keyword == "values" {
                values += arrayElements(reader, part.range)
            }
            for value in values {
                if let at = ObjCFlowFacts.credential(reader, value) {
                    emit(Security.databaseCleartext, "\(name):", "\(reader.texts[at]) → \(name): (FMDB)", at)
                }
            }
        }
    }

    typealias Security = ProtectedResourceCatalog.Security

    /// A message's keyword arguments from the first one's value to the closing `]`: each with
    /// its keyword (the first's is empty), its whole range and its comma-separated values.
    static func keywordArguments(_ reader: ObjCTokenReader, from start: Int) -> [(keyword: String, range: Range<Int>, values: [Range<Int>])] {
        let tokens = reader.tokens
        var out: [(keyword: String, range: Range<Int>, values: [Range<Int>])] = []
        var keyword = "", partStart = start, valueStart = start, values: [Range<Int>] = []
        var depth = 0, j = start
        func close(_ end: Int) {
            if end > valueStart { values.append(valueStart..<end) }
            out.append((keyword, partStart..<end, values))
        }
        while j < tokens.count, j - start < 4_000 {
            switch tokens[j].kind {
            case .leftParen, .leftBracket, .leftBrace: depth += 1
            case .rightParen, .rightBrace: depth -= 1
            case .rightBracket:
                if depth == 0 { close(j); return out }
                depth -= 1
            case .comma where depth == 0:
                values.append(valueStart..<j)
                valueStart = j + 1
            case .identifier where depth == 0 && j + 1 < tokens.count && tokens[j + 1].kind == .colon && j > partStart:
                close(j)
                keyword = reader.texts[j]
                partStart = j + 2
                valueStart = j + 2
                values = []
                j += 1
            case .semicolon, .macroEnd: return []
            default: break
            }
            if depth < 0 { return [] }
            j += 1
        }
        return []
    }

    /// A statement literal that writes: `INSERT`, `UPDATE`, `REPLACE` (any case, after blanks).
    static func isWrite(_ reader: ObjCTokenReader, _ range: Range<Int>) -> Bool {
        guard let j = range.first(where: { reader.tokens[$0].kind == .literal }) else { return false }
        let text = reader.texts[j].drop(while: { $0 == "@" || $0 == "\"" || $0 == " " }).uppercased()
        return ["INSERT", "UPDATE", "REPLACE"].contains { text.hasPrefix($0) }
    }

    /// The elements of an `@[ … ]` literal argument.
    static func arrayElements(_ reader: ObjCTokenReader, _ range: Range<Int>) -> [Range<Int>] {
        guard let open = range.first(where: { reader.tokens[$0].kind == .leftBracket }), open + 1 < range.upperBound else { return [] }
        var out: [Range<Int>] = [], depth = 0, start = open + 1
        for j in (open + 1)..<range.upperBound {
            switch reader.tokens[j].kind {
            case .leftParen, .leftBracket, .leftBrace: depth += 1
            case .rightParen, .rightBrace: depth -= 1
            case .rightBracket:
                if depth == 0 { if j > start { out.append(start..<j) }; return out }
                depth -= 1
            case .comma where depth == 0:
                out.append(start..<j)
                start = j + 1
            default: break
            }
        }
        return out
    }

    /// Whether `name` is a managed object in the function before `send`: declared
    /// `NSManagedObject *name` (or a subclass spelled `…ManagedObject`), or assigned an
    /// `insertNewObjectForEntityForName:` result.
    static func isManagedObject(_ reader: ObjCTokenReader, _ name: String, before send: Int) -> Bool {
        let tokens = reader.tokens
        var depth = 0, j = send - 1
        while j >= 2, send - j < 20_000 {
            switch tokens[j].kind {
            case .rightBrace: depth += 1
            case .leftBrace:
                if depth == 0 && reader.isFunctionBody(j) {
                    // The method's own parameters: `(NSManagedObject *)name`.
                    var k = j - 1
                    while k >= 2, j - k < 200, !reader.isBoundary(k) {
                        if reader.texts[k] == name, tokens[k - 1].kind == .rightParen, reader.texts[k - 3].hasSuffix("ManagedObject") { return true }
                        k -= 1
                    }
                    return false
                }
                depth = max(0, depth - 1)
            case .identifier where reader.texts[j] == name:
                if reader.texts[j - 2].hasSuffix("ManagedObject"), reader.texts[j - 1] == "*" { return true }
                if j + 1 < tokens.count, tokens[j + 1].kind == .assign {
                    var k = j + 2
                    while k < tokens.count, k - j < 60, tokens[k].kind != .semicolon {
                        if reader.texts[k] == "insertNewObjectForEntityForName" { return true }
                        k += 1
                    }
                }
            default: break
            }
            j -= 1
        }
        return false
    }
}
