import Foundation

/// The printf-style arguments a format string reads (`%@`, `%d`, `%1$@`, `%.2f`, `%lld`):
/// argument number → kind of value. Used to compare a translation with its original.
struct FormatSpecifiers: Equatable {
    enum Kind: String {
        case object = "%@", integer = "%d", double = "%f", cString = "%s", character = "%c", pointer = "%p"
    }

    /// Argument number (1-based) → what is read there.
    var arguments: [Int: Kind] = [:]
    /// True when the string mixes numbered and unnumbered specifiers, or a number repeats
    /// with two kinds: undefined behaviour on its own.
    var inconsistent = false
    /// True when the string uses `%#@var@` (a `.stringsdict` variable): not compared.
    var hasPluralVariable = false

    var isEmpty: Bool { arguments.isEmpty }

    /// Reads the specifiers of `s`. Only well-formed specifiers count: `100% free` (a space
    /// after `%`) and `50%)` are text, not formats.
    init(_ s: String) {
        let c = Array(s.unicodeScalars)
        var i = 0, next = 1
        var sawNumbered = false, sawPlain = false
        func isDigit(_ x: Unicode.Scalar) -> Bool { x >= "0" && x <= "9" }
        while i < c.count {
            guard c[i] == "%" else { i += 1; continue }
            var j = i + 1
            guard j < c.count else { break }
            if c[j] == "%" { i = j + 1; continue }
            // Optional argument number `n$`.
            var number: Int?
            var k = j
            var n = 0
            while k < c.count, isDigit(c[k]), n < 1000 { n = n * 10 + Int(c[k].value - 48); k += 1 }
            if k < c.count, c[k] == "$", k > j, n > 0 { number = n; j = k + 1 }
            // `%#@name@`: a variable of a `.stringsdict` or catalog substitution.
            if j + 1 < c.count, c[j] == "#", c[j + 1] == "@" { hasPluralVariable = true; i = j + 2; continue }
            // Flags (no space: `% d` is nearly always text such as "100% discount").
            while j < c.count, "-+#0'".unicodeScalars.contains(c[j]) { j += 1 }
            // Width and precision (`*` reads an int argument).
            var stars = 0
            while j < c.count, isDigit(c[j]) || c[j] == "*" { if c[j] == "*" { stars += 1 }; j += 1 }
            if j < c.count, c[j] == "." {
                j += 1
                while j < c.count, isDigit(c[j]) || c[j] == "*" { if c[j] == "*" { stars += 1 }; j += 1 }
            }
            // Length modifiers.
            while j < c.count, "hlqLzjt".unicodeScalars.contains(c[j]) { j += 1 }
            guard j < c.count, let kind = Self.kind(c[j]) else { i += 1; continue }
            if number != nil { sawNumbered = true } else { sawPlain = true }
            if number == nil {
                for _ in 0..<stars { arguments[next] = .integer; next += 1 }
            }
            let index = number ?? next
            if number == nil { next += 1 }
            if let existing = arguments[index], existing != kind { inconsistent = true }
            arguments[index] = kind
            i = j + 1
        }
        if sawNumbered && sawPlain { inconsistent = true }
    }

    static func kind(_ c: Unicode.Scalar) -> Kind? {
        switch c {
        case "@": return .object
        case "d", "i", "u", "x", "X", "o", "D", "U", "O": return .integer
        case "f", "F", "e", "E", "g", "G", "a", "A": return .double
        case "s", "S": return .cString
        case "c", "C": return .character
        case "p": return .pointer
        default: return nil
        }
    }

    /// `%@, %d` in argument order, for messages.
    var signature: String {
        arguments.keys.sorted().map { "\(arguments.count > 1 || $0 > 1 ? "\($0):" : "")\(arguments[$0]!.rawValue)" }.joined(separator: ", ")
    }

    /// How a translation differs from the original, or nil when it reads the same arguments.
    /// A translation may leave an argument out (some languages need no count) only when it
    /// numbers its arguments; it must never read one the original does not pass, nor read an
    /// argument as another kind.
    static func difference(original: FormatSpecifiers, translation: FormatSpecifiers) -> String? {
        for (index, kind) in translation.arguments.sorted(by: { $0.key < $1.key }) {
            guard let expected = original.arguments[index] else {
                return "reads argument \(index) (\(kind.rawValue)) but the original passes only \(original.arguments.count)"
            }
            if expected != kind { return "reads argument \(index) as \(kind.rawValue) where the original passes \(expected.rawValue)" }
        }
        if translation.arguments.count < original.arguments.count {
            return "uses \(translation.arguments.count) of the original's \(original.arguments.count) arguments"
        }
        return nil
    }
}
