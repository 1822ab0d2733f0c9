/// The byte test before a file is read for logged credentials: it must name a logging call and
/// contain a word a credential's name is made of. `print` alone is in almost every Swift file;
/// with a secret word beside it, few files remain (docs/accuracy.md has the counts).
public enum LoggingPrefilter {
    public typealias Table = ByteNeedles

    /// Lower-case spellings one of which every name `SecretNames.isSecret` accepts contains.
    static let secretWords = table(["password", "passwd", "passphrase", "passcode", "secret", "credential", "token",
                                    "apikey", "api_key", "privatekey", "private_key", "jwt"])

    public static func table(_ names: [String]) -> Table { ByteNeedles(names) }

    /// Whether the bytes hold one of the calls (case-sensitive) and a secret word (in any case).
    public static func mayFind(_ bytes: UnsafeBufferPointer<UInt8>, calls: Table) -> Bool {
        contains(bytes, calls, foldCase: false) && contains(bytes, secretWords, foldCase: true)
    }

    static let functionWord = table(["func "])

    /// A call that passes more than plain string literals (`mayPassValue`, which also finds the
    /// call) beside a secret word, or in a file that declares a function, whose parameter the
    /// call may log (a logging wrapper: `func log(_ m: String) { NSLog("%@", m) }`, joined with
    /// its callers in other files).
    public static func mayLogValue(_ bytes: UnsafeBufferPointer<UInt8>, calls: Table) -> Bool {
        mayPassValue(bytes, calls: calls)
            && (contains(bytes, secretWords, foldCase: true) || contains(bytes, functionWord, foldCase: false))
    }

    /// Whether the bytes hold one of the table's lower-case words, in any case.
    public static func containsFoldingCase(_ bytes: UnsafeBufferPointer<UInt8>, _ table: Table) -> Bool {
        contains(bytes, table, foldCase: true)
    }

    /// One pass; `foldCase` compares ASCII letters without case (the table holds lower case).
    static func contains(_ b: UnsafeBufferPointer<UInt8>, _ table: Table, foldCase: Bool) -> Bool {
        table.contains(in: b, foldCase: foldCase)
    }

    /// Whether some occurrence of one of the calls (entries ending in `(`) may log more than
    /// text written in the call: an argument that is not a plain string literal, or a literal
    /// that interpolates. `fatalError()` and `print("Done")` log nothing of the app's data, and
    /// they are in most files. An entry not ending in `(` (`privacy:`) counts wherever it is.
    /// Raw strings, labels and anything unclear count, as does a call longer than 4 KB.
    public static func mayPassValue(_ b: UnsafeBufferPointer<UInt8>, calls: Table) -> Bool {
        var from = 0
        while let (offset, name) = calls.firstMatch(in: b, from: from) {
            if name.last != UInt8(ascii: "(") || !onlyPlainLiterals(b, from: offset + name.count) { return true }
            from = offset + 1
        }
        return false
    }

    /// Whether the arguments from `start` to the call's `)` are plain string literals only.
    private static func onlyPlainLiterals(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        let end = min(b.count, start + 4096)
        var i = start
        while i < end {
            switch b[i] {
            case UInt8(ascii: ")"): return true
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","): i += 1
            case UInt8(ascii: "\""):
                let triple = i + 2 < end && b[i + 1] == UInt8(ascii: "\"") && b[i + 2] == UInt8(ascii: "\"")
                i += triple ? 3 : 1
                var closed = false
                while i < end {
                    if b[i] == UInt8(ascii: "\\") {
                        if i + 1 < end, b[i + 1] == UInt8(ascii: "(") { return false }  // interpolation
                        i += 2
                        continue
                    }
                    if b[i] == UInt8(ascii: "\"") {
                        if !triple { i += 1; closed = true; break }
                        if i + 2 < end, b[i + 1] == UInt8(ascii: "\""), b[i + 2] == UInt8(ascii: "\"") { i += 3; closed = true; break }
                    }
                    if !triple, b[i] == 0x0A { return false }  // not a literal as Swift reads one
                    i += 1
                }
                if !closed { return false }
            default: return false
            }
        }
        return false
    }

}
