import Foundation
import Artifacts
import Formats

/// The plain `http://` URLs each bundle's code names (`https://` ones are left out: nothing
/// asks about them, and an app names hundreds): string literals of the Swift and
/// C-family sources of its code closure (projects; attributed like source usages, with the
/// linked target, package or pod as origin) and C strings of its Mach-O files (built apps).
/// A file several bundles compile is read once and counts for each.
///
/// It also says which `NSExceptionDomains` names of the product's Info.plists anything of the
/// product mentions as a host: a string literal of the sources, a C string of a binary, a
/// string value of an Info.plist (outside `NSAppTransportSecurity`), or a text resource
/// (`textResources`: JSON, plists, xcconfig, entitlements, scripts, web content).
public enum URLEvidence {
    /// What one scan found.
    public struct Result: Sendable {
        public var urls: [URLLiteral] = []
        /// Bundles whose code was read (see `EvidenceIndex.urlScannedBundles`).
        public var scanned: Set<String> = []
        /// Exception domain names (lower case) something of the product mentions.
        public var mentionedDomains: Set<String> = []
        /// Bonjour service types the code names (`BonjourServiceTypeScanner`).
        public var serviceTypes: [BonjourServiceType] = []
        /// Credentials among the binaries' C strings, masked (`SecretScanner`).
        public var binarySecrets: [ShippedSecret] = []
    }

    /// Files searched for exception domain names besides sources, by extension.
    static let textResources: Set<String> = ["json", "plist", "xcconfig", "entitlements", "strings", "js", "jsbundle", "html", "htm",
                                             "xml", "txt", "yml", "yaml", "config", "conf", "cfg"]
    /// Resources larger than this are not searched.
    static let maxResourceBytes = 32 << 20

    /// The `NSExceptionDomains` names of every bundle's Info.plist, lower case, dotted.
    static func exceptionDomainNames(_ product: Product) -> [String] {
        let names = product.bundles.flatMap { b in
            b.infoPlist?.root?.dictionary?.entry("NSAppTransportSecurity")?.value.dictionary?
                .entry("NSExceptionDomains")?.value.dictionary?.entries.map { $0.key.lowercased() } ?? []
        }
        return Array(Set(names.filter { $0.contains(".") && !$0.contains("/") })).sorted()
    }

    /// String values of a property list (keys not included), skipping `NSAppTransportSecurity`.
    static func stringValues(_ node: PlistNode, into out: inout [String], depth: Int = 0) {
        guard depth < 64 else { return }
        if let s = node.string { out.append(s) }
        for n in node.array ?? [] { stringValues(n, into: &out, depth: depth + 1) }
        for e in node.dictionary?.entries ?? [] where e.key != "NSAppTransportSecurity" { stringValues(e.value, into: &out, depth: depth + 1) }
    }

    static func mentions(in string: String, _ names: [String]) -> Set<String> {
        var copy = string
        return copy.withUTF8 { URLLiteralScanner.mentions(inText: UnsafeRawBufferPointer($0), names: names) }
    }
    /// URLs kept per bundle; the rest are dropped.
    public static let maxURLsPerBundle = 5_000
    /// C strings read per Mach-O slice.
    public static let maxCStrings = 1_000_000

    /// Source files read for URLs, by extension.
    static let sourceExtensions: Set<String> = ["swift", "m", "mm", "c", "cc", "cpp", "cxx", "h", "hh", "hpp"]

    /// What one source file holds: its URLs and the exception domain names its literals mention.
    public struct FileResult: Sendable {
        var urls: [FoundURL]
        var mentions: Set<String>
        var serviceTypes: [FoundServiceType] = []
    }

    /// The URLs and mentions of one source file's bytes, or nil for a file not read for URLs.
    static func file(_ data: Data, path: String, names: [String], schemes: Set<String> = ["http"]) -> FileResult? {
        guard sourceExtensions.contains(PathUtil.pathExtension(path)) else { return nil }
        let language = SourceFileKind.language(of: path)
        let mentions = names.isEmpty ? [] : data.withUnsafeBytes { URLLiteralScanner.mentions($0, language: language, names: names) }
        let types = data.withUnsafeBytes { BonjourServiceTypeScanner.scan($0, language: language) }
        return FileResult(urls: URLLiteralScanner.scan(data, language: language).filter { schemes.contains($0.scheme) }, mentions: mentions,
                          serviceTypes: types)
    }

    /// What the C strings of one Mach-O file hold.
    struct BinaryStrings: Sendable {
        /// Some slice's strings are not App Store encrypted.
        var readable = false
        var urls: [FoundURL] = []
        var mentions: Set<String> = []
        /// Service types with the C string that names each.
        var serviceTypes: [(type: String, symbol: String)] = []
        /// Masked credentials among the C strings (read in the same pass).
        var secrets: [FoundSecret] = []
    }

    /// The plain-HTTP URLs, exception domain mentions and Bonjour service types of a binary's
    /// `__cstring` sections, which the loader keeps when it drops the binary's bytes.
    static func strings(of file: MachOFile, names: [String], schemes: Set<String> = ["http"]) -> BinaryStrings {
        var out = BinaryStrings()
        var seen = Set<String>()
        for slice in file.slices {
            if !slice.isEncrypted { out.readable = true }
            var previous = ""
            for s in slice.cStrings(maxCount: maxCStrings) {
                var found = SecretScanner.scan(text: s)
                if let named = NamedSecretPairs.secret(name: previous, value: s), found.isEmpty { found.append(named) }
                previous = s
                for f in found where seen.insert("\u{1e}" + f.kind.rawValue + f.masked).inserted {
                    out.secrets.append(FoundSecret(kind: f.kind, masked: f.masked))
                }
                if !names.isEmpty { out.mentions.formUnion(mentions(in: s, names)) }
                if s.utf8.count <= 80, s.contains("._"), let type = BonjourServiceTypeScanner.serviceType(Substring(s), maxNameLength: BonjourServiceTypeScanner.longNameLimit),
                   seen.insert("\u{1f}" + type).inserted {
                    out.serviceTypes.append((type, s))
                }
                for f in URLLiteralScanner.urls(in: s) where schemes.contains(f.scheme) && seen.insert(f.url).inserted && out.urls.count < maxURLsPerBundle {
                    out.urls.append(f)
                }
            }
        }
        return out
    }

    /// `read`: files pass 1 of `SourceEvidence` already read (`SourceEvidence.scan(urlNames:)`);
    /// the others are read here. `schemes`: `https` too for a release diff's contacted domains
    /// (then every file is read here: pass 1 keeps plain HTTP only).
    public static func scan(_ input: LoadedInput, limits: ReaderLimits = .default, read: [String: FileResult] = [:],
                            schemes: Set<String> = ["http"]) -> Result {
        let product = input.product
        let names = exceptionDomainNames(product)
        let files = Set(product.bundles.flatMap { $0.sourceFiles + $0.linkedCode.flatMap(\.files) })
            .filter { sourceExtensions.contains(PathUtil.pathExtension($0)) }
            .sorted()
        let found: [FileResult?] = ConcurrentMap.map(files) { path in
            if schemes == ["http"], let r = read[path] { return r }
            if let size = input.index.entry(path)?.size, size > Int64(limits.maxSourceFileBytes) { return nil }
            guard let data = try? input.source.read(path), data.count <= limits.maxSourceFileBytes else { return nil }
            return file(data, path: path, names: names, schemes: schemes)
        }
        var result = Result()
        for r in found { result.mentionedDomains.formUnion(r?.mentions ?? []) }
        let byFile = Dictionary(uniqueKeysWithValues: zip(files, found))
        var out: [URLLiteral] = []
        var scanned = Set<String>()
        let machO = Dictionary(product.bundles.flatMap { b in b.binaries.compactMap { bin in bin.macho.map { (bin.path, $0) } } },
                               uniquingKeysWith: { a, _ in a })
        let binaryPaths = machO.keys.sorted()
        let readStrings: [BinaryStrings?] = ConcurrentMap.map(binaryPaths) { path in
            machO[path].map { strings(of: $0, names: names, schemes: schemes) }
        }
        let binaryStrings = Dictionary(uniqueKeysWithValues: zip(binaryPaths, readStrings))
        for b in product.bundles {
            if let root = b.infoPlist?.root, !names.isEmpty {
                var values: [String] = []
                stringValues(root, into: &values)
                for v in values { result.mentionedDomains.formUnion(mentions(in: v, names)) }
            }
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
                    guard let r = byFile[path] ?? nil else { continue }
                    scanned.insert(b.name)
                    for t in r.serviceTypes {
                        result.serviceTypes.append(BonjourServiceType(type: t.type, location: .source(path: path, line: t.line, column: t.column),
                                                                      bundle: b.name, origin: origin, ships: b.kind.ships && t.ships))
                    }
                    for f in r.urls {
                        add(URLLiteral(url: f.url, scheme: f.scheme, host: f.host, location: .source(path: path, line: f.line, column: f.column),
                                       bundle: b.name, origin: origin, ships: b.kind.ships && f.ships, use: f.use, api: f.api))
                    }
                }
            }
            for binary in b.binaries {
                guard let strings = binaryStrings[binary.path] ?? nil else { continue }
                if strings.readable { scanned.insert(b.name) }
                result.mentionedDomains.formUnion(strings.mentions)
                let origin: UsageOrigin = b.kind == .framework ? .sdk(b.name) : .app
                for (type, symbol) in strings.serviceTypes {
                    result.serviceTypes.append(BonjourServiceType(type: type, location: .binary(path: binary.path, symbol: symbol), bundle: b.name,
                                                                  origin: origin, ships: b.kind.ships))
                }
                for f in strings.secrets {
                    result.binarySecrets.append(ShippedSecret(secret: f, path: binary.path, bundle: b.name, inBinary: true, origin: origin))
                }
                for f in strings.urls {
                    add(URLLiteral(url: f.url, scheme: f.scheme, host: f.host, location: .binary(path: binary.path, symbol: f.url),
                                   bundle: b.name, origin: origin, ships: b.kind.ships))
                }
            }
        }
        result.urls = out
        result.scanned = scanned
        let unmentioned = names.filter { !result.mentionedDomains.contains($0) }
        if !unmentioned.isEmpty {
            let resources = input.index.entries.filter { e in
                e.kind == .file && e.size <= Int64(maxResourceBytes) && textResources.contains(PathUtil.pathExtension(e.path).lowercased())
                    && !e.path.hasSuffix("/Info.plist") && e.path != "Info.plist"
            }.map(\.path)
            let found: [Set<String>] = ConcurrentMap.map(resources) { path in
                guard let data = try? input.source.read(path), data.count <= maxResourceBytes else { return [] }
                return data.withUnsafeBytes { URLLiteralScanner.mentions(inText: $0, names: unmentioned) }
            }
            for m in found { result.mentionedDomains.formUnion(m) }
        }
        return result
    }
}
