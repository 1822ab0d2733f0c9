import Foundation
import Evidence

/// The Swift scanner as a `SourceScanning` detector.
public struct SwiftSourceScanning: SourceScanning {
    public init() {}

    public func handles(_ path: String) -> Bool { path.hasSuffix(".swift") }

    public var triggerNames: Set<String> { SwiftAPIIndex.standard.names }

    /// Every match starts from one of the index's names: a file without any needs no parse.
    public func mayUse(_ facts: SourceFacts) -> Bool { SwiftAPIIndex.standard.mayMatch(facts.mentioned) }

    public func scan(source: String, path: String, context: SourceScanContext) -> [SourceUsage] {
        SwiftSourceScanner.scan(source: source, path: path, catalog: .standard, limits: .default, context: context)
    }

    public func scan(source: String, path: String, contexts: [SourceScanContext]) -> [[SourceUsage]] {
        SwiftSourceScanner.scan(source: source, path: path, catalog: .standard, limits: .default, contexts: contexts)
    }
}
