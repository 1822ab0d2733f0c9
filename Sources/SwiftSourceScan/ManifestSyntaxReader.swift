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
        if let bad = FirstError.find(in: tree) {
            let (line, column) = converter.lines.location(ofUTF8Offset: bad.utf8Offset)
            throw FormatError(.malformed, format: Self.format, reason: "not valid Swift", line: line, column: column)
        }
        var bindings: [ManifestFile.Binding] = []
        var functions: [ManifestFile.Function] = []
        for item in tree.statements {
            if let f = item.item.as(FunctionDeclSyntax.self), let body = Self.singleExpression(f.body) {
                let parameters = f.signature.parameterClause.parameters.map { p in
                    ManifestFile.Function.Parameter(label: p.firstName.tokenKind == .wildcard ? nil : p.firstName.text,
                                                    name: (p.secondName ?? p.firstName).text)
                }
                functions.append(.init(name: f.name.text, parameters: parameters, body: converter.convert(body, depth: 0)))
                continue
            }
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
                bindings.append(.init(name: name, value: value))
            }
        }
        return ManifestFile(bindings: bindings, functions: functions)
    }

    /// The expression a function body consists of: `{ expr }` or `{ return expr }`.
    static func singleExpression(_ body: CodeBlockSyntax?) -> ExprSyntax? {
        guard let items = body?.statements, items.count == 1, let item = items.first?.item else { return nil }
        if let expr = item.as(ExprSyntax.self) { return expr }
        return item.as(ReturnStmtSyntax.self)?.expression
    }

    struct Converter {
        let lines: LineTable
        let limits: ReaderLimits
        var count = 0

        init(lines: LineTable, limits: ReaderLimits) {
            self.lines = lines
            self.limits = limits
        }

        func position(_ node: some SyntaxProtocol) -> SourcePosition {
            let (line, column) = lines.location(ofUTF8Offset: node.positionAfterSkippingLeadingTrivia.utf8Offset)
            return SourcePosition(line: line, column: column)
        }

        func unsupported(_ node: some SyntaxProtocol, text: String? = nil) -> ManifestValue {
            let t = text ?? node.trimmedDescription
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
            // `a + b + c`, as the parser leaves it unfolded: operands and `+` alternate.
            if let seq = expr.as(SequenceExprSyntax.self) {
                let items = Array(seq.elements)
                guard items.count >= 3, items.count % 2 == 1, stride(from: 1, to: items.count, by: 2).allSatisfy({
                    items[$0].as(BinaryOperatorExprSyntax.self)?.operator.text == "+"
                }) else { return unsupported(expr) }
                return value(.concatenation(stride(from: 0, to: items.count, by: 2).map { convert(items[$0], depth: depth + 1) }))
            }
            if let t = expr.as(TupleExprSyntax.self), t.elements.count == 1, let only = t.elements.first, only.label == nil {
                return convert(only.expression, depth: depth + 1)
            }
            if let m = expr.as(MemberAccessExprSyntax.self) {
                guard let name = memberName(m) else { return unsupported(expr) }
                return value(.member(name))
            }
            if let call = expr.as(FunctionCallExprSyntax.self) {
                // `a.merging(b) { _, new in new }`: the closure only settles duplicate keys; the
                // interpreter lets `b` win, as nearly every manifest does.
                let isMerging = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "merging"
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

        /// `.name` → ".name"; `Type.name` → "Type.name" (a capitalised base names a type);
        /// nil when the base is a value.
        func memberName(_ m: MemberAccessExprSyntax) -> String? {
            let name = m.declName.baseName.text
            guard let base = m.base else { return "." + name }
            if let r = base.as(DeclReferenceExprSyntax.self), r.baseName.text.first?.isUppercase == true {
                return r.baseName.text + "." + name
            }
            return nil
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
