import Foundation
import Artifacts
import Evidence
import Formats
import Rules
import SwiftSourceScan

public struct ScanResult: Sendable {
    public var product: Product
    public var findings: [Finding]
    /// Findings the configuration's suppressions accept, with their reasons.
    public var suppressed: [SuppressedFinding] = []
    /// The input's folder on disk (nil for archives and single files).
    public var rootDirectory: String?

    public func findings(atOrAbove severity: Severity) -> [Finding] { findings.filter { $0.severity >= severity } }
}

/// The public entry point: load an input, gather evidence, run the rules.
public enum PreflightScanner {
    public static let version = "0.1.0"

    public static func load(_ path: String, configuration: Configuration = Configuration()) throws -> LoadedInput {
        try ProductLoader.load(path: path, limits: configuration.limits, buildConfiguration: configuration.buildConfiguration,
                               manifestReader: ManifestSyntaxReader())
    }

    /// With `timings`, records where the time went: loading, each evidence phase, each rule.
    public static func scan(_ path: String, configuration: Configuration = Configuration(), timings: PhaseTimings? = nil) throws -> ScanResult {
        let loaded = try timings.measure("load") { try load(path, configuration: configuration) }
        var isDir: ObjCBool = false
        FileManager.default.fileExists(atPath: path, isDirectory: &isDir)
        var result = scan(loaded, configuration: configuration, timings: timings)
        if isDir.boolValue { result.rootDirectory = URL(fileURLWithPath: path).standardizedFileURL.path }
        return result
    }

    public static func scan(_ loaded: LoadedInput, configuration: Configuration = Configuration(), timings: PhaseTimings? = nil) -> ScanResult {
        let standard = sourceScanners(limits: configuration.limits)
        let scanners = configuration.fullSourceParse ? standard.map { FullParse(base: $0) as any SourceScanning } : standard
        let evidence = EvidenceIndex.build(loaded, scanners: scanners, limits: configuration.limits, timings: timings)
        let context = RuleContext(product: loaded.product, evidence: evidence)
        // Rules read the same immutable context: they run side by side, results in rule order.
        let overrides = configuration.severityOverrides
        var findings: [Finding] = ConcurrentMap.map(configuration.activeRules) { rule -> [Finding] in
            var found = timings.measure("rule " + rule.description.identifier) { rule.init().check(context) }
            if let s = overrides[rule.description.identifier] {
                for i in found.indices { found[i].severity = s }
            }
            return found
        }.flatMap { $0 }
        findings = foldIntoMissingInfoPlist(findings, product: loaded.product)
        findings = mergeSharedFileFindings(findings)
        findings = applyTestTargetPolicy(findings, product: loaded.product, includeTests: configuration.includeTests)
        findings.sort(by: order)
        var suppressed: [SuppressedFinding] = []
        findings = applyInlineSuppressions(findings, loaded: loaded, limits: configuration.limits, into: &suppressed)
        if !configuration.suppressions.isEmpty {
            findings = findings.filter { f in
                guard let s = configuration.suppressions.first(where: { $0.matches(f) }) else { return true }
                suppressed.append(SuppressedFinding(finding: f, reason: s.reason))
                return false
            }
        }
        return ScanResult(product: loaded.product, findings: findings, suppressed: suppressed, rootDirectory: nil)
    }

    /// A finding whose proof is all in source lines a `preflight:disable` comment accepts for
    /// its rule (every line of its evidence) is suppressed with the comment's reason.
    static func applyInlineSuppressions(_ findings: [Finding], loaded: LoadedInput, limits: ReaderLimits,
                                        into suppressed: inout [SuppressedFinding]) -> [Finding] {
        var paths = Set<String>()
        for f in findings {
            for case .file(let path, _) in f.evidence { paths.insert(path) }
        }
        guard !paths.isEmpty else { return findings }
        let comments = InlineSuppressions.read(paths, from: loaded.source, limits: limits)
        guard !comments.isEmpty else { return findings }
        return findings.filter { f in
            var reasons: [String] = []
            for e in f.evidence {
                guard case .file(let path, let line) = e, let line,
                      let s = comments[path]?[line]?.first(where: { $0.rules.contains(f.rule) }) else { return true }
                reasons.append(s.reason)
            }
            guard let reason = reasons.first else { return true }
            suppressed.append(SuppressedFinding(finding: f, reason: reason))
            return false
        }
    }

    /// Targets that share one Info.plist or strings file (an app built as several flavours)
    /// get the same finding at the same place: report it once, naming the other bundles. Two
    /// findings are the same when their `sharedFileIdentity` is; their messages are never read.
    static func mergeSharedFileFindings(_ findings: [Finding]) -> [Finding] {
        var out: [Finding] = []
        var index: [SharedFileIdentity: Int] = [:]
        var merged = Set<Int>()
        for f in findings {
            // Findings a rule already grouped across bundles (one cause, several targets) stand as they are.
            guard f.alsoInBundles.isEmpty, let identity = f.sharedFileIdentity, let bundle = f.bundle else { out.append(f); continue }
            if let i = index[identity], out[i].bundle != bundle, !out[i].alsoInBundles.contains(bundle) {
                out[i].alsoInBundles.append(bundle)
                merged.insert(i)
            } else if index[identity] == nil {
                index[identity] = out.count
                out.append(f)
            } else {
                out.append(f)
            }
        }
        for i in merged.sorted() {
            out[i].message += " (also \(out[i].alsoInBundles.sorted().joined(separator: ", ")), which share this file)"
        }
        return out
    }

    /// One cause seen by two rules: a target whose INFOPLIST_FILE names a missing file has no
    /// Info.plist for other rules to read, so what they report about it (a purpose string
    /// "missing" from a file that is not there) follows from that one mistake. Findings on such
    /// a bundle that point at no file but the bundle's folder are folded into the
    /// missing_project_reference finding, which names what they concerned.
    static func foldIntoMissingInfoPlist(_ findings: [Finding], product: Product) -> [Finding] {
        let rule = MissingProjectReferenceRule.description.identifier
        var owner: [String: Int] = [:]
        for (i, f) in findings.enumerated() where f.rule == rule && f.key == "INFOPLIST_FILE" {
            for b in [f.bundle].compactMap({ $0 }) + f.alsoInBundles where owner[b] == nil { owner[b] = i }
        }
        guard !owner.isEmpty else { return findings }
        var folded: [Int: [String]] = [:]
        var dropped = Set<Int>()
        for (i, f) in findings.enumerated() {
            guard let name = f.bundle, let o = owner[name], o != i, let bundle = product.bundle(named: name),
                  bundle.infoPlistPath == nil, f.file == nil || f.file == bundle.path else { continue }
            dropped.insert(i)
            let what = f.rule + (f.key.map { " (\($0))" } ?? "")
            if !(folded[o] ?? []).contains(what) { folded[o, default: []].append(what) }
        }
        var out: [Finding] = []
        for (i, var f) in findings.enumerated() where !dropped.contains(i) {
            if let what = folded[i] {
                f.message += "; until it exists its Info.plist cannot be checked, so these are not reported: \(what.sorted().joined(separator: ", "))"
            }
            out.append(f)
        }
        return out
    }

    /// Unit-test and UI-test bundles never ship: a finding that concerns only such bundles is
    /// dropped, or with `includeTests` kept as a warning at most. A finding that also concerns
    /// a shipping bundle, or none, or a target that is not a bundle, is kept as it is.
    static func applyTestTargetPolicy(_ findings: [Finding], product: Product, includeTests: Bool) -> [Finding] {
        var ships: [String: Bool] = [:]
        for b in product.bundles { ships[b.name] = (ships[b.name] ?? false) || b.kind.ships }
        return findings.compactMap { f in
            let names = [f.bundle].compactMap { $0 } + f.alsoInBundles
            guard !names.isEmpty, names.allSatisfy({ ships[$0] == false }) else { return f }
            guard includeTests else { return nil }
            var kept = f
            kept.severity = min(f.severity, .warning)
            return kept
        }
    }

    /// Detectors of protected-API uses in project sources.
    public static let sourceScanners: [any SourceScanning] = sourceScanners(limits: .default)

    /// The detectors, under the scan's limits.
    public static func sourceScanners(limits: ReaderLimits) -> [any SourceScanning] {
        [SwiftSourceScanning(limits: limits), ObjCSourceScanning()]
    }

    /// Stable output order: by file, line, column, rule, message.
    static func order(_ a: Finding, _ b: Finding) -> Bool {
        let ka = (a.file ?? "", a.line ?? 0, a.column ?? 0), kb = (b.file ?? "", b.line ?? 0, b.column ?? 0)
        if ka != kb { return ka < kb }
        if a.rule != b.rule { return a.rule < b.rule }
        return a.message < b.message
    }
}

/// A scanner that parses every file it handles, for comparison with the prefiltered scan.
struct FullParse: SourceScanning {
    let base: any SourceScanning
    func handles(_ path: String) -> Bool { base.handles(path) }
    var triggerNames: Set<String> { base.triggerNames }
    func mayUse(_ facts: SourceFacts) -> Bool { true }
    func scan(source: String, path: String, context: SourceScanContext) -> [SourceUsage] {
        base.scan(source: source, path: path, context: context)
    }
    func scan(source: String, path: String, contexts: [SourceScanContext]) -> [[SourceUsage]] {
        base.scan(source: source, path: path, contexts: contexts)
    }
    func skipReason(source: String, limits: ReaderLimits) -> String? { base.skipReason(source: source, limits: limits) }
    func scanKeepingParse(source: String, path: String, contexts: [SourceScanContext]) -> (usages: [[SourceUsage]], parse: (any ParsedSource)?) {
        base.scanKeepingParse(source: source, path: path, contexts: contexts)
    }
    func flowParse(source: String, path: String, limits: ReaderLimits) -> (any ParsedSource)? {
        base.flowParse(source: source, path: path, limits: limits)
    }
    func flowAnswers(source: String, path: String, context: SourceScanContext, query: FlowQuery) -> [FlowAnswer] {
        base.flowAnswers(source: source, path: path, context: context, query: query)
    }
}
