import Foundation
import Artifacts
import Formats

/// A detector of protected-API uses in one language's source files.
public protocol SourceScanning: Sendable {
    /// True for the files this scanner reads (by extension).
    func handles(_ path: String) -> Bool
    /// `platform` is the target's (`iOS`, `watchOS`, `tvOS`, `macOS`, `visionOS`) or nil when unknown.
    func scan(source: String, path: String, platform: String?) -> [SourceUsage]
}

extension Artifacts.Bundle {
    /// The platform a project target builds for, from SDKROOT (nil for built apps and folders).
    public var sourcePlatform: String? {
        let sdk = buildSettings["SDKROOT"]?.value ?? buildSettings["PLATFORM_NAME"]?.value ?? ""
        if sdk.hasPrefix("iphone") { return "iOS" }
        if sdk.hasPrefix("watch") { return "watchOS" }
        if sdk.hasPrefix("appletv") { return "tvOS" }
        if sdk.hasPrefix("macosx") { return "macOS" }
        if sdk.hasPrefix("xr") { return "visionOS" }
        return nil
    }
}

/// Runs the source scanners over every bundle's code closure and attributes what they find:
/// the bundle's own sources, then the targets, packages and pods it links, each usage tagged
/// with that provenance. A file compiled into several targets is read once and counts for each.
public enum SourceEvidence {
    public static func usages(in input: LoadedInput, scanners: [any SourceScanning], limits: ReaderLimits = .default) -> [Usage] {
        let product = input.product
        // A file is scanned once per platform it is compiled for (`#if os(…)` differs).
        struct Job: Hashable, Sendable { var path: String; var platform: String? }
        struct Owner { var bundle: Artifacts.Bundle; var origin: UsageOrigin }
        var owners: [Job: [Owner]] = [:]
        for b in product.bundles {
            var claimed = Set<String>()
            func add(_ files: [String], _ origin: UsageOrigin) {
                for f in files where claimed.insert(f).inserted && scanners.contains(where: { $0.handles(f) }) {
                    owners[Job(path: f, platform: b.sourcePlatform), default: []].append(Owner(bundle: b, origin: origin))
                }
            }
            add(b.sourceFiles, .app)
            for link in b.linkedCode { add(link.files, .linked(link.kind, link.name, embedded: link.embedded)) }
        }
        let jobs = owners.keys.sorted { ($0.path, $0.platform ?? "") < ($1.path, $1.platform ?? "") }
        let source = input.source
        let found: [[SourceUsage]] = ConcurrentMap.map(jobs) { job in
            guard let scanner = scanners.first(where: { $0.handles(job.path) }),
                  let data = try? source.read(job.path), data.count <= limits.maxSourceFileBytes,
                  let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) else { return [] }
            return scanner.scan(source: text, path: job.path, platform: job.platform)
        }
        var out: [Usage] = []
        for (job, usages) in zip(jobs, found) {
            let path = job.path
            for owner in owners[job] ?? [] {
                let b = owner.bundle
                for u in usages {
                    out.append(Usage(capability: u.capability, key: u.key, api: u.api,
                                     location: .source(path: path, line: u.line, column: u.column),
                                     bundle: b.name, origin: owner.origin, strength: u.strength, ships: u.ships && b.kind.ships))
                }
            }
        }
        return out
    }
}
