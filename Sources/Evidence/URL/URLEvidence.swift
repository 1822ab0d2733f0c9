import Foundation
import Artifacts
import Formats

/// The `http://` and `https://` URLs each bundle's code names: string literals of the Swift and
/// C-family sources of its code closure (projects; attributed like source usages, with the
/// linked target, package or pod as origin) and C strings of its Mach-O files (built apps).
/// A file several bundles compile is read once and counts for each.
public enum URLEvidence {
    /// URLs kept per bundle; the rest are dropped.
    public static let maxURLsPerBundle = 5_000
    /// C strings read per Mach-O slice.
    public static let maxCStrings = 1_000_000

    /// Source files read for URLs, by extension.
    static let sourceExtensions: Set<String> = ["swift", "m", "mm", "c", "cc", "cpp", "cxx", "h", "hh", "hpp"]

    public static func scan(_ input: LoadedInput, limits: ReaderLimits = .default) -> (urls: [URLLiteral], scanned: Set<String>) {
        let product = input.product
        let files = Set(product.bundles.flatMap { $0.sourceFiles + $0.linkedCode.flatMap(\.files) })
            .filter { sourceExtensions.contains(PathUtil.pathExtension($0)) }
            .sorted()
        let found: [(urls: [FoundURL], read: Bool)] = ConcurrentMap.map(files) { path in
            if let size = input.index.entry(path)?.size, size > Int64(limits.maxSourceFileBytes) { return ([], false) }
            guard let data = try? input.source.read(path), data.count <= limits.maxSourceFileBytes else { return ([], false) }
            return (URLLiteralScanner.scan(data, language: SourceFileKind.language(of: path)), true)
        }
        let byFile = Dictionary(uniqueKeysWithValues: zip(files, found))
        var out: [URLLiteral] = []
        var scanned = Set<String>()
        for b in product.bundles {
            var kept = 0
            func add(_ u: URLLiteral) {
                guard kept < maxURLsPerBundle else { return }
                kept += 1
                out.append(u)
            }
            var claimed = Set<String>()
            let closure = [(b.sourceFiles, UsageOrigin.app)]
                + b.linkedCode.map { ($0.files, UsageOrigin.linked($0.kind, $0.name, embedded: $0.embedded)) }
            for (paths, origin) in closure {
                for path in paths where claimed.insert(path).inserted {
                    guard let r = byFile[path] else { continue }
                    if r.read { scanned.insert(b.name) }
                    for f in r.urls {
                        add(URLLiteral(url: f.url, scheme: f.scheme, host: f.host, location: .source(path: path, line: f.line, column: f.column),
                                       bundle: b.name, origin: origin, ships: b.kind.ships, use: f.use, api: f.api))
                    }
                }
            }
            for binary in b.binaries {
                guard let slices = binary.macho?.slices else { continue }
                var seen = Set<String>()
                for slice in slices {
                    if !slice.isEncrypted { scanned.insert(b.name) }
                    for s in slice.cStrings(maxCount: maxCStrings) {
                        for f in URLLiteralScanner.urls(in: s) where seen.insert(f.url).inserted {
                            add(URLLiteral(url: f.url, scheme: f.scheme, host: f.host, location: .binary(path: binary.path, symbol: f.url),
                                           bundle: b.name, origin: b.kind == .framework ? .sdk(b.name) : .app, ships: b.kind.ships))
                        }
                    }
                }
            }
        }
        return (out, scanned)
    }
}
