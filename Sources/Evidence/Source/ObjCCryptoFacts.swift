/// Cryptography facts of an Objective-C or C file (`Security.weakCipher`, `.ecbMode`,
/// `.insecureRandom`), from the tokens of the lexer, so comments, strings and code no release
/// build compiles (`#ifdef DEBUG`) never count:
/// - the algorithm and options arguments of `CCCrypt`, `CCCryptorCreate`,
///   `CCCryptorCreateFromData`, and the mode and algorithm of `CCCryptorCreateWithMode`: a
///   constant or integer literal written as that argument, or a local variable the same
///   function assigns one constant. A constant named anywhere else (a switch that maps an
///   option to an algorithm) is not a use;
/// - `rand()`, `random()`, `drand48()` … and GameplayKit's seeded sources whose value goes
///   straight into something named as a secret (`password = …`, `[pin appendFormat:…]`,
///   `initWithToken:`), or called in a function or method named as producing one
///   (`generatePassword`, `-randomSalt`).
enum ObjCCryptoFacts {
    typealias Security = ProtectedResourceCatalog.Security

    /// Byte needles of the facts; a call needle (`rand(`) must start a word.
    static let needles: [[UInt8]] = ["kCCAlgorithm", "kCCOptionECBMode", "kCCModeECB", "CCCrypt", "GKMersenneTwister",
                                     "GKLinearCongruential", "GKARC4"].map { Array($0.utf8) }
    static let callNeedles: [[UInt8]] = Security.insecureRandomFunctions.sorted().map { Array(($0 + "(").utf8) }

    /// Whether the file can hold a fact (a cheap test before the second lexing).
    static func mayFind(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { b in
            if ObjCStoreFacts.mayFind(b) || ObjCRNCryptorFacts.mayFind(b) { return true }
            let n = b.count
            var i = 0
            while i < n {
                let c = b[i]
                if c == 0x6B || c == 0x43 || c == 0x47 {  // k, C, G
                    for needle in needles where matches(b, i, needle) { return true }
                } else if c == 0x54 || c == 0x73 {  // T, s: TLS settings (`ObjCFlowFacts`)
                    for needle in ObjCFlowFacts.needles where matches(b, i, needle) { return true }
                } else if c >= 0x61 && c <= 0x7A, i == 0 || !ObjCLexer.isIdentifierPart(b[i - 1]) {
                    for needle in callNeedles where matches(b, i, needle) { return true }
                }
                i += 1
            }
            return false
        }
    }

    private static func matches(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, _ needle: [UInt8]) -> Bool {
        guard needle.count <= b.count - i, b[i] == needle[0] else { return false }
        var k = 1
        while k < needle.count, b[i + k] == needle[k] { k += 1 }
        return k == needle.count
    }

    /// Type names of casts around an argument (`(CCAlgorithm)kCCAlgorithmDES`).
    static let castWords: Set<String> = ["CCAlgorithm", "CCOptions", "CCMode", "CCOperation", "CCPadding", "uint32_t", "int", "unsigned",
                                         "NSUInteger", "NSInteger", "UInt32", "const"]
    /// Words before a call that still make it a call (`return rand()`), not a declaration.
    static let statementWords: Set<String> = ["return", "case", "else", "do"]

    static func scan(_ file: ObjCLexedFile, positions: inout ObjCSourcePositions) -> [SourceUsage] {
        let lexer = file.lexer
        let tokens = file.tokens
        let reader = ObjCTokenReader(tokens: tokens, texts: tokens.map { t in
            t.kind == .identifier || t.kind == .literal || t.kind == .otherOperator ? lexer.text(t) : ""
        })
        var out: [SourceUsage] = []
        func emit(_ capability: String, key: String, api: String, at i: Int) {
            let (line, column) = positions.lineAndColumn(tokens[i].start)
            out.append(SourceUsage(capability: capability, key: key, api: api, line: line, column: column, strength: .definite,
                                   ships: tokens[i].ships))
        }
        let functions = reader.enclosingFunctions()
        for i in tokens.indices where tokens[i].kind == .identifier {
            let name = reader.texts[i]
            ObjCFlowFacts.facts(reader, at: i) { capability, key, api, at in emit(capability, key: key, api: api, at: at) }
            ObjCStoreFacts.facts(reader, at: i) { capability, key, api, at in emit(capability, key: key, api: api, at: at) }
            ObjCRNCryptorFacts.facts(reader, at: i) { capability, key, api, at in emit(capability, key: key, api: api, at: at) }
            if let call = Security.cryptorCalls[name], i + 1 < tokens.count, tokens[i + 1].kind == .leftParen {
                let arguments = reader.arguments(from: i + 1)
                if call.algorithm < arguments.count {
                    for algorithm in reader.weakAlgorithms(arguments[call.algorithm], before: i) {
                        emit(Security.weakCipher, key: algorithm.name, api: "\(name)(\(algorithm.name))", at: algorithm.at)
                    }
                }
                if let o = call.options, o < arguments.count, let at = reader.ecbOption(arguments[o]) {
                    emit(Security.ecbMode, key: Security.ecbOption, api: "\(name)(options: \(Security.ecbOption))", at: at)
                }
                if let m = call.mode, m < arguments.count, let at = reader.ecbModeArgument(arguments[m]) {
                    emit(Security.ecbMode, key: Security.ecbModeConstant, api: "\(name)(\(Security.ecbModeConstant))", at: at)
                }
            } else if let producer = reader.randomProducer(at: i), let sink = reader.secretSink(of: i, function: functions[i]) {
                emit(Security.insecureRandom, key: name, api: "\(producer) \(sink)", at: i)
            }
        }
        return out
    }
}
