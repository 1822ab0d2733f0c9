import Artifacts
import SwiftSyntax

/// The declarations of a manifest or of a `ProjectDescriptionHelpers` file: top-level
/// constants and functions, and the static constants and functions of its types and
/// extensions (`extension Project { static func app(…) -> Project }`,
/// `enum Constants { static let deploymentTarget = … }`).
///
/// A static member of type path `A.B` is named `A.B.m` and `B.m`; one declared in an
/// extension (of a ProjectDescription type, as helpers do) also `.m` / `.B.m`, the way a
/// manifest writes it (`.makeWidget(…)`, `.Core.network`). Its bare name `m` (how the type's
/// own functions write it) is kept only where a single type declares it.
struct ManifestDeclarations {
    var bindings: [ManifestFile.Binding] = []
    var functions: [ManifestFile.Function] = []
    private var bareBindings: [String: [ManifestFile.Binding]] = [:]
    private var bareFunctions: [String: [ManifestFile.Function]] = [:]
    static let maxTypeDepth = 4

    func file() -> ManifestFile {
        var b = bindings
        var f = functions
        for (_, list) in bareBindings.sorted(by: { $0.key < $1.key }) where list.count == 1 { b.append(list[0]) }
        for (_, list) in bareFunctions.sorted(by: { $0.key < $1.key }) where list.count == 1 { f.append(list[0]) }
        return ManifestFile(bindings: b, functions: f)
    }

    /// Reads a type or extension declaration's static members; false when `decl` is neither.
    mutating func typeMembers(_ decl: DeclSyntax, path: [String] = [], inExtension: Bool = false,
                              converter: inout ManifestSyntaxReader.Converter) -> Bool {
        let name: String
        let members: MemberBlockSyntax
        var isExtension = inExtension
        if let e = decl.as(ExtensionDeclSyntax.self) {
            guard let type = e.extendedType.as(IdentifierTypeSyntax.self)?.name.text
                    ?? e.extendedType.as(MemberTypeSyntax.self).map({ $0.sourceText }) else { return true }
            (name, members, isExtension) = (type, e.memberBlock, true)
        } else if let s = decl.as(StructDeclSyntax.self) {
            (name, members) = (s.name.text, s.memberBlock)
        } else if let e = decl.as(EnumDeclSyntax.self) {
            (name, members) = (e.name.text, e.memberBlock)
        } else if let c = decl.as(ClassDeclSyntax.self) {
            (name, members) = (c.name.text, c.memberBlock)
        } else {
            return false
        }
        let typePath = path + name.split(separator: ".").map(String.init)
        guard typePath.count <= Self.maxTypeDepth else { return true }
        for member in members.members {
            let d = member.decl
            if let f = d.as(FunctionDeclSyntax.self) {
                guard Self.isStatic(f.modifiers) else { continue }
                function(f, names: names(f.name.text, typePath, isExtension), bare: f.name.text, converter: &converter)
            } else if let v = d.as(VariableDeclSyntax.self) {
                guard Self.isStatic(v.modifiers), v.bindingSpecifier.tokenKind == .keyword(.let) else { continue }
                for binding in v.bindings {
                    guard let n = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                          let initial = binding.initializer?.value else { continue }
                    let value = converter.convert(initial, depth: 0)
                    for full in names(n, typePath, isExtension) { bindings.append(.init(name: full, value: value)) }
                    bareBindings[n, default: []].append(.init(name: n, value: value))
                }
            } else {
                _ = typeMembers(d, path: typePath, inExtension: isExtension, converter: &converter)
            }
        }
        return true
    }

    static func isStatic(_ modifiers: DeclModifierListSyntax) -> Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
    }

    /// `A.B.m`, `B.m`, and in an extension `.B.m` (or `.m` for a member of the extended type).
    func names(_ member: String, _ typePath: [String], _ isExtension: Bool) -> [String] {
        var out: [String] = []
        for start in typePath.indices { out.append((typePath[start...] + [member]).joined(separator: ".")) }
        if isExtension { out.append("." + (typePath.dropFirst() + [member]).joined(separator: ".")) }
        return out
    }

    /// A function whose body can be read as a value (see `ManifestFunctionBody`); one that
    /// cannot is left out, so a call of it stays "cannot be read statically".
    mutating func function(_ f: FunctionDeclSyntax, names: [String], bare: String? = nil,
                           converter: inout ManifestSyntaxReader.Converter) {
        var parameters: [ManifestFile.Function.Parameter] = []
        for p in f.signature.parameterClause.parameters {
            parameters.append(.init(label: p.firstName.tokenKind == .wildcard ? nil : p.firstName.text,
                                    name: (p.secondName ?? p.firstName).text,
                                    defaultValue: p.defaultValue.map { converter.convert($0.value, depth: 0) }))
        }
        guard let body = f.body else { return }
        var reader = ManifestFunctionBody()
        guard let result = reader.read(body.statements, converter: &converter, depth: 0) else { return }
        for name in names {
            functions.append(.init(name: name, parameters: parameters, locals: reader.locals, body: result))
        }
        if let bare {
            bareFunctions[bare, default: []].append(.init(name: bare, parameters: parameters, locals: reader.locals, body: result))
        }
    }
}

/// A function body read as straight-line code: `let`/`var` declarations, `x = …`, `x += …`,
/// `x.append(…)`, `x.append(contentsOf: …)` and `if` on an expression (each assignment inside
/// becoming a conditional value), ending in `return value` (or a single expression). Loops,
/// `guard`, `switch`, early returns and anything else make the body unreadable (nil).
struct ManifestFunctionBody {
    var locals: [ManifestFile.Binding] = []
    static let maxStatements = 500

    mutating func read(_ items: CodeBlockItemListSyntax, converter: inout ManifestSyntaxReader.Converter, depth: Int) -> ManifestValue? {
        let list = Array(items)
        if list.count == 1, let e = list[0].item.as(ExprSyntax.self), !e.is(IfExprSyntax.self) {
            return converter.convert(e, depth: 0)
        }
        guard let last = list.last, let returned = last.item.as(ReturnStmtSyntax.self)?.expression else { return nil }
        for item in list.dropLast() {
            guard statement(item.item, converter: &converter, depth: depth) else { return nil }
        }
        return converter.convert(returned, depth: 0)
    }

    /// Statements of an `if` branch: no `return`.
    mutating func block(_ items: CodeBlockItemListSyntax, converter: inout ManifestSyntaxReader.Converter, depth: Int) -> Bool {
        items.allSatisfy { statement($0.item, converter: &converter, depth: depth) }
    }

    mutating func statement(_ item: CodeBlockItemSyntax.Item, converter: inout ManifestSyntaxReader.Converter, depth: Int) -> Bool {
        guard locals.count < Self.maxStatements, depth < converter.limits.maxNestingDepth else { return false }
        if let v = item.as(VariableDeclSyntax.self) {
            for binding in v.bindings {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return false }
                // `var x: [Target]` without a value is set later.
                guard let initial = binding.initializer?.value else { continue }
                set(name, converter.convert(initial, depth: 0))
            }
            return true
        }
        // A local function: its calls stay unread (what they compute is reported if used).
        if item.is(FunctionDeclSyntax.self) { return true }
        if let loop = item.as(ForStmtSyntax.self) { return forLoop(loop, converter: &converter, depth: depth) }
        let expr = item.as(ExprSyntax.self) ?? item.as(ExpressionStmtSyntax.self)?.expression
        guard let expr else { return false }
        if let ifExpr = expr.as(IfExprSyntax.self) { return conditional(ifExpr, converter: &converter, depth: depth) }
        if let seq = expr.as(SequenceExprSyntax.self) {
            let parts = Array(seq.elements)
            guard parts.count == 3, let name = parts[0].as(DeclReferenceExprSyntax.self)?.baseName.text else { return false }
            let rhs = converter.convert(parts[2], depth: 0)
            if parts[1].is(AssignmentExprSyntax.self) {
                set(name, rhs)
            } else if parts[1].as(BinaryOperatorExprSyntax.self)?.operator.text == "+=" {
                set(name, ManifestValue(.concatenation([ManifestValue(.identifier(name), position: rhs.position), rhs]), position: rhs.position))
            } else {
                return false
            }
            return true
        }
        if let call = expr.as(FunctionCallExprSyntax.self), let m = call.calledExpression.as(MemberAccessExprSyntax.self),
           m.declName.baseName.text == "append", let name = m.base?.as(DeclReferenceExprSyntax.self)?.baseName.text,
           call.arguments.count == 1, call.trailingClosure == nil, let arg = call.arguments.first {
            let value = converter.convert(arg.expression, depth: 0)
            let added: ManifestValue
            switch arg.label?.text {
            case nil: added = ManifestValue(.array([value]), position: value.position)
            case "contentsOf": added = value
            default: return false
            }
            set(name, ManifestValue(.concatenation([ManifestValue(.identifier(name), position: value.position), added]), position: value.position))
            return true
        }
        return false
    }

    /// `if condition { … } else { … }`: each assignment of a branch applies when the condition
    /// (or, for `else`, its negation) holds, and keeps the earlier value otherwise.
    mutating func conditional(_ i: IfExprSyntax, converter: inout ManifestSyntaxReader.Converter, depth: Int) -> Bool {
        guard i.conditions.count == 1, case .expression(let c)? = i.conditions.first?.condition else { return false }
        let condition = converter.convert(c, depth: 0)
        var then = ManifestFunctionBody()
        guard then.block(i.body.statements, converter: &converter, depth: depth + 1) else { return false }
        for local in then.locals {
            guard locals.count < Self.maxStatements else { return false }
            set(local.name, ManifestValue(.conditional(condition: condition, then: local.value,
                                                       else: ManifestValue(.identifier(local.name), position: local.value.position)),
                                          position: local.value.position))
        }
        var otherwise = ManifestFunctionBody()
        switch i.elseBody {
        case nil: return true
        case .codeBlock(let b)?:
            guard otherwise.block(b.statements, converter: &converter, depth: depth + 1) else { return false }
        case .ifExpr(let nested)?:
            guard otherwise.conditional(nested, converter: &converter, depth: depth + 1) else { return false }
        }
        for local in otherwise.locals {
            guard locals.count < Self.maxStatements else { return false }
            set(local.name, ManifestValue(.conditional(condition: condition,
                                                       then: ManifestValue(.identifier(local.name), position: local.value.position),
                                                       else: local.value),
                                          position: local.value.position))
        }
        return true
    }

    /// `for x in list { y.append(…) }`: a loop whose body only adds to variables declared
    /// before it is `y += list.flatMap { x in [ … ] }`; any other body is not read.
    mutating func forLoop(_ loop: ForStmtSyntax, converter: inout ManifestSyntaxReader.Converter, depth: Int) -> Bool {
        guard loop.whereClause == nil, loop.tryKeyword == nil, loop.awaitKeyword == nil, loop.caseKeyword == nil,
              let variable = loop.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return false }
        var body = ManifestFunctionBody()
        guard body.block(loop.body.statements, converter: &converter, depth: depth + 1) else { return false }
        let sequence = converter.convert(loop.sequence, depth: 0)
        for local in body.locals {
            guard case .concatenation(let parts) = local.value.kind, parts.count == 2,
                  case .identifier(local.name) = parts[0].kind, locals.count < Self.maxStatements else { return false }
            let added = parts[1]
            let perItem = ManifestValue(.closure(parameters: [variable], body: added), position: added.position)
            let mapped = ManifestValue(.call(name: ".flatMap", base: sequence, arguments: [ManifestArgument(label: nil, value: perItem)]),
                                       position: added.position)
            set(local.name, ManifestValue(.concatenation([parts[0], mapped]), position: added.position))
        }
        return true
    }

    mutating func set(_ name: String, _ value: ManifestValue) {
        locals.append(.init(name: name, value: value))
    }
}
