/// One token of Objective-C, C or C++ code that survived the preprocessor's conditionals.
///
/// Offsets point into the line-spliced buffer of `ObjCLexer`; `ObjCSourcePositions` maps
/// them back to lines and columns of the original text.
struct ObjCToken {
    enum Kind: UInt8 {
        case identifier
        /// `@word`: `@selector`, `@interface`, `@class`, `@YES`…; `text` is the word.
        case atKeyword
        /// A lone `@` before `[`, `{` or `(` (container and boxed literals).
        case at
        /// String, character or number literal.
        case literal
        case leftBracket, rightBracket, leftParen, rightParen, leftBrace, rightBrace
        case colon, semicolon, comma, question, dot, arrow, scope
        /// A lone `=` (not `==`, `+=`, …).
        case assign
        case otherOperator
        /// Start and end of a `#define` body, which is parsed apart from the code around it.
        case macroStart, macroEnd
    }

    var kind: Kind
    /// Byte offset of the first byte, in the spliced buffer.
    var start: Int
    /// Byte offset past the last byte.
    var end: Int
    /// False when the enclosing conditionals exclude the code from release device builds.
    var ships: Bool
}
