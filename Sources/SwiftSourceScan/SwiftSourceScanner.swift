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
                            catalog: ProtectedResourceCatalog = .detection) -> [SourceUsage] {
        scan(source: source, path: path, catalog: catalog, limits: .default)
    }

    /// As `scan(source:path:catalog:)`, with the caller's limits.
    public static func scan(source: String, path: String, catalog: ProtectedResourceCatalog,
                            limits: ReaderLimits, platform: String? = nil) -> [SourceUsage] {
        scan(source: source, path: path, catalog: catalog, limits: limits, context: SourceScanContext(platform: platform))
    }

    /// As `scan(source:path:catalog:)`, for a target: its platform and compilation conditions
    /// decide `#if`, and a name counts as Apple's API only where the file sees its module
    /// (imported, re-exported by an import, or `@_exported` by the target's code).
    public static func scan(source: String, path: String, catalog: ProtectedResourceCatalog,
                            limits: ReaderLimits, context: SourceScanContext) -> [SourceUsage] {
        scan(source: source, path: path, catalog: catalog, limits: limits, contexts: [context])[0]
    }

    /// As `scan(…context:)` for several build contexts of one file: one parse, one walk each.
    public static func scan(source: String, path: String, catalog: ProtectedResourceCatalog,
                            limits: ReaderLimits, contexts: [SourceScanContext]) -> [[SourceUsage]] {
        scanKeepingParse(source: source, path: path, catalog: catalog, limits: limits, contexts: contexts).usages
    }

    /// As `scan(…contexts:)`, and the parse, for the project-wide join to ask without parsing again.
    public static func scanKeepingParse(source: String, path: String, catalog: ProtectedResourceCatalog, limits: ReaderLimits,
                                        contexts: [SourceScanContext]) -> (usages: [[SourceUsage]], parse: SwiftParsedSource?) {
        guard !exceedsLimits(byteCount: source.utf8.count, limits: limits) else { return (contexts.map { _ in [] }, nil) }
        let nesting = NestingProfile(source)
        guard nestingReason(nesting) == nil else { return (contexts.map { _ in [] }, nil) }
        let index = catalog.isStandard ? SwiftAPIIndex.standard : SwiftAPIIndex(catalog: catalog)
        var text = source
        let tree = text.withUTF8 { buffer in
            Parser.parse(source: buffer, maximumNestingLevel: maximumNestingLevel)
        }
        let lines = LineTable(text)
        let launch = LaunchRecordingVisitor(lines: lines)
        var launchWalked = false
        // A build context decides only `#if` clauses: a file without any is walked once for all.
        let hasIfConfig = nesting.ifConfig > 0
        // Data-at-rest facts: each visitor visits only a file whose bytes may hold its facts.
        let security = catalog.isStandard && SecurityVisitor.mayFind(in: source)
        let logging = catalog.isStandard && LoggingVisitor.mayFind(in: source)
        let crypto = catalog.isStandard && CryptoVisitor.mayFind(in: source)
        let flowSinks = catalog.isStandard && FlowVisitor.mayFind(in: source)
        // Resolves nothing until a sink asks; shared by every build context (`#if` decides shipping, not values).
        let flow = FlowResolver(tree: tree, lines: lines)
        // One walk of the tree per distinct build context, for every visitor (`FileWalk`).
        var walks: [TargetConditions: (usage: UsageVisitor, facts: [SourceUsage])] = [:]
        let usages = contexts.map { context in
            let conditions = hasIfConfig ? TargetConditions(platform: context.platform, conditions: context.swiftConditions)
                : TargetConditions()
            let walked = walks[conditions] ?? {
                let usage = UsageVisitor(index: index, lines: lines, target: conditions)
                let securityVisitor = security ? SecurityVisitor(lines: lines, target: conditions) : nil
                securityVisitor?.flow = flow
                let loggingVisitor = logging ? LoggingVisitor(lines: lines, target: conditions) : nil
                loggingVisitor?.flow = flow
                let cryptoVisitor = crypto ? CryptoVisitor(lines: lines, target: conditions) : nil
                let flowVisitor = flowSinks ? FlowVisitor(flow: flow, target: conditions) : nil
                var tracking: [any ClauseTracking] = [usage]
                if let v = securityVisitor { tracking.append(v) }
                if let v = loggingVisitor { tracking.append(v) }
                if let v = cryptoVisitor { tracking.append(v) }
                if let v = flowVisitor { tracking.append(v) }
                // The launch visitor does not depend on the build context: walked with the first.
                let visitors: [SyntaxVisitor] = tracking.map { $0 as SyntaxVisitor } + (launchWalked ? [] : [launch])
                launchWalked = true
                FileWalk(visitors: visitors, tracking: tracking, target: conditions).walk(tree)
                usage.matchCandidates()
                var facts: [SourceUsage] = []
                if let v = securityVisitor { facts += v.finish(tree) }
                if let v = loggingVisitor { facts += v.finish() }
                if let v = cryptoVisitor { facts += v.finish() }
                if let v = flowVisitor { facts += v.finish() }
                walks[conditions] = (usage, facts)
                return (usage, facts)
            }()
            let visible = ModuleVisibility(imports: walked.usage.imports, exported: context.exportedModules)
            return visible.filter(walked.usage.results()) + launch.found + walked.facts
        }
        return (usages, SwiftParsedSource(tree: tree, lines: lines, hasIfConfig: hasIfConfig))
    }

    /// A file's answer to the project-wide data flow's question (`SourceFlowJoin`): one parse, one walk.
    public static func flowAnswers(source: String, context: SourceScanContext, query: FlowQuery, limits: ReaderLimits) -> [FlowAnswer] {
        guard !query.isEmpty else { return [] }
        return flowParse(source: source, limits: limits)?.flowAnswers(context: context, query: query) ?? []
    }

    /// The file parsed for the project-wide join, or nil when it is too large or too deep to parse.
    public static func flowParse(source: String, limits: ReaderLimits) -> SwiftParsedSource? {
        guard !exceedsLimits(byteCount: source.utf8.count, limits: limits) else { return nil }
        let nesting = NestingProfile(source)
        guard nestingReason(nesting) == nil else { return nil }
        var text = source
        let tree = text.withUTF8 { Parser.parse(source: $0, maximumNestingLevel: maximumNestingLevel) }
        return SwiftParsedSource(tree: tree, lines: LineTable(text), hasIfConfig: nesting.ifConfig > 0)
    }

    /// Whether a source file of this size is skipped.
    public static func exceedsLimits(byteCount: Int, limits: ReaderLimits = .default) -> Bool {
        byteCount > limits.maxSourceFileBytes
    }

    /// Why `scan` gives nothing for this source without reading it, or nil when it scans it:
    /// too large, or nested deeper than swift-syntax 600 handles safely. Its lookahead through
    /// nested `#if` recurses without its nesting limit and overflows the stack on a few
    /// thousand levels; nested string interpolation costs it quadratic time and memory
    /// (4,000 levels: 1.5 s and 780 MB; 20,000 exhaust memory).
    public static func skipReason(source: String, limits: ReaderLimits = .default) -> String? {
        let size = source.utf8.count
        if exceedsLimits(byteCount: size, limits: limits) {
            return "\(size) bytes, over the max-source-file-bytes limit of \(limits.maxSourceFileBytes)"
        }
        return nestingReason(NestingProfile(source))
    }

    static func nestingReason(_ nesting: NestingProfile) -> String? {
        if nesting.ifConfig > maximumIfConfigDepth {
            return "#if blocks nested deeper than \(maximumIfConfigDepth) levels"
        }
        if nesting.interpolation > maximumInterpolationDepth {
            return "string interpolations nested deeper than \(maximumInterpolationDepth) levels"
        }
        return nil
    }

    /// Real code nests `#if` a handful of levels deep.
    public static let maximumIfConfigDepth = 32
    /// Real code nests string interpolation two or three levels deep.
    public static let maximumInterpolationDepth = 32

    /// Brackets, braces and parentheses nested deeper than this are not parsed (the parser
    /// skips them as unexpected text), which bounds the recursion of the parser and of the
    /// tree walks. Debug builds of swift-syntax use far more stack per level.
    #if DEBUG
    static let maximumNestingLevel = 64
    #else
    static let maximumNestingLevel = 256
    #endif
}

/// A Swift file's tree kept from the scan for the project-wide join: it answers as a new parse
/// would (a new `FlowResolver` each time, so answers never depend on what the scan asked first).
public final class SwiftParsedSource: ParsedSource, @unchecked Sendable {
    private let tree: SourceFileSyntax
    private let lines: LineTable
    private let hasIfConfig: Bool

    init(tree: SourceFileSyntax, lines: LineTable, hasIfConfig: Bool) {
        self.tree = tree
        self.lines = lines
        self.hasIfConfig = hasIfConfig
    }

    public func flowAnswers(context: SourceScanContext, query: FlowQuery) -> [FlowAnswer] {
        guard !query.isEmpty else { return [] }
        let flow = FlowResolver(tree: tree, lines: lines)
        let conditions = hasIfConfig ? TargetConditions(platform: context.platform, conditions: context.swiftConditions) : TargetConditions()
        let visitor = FlowQueryVisitor(flow: flow, query: query, target: conditions)
        visitor.walk(tree)
        return visitor.answers
    }
}

/// How deep a source nests the constructs swift-syntax handles recursively, from its bytes.
/// Comments and strings are not told apart, so a count can only be too high, and only by
/// stray `#if` lines or `\(` sequences.
struct NestingProfile {
    /// Deepest nesting of `#if` … `#endif` lines.
    private(set) var ifConfig = 0
    /// Deepest nesting of parentheses opened by `\(` (an odd run of backslashes, so `\\(`
    /// is not one): inside one, every `(` opens and every `)` closes a level.
    private(set) var interpolation = 0

    init(_ source: String) {
        var ifDepth = 0, parenthesisDepth = 0
        var atLineStart = true
        var backslashes = 0
        var word: [UInt8] = []
        var readingDirective = false
        for byte in source.utf8 {
            defer { backslashes = byte == UInt8(ascii: "\\") ? backslashes + 1 : 0 }
            if readingDirective {
                if byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") && word.count < 6 {
                    word.append(byte)
                    continue
                }
                readingDirective = false
                if word == Self.ifWord {
                    ifDepth += 1
                    ifConfig = max(ifConfig, ifDepth)
                } else if word == Self.endifWord {
                    ifDepth = max(0, ifDepth - 1)
                }
            }
            switch byte {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                atLineStart = true
                continue
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                continue
            case UInt8(ascii: "#") where atLineStart:
                readingDirective = true
                word.removeAll(keepingCapacity: true)
            case UInt8(ascii: "("):
                if backslashes % 2 == 1 || parenthesisDepth > 0 {
                    parenthesisDepth += 1
                    interpolation = max(interpolation, parenthesisDepth)
                }
            case UInt8(ascii: ")"):
                if parenthesisDepth > 0 { parenthesisDepth -= 1 }
            default:
                break
            }
            atLineStart = false
        }
        if readingDirective && word == Self.ifWord { ifConfig = max(ifConfig, ifDepth + 1) }
    }

    private static let ifWord = Array("if".utf8)
    private static let endifWord = Array("endif".utf8)
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
    /// The detection catalog is the one scans use: its index is built once.
    var isStandard: Bool {
        resources == ProtectedResourceCatalog.detection.resources
    }
}
