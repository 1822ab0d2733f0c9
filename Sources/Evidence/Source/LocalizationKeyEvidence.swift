import Foundation
import Artifacts
import Formats

/// Which keys of the bundles' `.strings` / `.stringsdict` tables the code or interface files
/// name, so that the localization rules can leave out keys nothing uses: a key counts as used
/// when a string literal of a Swift or C-family source of the bundle's code closure is
/// exactly the key (`NSLocalizedString("key", …)`, `Text("key")`, SwiftGen's generated
/// `tr("Localizable", "key")`), or a quoted attribute value of a storyboard or xib is
/// (`userLabel`, runtime attributes naming a key). Keys built at run time (`"error_\(code)"`)
/// are not seen: a rule using this must treat a table none of whose keys is found as unknown.
///
/// Only projects have sources; for a built app `scannedBundles` is empty and nothing is known.
public enum LocalizationKeyEvidence {
    public struct Result: Sendable {
        /// Table keys named by some source literal or interface attribute.
        public var referenced: Set<String> = []
        /// Bundles (by name) whose code or interface files were read.
        public var scannedBundles: Set<String> = []
        /// Storyboard and xib texts the code replaces (`InterfaceTextEvidence`), as
        /// `<object id>.<text kind>` (`abc-12-xyz.text`, `abc-12-xyz.title`): the strings
        /// keys of that text (`abc-12-xyz.text`, `abc-12-xyz.normalTitle`) are placeholders.
        public var codeSetInterfaceTexts: Set<String> = []

        public init(referenced: Set<String> = [], scannedBundles: Set<String> = [], codeSetInterfaceTexts: Set<String> = []) {
            self.referenced = referenced
            self.scannedBundles = scannedBundles
            self.codeSetInterfaceTexts = codeSetInterfaceTexts
        }

        /// Whether the code replaces the text a storyboard strings key names.
        public func codeReplaces(key: String) -> Bool {
            guard !codeSetInterfaceTexts.isEmpty, let dot = key.firstIndex(of: "."),
                  let kind = InterfaceTextEvidence.textKind(ofKeyProperty: key[key.index(after: dot)...]) else { return false }
            return codeSetInterfaceTexts.contains(key[..<dot] + "." + kind)
        }
    }

    struct FileFacts: Sendable {
        var keys = Set<String>()
        var outlets: [(property: String, destination: String)] = []
        var assignedNames: [String: Set<String>] = [:]
    }

    static let sourceExtensions: Set<String> = ["swift", "m", "mm", "c", "cc", "cpp", "h", "hh", "hpp"]
    static let interfaceExtensions: Set<String> = ["storyboard", "xib"]
    /// Literals longer than any key are not compared.
    static let maxKeyBytes = 4_096

    public static func scan(_ input: LoadedInput, limits: ReaderLimits = .default) -> Result {
        var wanted = Set<String>()
        for b in input.product.bundles where b.kind.ships {
            for file in b.localizations where file.kind == .strings || file.kind == .stringsdict {
                guard file.table != "InfoPlist" else { continue }
                wanted.formUnion(b.localizedTables[file.path]?.keys ?? [])
            }
        }
        var result = Result()
        // Interface files' own tables and catalogs (keyed by object id) need the outlets too.
        let interfaceTables = input.product.bundles.contains { b in
            b.kind.ships && !b.interfaceFiles.isEmpty && (!b.stringCatalogs.isEmpty || !b.localizations.isEmpty)
        }
        guard !wanted.isEmpty || interfaceTables, [ProductKind.project, .folder, .package].contains(input.product.kind) else { return result }
        var filesByBundle: [String: [String]] = [:]
        for b in input.product.bundles where b.kind.ships {
            let files = (b.sourceFiles + b.linkedCode.flatMap(\.files)).filter { sourceExtensions.contains(PathUtil.pathExtension($0)) }
                + b.interfaceFiles
            if !files.isEmpty { filesByBundle[b.name] = files }
        }
        let files = Set(filesByBundle.values.joined()).sorted()
        let keySet = wanted
        let lengths = Set(wanted.map(\.utf8.count))
        let found: [FileFacts?] = ConcurrentMap.map(files) { path in
            if let size = input.index.entry(path)?.size, size > Int64(limits.maxSourceFileBytes) { return nil }
            guard let data = try? input.source.read(path), data.count <= limits.maxSourceFileBytes else { return nil }
            var facts = FileFacts()
            if !keySet.isEmpty { facts.keys = keys(in: data, path: path, wanted: keySet, lengths: lengths) }
            if interfaceTables {
                data.withUnsafeBytes { bytes in
                    if interfaceExtensions.contains(PathUtil.pathExtension(path)) {
                        facts.outlets = InterfaceTextEvidence.outlets(in: bytes)
                    } else {
                        facts.assignedNames = InterfaceTextEvidence.assignedNames(in: bytes)
                    }
                }
            }
            return facts
        }
        var readFiles = Set<String>()
        var assigned: [String: Set<String>] = [:]
        var outlets: [(property: String, destination: String)] = []
        for (path, facts) in zip(files, found) {
            guard let facts else { continue }
            readFiles.insert(path)
            result.referenced.formUnion(facts.keys)
            assigned.merge(facts.assignedNames) { $0.union($1) }
            outlets += facts.outlets
        }
        for outlet in outlets {
            for kind in assigned[outlet.property] ?? [] { result.codeSetInterfaceTexts.insert(outlet.destination + "." + kind) }
        }
        for (bundle, paths) in filesByBundle where paths.contains(where: readFiles.contains) { result.scannedBundles.insert(bundle) }
        return result
    }

    /// The wanted keys one file names.
    static func keys(in data: Data, path: String, wanted: Set<String>, lengths: Set<Int>? = nil) -> Set<String> {
        let ext = PathUtil.pathExtension(path)
        let lengths = lengths ?? Set(wanted.map(\.utf8.count))
        var out = Set<String>()
        data.withUnsafeBytes { bytes in
            func check(_ start: Int, _ end: Int) {
                // Most literals have a length no key has: no string is made for them.
                guard end > start, end - start <= maxKeyBytes, lengths.contains(end - start) else { return }
                let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                if wanted.contains(text) { out.insert(text) }
            }
            if interfaceExtensions.contains(ext) {
                // Attribute values: the text between a `="` and the next `"`.
                var i = 0
                let n = bytes.count
                while i + 1 < n {
                    if bytes[i] == 0x3D, bytes[i + 1] == 0x22 {
                        let start = i + 2
                        var j = start
                        while j < n, bytes[j] != 0x22, bytes[j] != 0x0A { j += 1 }
                        check(start, j)
                        i = j + 1
                    } else {
                        i += 1
                    }
                }
                return
            }
            let segments = SourceFileKind.language(of: path) == .swift ? URLLiteralScanner.swiftSegments(bytes)
                : URLLiteralScanner.cSegments(bytes)
            for s in segments { check(s.start, s.end) }
        }
        return out
    }
}
