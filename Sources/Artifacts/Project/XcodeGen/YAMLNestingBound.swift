import Foundation

/// An upper bound of a YAML document's nesting, read from its text without parsing it.
///
/// Block collections nest by indentation: each level needs at least one more column, or two
/// for a compact `- ` / `? ` entry, except a sequence written at its key's column, which the
/// `+ 2` per line allows for. Flow collections nest by brackets, each counted twice (a `[a: b]`
/// entry is a sequence holding a mapping). Block scalar bodies (`|`, `>`) and quoted or
/// commented text are skipped. The bound is generous, never lower than the real depth.
enum YAMLNestingBound {
    static func estimate(_ text: String) -> (depth: Int, line: Int?) {
        var best = 0, bestLine: Int?
        var flow = 0
        var quote: UInt8?  // ' or " when a quoted scalar continues across lines
        var blockScalarIndent: Int?
        var lineNumber = 0
        var lastBlockColumn = 0
        let bytes = Array(text.utf8)
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            lineNumber += 1
            let line = bytes[start..<end]
            defer { start = end + 1 }
            var i = line.startIndex
            while i < line.endIndex, line[i] == 0x20 { i += 1 }
            let indent = i - line.startIndex
            let blank = i == line.endIndex || line[i] == 0x0D || line[i] == UInt8(ascii: "#")
            if let b = blockScalarIndent {
                if blank || indent > b { continue }
                blockScalarIndent = nil
            }
            var column = indent
            var atNodeStart = quote == nil
            if flow == 0, quote == nil {
                // Compact indicators open one more level each.
                while i < line.endIndex, [UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":")].contains(line[i]),
                      i + 1 == line.endIndex || line[i + 1] == 0x20 {
                    i += 1
                    while i < line.endIndex, line[i] == 0x20 { i += 1 }
                }
                column = i - line.startIndex
                lastBlockColumn = column
            }
            var lineFlowMax = flow
            var last: UInt8 = 0x20
            while i < line.endIndex {
                let c = line[i]
                if let q = quote {
                    if q == UInt8(ascii: "\"") && c == UInt8(ascii: "\\") { i += 2; continue }
                    if c == q {
                        if q == UInt8(ascii: "'"), i + 1 < line.endIndex, line[i + 1] == q { i += 2; continue }
                        quote = nil
                    }
                    i += 1
                    continue
                }
                if c == UInt8(ascii: "#"), last == 0x20 || last == 0x09 { break }
                if c == UInt8(ascii: "'") || c == UInt8(ascii: "\""), atNodeStart {
                    quote = c
                } else if c == UInt8(ascii: "[") || c == UInt8(ascii: "{"), flow > 0 || atNodeStart {
                    flow += 1
                    lineFlowMax = max(lineFlowMax, flow)
                } else if c == UInt8(ascii: "]") || c == UInt8(ascii: "}"), flow > 0 {
                    flow -= 1
                }
                // A node starts after an indicator, or after `[`, `{` or `,` inside flow.
                if c != 0x20 {
                    atNodeStart = (flow > 0 && (c == UInt8(ascii: "[") || c == UInt8(ascii: "{") || c == UInt8(ascii: ",")))
                        || ((c == UInt8(ascii: ":") || c == UInt8(ascii: "-") || c == UInt8(ascii: "?"))
                            && (i + 1 == line.endIndex || line[i + 1] == 0x20))
                } else if last == UInt8(ascii: ":") || last == UInt8(ascii: ",") {
                    atNodeStart = true
                }
                last = c
                i += 1
            }
            let depth = lastBlockColumn + 2 + 2 * lineFlowMax
            if depth > best { best = depth; bestLine = lineNumber }
            // `key: |`, `- >-`, `key: |2+`: the lines indented deeper are the scalar's text.
            if quote == nil, flow == 0 {
                var j = line.endIndex
                while j > line.startIndex, [0x20, 0x0D, UInt8(ascii: "-"), UInt8(ascii: "+")].contains(line[j - 1])
                        || (line[j - 1] >= UInt8(ascii: "0") && line[j - 1] <= UInt8(ascii: "9")) { j -= 1 }
                if j > line.startIndex, line[j - 1] == UInt8(ascii: "|") || line[j - 1] == UInt8(ascii: ">"),
                   j - 1 == line.startIndex || line[j - 2] == 0x20 {
                    blockScalarIndent = indent
                }
            }
        }
        return (best, bestLine)
    }
}
