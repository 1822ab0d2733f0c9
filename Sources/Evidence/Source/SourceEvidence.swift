import Foundation
import Artifacts
import Formats

/// What a scanner knows of the target a file is compiled for.
public struct SourceScanContext: Sendable, Hashable {
    /// `iOS`, `watchOS`, `tvOS`, `macOS`, `visionOS`, or nil when unknown.
    public var platform: String?
    /// Swift compilation conditions of the shipping build (`SWIFT_ACTIVE_COMPILATION_CONDITIONS`,
    /// `OTHER_SWIFT_FLAGS -D`), or nil when the target's settings are not known. A condition
    /// outside a known set is false, as for the compiler.
    public var swiftConditions: Set<String>?
    /// C macros of the shipping build (`GCC_PREPROCESSOR_DEFINITIONS`), name → body.
    public var macros: [String: String]
    /// Modules an `@_exported import` in the target's code makes visible in all its files.
    public var exportedModules: Set<String>

    public init(platform: String? = nil, swiftConditions: Set<String>? = nil, macros: [String: String] = [:],
                exportedModules: Set<String> = []) {
        self.platform = platform
        self.swiftConditions = swiftConditions
        self.macros = macros
        self.exportedModules = exportedModules
    }
}

/// A detector of protected-API uses in one language's source files.
public protocol SourceScanning: Sendable {
    /// True for the files this scanner reads (by extension).
    func handles(_ path: String) -> Bool
    /// Names that any use this scanner reports is spelled with (types, members, functions):
    /// a file that mentions none of them needs no parse.
    var triggerNames: Set<String> { get }
    /// Whether a file with these facts can hold a use (false lets the scan skip the parse).
    func mayUse(_ facts: SourceFacts) -> Bool
    /// As `mayUse(_:)`, when the file's bytes can decide more (the default asks the facts only).
    func mayUse(_ facts: SourceFacts, bytes: Data) -> Bool
    func scan(source: String, path: String, context: SourceScanContext) -> [SourceUsage]
    /// The uses of one file in each of several build contexts (a file several targets compile);
    /// a scanner may parse once for all.
    func scan(source: String, path: String, contexts: [SourceScanContext]) -> [[SourceUsage]]
    /// Why the scanner would give nothing for this text without reading it (too deep for its
    /// parser), or nil: the file is then reported as not scanned.
    func skipReason(source: String, limits: ReaderLimits) -> String?
    /// The file's answer to the project-wide data flow's question (`SourceFlowJoin`).
    func flowAnswers(source: String, path: String, context: SourceScanContext, query: FlowQuery) -> [FlowAnswer]
    /// As `scan(source:path:contexts:)`, and the parse kept for the join to ask again without
    /// parsing the file a second time (nil when the scanner keeps none).
    func scanKeepingParse(source: String, path: String, contexts: [SourceScanContext]) -> (usages: [[SourceUsage]], parse: (any ParsedSource)?)
    /// A parse of the file for the project-wide join to ask (nil when the scanner keeps none, or
    /// the file is not parsed: then `flowAnswers` answers).
    func flowParse(source: String, path: String, limits: ReaderLimits) -> (any ParsedSource)?
}

/// A file's parse kept from the scan: answers the project-wide data flow's questions
/// (`SourceFlowJoin`) as `SourceScanning.flowAnswers` would, without parsing the file again.
public protocol ParsedSource: AnyObject, Sendable {
    func flowAnswers(context: SourceScanContext, query: FlowQuery) -> [FlowAnswer]
}

extension SourceScanning {
    public func mayUse(_ facts: SourceFacts) -> Bool { true }
    public func mayUse(_ facts: SourceFacts, bytes: Data) -> Bool { mayUse(facts) }
    public func skipReason(source: String, limits: ReaderLimits) -> String? { nil }
    public func flowAnswers(source: String, path: String, context: SourceScanContext, query: FlowQuery) -> [FlowAnswer] { [] }
    public func scanKeepingParse(source: String, path: String, contexts: [SourceScanContext]) -> (usages: [[SourceUsage]], parse: (any ParsedSource)?) {
        (scan(source: source, path: path, contexts: contexts), nil)
    }
    public func flowParse(source: String, path: String, limits: ReaderLimits) -> (any ParsedSource)? { nil }

    public func scan(source: String, path: String, contexts: [SourceScanContext]) -> [[SourceUsage]] {
        contexts.map { scan(source: source, path: path, context: $0) }
    }
}

extension AppBundle {
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
///
/// Three passes: one byte scan of every file (`SourceFacts`: the names it mentions and
/// declares, its imports); a parse only of files that mention a name some scanner matches on,
/// once per distinct build context; then attribution per bundle, where a name declared
/// anywhere in the bundle's closure shadows Apple's and linked code counts as reached when
/// the bundle's own code names the declarations holding it.
public enum SourceEvidence {
    struct Job: Hashable, Sendable { var path: String; var context: SourceScanContext }
    struct Owner { var bundle: AppBundle; var origin: UsageOrigin }

    public static func usages(in input: LoadedInput, scanners: [any SourceScanning], limits: ReaderLimits = .default) -> [Usage] {
        scan(input, scanners: scanners, limits: limits).usages
    }

    /// The uses found, and the files of the bundles' code that no scanner could read.
    ///
    /// With `urlNames` (exception domain names, see `URLEvidence`), pass 1 also reads each
    /// compiled file's URLs and domain mentions from the bytes it already holds (`urls`), so
    /// the URL evidence reads no source file again.
    public static func scan(_ input: LoadedInput, scanners: [any SourceScanning], limits: ReaderLimits = .default,
                            urlNames: [String]? = nil,
                            timings: PhaseTimings? = nil) -> (usages: [Usage], skipped: [SkippedSource], urls: [String: URLEvidence.FileResult]) {
        let product = input.product
        let source = input.source
        // Pass 1: facts of every file any bundle compiles, and of every C header and prefix
        // header (Objective-C sees frameworks through headers the build phases do not list).
        let compiled = Set(product.bundles.flatMap { $0.sourceFiles + $0.linkedCode.flatMap(\.files) })
            .filter { f in scanners.contains { $0.handles(f) } }
        var allFiles = compiled
        for e in input.index.entries where e.kind == .file && SourceFileKind.isHeader(e.path) {
            allFiles.insert(e.path)
        }
        let paths = allFiles.sorted()
        let names = scanners.reduce(into: Set<String>()) { $0.formUnion($1.triggerNames) }
        let factsScanner = SourceFactsScanner(names: names)
        let kept = keptForReach(paths.filter(compiled.contains), index: input.index)
        let passOne = DispatchTime.now().uptimeNanoseconds
        let read: [(facts: SourceFacts, text: SourceText?, skipped: String?, bytes: Data?, url: URLEvidence.FileResult?)] = ConcurrentMap.map(paths) { path in
            if let size = input.index.entry(path)?.size, size > Int64(limits.maxSourceFileBytes) {
                return (SourceFacts(), nil, "\(size) bytes, over the max-source-file-bytes limit of \(limits.maxSourceFileBytes)", nil, nil)
            }
            let data: Data
            do { data = try source.read(path) } catch { return (SourceFacts(), nil, "cannot be read: \(error)", nil, nil) }
            guard data.count <= limits.maxSourceFileBytes else {
                return (SourceFacts(), nil, "\(data.count) bytes, over the max-source-file-bytes limit of \(limits.maxSourceFileBytes)", nil, nil)
            }
            let facts = factsScanner.scan(data, language: SourceFileKind.language(of: path))
            let bytes = kept.contains(path) ? data : nil
            let url = urlNames.flatMap { compiled.contains(path) ? URLEvidence.file(data, path: path, names: $0) : nil }
            guard let scanner = scanners.first(where: { $0.handles(path) }), scanner.mayUse(facts, bytes: data) else { return (facts, nil, nil, bytes, url) }
            let utf8 = String(data: data, encoding: .utf8)
            let text = utf8 ?? String(data: data, encoding: .isoLatin1)
            if let text, let reason = scanner.skipReason(source: text, limits: limits) { return (facts, nil, reason, bytes, url) }
            return (facts, text.map { SourceText(text: $0, isUTF8: utf8 != nil) }, nil, bytes, url)
        }
        timings?.add("sources: read, byte facts, URLs", seconds: Self.seconds(since: passOne), count: paths.count)
        var facts: [String: SourceFacts] = [:]
        var texts: [String: SourceText] = [:]
        var bytes: [String: Data] = [:]
        var skipped: [SkippedSource] = []
        var urls: [String: URLEvidence.FileResult] = [:]
        for (path, r) in zip(paths, read) {
            facts[path] = r.facts
            if let u = r.url { urls[path] = u }
            if let t = r.text { texts[path] = t }
            if let b = r.bytes { bytes[path] = b }
            // Headers are read for their imports only; a compiled file left unread is reported.
            if let reason = r.skipped, compiled.contains(path) { skipped.append(SkippedSource(path: path, reason: reason)) }
        }

        // Pass 2: parse candidate files once per build context.
        let bundlesByName = Dictionary(product.bundles.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var owners: [Job: [Owner]] = [:]
        var declaredInClosure: [String: Set<String>] = [:]
        for b in product.bundles {
            let closure = b.sourceFiles + b.linkedCode.flatMap(\.files)
            // Only Apple modules change what a file sees; the target's own re-exports do not
            // (and kept out of the build context, they let targets share one parse).
            let exported = closure.reduce(into: Set<String>()) { $0.formUnion(facts[$1]?.exportedImports ?? []) }
                .intersection(APIModules.relevant)
            declaredInClosure[b.name] = closure.reduce(into: Set<String>()) { $0.formUnion(facts[$1]?.declared ?? []) }
            var claimed = Set<String>()
            func add(_ files: [String], _ origin: UsageOrigin, settingsOf settings: AppBundle?) {
                var context = BuildContext.context(of: settings)
                context.platform = b.sourcePlatform
                context.exportedModules = exported
                for f in files where claimed.insert(f).inserted && texts[f] != nil {
                    owners[Job(path: f, context: context), default: []].append(Owner(bundle: b, origin: origin))
                }
            }
            add(b.sourceFiles, .app, settingsOf: b)
            for link in b.linkedCode {
                // A linked target's files compile with that target's settings; packages' and pods' are unknown.
                add(link.files, .linked(link.kind, link.name, embedded: link.embedded),
                    settingsOf: link.kind == .target ? bundlesByName[link.name] : nil)
            }
        }
        // One parse per file, read in every build context the targets compiling it give.
        var contextsByPath: [String: [SourceScanContext]] = [:]
        for job in owners.keys { contextsByPath[job.path, default: []].append(job.context) }
        let parsed = contextsByPath.sorted { $0.key < $1.key }
        let candidates = texts
        let passTwo = DispatchTime.now().uptimeNanoseconds
        // The join asks files again (`SourceFlowJoin`): the parses of the first files, up to
        // `keptParseBytes` of their text, are kept for it (only UTF-8 files, as the join reads them).
        var keepBudget = keptParseBytes
        var keeping = Set<String>()
        for (path, _) in parsed where SourceFileKind.isSwift(path) {
            guard let t = candidates[path], t.isUTF8 else { continue }
            let size = t.text.utf8.count
            guard size <= keepBudget else { continue }
            keepBudget -= size
            keeping.insert(path)
        }
        let keep = keeping
        let perPath: [(usages: [[SourceUsage]], parse: (any ParsedSource)?)] = ConcurrentMap.map(parsed) { path, contexts in
            guard let scanner = scanners.first(where: { $0.handles(path) }), let text = candidates[path]?.text else {
                return (contexts.map { _ in [] }, nil)
            }
            if keep.contains(path) { return scanner.scanKeepingParse(source: text, path: path, contexts: contexts) }
            return (scanner.scan(source: text, path: path, contexts: contexts), nil)
        }
        timings?.add("sources: parse and visit candidates", seconds: Self.seconds(since: passTwo), count: parsed.count)
        var parses: [String: any ParsedSource] = [:]
        for ((path, _), r) in zip(parsed, perPath) { if let p = r.parse { parses[path] = p } }
        let passThree = DispatchTime.now().uptimeNanoseconds
        var found: [(job: Job, usages: [SourceUsage])] = []
        for ((path, contexts), results) in zip(parsed, perPath.map(\.usages)) {
            for (context, usages) in zip(contexts, results) { found.append((Job(path: path, context: context), usages)) }
        }

        // Objective-C and C: modules some file imports (the closure's sources, any header).
        var headerImports = Set<String>(), headerDeclared = Set<String>()
        for (path, f) in facts where !SourceFileKind.isSwift(path) {
            headerImports.formUnion(f.imports)
            if SourceFileKind.isHeader(path) { headerDeclared.formUnion(f.declared) }
        }
        let cVisible = APIModules.visible(from: headerImports)

        // Pass 3: attribution.
        var out: [Usage] = []
        // One open end per file (a file read in several build contexts gives it again: it ships when any build ships it).
        var linkIndex: [SourceUsage: Int] = [:]
        var links: [(path: String, usage: SourceUsage)] = []
        for (job, usages) in found {
            for u in usages where u.link != nil {
                var plain = u
                plain.ships = true
                if let i = linkIndex[plain] { links[i].usage.ships = links[i].usage.ships || u.ships; continue }
                linkIndex[plain] = links.count
                links.append((job.path, u))
            }
            for owner in owners[job] ?? [] {
                let b = owner.bundle
                let shadowed = declaredInClosure[b.name] ?? []
                for u in usages where u.link == nil {
                    if let symbol = u.symbol, shadowed.contains(symbol) || (!SourceFileKind.isSwift(job.path) && headerDeclared.contains(symbol)),
                       facts[job.path]?.declared.contains(symbol) != true {
                        continue  // the project's own declaration of that name (one in this file was already seen)
                    }
                    var basis = u.basis
                    if !SourceFileKind.isSwift(job.path), let symbol = u.symbol, let module = APIModules.module(ofSymbol: symbol) {
                        // A C-family file sees a framework through any header chain: the use
                        // counts when some source or header of the input imports the module.
                        guard cVisible.contains(module) else { continue }
                        basis = facts[job.path]?.imports.contains(module) == true ? "#import <\(module)/…>" : "\(module) imported by a header of the project"
                    }
                    out.append(Usage(capability: u.capability, key: u.key, api: u.api,
                                     location: .source(path: job.path, line: u.line, column: u.column),
                                     bundle: b.name, origin: owner.origin, strength: u.strength, ships: u.ships && b.kind.ships,
                                     basis: basis, container: u.container))
                }
            }
        }
        timings?.add("sources: attribution", seconds: Self.seconds(since: passThree))
        let passFour = DispatchTime.now().uptimeNanoseconds
        if !links.isEmpty {
            var owned: [String: [SourceFlowJoin.Owned]] = [:]
            var ownedPairs = Set<[String]>()
            for (job, list) in owners.sorted(by: { $0.key.path < $1.key.path }) {
                for o in list where ownedPairs.insert([o.bundle.name, job.path]).inserted {
                    owned[job.path, default: []].append(SourceFlowJoin.Owned(bundle: o.bundle, origin: o.origin, context: job.context))
                }
            }
            // Files no scanner parsed have owners too: the join may read any Swift file of a closure.
            for b in product.bundles {
                var context = BuildContext.context(of: b)
                context.platform = b.sourcePlatform
                func own(_ files: [String], _ origin: UsageOrigin) {
                    for f in files where SourceFileKind.isSwift(f) && ownedPairs.insert([b.name, f]).inserted {
                        owned[f, default: []].append(SourceFlowJoin.Owned(bundle: b, origin: origin, context: context))
                    }
                }
                own(b.sourceFiles, .app)
                for link in b.linkedCode { own(link.files, .linked(link.kind, link.name, embedded: link.embedded)) }
            }
            let swiftFiles = compiled.filter(SourceFileKind.isSwift)
            let keptBytes = bytes
            let keptParses = parses
            out += SourceFlowJoin.usages(links: links, swiftFiles: Array(swiftFiles), owners: owned,
                                         scanner: { p in scanners.first { $0.handles(p) } },
                                         read: { p in keptBytes[p] ?? (try? source.read(p)) }, parsed: { keptParses[$0] }, limits: limits)
        }
        parses = [:]
        timings?.add("sources: project-wide data flow", seconds: Self.seconds(since: passFour), count: links.count)
        timings.measure("sources: reachability") { markReached(&out, product: product, source: source, read: bytes, limits: limits) }
        return (out, skipped, urls)
    }

    /// Text of the parses kept for the project-wide join (their trees take several times that).
    static let keptParseBytes = 24 << 20

    static func seconds(since start: UInt64) -> Double { Double(DispatchTime.now().uptimeNanoseconds &- start) / 1e9 }

    /// Whether a use needs its bundle's own code to reach it: it is in linked code, or in a
    /// file the bundle compiles from outside its home folder (shared with other targets).
    static func needsReach(_ u: Usage, in bundle: AppBundle?) -> Bool {
        if case .linked = u.origin { return true }
        guard case .app = u.origin, case .source(let path, _, _) = u.location, let bundle else { return false }
        return !bundle.isHome(path)
    }

    /// The bundle's own entry code: its sources in its home folder (all its sources when none is).
    static func entryFiles(of bundle: AppBundle) -> [String] {
        let home = bundle.sourceFiles.filter(bundle.isHome)
        return home.isEmpty ? bundle.sourceFiles : home
    }

    /// The reach pass reads the bundles' own files again: pass 1 keeps their bytes, up to this
    /// many in all (files past it are read again from the input).
    static let keptSourceBytes: Int64 = 256 << 20

    /// The compiled files, in order, whose bytes fit in `keptSourceBytes`.
    static func keptForReach(_ paths: [String], index: FileIndex) -> Set<String> {
        var total: Int64 = 0
        var kept = Set<String>()
        for p in paths {
            guard let size = index.entry(p)?.size else { continue }
            total += size
            guard total <= keptSourceBytes else { break }
            kept.insert(p)
        }
        return kept
    }

    /// Marks uses that need reaching (`needsReach`) whose declarations the bundle's entry code
    /// names. `read` holds files already read (pass 1's bytes); others are read from `source`.
    static func markReached(_ usages: inout [Usage], product: Product, source: FileSource, read: [String: Data] = [:],
                            limits: ReaderLimits) {
        let bundles = Dictionary(product.bundles.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var needed: [String: Set<String>] = [:]
        for u in usages where u.ships && !u.container.isEmpty && needsReach(u, in: bundles[u.bundle]) {
            needed[u.bundle, default: []].formUnion(reachNames(u.container))
        }
        guard !needed.isEmpty else { return }
        // One scan of each entry file for every bundle's names (targets share files).
        var entries: [String: [String]] = [:]
        for b in product.bundles where needed[b.name] != nil { entries[b.name] = entryFiles(of: b) }
        let files = Array(Set(entries.values.joined())).sorted()
        let scanner = SourceFactsScanner(names: needed.values.reduce(into: Set<String>()) { $0.formUnion($1) })
        let found: [Set<String>] = ConcurrentMap.map(files) { path in
            guard let data = read[path] ?? (try? source.read(path)), data.count <= limits.maxSourceFileBytes else { return [] }
            // A declaration is not a use of it.
            return scanner.scan(data, language: SourceFileKind.language(of: path)).referenced
        }
        let referenced = Dictionary(uniqueKeysWithValues: zip(files, found))
        var mentioned: [String: Set<String>] = [:]
        for (bundle, paths) in entries {
            let names = needed[bundle] ?? []
            mentioned[bundle] = paths.reduce(into: Set<String>()) { $0.formUnion(referenced[$1]?.intersection(names) ?? []) }
        }
        for i in usages.indices where !usages[i].container.isEmpty && needsReach(usages[i], in: bundles[usages[i].bundle]) {
            guard let m = mentioned[usages[i].bundle] else { continue }
            usages[i].reached = reachNames(usages[i].container).isSubset(of: m)
        }
    }

    /// The names own code must write to reach a use: its type and its function (an
    /// initializer is reached through the type's name).
    static func reachNames(_ container: [String]) -> Set<String> {
        Set(container.filter { $0 != "init" })
    }
}

/// A target's build settings as a scanner needs them.
enum BuildContext {
    static func context(of bundle: AppBundle?) -> SourceScanContext {
        guard let s = bundle?.buildSettings, !s.isEmpty else { return SourceScanContext() }
        var conditions = Set<String>()
        var complete = true
        for word in words(s["SWIFT_ACTIVE_COMPILATION_CONDITIONS"]?.value) {
            if word.contains("$(") || word.contains("${") { complete = false } else { conditions.insert(word) }
        }
        let flags = words(s["OTHER_SWIFT_FLAGS"]?.value)
        for (i, word) in flags.enumerated() {
            if word.contains("$(") || word.contains("${") { complete = false; continue }
            if word == "-D", i + 1 < flags.count { conditions.insert(flags[i + 1]) }
            else if word.hasPrefix("-D"), word.count > 2 { conditions.insert(String(word.dropFirst(2))) }
        }
        var macros: [String: String] = [:]
        for word in words(s["GCC_PREPROCESSOR_DEFINITIONS"]?.value) where !word.contains("$(") {
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            macros[parts[0]] = parts.count > 1 ? parts[1] : "1"
        }
        return SourceScanContext(swiftConditions: complete ? conditions : nil, macros: macros)
    }

    /// A list-valued setting's words, quotes removed.
    static func words(_ value: String?) -> [String] {
        value.map(BuildSettingWords.split) ?? []
    }
}

/// A source file's text as pass 1 decoded it: UTF-8, or else Latin-1.
struct SourceText: Sendable { var text: String; var isUTF8: Bool }

enum SourceFileKind {
    static func isSwift(_ path: String) -> Bool { path.hasSuffix(".swift") }
    static func language(of path: String) -> SourceFactsScanner.Language { isSwift(path) ? .swift : .cFamily }
    /// C-family headers and prefix headers.
    static func isHeader(_ path: String) -> Bool { ["h", "pch", "hh", "hpp"].contains(PathUtil.pathExtension(path)) }
}
