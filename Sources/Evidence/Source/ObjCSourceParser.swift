/// Reads the lexer's tokens once and collects candidates: class names, C functions,
/// message sends (selectors rebuilt from keyword parts), dot-syntax properties and
/// `@selector(…)`; also the classes the file declares itself and the companion classes it names.
struct ObjCSourceParser {
    private var lexer: ObjCLexer
    private let table: ObjCTriggerTable
    private var ahead: [ObjCToken] = []

    private var frames: [ObjCMessageFrame] = []
    private var frameOverflow = 0
    private var savedFrames: [ObjCMessageFrame] = []
    private var savedOverflow = 0
    static let maxFrames = 256
    static let maxSelectorParts = 32

    private var prev: ObjCToken? = nil
    /// The last identifier, kept across `.` and `->` (the receiver of a dot-syntax property).
    private var prevIdentifier: String? = nil
    private var identifierText = ""

    private enum SelectorExpression { case none, expectParen, collecting }
    private var selectorExpression = SelectorExpression.none
    private var selectorExpressionText = ""
    private var selectorExpressionToken: ObjCToken? = nil
    private var inClassList = false
    private var declaresNext = false
    private var skipsNextIdentifier = false

    private(set) var candidates: [ObjCCandidate] = []
    private(set) var localClasses: Set<String> = []
    private(set) var referencedClasses: Set<String> = []
    static let maxCandidates = 100_000

    init(lexer: ObjCLexer, table: ObjCTriggerTable) {
        self.lexer = lexer
        self.table = table
    }

    private mutating func take() -> ObjCToken? {
        ahead.isEmpty ? lexer.next() : ahead.removeFirst()
    }

    private mutating func peek(_ distance: Int) -> ObjCToken? {
        while ahead.count < distance {
            guard let token = lexer.next() else { return nil }
            ahead.append(token)
        }
        return ahead[distance - 1]
    }

    private mutating func peekKind(_ distance: Int) -> ObjCToken.Kind? { peek(distance)?.kind }

    mutating func run() {
        while let token = take() {
            process(token)
            if token.kind == .identifier {
                prevIdentifier = identifierText
            } else if token.kind != .dot && token.kind != .arrow {
                prevIdentifier = nil
            }
            prev = token.kind == .macroStart || token.kind == .macroEnd ? nil : token
        }
    }

    private mutating func add(_ form: ObjCCandidate.Form, _ token: ObjCToken) {
        guard candidates.count < Self.maxCandidates else { return }
        candidates.append(ObjCCandidate(form: form, offset: token.start, ships: token.ships))
    }

    // MARK: tokens

    private mutating func process(_ token: ObjCToken) {
        if selectorExpression != .none, continueSelectorExpression(token) { return }
        switch token.kind {
        case .macroStart:
            savedFrames = frames
            savedOverflow = frameOverflow
            frames = []
            frameOverflow = 0
        case .macroEnd:
            frames = savedFrames
            frameOverflow = savedOverflow
            savedFrames = []
            savedOverflow = 0
        case .identifier:
            identifier(token)
        case .atKeyword:
            atKeyword(token)
        case .leftBracket:
            if frames.count >= Self.maxFrames || frameOverflow > 0 {
                frameOverflow += 1
            } else {
                frames.append(ObjCMessageFrame(isLiteral: prev?.kind == .at))
            }
        case .rightBracket:
            if frameOverflow > 0 {
                frameOverflow -= 1
            } else if let frame = frames.popLast() {
                let result = finish(frame)
                update { frame in
                    if frame.phase == .receiver {
                        frame.noteReceiverPiece(operand: true)
                        if frame.receiverCount == 1 { frame.receiverNestedClass = result }
                    } else {
                        frame.lastWasOperand = true
                    }
                }
            }
        case .leftParen, .leftBrace:
            if !frames.isEmpty { frames[frames.count - 1].depth += 1 }
        case .rightParen, .rightBrace:
            closeGroup()
        case .semicolon:
            // Brackets counted past `maxFrames` are the innermost ones: a `;` ends them too.
            frameOverflow = 0
            while let top = frames.last, top.depth == 0 { frames.removeLast() }
            inClassList = false
            declaresNext = false
        case .question:
            update { frame in
                if frame.phase == .argument { frame.ternary += 1 }
                frame.lastWasOperand = false
            }
        case .colon:
            update { frame in
                if frame.ternary > 0 {
                    frame.ternary -= 1
                } else if frame.phase == .argument, frame.lastWasOperand,
                          frame.arguments.count < Self.maxSelectorParts {
                    frame.selector += ":"  // an unnamed keyword part: `[x foo:1 :2]`
                    frame.arguments.append([])
                }
                frame.lastWasOperand = false
            }
        case .literal:
            update { frame in
                if frame.phase == .receiver { frame.noteReceiverPiece(operand: true) }
                frame.lastWasOperand = true
            }
        case .dot, .arrow:
            let text = token.kind == .dot ? "." : "->"
            update { frame in
                if frame.phase == .receiver {
                    frame.noteReceiverPiece(operand: false, text: frame.receiverIsChain && frame.receiverCount > 0 ? text : nil)
                }
                frame.lastWasOperand = false
            }
        case .at, .comma, .assign, .scope, .otherOperator:
            update { frame in
                if frame.phase == .receiver { frame.noteReceiverPiece(operand: false) }
                frame.lastWasOperand = false
            }
        }
    }

    /// Runs `body` on the innermost bracket when the token is at its own level.
    private mutating func update(_ body: (inout ObjCMessageFrame) -> Void) {
        guard !frames.isEmpty, frames[frames.count - 1].depth == 0, !frames[frames.count - 1].isLiteral else {
            return
        }
        body(&frames[frames.count - 1])
    }

    /// `)` or `}`: closes a group inside the innermost bracket, or, when the bracket has no
    /// open group, gives the bracket up as unbalanced and retries on the enclosing one.
    private mutating func closeGroup() {
        frameOverflow = 0
        while let top = frames.last {
            if top.depth > 0 {
                frames[frames.count - 1].depth -= 1
                if frames[frames.count - 1].depth == 0 {
                    update { frame in
                        if frame.phase == .receiver {
                            let first = frame.receiverCount == 0
                            frame.noteReceiverPiece(operand: true)
                            frame.castOnly = first
                        }
                        frame.lastWasOperand = true
                    }
                }
                return
            }
            frames.removeLast()
        }
    }

    private mutating func identifier(_ token: ObjCToken) {
        let text = lexer.text(token)
        identifierText = text
        if inClassList { return }
        if skipsNextIdentifier { skipsNextIdentifier = false; return }
        if declaresNext {
            declaresNext = false
            if peekKind(1) != .leftParen {
                localClasses.insert(text)
                return
            }
        }
        if text == "class" || text == "struct", prev.map({ !isOperand($0) }) ?? true,
           peekKind(1) == .identifier, let name = peek(1),
           peekKind(2).map({ [.leftBrace, .colon, .semicolon].contains($0) }) ?? false {
            localClasses.insert(lexer.text(name))
        }

        if !frames.isEmpty, frames[frames.count - 1].depth == 0, !frames[frames.count - 1].isLiteral,
           selectorPart(token, text) {
            return
        }
        reference(token, text)
    }

    private func isOperand(_ token: ObjCToken) -> Bool {
        switch token.kind {
        case .identifier, .literal, .rightParen, .rightBracket, .rightBrace: true
        default: false
        }
    }

    /// Reads an identifier at the innermost bracket's level: a selector part (returns true),
    /// or part of the receiver or an argument.
    private mutating func selectorPart(_ token: ObjCToken, _ text: String) -> Bool {
        let next = peekKind(1)
        // Moved out and back, not copied: a copy would make every append copy the selector.
        var frame = frames.removeLast()
        defer { frames.append(frame) }
        switch frame.phase {
        case .receiver:
            let startsSelector = frame.receiverCount > 0 && frame.lastWasOperand
                && (!frame.castOnly || next == .rightBracket || next == .colon)
            guard startsSelector else {
                frame.noteReceiverPiece(operand: true, name: text, text: text)
                return false
            }
            frame.selectorOffset = token.start
            frame.ships = token.ships
            if next == .colon {
                _ = take()
                frame.selector = text + ":"
                frame.arguments = [[]]
                frame.phase = .argument
                frame.lastWasOperand = false
            } else {
                frame.selector = text
                frame.phase = .unaryDone
                frame.lastWasOperand = true
            }
            return true
        case .argument:
            if next == .colon, frame.ternary == 0, frame.lastWasOperand {
                _ = take()
                guard frame.arguments.count < Self.maxSelectorParts else {
                    // Longer than any selector in the catalog: stop building it.
                    frame.selector = ""
                    frame.phase = .unaryDone
                    return true
                }
                frame.selector += text + ":"
                frame.arguments.append([])
                frame.lastWasOperand = false
                return true
            }
            frame.lastWasOperand = true
            return false
        case .unaryDone:
            frame.lastWasOperand = true
            return false
        }
    }

    /// An identifier outside selector position: a property, class, C function or constant.
    private mutating func reference(_ token: ObjCToken, _ text: String) {
        if prev?.kind == .dot {
            let selector: String
            if peekKind(1) == .assign, let first = text.first {
                selector = "set" + first.uppercased() + text.dropFirst() + ":"
            } else {
                selector = text
            }
            if table.selectors[selector] != nil {
                add(.message(ObjCSelectorUse(selector: selector, syntax: .property, receiverClass: nil,
                                             receiverText: prevIdentifier, arguments: [])), token)
            }
            return
        }
        if prev?.kind == .arrow { return }
        guard let roles = table.roles[text] else { return }
        if roles.contains(.argumentConstant), !frames.isEmpty, frames[frames.count - 1].phase == .argument {
            let last = frames[frames.count - 1].arguments.count - 1
            if last >= 0 { frames[frames.count - 1].arguments[last].insert(text) }
        }
        if roles.contains(.companionClass) { referencedClasses.insert(text) }
        if roles.contains(.triggerClass) { add(.classReference(text), token) }
        if roles.contains(.cFunction), peekKind(1) != .colon {
            add(.cFunction(text, call: peekKind(1) == .leftParen), token)
        }
        if roles.contains(.constant) {
            var definite = prev?.kind == .assign
            if let frame = frames.last, frame.phase == .argument, frame.selector.hasSuffix("setSourceType:") {
                definite = true
            }
            add(.constant(text, definite: definite), token)
        }
    }

    private mutating func atKeyword(_ token: ObjCToken) {
        switch lexer.word(token) {
        case "selector":
            selectorExpression = .expectParen
            selectorExpressionText = ""
            selectorExpressionToken = token
            return
        case "class":
            inClassList = true
        case "interface", "implementation":
            declaresNext = true
        case "protocol":
            skipsNextIdentifier = true
        default:
            break
        }
        update { frame in
            if frame.phase == .receiver { frame.noteReceiverPiece(operand: true) }
            frame.lastWasOperand = true
        }
    }

    /// Inside `@selector(…)`: returns true when the token was consumed.
    private mutating func continueSelectorExpression(_ token: ObjCToken) -> Bool {
        switch (selectorExpression, token.kind) {
        case (.expectParen, .leftParen):
            selectorExpression = .collecting
            return true
        case (.collecting, .identifier):
            selectorExpressionText += lexer.text(token)
            return true
        case (.collecting, .colon):
            selectorExpressionText += ":"
            return true
        case (.collecting, .scope):
            selectorExpressionText += "::"
            return true
        case (.collecting, .rightParen):
            selectorExpression = .none
            if let start = selectorExpressionToken, table.selectors[selectorExpressionText] != nil {
                add(.message(ObjCSelectorUse(selector: selectorExpressionText, syntax: .selectorExpression,
                                             receiverClass: nil, receiverText: nil, arguments: [])), start)
            }
            update { frame in
                if frame.phase == .receiver { frame.noteReceiverPiece(operand: true) }
                frame.lastWasOperand = true
            }
            return true
        default:
            // Not a selector expression after all: read the token normally.
            selectorExpression = .none
            return false
        }
    }

    /// A closed bracket: records the send when its selector is a trigger; returns the class of
    /// the object it returns, when known.
    private mutating func finish(_ frame: ObjCMessageFrame) -> String? {
        guard !frame.isLiteral, !frame.selector.isEmpty else { return nil }
        if table.selectors[frame.selector] != nil, candidates.count < Self.maxCandidates {
            let use = ObjCSelectorUse(
                selector: frame.selector, syntax: .send, receiverClass: frame.receiverClass,
                receiverText: frame.receiverIsChain && !frame.receiverText.isEmpty ? frame.receiverText : nil,
                arguments: frame.arguments)
            candidates.append(ObjCCandidate(form: .message(use), offset: frame.selectorOffset, ships: frame.ships))
        }
        return frame.resultClass
    }
}
