import SwiftSyntax

extension SyntaxProtocol {
    /// The node's text as written, without the leading trivia of its first token and the
    /// trailing trivia of its last: swift-syntax's `trimmedDescription` without the two copies
    /// of the node it builds for that (a tenth of a scan's time on large projects).
    var sourceText: String {
        let bytes = syntaxTextBytes
        let lead = leadingTriviaLength.utf8Length, trail = trailingTriviaLength.utf8Length
        guard lead >= 0, trail >= 0, lead <= bytes.count - trail else { return trimmedDescription }
        return String(decoding: bytes[lead..<(bytes.count - trail)], as: UTF8.self)
    }
}
