/// A reference to a trigger found in the token stream, before the file-wide checks (local
/// class declarations, companion classes) decide whether and how it counts.
struct ObjCCandidate {
    enum Form: Equatable {
        case classReference(String)
        /// `call`: followed by `(`.
        case cFunction(String, call: Bool)
        /// `definite`: assigned or passed to `setSourceType:`.
        case constant(String, definite: Bool)
        case message(ObjCSelectorUse)
    }

    var form: Form
    /// Offset of the token that proves it, in the spliced buffer.
    var offset: Int
    var ships: Bool
}

struct ObjCSelectorUse: Equatable {
    enum Syntax: Equatable { case send, property, selectorExpression }

    var selector: String
    var syntax: Syntax
    var receiverClass: String?
    var receiverText: String?
    var arguments: [Set<String>]
}
