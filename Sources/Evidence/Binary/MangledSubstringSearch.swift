/// Finds which of a fixed set of substrings occur in mangled Swift symbols.
///
/// One pass over each symbol's bytes: a 64K table indexed by the first two bytes of every
/// pattern gives the few candidates to compare at each position. A pattern that starts
/// with a length digit only matches where no digit precedes it, so `5ARKit` does not match
/// inside `15ARKit…`.
struct MangledSubstringSearch: Sendable {
    private let patterns: [[UInt8]]
    private let candidates: [[Int32]]

    init(_ patterns: [String]) {
        self.patterns = patterns.map { Array($0.utf8) }
        var candidates = [[Int32]](repeating: [], count: 1 << 16)
        for (index, pattern) in self.patterns.enumerated() {
            precondition(pattern.count >= 2, "mangled pattern too short: \(patterns[index])")
            candidates[Self.slot(pattern[0], pattern[1])].append(Int32(index))
        }
        self.candidates = candidates
    }

    var isEmpty: Bool { patterns.isEmpty }

    /// Indices of the patterns found in `symbol`, each at most once, in ascending order.
    func matches(in symbol: String) -> [Int] {
        var found: [Int] = []
        var symbol = symbol
        symbol.withUTF8 { bytes in
            guard bytes.count >= 2 else { return }
            for position in 0..<(bytes.count - 1) {
                let bucket = candidates[Self.slot(bytes[position], bytes[position + 1])]
                if bucket.isEmpty { continue }
                if position > 0, Self.isDigit(bytes[position]), Self.isDigit(bytes[position - 1]) {
                    continue
                }
                for index in bucket where !found.contains(Int(index)) {
                    let pattern = patterns[Int(index)]
                    guard position + pattern.count <= bytes.count else { continue }
                    var equal = true
                    for offset in 2..<pattern.count where bytes[position + offset] != pattern[offset] {
                        equal = false
                        break
                    }
                    if equal { found.append(Int(index)) }
                }
            }
        }
        return found.sorted()
    }

    private static func slot(_ first: UInt8, _ second: UInt8) -> Int {
        Int(first) << 8 | Int(second)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}
