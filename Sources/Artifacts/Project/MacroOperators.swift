import Foundation
import Formats

/// Xcode's retrieval (`:lower`) and replacement (`:default=x`) operators.
public enum MacroOperators {
    public static func apply(_ op: String, argument: String?, to v: String) -> String {
        if let argument {
            switch op {
            case "default": return v.isEmpty ? argument : v
            case "dir": return joinRaw(argument, lastComponent(v))
            case "file": return joinRaw(dirname(v), argument)
            case "base":
                let ext = suffix(v)
                return joinRaw(dirname(v), argument) + ext
            case "suffix":
                let s = argument.hasPrefix(".") ? argument : "." + argument
                return removeSuffix(v) + s
            default: return v
            }
        }
        switch op {
        case "lower": return v.lowercased()
        case "upper": return v.uppercased()
        case "identifier": return identifier(v, extended: false)
        case "c99extidentifier": return identifier(v, extended: true)
        case "rfc1034identifier":
            return String(String.UnicodeScalarView(v.unicodeScalars.map {
                isASCIIAlnum($0) || $0 == "-" || $0 == "." ? $0 : "-"
            }))
        case "quote": return quote(v)
        case "base": return PathUtil.removingExtension(lastComponent(v))
        case "file": return lastComponent(v)
        case "dir":
            let d = dirname(v)
            if d.isEmpty { return "./" }
            return d.hasSuffix("/") ? d : d + "/"
        case "suffix": return suffix(v)
        case "standardizepath": return standardize(v)
        case "not": return v == "YES" ? "NO" : "YES"
        default: return v
        }
    }

    static func isASCIIAlnum(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c)
    }

    /// `:identifier` keeps ASCII letters, digits and `_`; `:c99extidentifier` also keeps
    /// non-ASCII letters and digits. Everything else becomes `_`; a leading digit gets a `_`.
    static func identifier(_ v: String, extended: Bool) -> String {
        var out = String.UnicodeScalarView()
        for c in v.unicodeScalars {
            let keep = isASCIIAlnum(c) || c == "_" ||
                (extended && !c.isASCII && (c.properties.isAlphabetic || c.properties.numericType != nil))
            out.append(keep ? c : "_")
        }
        if let f = out.first, ("0"..."9").contains(f) { out.insert("_", at: out.startIndex) }
        return String(out)
    }

    static func quote(_ v: String) -> String {
        var out = ""
        for c in v {
            if c == " " || c == "\t" || c == "\"" || c == "'" || c == "\\" { out.append("\\") }
            out.append(c)
        }
        return out
    }

    static func lastComponent(_ p: String) -> String {
        var s = Substring(p)
        while s.count > 1, s.hasSuffix("/") { s = s.dropLast() }
        if s == "/" { return "/" }
        return s.split(separator: "/").last.map(String.init) ?? ""
    }

    static func dirname(_ p: String) -> String {
        var s = Substring(p)
        while s.count > 1, s.hasSuffix("/") { s = s.dropLast() }
        guard let slash = s.lastIndex(of: "/") else { return "" }
        if slash == s.startIndex { return "/" }
        return String(s[..<slash])
    }

    static func suffix(_ p: String) -> String {
        let name = lastComponent(p)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[dot...])
    }

    static func removeSuffix(_ p: String) -> String {
        let s = suffix(p)
        return s.isEmpty ? p : String(p.dropLast(s.count))
    }

    static func joinRaw(_ dir: String, _ name: String) -> String {
        if dir.isEmpty { return name }
        return dir.hasSuffix("/") ? dir + name : dir + "/" + name
    }

    /// Removes `.` and empty components and resolves `..` where possible; keeps a leading `/`.
    static func standardize(_ p: String) -> String {
        let absolute = p.hasPrefix("/")
        var parts: [Substring] = []
        for c in p.split(separator: "/", omittingEmptySubsequences: true) {
            if c == "." { continue }
            if c == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            if c == "..", absolute { continue }
            parts.append(c)
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }
}
