/// Line splicing (backslash-newline removal) and the way back from an offset in the spliced
/// buffer to a 1-based line and column of the original text. Columns count UTF-8 bytes,
/// as clang's do.
struct ObjCSourcePositions {
    let original: [UInt8]
    /// Sorted offsets in the spliced buffer where a splice happened, with the number of
    /// original bytes removed up to and including that splice.
    private var splices: [(at: Int, removed: Int)] = []
    private var lineStarts: [Int]? = nil

    /// Splices `original`; returns the positions map and the spliced bytes.
    static func splice(_ original: [UInt8]) -> (ObjCSourcePositions, [UInt8]) {
        var positions = ObjCSourcePositions(original: original)
        guard original.contains(UInt8(ascii: "\\")) else { return (positions, original) }
        var spliced: [UInt8] = []
        spliced.reserveCapacity(original.count)
        var removed = 0
        var i = 0
        let n = original.count
        while i < n {
            let c = original[i]
            if c == UInt8(ascii: "\\") {
                var length = 0
                if i + 1 < n, original[i + 1] == 0x0A { length = 2 }
                else if i + 2 < n, original[i + 1] == 0x0D, original[i + 2] == 0x0A { length = 3 }
                if length > 0 {
                    removed += length
                    positions.splices.append((spliced.count, removed))
                    i += length
                    continue
                }
            }
            spliced.append(c)
            i += 1
        }
        return (positions, spliced)
    }

    private init(original: [UInt8]) {
        self.original = original
    }

    func originalOffset(_ offset: Int) -> Int {
        // Last splice at or before `offset`.
        var low = 0, high = splices.count
        while low < high {
            let mid = (low + high) / 2
            if splices[mid].at <= offset { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? offset : offset + splices[low - 1].removed
    }

    /// 1-based line and column of a spliced-buffer offset.
    mutating func lineAndColumn(_ offset: Int) -> (line: Int, column: Int) {
        if lineStarts == nil {
            var starts = [0]
            for (index, byte) in original.enumerated() where byte == 0x0A { starts.append(index + 1) }
            lineStarts = starts
        }
        let starts = lineStarts!
        let target = originalOffset(offset)
        var low = 0, high = starts.count
        while low < high {
            let mid = (low + high) / 2
            if starts[mid] <= target { low = mid + 1 } else { high = mid }
        }
        let line = max(low, 1)
        return (line, target - starts[line - 1] + 1)
    }
}
