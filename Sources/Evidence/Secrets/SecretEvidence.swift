import Foundation
import Artifacts
import Formats

/// A credential a built app ships, masked (`FoundSecret`), with where it is.
public struct ShippedSecret: Sendable, Hashable {
    public var secret: FoundSecret
    /// The resource or Mach-O file, relative to the input.
    public var path: String
    public var bundle: String?
    /// Found among a Mach-O file's C strings (then `secret.line` is nil).
    public var inBinary: Bool
    public var origin: UsageOrigin

    public init(secret: FoundSecret, path: String, bundle: String?, inBinary: Bool, origin: UsageOrigin = .app) {
        self.secret = secret
        self.path = path
        self.bundle = bundle
        self.inBinary = inBinary
        self.origin = origin
    }
}

/// A database or key store shipped inside a built app.
public struct ShippedStore: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case sqlite, realm, keyStore = "key-store", keyOrCertificate = "key-or-certificate"
    }
    public var path: String
    public var bundle: String?
    public var kind: Kind
    public var size: Int64
    /// For key stores, keys and certificates: what the bytes hold.
    public var keyShape: KeyFileShape?
    /// For SQLite files: the tables (nil when the file is not SQLite or could not be read).
    public var schema: SQLiteSchema?
}

/// Secrets in the resources of built apps (property lists, JSON, configuration files,
/// scripts, web content, key files) and the databases and key stores they ship; for a project,
/// the files its shipping targets copy (`SecretEvidence+Project`).
public enum SecretEvidence {
    public struct Result: Sendable {
        public var secrets: [ShippedSecret] = []
        public var stores: [ShippedStore] = []
    }

    public static let builtKinds: Set<ProductKind> = [.ipa, .app, .xcarchive]
    /// Text resources read for secrets, by lower-case extension (not `.strings` tables: UI
    /// text, thousands of files in a localized app, already parsed by the loader).
    static let textExtensions: Set<String> = ["plist", "json", "xcconfig", "js", "jsbundle", "html", "htm", "xml",
                                              "txt", "yml", "yaml", "config", "conf", "cfg", "properties", "ini", "env", "pem", "key"]
    static let storeKinds: [String: ShippedStore.Kind] = [
        "sqlite": .sqlite, "sqlite3": .sqlite, "db": .sqlite, "sqlitedb": .sqlite, "realm": .realm,
        "p12": .keyStore, "pfx": .keyStore, "keystore": .keyStore, "jks": .keyStore, "bks": .keyStore,
        "pem": .keyOrCertificate, "der": .keyOrCertificate, "key": .keyOrCertificate, "cer": .keyOrCertificate, "crt": .keyOrCertificate,
    ]
    static let maxTextBytes = 32 << 20
    static let maxStoreBytes = 64 << 20

    public static func scan(_ input: LoadedInput) -> Result {
        guard builtKinds.contains(input.product.kind) else { return [.project, .package].contains(input.product.kind) ? scanProject(input) : Result() }
        let bundles = input.product.bundles.sorted { $0.path.count > $1.path.count }
        let binaries = Set(input.product.bundles.flatMap { $0.binaries.map(\.path) })
        let entries = input.index.entries.filter { e in
            e.kind == .file && !binaries.contains(e.path) && !e.path.contains("/_CodeSignature/") && !e.path.hasPrefix("_CodeSignature/")
        }
        let work = entries.filter { e in
            let ext = PathUtil.pathExtension(e.path).lowercased()
            return textExtensions.contains(ext) || storeKinds[ext] != nil
        }
        let results: [([FoundSecret], ShippedStore?)] = ConcurrentMap.map(work) { read($0, source: input.source) }
        var out = Result()
        for (e, (found, store)) in zip(work, results) {
            let bundle = bundles.first { $0.path.isEmpty || e.path.hasPrefix($0.path + "/") }
            let origin: UsageOrigin = bundle.map { $0.kind == .framework ? .sdk($0.name) : .app } ?? .app
            var seen = Set<String>()
            for f in found where seen.insert(f.kind.rawValue + f.masked).inserted {
                out.secrets.append(ShippedSecret(secret: f, path: e.path, bundle: bundle?.name, inBinary: false, origin: origin))
            }
            if var s = store {
                s.bundle = bundle?.name
                out.stores.append(s)
            }
        }
        return out
    }

    /// The secrets of a text resource and the store a database or key file is.
    static func read(_ e: FileEntry, source: FileSource) -> ([FoundSecret], ShippedStore?) {
        let ext = PathUtil.pathExtension(e.path).lowercased()
        var found: [FoundSecret] = []
        var store: ShippedStore?
        if textExtensions.contains(ext), e.size <= Int64(maxTextBytes), let data = try? source.read(e.path), data.count <= maxTextBytes {
            found = secrets(in: data, path: e.path)
        }
        if let kind = storeKinds[ext] {
            var s = ShippedStore(path: e.path, bundle: nil, kind: kind, size: e.size)
            if e.size <= Int64(maxStoreBytes), let bytes = try? source.readBytes(e.path), bytes.count <= maxStoreBytes {
                switch kind {
                case .sqlite: s.schema = SQLiteSchema.read(bytes)
                case .keyStore, .keyOrCertificate: s.keyShape = KeyFileShape.of(bytes)
                case .realm: break
                }
            }
            store = s
        }
        return (found, store)
    }

    /// Secrets of one text resource. Binary property lists are read through their string
    /// values (no line numbers); UTF-16 text is decoded first.
    static func secrets(in data: Data, path: String) -> [FoundSecret] {
        let skipGoogle = PathUtil.lastComponent(path).hasPrefix("GoogleService-Info")
        if PropertyListReader.detect(data) == .binary {
            guard let (root, _) = try? PropertyListReader.read(data) else { return [] }
            var values: [String] = []
            stringValues(root, into: &values)
            return values.flatMap { v in
                SecretScanner.scan(text: v, skipGoogleAPIKeys: skipGoogle).map { FoundSecret(kind: $0.kind, masked: $0.masked) }
            }
        }
        if data.count >= 2, data.first == 0xff || data.first == 0xfe || data[data.startIndex + 1] == 0,
           let (text, _) = try? TextDecoding.decode(data, format: "text") {
            return SecretScanner.scan(text: text, skipGoogleAPIKeys: skipGoogle)
        }
        return data.withUnsafeBytes { SecretScanner.scan(bytes: $0, skipGoogleAPIKeys: skipGoogle) }
    }

    static func stringValues(_ node: PlistNode, into out: inout [String], depth: Int = 0) {
        guard depth < 64 else { return }
        if let s = node.string { out.append(s) }
        for n in node.array ?? [] { stringValues(n, into: &out, depth: depth + 1) }
        for e in node.dictionary?.entries ?? [] { stringValues(e.value, into: &out, depth: depth + 1) }
    }
}
