/// The byte test before a file is read for logged credentials: it must name a logging call and
/// contain a word a credential's name is made of. `print` alone is in almost every Swift file;
/// with a secret word beside it, few files remain (docs/accuracy.md has the counts).
public enum LoggingPrefilter {
    /// Lower-case spellings one of which every name `SecretNames.isSecret` accepts contains.
    static let secretWords: [[UInt8]] = ["password", "passwd", "passphrase", "passcode", "secret", "credential", "token",
                                         "apikey", "api_key", "privatekey", "private_key", "jwt"].map { Array($0.utf8) }

    /// Whether the bytes hold one of the calls (case-sensitive) and a secret word (in any case).
    public static func mayFind(_ bytes: UnsafeBufferPointer<UInt8>, calls: [[UInt8]]) -> Bool {
        contains(bytes, calls, foldCase: false) && contains(bytes, secretWords, foldCase: true)
    }

    /// One pass; `foldCase` compares ASCII letters without case (the needles are lower case).
    static func contains(_ b: UnsafeBufferPointer<UInt8>, _ needles: [[UInt8]], foldCase: Bool) -> Bool {
        var first = [Bool](repeating: false, count: 256)
        for n in needles where !n.isEmpty { first[Int(n[0])] = true }
        let count = b.count
        for i in 0..<count {
            let c = foldCase ? lower(b[i]) : b[i]
            guard first[Int(c)] else { continue }
            for n in needles where n[0] == c && n.count <= count - i {
                var k = 1
                while k < n.count, (foldCase ? lower(b[i + k]) : b[i + k]) == n[k] { k += 1 }
                if k == n.count { return true }
            }
        }
        return false
    }

    @inline(__always) static func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c | 0x20 : c }
}
