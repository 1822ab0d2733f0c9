import Foundation
import Evidence
import Formats

/// The Swift scanner as a `SourceScanning` detector.
public struct SwiftSourceScanning: SourceScanning {
    /// The limits the scan runs under (`max-source-file-bytes`).
    public let limits: ReaderLimits

    public init(limits: ReaderLimits = .default) {
        self.limits = limits
    }

    public func skipReason(source: String, limits: ReaderLimits) -> String? {
        SwiftSourceScanner.skipReason(source: source, limits: limits)
    }

    public func handles(_ path: String) -> Bool { path.hasSuffix(".swift") }

    public var triggerNames: Set<String> { Self.names }
    static let names = SwiftAPIIndex.standard.names.union(SecurityVisitor.triggerNames).union(LoggingVisitor.triggerNames)
        .union(CryptoVisitor.triggerNames).union(FlowVisitor.triggerNames).union(FlowVisitor.databaseNames)

    /// Every match starts from one of the index's names written where code refers to it (not
    /// as the name a declaration introduces): a file without any needs no parse.
    public func mayUse(_ facts: SourceFacts) -> Bool {
        SwiftAPIIndex.standard.mayMatch(facts.referenced) || SecurityVisitor.mayFind(referenced: facts.referenced)
            || !facts.referenced.isDisjoint(with: CryptoVisitor.triggerNames) || !facts.referenced.isDisjoint(with: FlowVisitor.alwaysNames)
    }

    /// As `mayUse(_:)`, or a logging call beside a word credentials are named with (a byte test:
    /// `print` alone would send almost every file to the parser), or a bare `random()` call.
    public func mayUse(_ facts: SourceFacts, bytes: Data) -> Bool {
        mayUse(facts) || bytes.withUnsafeBytes { raw in
            let b = raw.bindMemory(to: UInt8.self)
            return (!facts.referenced.isDisjoint(with: LoggingVisitor.triggerNames)
                    && LoggingVisitor.mayFind(bytes: b))
                || CryptoVisitor.bareCall(b, CryptoVisitor.bareRandomCall)
                || FlowVisitor.mayFind(referenced: facts.referenced, bytes: b)
        }
    }

    public func flowAnswers(source: String, path: String, context: SourceScanContext, query: FlowQuery) -> [FlowAnswer] {
        SwiftSourceScanner.flowAnswers(source: source, context: context, query: query, limits: limits)
    }

    public func scan(source: String, path: String, context: SourceScanContext) -> [SourceUsage] {
        SwiftSourceScanner.scan(source: source, path: path, catalog: .detection, limits: limits, context: context)
    }

    public func scanKeepingParse(source: String, path: String, contexts: [SourceScanContext]) -> (usages: [[SourceUsage]], parse: (any ParsedSource)?) {
        let r = SwiftSourceScanner.scanKeepingParse(source: source, path: path, catalog: .detection, limits: limits, contexts: contexts)
        return (r.usages, r.parse)
    }

    public func flowParse(source: String, path: String, limits: ReaderLimits) -> (any ParsedSource)? {
        SwiftSourceScanner.flowParse(source: source, limits: limits)
    }

    public func scan(source: String, path: String, contexts: [SourceScanContext]) -> [[SourceUsage]] {
        SwiftSourceScanner.scan(source: source, path: path, catalog: .detection, limits: limits, contexts: contexts)
    }
}
