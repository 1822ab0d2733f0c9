import Evidence
import Formats
import SwiftParser
import SwiftSyntax

/// Finds uses of protected resources (camera, location, photos, contacts, …) in Swift source,
/// on the syntax tree: comments and string literals never count.
public enum SwiftSourceScanner {
    /// Usages of protected APIs in one Swift file. `path` is for messages only.
    ///
    /// Files larger than `ReaderLimits.default.maxSourceFileBytes` give nothing; callers
    /// check `exceedsLimits(byteCount:)` to report them.
    public static func scan(source: String, path: String,
                            catalog: ProtectedResourceCatalog = .standard) -> [SourceUsage] {
        scan(source: source, path: path, catalog: catalog, limits: .default)
    }

    /// As `scan(source:path:catalog:)`, with the caller's limits.
    public static func scan(source: String, path: String, catalog: ProtectedResourceCatalog,
                            limits: ReaderLimits) -> [SourceUsage] {
        guard skipReason(source: source, limits: limits) == nil else { return [] }
        let index = catalog.isStandard ? SwiftAPIIndex.standard : SwiftAPIIndex(catalog: catalog)
        var text = source
        let tree = text.withUTF8 { buffer in
            Parser.parse(source: buffer, maximumNestingLevel: maximumNestingLevel)
        }
        let context = FileContext(tree)
        let lines = LineTable(text)
        let visitor = UsageVisitor(index: index, context: context, lines: lines)
        visitor.walk(tree)
        return visitor.results()
    }

    /// Whether a source file of this size is skipped.
    public static func exceedsLimits(byteCount: Int, limits: ReaderLimits = .default) -> Bool {
        byteCount > limits.maxSourceFileBytes
    }

    /// Why `scan` gives nothing for this source without reading it, or nil when it scans it:
    /// too large, or `#if` blocks nested deeper than `maximumIfConfigDepth` (swift-syntax
    /// 600 looks ahead through nested `#if` recursively, without its nesting limit, and
    /// overflows the stack on a few thousand levels).
    public static func skipReason(source: String, limits: ReaderLimits = .default) -> String? {
        let size = source.utf8.count
        if exceedsLimits(byteCount: size, limits: limits) {
            return "\(size) bytes, over the max-source-file-bytes limit of \(limits.maxSourceFileBytes)"
        }
        if ifConfigDepth(of: source) > maximumIfConfigDepth {
            return "#if blocks nested deeper than \(maximumIfConfigDepth) levels"
        }
        return nil
    }

    /// Real code nests `#if` a handful of levels deep.
    public static let maximumIfConfigDepth = 32

    /// Deepest nesting of `#if` … `#endif` lines (comments and strings are not told apart:
    /// the count can only be too high).
    static func ifConfigDepth(of source: String) -> Int {
        var depth = 0, deepest = 0
        var atLineStart = true
        var bytes = source.utf8.makeIterator()
        var pending: UInt8? = nil
        while let byte = pending ?? bytes.next() {
            pending = nil
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { atLineStart = true; continue }
            if atLineStart && (byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")) { continue }
            guard atLineStart, byte == UInt8(ascii: "#") else { atLineStart = false; continue }
            atLineStart = false
            var word: [UInt8] = []
            while let next = bytes.next() {
                if (next >= UInt8(ascii: "a") && next <= UInt8(ascii: "z")) && word.count < 6 {
                    word.append(next)
                } else {
                    pending = next
                    break
                }
            }
            if word == Array("if".utf8) {
                depth += 1
                deepest = max(deepest, depth)
            } else if word == Array("endif".utf8) {
                depth = max(0, depth - 1)
            }
        }
        return deepest
    }

    /// Brackets, braces and parentheses nested deeper than this are not parsed (the parser
    /// skips them as unexpected text), which bounds the recursion of the parser and of the
    /// tree walks. Debug builds of swift-syntax use far more stack per level.
    #if DEBUG
    static let maximumNestingLevel = 64
    #else
    static let maximumNestingLevel = 256
    #endif
}

/// Line starts of a file, for 1-based line and column (in UTF-8 bytes) of a byte offset.
/// Cheaper than `SourceLocationConverter`, which walks every token of the tree.
struct LineTable {
    private var starts: [Int] = [0]

    /// Lines end at `\n`, `\r\n` or a lone `\r`, as for the Swift parser.
    init(_ text: String) {
        var offset = 0
        var afterCarriageReturn = false
        for byte in text.utf8 {
            if afterCarriageReturn && byte != UInt8(ascii: "\n") { starts.append(offset) }
            offset += 1
            afterCarriageReturn = byte == UInt8(ascii: "\r")
            if byte == UInt8(ascii: "\n") { starts.append(offset) }
        }
        if afterCarriageReturn { starts.append(offset) }
    }

    func location(ofUTF8Offset offset: Int) -> (line: Int, column: Int) {
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return (low + 1, offset - starts[low] + 1)
    }
}

extension ProtectedResourceCatalog {
    /// The standard catalog is the one most scans use: its index is built once.
    var isStandard: Bool {
        resources == ProtectedResourceCatalog.standard.resources
    }
}
