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
        guard !exceedsLimits(byteCount: source.utf8.count, limits: limits) else { return [] }
        let index = catalog.isStandard ? SwiftAPIIndex.standard : SwiftAPIIndex(catalog: catalog)
        var text = source
        let tree = text.withUTF8 { buffer in
            Parser.parse(source: buffer, maximumNestingLevel: maximumNestingLevel)
        }
        let context = FileContext(tree)
        let converter = SourceLocationConverter(fileName: path, tree: tree)
        let visitor = UsageVisitor(index: index, context: context, converter: converter)
        visitor.walk(tree)
        return visitor.results()
    }

    /// Whether a source file of this size is skipped.
    public static func exceedsLimits(byteCount: Int, limits: ReaderLimits = .default) -> Bool {
        byteCount > limits.maxSourceFileBytes
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

extension ProtectedResourceCatalog {
    /// The standard catalog is the one most scans use: its index is built once.
    var isStandard: Bool {
        resources == ProtectedResourceCatalog.standard.resources
    }
}
