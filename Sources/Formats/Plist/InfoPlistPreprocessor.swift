import Foundation

/// Xcode runs the C preprocessor over an Info.plist when `INFOPLIST_PREPROCESS = YES`, so
/// real Info.plists contain `#ifdef`/`#ifndef`/`#if`/`#else`/`#endif` lines. This applies the
/// conditional directives with the given definitions and keeps every line in place (removed
/// lines become empty), so positions in the result are positions in the file.
public enum InfoPlistPreprocessor {
    /// True when some line starts with a preprocessor directive.
    public static func hasDirectives(_ data: Data) -> Bool {
        guard let text = String(data: data, encoding: .utf8) else { return false }
        return text.split(separator: "\n", omittingEmptySubsequences: false).contains { directive(of: $0) != nil }
    }

    static func directive(of line: Substring) -> (name: String, argument: String)? {
        let t = line.drop { $0 == " " || $0 == "\t" }
        guard t.first == "#" else { return nil }
        let rest = t.dropFirst().drop { $0 == " " || $0 == "\t" }
        let name = String(rest.prefix { $0.isLetter })
        guard ["if", "ifdef", "ifndef", "elif", "else", "endif", "define", "undef", "include", "error", "warning"].contains(name) else { return nil }
        return (name, rest.dropFirst(name.count).trimmingCharacters(in: .whitespaces))
    }

    public static func preprocess(_ data: Data, definitions: [String: String] = [:], limits: ReaderLimits = .default) throws -> Data {
        guard let text = String(data: data, encoding: .utf8) else { return data }
        var defs = definitions
        // Each frame: (this branch active, some branch of this group already taken, parent active)
        var stack: [(active: Bool, taken: Bool, parent: Bool)] = []
        var out: [Substring] = []
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let active = stack.last?.active ?? true
            guard let (name, arg) = directive(of: line) else {
                out.append(active ? line : "")
                continue
            }
            out.append("")
            switch name {
            case "ifdef", "ifndef", "if":
                guard stack.count < limits.maxNestingDepth else {
                    throw FormatError(.limitExceeded("max-nesting-depth"), format: "Info.plist preprocessor", reason: "conditionals nested deeper than \(limits.maxNestingDepth)", line: lineNumber, column: 1)
                }
                let ident = String(arg.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
                let cond = name == "ifdef" ? defs[ident] != nil : name == "ifndef" ? defs[ident] == nil : evaluate(arg, defs)
                stack.append((active && cond, cond, active))
            case "elif":
                guard let top = stack.popLast() else { throw unmatched("#elif", lineNumber) }
                let cond = !top.taken && evaluate(arg, defs)
                stack.append((top.parent && cond, top.taken || cond, top.parent))
            case "else":
                guard let top = stack.popLast() else { throw unmatched("#else", lineNumber) }
                stack.append((top.parent && !top.taken, true, top.parent))
            case "endif":
                guard stack.popLast() != nil else { throw unmatched("#endif", lineNumber) }
            case "define" where active:
                let parts = arg.split(separator: " ", maxSplits: 1).map(String.init)
                if let n = parts.first { defs[n] = parts.count > 1 ? parts[1] : "1" }
            case "undef" where active:
                defs[arg] = nil
            default:
                break // #include, #error, #warning: not applied
            }
        }
        guard stack.isEmpty else {
            throw FormatError(.malformed, format: "Info.plist preprocessor", reason: "#if without #endif", line: lineNumber, column: 1)
        }
        return Data(out.joined(separator: "\n").utf8)
    }

    static func unmatched(_ d: String, _ line: Int) -> FormatError {
        FormatError(.malformed, format: "Info.plist preprocessor", reason: "\(d) without #if", line: line, column: 1)
    }

    /// `#if` conditions: `defined(X)`, `!defined(X)`, numbers and macro names (undefined = 0).
    static func evaluate(_ expr: String, _ defs: [String: String]) -> Bool {
        var e = expr.trimmingCharacters(in: .whitespaces)
        var negate = false
        while e.hasPrefix("!") { negate.toggle(); e = String(e.dropFirst()).trimmingCharacters(in: .whitespaces) }
        var value: Bool
        if e.hasPrefix("defined") {
            let name = e.dropFirst(7).trimmingCharacters(in: CharacterSet(charactersIn: "() \t"))
            value = defs[name] != nil
        } else if let n = Int(e) {
            value = n != 0
        } else if let v = defs[e] {
            value = (Int(v) ?? 1) != 0
        } else {
            value = false
        }
        if negate { value.toggle() }
        return value
    }
}
