import Foundation
import Artifacts
import Formats

/// A detector of protected-API uses in one language's source files.
public protocol SourceScanning: Sendable {
    /// True for the files this scanner reads (by extension).
    func handles(_ path: String) -> Bool
    func scan(source: String, path: String) -> [SourceUsage]
}

/// Runs the source scanners over every bundle's source files and attributes what they find.
/// A file compiled into several targets is read once and counts for each.
public enum SourceEvidence {
    public static func usages(in input: LoadedInput, scanners: [any SourceScanning], limits: ReaderLimits = .default) -> [Usage] {
        let product = input.product
        var owners: [String: [Artifacts.Bundle]] = [:]
        for b in product.bundles {
            for f in b.sourceFiles where scanners.contains(where: { $0.handles(f) }) { owners[f, default: []].append(b) }
        }
        let files = owners.keys.sorted()
        let source = input.source
        let found: [[SourceUsage]] = ConcurrentMap.map(files) { path in
            guard let scanner = scanners.first(where: { $0.handles(path) }),
                  let data = try? source.read(path), data.count <= limits.maxSourceFileBytes,
                  let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) else { return [] }
            return scanner.scan(source: text, path: path)
        }
        var out: [Usage] = []
        for (path, usages) in zip(files, found) {
            for b in owners[path] ?? [] {
                for u in usages {
                    out.append(Usage(capability: u.capability, key: u.key, api: u.api,
                                     location: .source(path: path, line: u.line, column: u.column),
                                     bundle: b.name, origin: .app, strength: u.strength, ships: u.ships && b.kind.ships))
                }
            }
        }
        return out
    }
}
