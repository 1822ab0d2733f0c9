/// The tokens of one Objective-C file, lexed once for every fact reader (security, logging,
/// crypto, call-level facts) instead of once per reader; the parser of protected-API uses
/// reads the lexer on its own.
final class ObjCLexedFile {
    /// Tokens a reader keeps at most: a reader stops once it holds more than this.
    static let maxTokens = 2_000_000

    let lexer: ObjCLexer
    /// Every token, up to one past `maxTokens` (what a reader keeping all tokens holds).
    let tokens: [ObjCToken]
    /// Tokens outside `#define` bodies (a macro's body is no call), up to one past `maxTokens`.
    let codeTokens: [ObjCToken]

    init(bytes: [UInt8], definitions: [String: String]) {
        var lexer = ObjCLexer(bytes: bytes, definitions: definitions, maxConditionalDepth: ObjCSourceScanner.maxConditionalDepth)
        var all: [ObjCToken] = [], code: [ObjCToken] = []
        var inMacro = false
        while all.count <= Self.maxTokens || code.count <= Self.maxTokens, let t = lexer.next() {
            if all.count <= Self.maxTokens { all.append(t) }
            if t.kind == .macroStart { inMacro = true } else if t.kind == .macroEnd { inMacro = false }
            else if !inMacro, code.count <= Self.maxTokens { code.append(t) }
        }
        self.lexer = lexer
        tokens = all
        codeTokens = code
    }

    func text(_ token: ObjCToken) -> String { lexer.text(token) }
}
