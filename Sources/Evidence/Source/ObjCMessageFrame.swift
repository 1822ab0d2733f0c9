/// One `[` … `]` being read: a message send, or something shaped like one (an array
/// subscript, a C++ lambda capture or attribute) that simply never yields a selector.
///
/// The receiver is everything before the first identifier that follows a complete operand;
/// keyword parts are identifiers followed by `:` at the bracket's own nesting level, after a
/// complete argument, outside a `?:`.
struct ObjCMessageFrame {
    enum Phase { case receiver, argument, unaryDone }

    /// `@[ … ]`, an array literal.
    var isLiteral: Bool
    /// `(` and `{` open inside this bracket.
    var depth = 0
    var phase = Phase.receiver
    /// Receiver pieces at depth 0 (an identifier, an operator, a nested bracket, a group).
    var receiverCount = 0
    /// The receiver when it is one identifier.
    var receiverName: String? = nil
    /// The class a nested receiver send returns (`[CLLocationManager alloc]`).
    var receiverNestedClass: String? = nil
    /// `a.b->c`: a readable receiver for messages.
    var receiverText = ""
    var receiverIsChain = true
    /// The receiver so far is one parenthesized group, likely a cast: `[(id)x foo]`.
    var castOnly = false
    var lastWasOperand = false
    var selector = ""
    var selectorOffset = -1
    var ships = true
    var ternary = 0
    /// Per keyword part, the argument constants seen (`AVMediaTypeVideo`, …).
    var arguments: [Set<String>] = []

    init(isLiteral: Bool) {
        self.isLiteral = isLiteral
    }

    /// The receiver's class when the receiver names one: a capitalized identifier with a
    /// lowercase letter (`CLLocationManager`, not `self`, `manager` or a `MACRO`), or a nested
    /// send known to return an instance of a class.
    var receiverClass: String? {
        guard receiverCount == 1 else { return nil }
        if let name = receiverName {
            guard let first = name.utf8.first, first >= 0x41, first <= 0x5A,
                  name.utf8.contains(where: { $0 >= 0x61 && $0 <= 0x7A }) else { return nil }
            return name
        }
        return receiverNestedClass
    }

    /// The class of the object this send returns, when the selector is a constructor or a
    /// shared-instance accessor of a known receiver class.
    var resultClass: String? {
        guard let receiver = receiverClass else { return nil }
        if selector == "alloc" || selector == "new" || selector == "allocWithZone:"
            || selector.hasPrefix("shared") || selector.hasPrefix("default") || selector.hasPrefix("current") {
            return receiver
        }
        if selector.hasPrefix("init"), receiverNestedClass != nil { return receiver }
        return nil
    }

    mutating func noteReceiverPiece(operand: Bool, name: String? = nil, text: String? = nil) {
        receiverCount += 1
        receiverName = receiverCount == 1 ? name : nil
        if let text, receiverIsChain, receiverText.utf8.count + text.utf8.count <= 64 {
            receiverText += text
        } else {
            receiverIsChain = false
        }
        lastWasOperand = operand
        castOnly = false
    }
}
