import Artifacts
import Formats
import SwiftParser
import SwiftSyntax

/// Reads a Swift manifest (Tuist's `Project.swift`, `Workspace.swift`) into the neutral
/// `ManifestValue` tree Artifacts interprets: the file's top-level `let` constants, their
/// literal values, member accesses and calls with labelled arguments. Closures, operators,
/// loops and the like become `unsupported` with their text; `var`s too, since code elsewhere
/// may change them. Nothing is evaluated.
public struct ManifestSyntaxReader: ManifestExpressionReader {
    public static let format = "Tuist manifest"

    public init() {}

    public func read(source: String, path: String, limits: ReaderLimits) throws -> ManifestFile {
        if let reason = SwiftSourceScanner.skipReason(source: source, limits: limits) {
            throw FormatError(.limitExceeded("max-nesting-depth"), format: Self.format, reason: reason)
        }
        var text = source
        let tree = text.withUTF8 { Parser.parse(source: $0, maximumNestingLevel: SwiftSourceScanner.maximumNestingLevel) }
        var converter = Converter(lines: LineTable(source), limits: limits)
        converter.origin = path
        if let bad = FirstError.find(in: tree) {
            let (line, column) = converter.lines.location(ofUTF8Offset: bad.utf8Offset)
            throw FormatError(.malformed, format: Self.format, reason: "not valid Swift", line: line, column: column)
        }
        var declarations = ManifestDeclarations()
        for item in tree.statements {
            if let f = item.item.as(FunctionDeclSyntax.self) {
                declarations.function(f, names: [f.name.text], converter: &converter)
                continue
            }
            if let type = item.item.as(DeclSyntax.self), declarations.typeMembers(type, converter: &converter) { continue }
            guard let decl = item.item.as(VariableDeclSyntax.self) else { continue }
            let isLet = decl.bindingSpecifier.tokenKind == .keyword(.let)
            for binding in decl.bindings {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                      let initial = binding.initializer?.value else { continue }
                var value = isLet ? converter.convert(initial, depth: 0)
                    : converter.unsupported(initial, text: "var \(name) = …")
                // `let project: Project = .init(…)` is `Project(…)`.
                if case .call(".init", let base, let args) = value.kind,
                   let type = binding.typeAnnotation?.type.as(IdentifierTypeSyntax.self)?.name.text {
                    value.kind = .call(name: type, base: base, arguments: args)
                }
                declarations.bindings.append(.init(name: name, value: value))
            }
        }
        declarations.functions += converter.calledClosures
        return declarations.file()
    }

    struct Converter {
        let lines: LineTable
        let limits: ReaderLimits
        var count = 0
        /// Closures called where they are written (`let deps: [T] = { var d = base; d.append(x); return d }()`),
        /// as functions without parameters named by their position.
        var calledClosures: [ManifestFile.Function] = []
        /// The file read, so that closures of two files never share a name.
        var origin = ""

        init(lines: LineTable, limits: ReaderLimits) {
            self.lines = lines
            self.limits = limits
        }

        func position(_ node: some SyntaxProtocol) -> SourcePosition {
            let (line, column) = lines.location(ofUTF8Offset: node.positionAfterSkippingLeadingTrivia.utf8Offset)
            return SourcePosition(line: line, column: column)
        }

        func unsupported(_ node: some SyntaxProtocol, text: String? = nil) -> ManifestValue {
            let t = text ?? node.sourceText
            return ManifestValue(.unsupported(t.count > 200 ? String(t.prefix(200)) : t), position: position(node))
        }

        mutating func convert(_ expr: ExprSyntax, depth: Int) -> ManifestValue {
            count += 1
            guard depth < limits.maxNestingDepth, count <= limits.maxPlistObjects else { return unsupported(expr) }
            let pos = position(expr)
            func value(_ kind: ManifestValue.Kind) -> ManifestValue { ManifestValue(kind, position: pos) }
            if let s = expr.as(StringLiteralExprSyntax.self) {
                var parts: [ManifestValue] = []
                for segment in s.segments {
                    if let text = segment.as(StringSegmentSyntax.self) {
                        if text.content.text.isEmpty { continue }
                        parts.append(ManifestValue(.string(text.content.text), position: position(text)))
                    } else if let interp = segment.as(ExpressionSegmentSyntax.self), interp.expressions.count == 1,
                              let e = interp.expressions.first, e.label == nil {
                        parts.append(convert(e.expression, depth: depth + 1))
                    } else {
                        return unsupported(expr)
                    }
                }
                if parts.isEmpty { return value(.string("")) }
                if parts.count == 1, case .string = parts[0].kind { return value(parts[0].kind) }
                return value(.interpolation(parts))
            }
            if let i = expr.as(IntegerLiteralExprSyntax.self) { return value(.number(i.literal.text.replacingOccurrences(of: "_", with: ""))) }
            if let f = expr.as(FloatLiteralExprSyntax.self) { return value(.number(f.literal.text.replacingOccurrences(of: "_", with: ""))) }
            if let b = expr.as(BooleanLiteralExprSyntax.self) { return value(.bool(b.literal.tokenKind == .keyword(.true))) }
            if expr.is(NilLiteralExprSyntax.self) { return value(.nil) }
            if let a = expr.as(ArrayExprSyntax.self) {
                return value(.array(a.elements.map { convert($0.expression, depth: depth + 1) }))
            }
            if let d = expr.as(DictionaryExprSyntax.self) {
                guard case .elements(let elements) = d.content else { return value(.dictionary([])) }
                return value(.dictionary(elements.map {
                    ManifestEntry(key: convert($0.key, depth: depth + 1), value: convert($0.value, depth: depth + 1))
                }))
            }
            if let r = expr.as(DeclReferenceExprSyntax.self), r.argumentNames == nil {
                return value(.identifier(r.baseName.text))
            }
            if let seq = expr.as(SequenceExprSyntax.self) {
                return sequence(Array(seq.elements), of: expr, depth: depth)
            }
            if let p = expr.as(PrefixOperatorExprSyntax.self), p.operator.text == "!" {
                return value(.conditional(condition: convert(p.expression, depth: depth + 1),
                                          then: value(.bool(false)), else: value(.bool(true))))
            }
            if let c = expr.as(ClosureExprSyntax.self) {
                return closure(c, depth: depth)
            }
            if let t = expr.as(TupleExprSyntax.self), t.elements.count == 1, let only = t.elements.first, only.label == nil {
                return convert(only.expression, depth: depth + 1)
            }
            if let m = expr.as(MemberAccessExprSyntax.self) {
                guard let name = memberName(m) else { return unsupported(expr) }
                return value(.member(name))
            }
            if let call = expr.as(FunctionCallExprSyntax.self), let closure = call.calledExpression.as(ClosureExprSyntax.self),
               closure.signature == nil, call.arguments.isEmpty, call.trailingClosure == nil, call.additionalTrailingClosures.isEmpty {
                var body = ManifestFunctionBody()
                guard let result = body.read(closure.statements, converter: &self, depth: depth + 1) else { return unsupported(expr) }
                let name = "{ … }() at \(origin):\(pos.line):\(pos.column)"
                calledClosures.append(.init(name: name, parameters: [], locals: body.locals, body: result))
                return value(.call(name: name, base: nil, arguments: []))
            }
            if let call = expr.as(FunctionCallExprSyntax.self) {
                // `a.merging(b) { _, new in new }`: the closure only settles duplicate keys; the
                // interpreter lets `b` win, as nearly every manifest does.
                let method = call.calledExpression.as(MemberAccessExprSyntax.self)
                let isMerging = method?.declName.baseName.text == "merging"
                // `names.map { name in .target(name: name, …) }`: the closure is the one argument.
                if let method, let base = method.base, Self.mappers.contains(method.declName.baseName.text),
                   let closure = call.trailingClosure, call.arguments.isEmpty, call.additionalTrailingClosures.isEmpty {
                    return value(.call(name: "." + method.declName.baseName.text, base: convert(base, depth: depth + 1),
                                       arguments: [ManifestArgument(label: nil, value: self.closure(closure, depth: depth + 1))]))
                }
                guard call.trailingClosure == nil || isMerging, call.additionalTrailingClosures.isEmpty else { return unsupported(expr) }
                let args = call.arguments.map {
                    ManifestArgument(label: $0.label?.text, value: convert($0.expression, depth: depth + 1))
                }
                if let r = call.calledExpression.as(DeclReferenceExprSyntax.self) {
                    return value(.call(name: r.baseName.text, base: nil, arguments: args))
                }
                if let m = call.calledExpression.as(MemberAccessExprSyntax.self) {
                    if let name = memberName(m) { return value(.call(name: name, base: nil, arguments: args)) }
                    // A method of a value: `["A": "B"].merging(x)`.
                    if let base = m.base {
                        return value(.call(name: "." + m.declName.baseName.text, base: convert(base, depth: depth + 1), arguments: args))
                    }
                }
                return unsupported(expr)
            }
            return unsupported(expr)
        }

        static let mappers: Set<String> = ["map", "flatMap", "compactMap"]

        /// `.name` → ".name"; `Type.name` → "Type.name" (a capitalised base names a type),
        /// `.Core.network` → ".Core.network", `A.B.c` → "A.B.c" (nested types); nil when the
        /// base is a value.
        func memberName(_ m: MemberAccessExprSyntax) -> String? {
            let name = m.declName.baseName.text
            guard let base = m.base else { return "." + name }
            if let r = base.as(DeclReferenceExprSyntax.self), r.baseName.text.first?.isUppercase == true {
                return r.baseName.text + "." + name
            }
            if let inner = base.as(MemberAccessExprSyntax.self), inner.declName.baseName.text.first?.isUppercase == true,
               let prefix = memberName(inner) {
                return prefix + "." + name
            }
            return nil
        }

        /// Operands and operators as the parser leaves them unfolded: `a + b + c` (arrays or
        /// strings joined) and `condition ? a : rest` (the ternary binds loosest).
        mutating func sequence(_ items: [ExprSyntax], of expr: ExprSyntax, depth: Int) -> ManifestValue {
            let pos = position(expr)
            if items.count >= 3, let ternary = items[1].as(UnresolvedTernaryExprSyntax.self) {
                let rest = Array(items.dropFirst(2))
                let otherwise = rest.count == 1 ? convert(rest[0], depth: depth + 1) : sequence(rest, of: rest[0], depth: depth + 1)
                return ManifestValue(.conditional(condition: convert(items[0], depth: depth + 1),
                                                  then: convert(ternary.thenExpression, depth: depth + 1), else: otherwise), position: pos)
            }
            guard items.count >= 3, items.count % 2 == 1, stride(from: 1, to: items.count, by: 2).allSatisfy({
                items[$0].as(BinaryOperatorExprSyntax.self)?.operator.text == "+"
            }) else { return unsupported(expr) }
            return ManifestValue(.concatenation(stride(from: 0, to: items.count, by: 2).map { convert(items[$0], depth: depth + 1) }),
                                 position: pos)
        }

        /// `{ name in expr }`, `{ (name: T) in return expr }` or `{ expr with $0 }`.
        mutating func closure(_ c: ClosureExprSyntax, depth: Int) -> ManifestValue {
            var parameters = ["$0"]
            switch c.signature?.parameterClause {
            case .simpleInput(let list)?: parameters = list.map(\.name.text)
            case .parameterClause(let clause)?: parameters = clause.parameters.map { ($0.secondName ?? $0.firstName).text }
            case nil: break
            }
            guard c.statements.count == 1, let item = c.statements.first?.item else { return unsupported(c) }
            let body: ExprSyntax
            if let e = item.as(ExprSyntax.self) {
                body = e
            } else if let e = item.as(ReturnStmtSyntax.self)?.expression {
                body = e
            } else {
                return unsupported(c)
            }
            return ManifestValue(.closure(parameters: parameters, body: convert(body, depth: depth + 1)), position: position(c))
        }
    }
}

/// The first place the parser could not read: a missing token or unexpected text.
private final class FirstError: SyntaxVisitor {
    var found: AbsolutePosition?

    static func find(in tree: SourceFileSyntax) -> AbsolutePosition? {
        guard tree.hasError else { return nil }
        let v = FirstError(viewMode: .all)
        v.walk(tree)
        return v.found ?? tree.position
    }

    override func visit(_ node: UnexpectedNodesSyntax) -> SyntaxVisitorContinueKind {
        if found == nil { found = node.positionAfterSkippingLeadingTrivia }
        return .skipChildren
    }

    override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
        if found == nil, token.presence == .missing { found = token.position }
        return .skipChildren
    }
}
