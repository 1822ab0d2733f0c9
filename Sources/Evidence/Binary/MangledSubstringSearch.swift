/// Finds which of a fixed set of substrings occur in mangled Swift symbols.
///
/// One pass over each symbol's bytes: a 64K table indexed by the first two bytes of every
/// pattern gives the head of a short chain of candidates to compare at each position. A
/// pattern that starts with a length digit only matches where no digit precedes it, so
/// `5ARKit` does not match inside `15ARKit…`.
struct MangledSubstringSearch: Sendable {
    private let patterns: [[UInt8]]
    /// First candidate pattern per two-byte prefix, -1 for none.
    private let head: [Int32]
    /// Next candidate with the same prefix, -1 at the end of the chain.
    private let next: [Int32]

    init(_ patterns: [String]) {
        self.patterns = patterns.map { Array($0.utf8) }
        var head = [Int32](repeating: -1, count: 1 << 16)
        var next = [Int32](repeating: -1, count: patterns.count)
        for (index, pattern) in self.patterns.enumerated().reversed() {
            precondition(pattern.count >= 2, "mangled pattern too short: \(patterns[index])")
            let slot = Self.slot(pattern[0], pattern[1])
            next[index] = head[slot]
            head[slot] = Int32(index)
        }
        self.head = head
        self.next = next
    }

    var isEmpty: Bool { patterns.isEmpty }

    /// Indices of the patterns found in `symbol`, each once, in ascending order.
    func matches(in symbol: String) -> [Int] {
        var found: [Int] = []
        var symbol = symbol
        symbol.withUTF8 { bytes in
            guard bytes.count >= 2 else { return }
            head.withUnsafeBufferPointer { head in
                var previousIsDigit = false
                for position in 0..<(bytes.count - 1) {
                    let byte = bytes[position]
                    let isDigit = byte >= 0x30 && byte <= 0x39
                    defer { previousIsDigit = isDigit }
                    var candidate = head[Self.slot(byte, bytes[position + 1])]
                    if candidate < 0 || (isDigit && previousIsDigit) { continue }
                    while candidate >= 0 {
                        let index = Int(candidate)
                        candidate = next[index]
                        if Self.occurs(patterns[index], in: bytes, at: position), !found.contains(index) {
                            found.append(index)
                        }
                    }
                }
            }
        }
        return found.sorted()
    }

    private static func occurs(_ pattern: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> Bool {
        guard position + pattern.count <= bytes.count else { return false }
        for offset in 2..<pattern.count where bytes[position + offset] != pattern[offset] {
            return false
        }
        return true
    }

    private static func slot(_ first: UInt8, _ second: UInt8) -> Int {
        Int(first) << 8 | Int(second)
    }
}
