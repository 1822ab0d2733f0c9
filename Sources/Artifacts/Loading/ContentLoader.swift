import Foundation
import Formats

/// Parses the files a loader assigned to each bundle. Failures are kept on the model (and as
/// load problems) for rules to report; a reader never decides what is a finding.
public enum ContentLoader {
    static func plist(_ path: String, source: FileSource, limits: ReaderLimits,
                      preprocessorDefinitions: [String: String]? = nil) -> PlistFile {
        do {
            var data = try source.read(path)
            if let defs = preprocessorDefinitions, InfoPlistPreprocessor.hasDirectives(data) {
                data = try InfoPlistPreprocessor.preprocess(data, definitions: defs, limits: limits)
            }
            let (root, _) = try PropertyListReader.read(data, limits: limits)
            return PlistFile(path: path, root: root)
        } catch let error as FormatError {
            return PlistFile(path: path, root: nil, error: error)
        } catch {
            return PlistFile(path: path, root: nil, error: FormatError(.malformed, format: "file", reason: "\(error)"))
        }
    }

    static func load(_ bundle: inout AppBundle, source: FileSource, limits: ReaderLimits, problems: inout [LoadProblem],
                     cache: ParsedFiles = ParsedFiles()) {
        func note(_ file: PlistFile) {
            if let e = file.error { problems.append(LoadProblem(.unreadable(e), path: file.path, bundle: bundle.name)) }
        }
        if bundle.infoPlist == nil, let p = bundle.infoPlistPath {
            bundle.infoPlist = plist(p, source: source, limits: limits, preprocessorDefinitions: bundle.infoPlistPreprocessorDefinitions)
        }
        if let info = bundle.infoPlist { note(info) }
        if bundle.entitlements == nil, let p = bundle.entitlementsPath {
            let e = plist(p, source: source, limits: limits)
            bundle.entitlements = e
            bundle.entitlementsSource = p
            note(e)
        }
        var configurationFiles: [String: PlistFile] = [:]
        if let p = bundle.entitlementsPath, let e = bundle.entitlements { configurationFiles[p] = e }
        for i in bundle.otherConfigurationEntitlements.indices {
            guard let p = bundle.otherConfigurationEntitlements[i].path else { continue }
            if configurationFiles[p] == nil {
                let e = plist(p, source: source, limits: limits)
                configurationFiles[p] = e
                note(e)
            }
            bundle.otherConfigurationEntitlements[i].file = configurationFiles[p]
        }
        bundle.privacyManifests = bundle.privacyManifestPaths.map { plist($0, source: source, limits: limits) }
        bundle.privacyManifests.forEach(note)
        loadLocalizations(&bundle, source: source, limits: limits, problems: &problems, cache: cache)
        if let p = bundle.provisioningProfilePath {
            do { bundle.provisioningProfile = try ProvisioningProfileParser.parse(try source.read(p), limits: limits) } catch {
                problems.append(LoadProblem(unreadable: error, path: p, bundle: bundle.name))
            }
        }
    }

    /// Parses every localized table: a malformed one is a problem (iOS stops reading it), and
    /// `InfoPlist.strings` tables and string catalogs are kept for the localization rules.
    /// A table several bundles share (an app and its extensions) is parsed once per scan.
    static func loadLocalizations(_ bundle: inout AppBundle, source: FileSource, limits: ReaderLimits, problems: inout [LoadProblem],
                                  cache: ParsedFiles = ParsedFiles()) {
        let tables: [ParsedFiles.Table] = bundle.localizations.map { file in
            cache.value(file.path) { parseLocalized(file, source: source, limits: limits) }
        }
        for (file, parsed) in zip(bundle.localizations, tables) {
            switch parsed {
            case .strings(let table):
                // A wrongly cased table is parsed (and reported) but never stands in for the real one.
                if let lang = file.language, file.table == "InfoPlist", file.kind == .infoPlistStrings { bundle.infoPlistStrings[lang] = table }
            case .summary(let table): bundle.localizedTables[file.path] = table
            case .catalog(let catalog): bundle.stringCatalogs[file.path] = catalog
            case .failed(let error): problems.append(LoadProblem(unreadable: error, path: file.path, bundle: bundle.name))
            }
        }
    }

    /// Parses the localized tables of every bundle into `cache`, all files in parallel: one
    /// flat parallel loop (libdispatch runs a nested one serially), and an app's tables in
    /// dozens of languages are megabytes of text.
    static func parseLocalizations(of bundles: [AppBundle], source: FileSource, limits: ReaderLimits, into cache: ParsedFiles) {
        var seen = Set<String>()
        let files = bundles.flatMap(\.localizations).filter { seen.insert($0.path).inserted }
        let parsed = ConcurrentMap.map(files) { parseLocalized($0, source: source, limits: limits) }
        for (file, table) in zip(files, parsed) { cache.set(file.path, table) }
    }

    static func parseLocalized(_ file: LocalizedFile, source: FileSource, limits: ReaderLimits) -> ParsedFiles.Table {
        do {
            let data = try source.read(file.path)
            switch file.kind {
            case .infoPlistStrings: return .strings(try StringsFileParser.parse(data, limits: limits))
            case .strings: return .summary(LocalizedTable(try StringsTableSummary.read(data, limits: limits)))
            case .stringsdict: return .summary(LocalizedTable(try StringsDictParser.parse(data, limits: limits)))
            case .xcstrings: return .catalog(try StringCatalogParser.parse(data, limits: limits))
            }
        } catch {
            return .failed(error)
        }
    }

    /// Parses the bundle's Mach-O files, and takes its entitlements from the executable's
    /// code signature when no `.entitlements` file is known.
    static func loadBinaries(_ bundle: inout AppBundle, source: FileSource, limits: ReaderLimits, problems: inout [LoadProblem]) {
        bundle.binaries = bundle.binaryPaths.map { binary($0, source: source, limits: limits) }
        for b in bundle.binaries {
            if let e = b.error { problems.append(LoadProblem(.unreadable(e), path: b.path, bundle: bundle.name)) }
        }
        if bundle.entitlements == nil,
           let exe = bundle.binaries.first(where: { $0.path == bundle.executablePath }),
           let xml = exe.macho?.slices.lazy.compactMap({ $0.codeSignature?.entitlementsXML }).first {
            var file = PlistFile(path: exe.path, root: nil)
            do { (file.root, _) = try PropertyListReader.read(xml, limits: limits) } catch let e as FormatError {
                file.error = e
            } catch {}
            bundle.entitlements = file
            bundle.entitlementsSource = "code signature of \(exe.path)"
            if let e = file.error { problems.append(LoadProblem(.unreadable(e), path: file.path, bundle: bundle.name)) }
        }
    }

    /// Parses a Mach-O file; the bytes are dropped once the structure is extracted.
    public static func binary(_ path: String, source: FileSource, limits: ReaderLimits) -> BinaryFile {
        do {
            var file = try MachOReader.read(bytes: try source.readBytes(path), limits: limits)
            // The model keeps every binary's structure, never its bytes.
            file.slices = file.slices.map { $0.releasingBytes() }
            return BinaryFile(path: path, macho: file)
        } catch let error as FormatError {
            return BinaryFile(path: path, macho: nil, error: error)
        } catch {
            return BinaryFile(path: path, macho: nil, error: FormatError(.malformed, format: "file", reason: "\(error)"))
        }
    }
}

/// Localized tables parsed during one scan, by path: bundles that share a file share the result.
final class ParsedFiles: @unchecked Sendable {
    enum Table: Sendable {
        case strings(StringsTable)
        case catalog(StringCatalog)
        /// Keys and format strings of a table (see `LocalizedTable`).
        case summary(LocalizedTable)
        case failed(any Error & Sendable)
    }

    private var values: [String: Table] = [:]
    private let lock = NSLock()

    func set(_ path: String, _ value: Table) {
        lock.lock()
        values[path] = value
        lock.unlock()
    }

    /// The parsed file, parsing it on first use. Two bundles asking at once may both parse it;
    /// the result is the same.
    func value(_ path: String, parse: () -> Table) -> Table {
        lock.lock()
        if let v = values[path] { lock.unlock(); return v }
        lock.unlock()
        let v = parse()
        lock.lock()
        values[path] = v
        lock.unlock()
        return v
    }
}
