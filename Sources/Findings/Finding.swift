import Foundation

public enum Severity: String, Sendable, Codable, Comparable, CaseIterable {
    case note, warning, error

    private var rank: Int { self == .note ? 0 : self == .warning ? 1 : 2 }
    public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
}

/// Proof behind a finding: a place in a file, or a symbol in a binary.
public enum EvidenceRef: Sendable, Equatable, Hashable {
    case file(path: String, line: Int?)
    case symbol(binary: String, symbol: String)
}

/// One problem found: which rule, how severe, where, about which bundle and key, with proof
/// and a fix. The module holding it depends on Foundation only, so reporters and library users
/// read findings without the readers, the model or the rules.
public struct Finding: Sendable, Equatable {
    public var rule: String
    public var severity: Severity
    public var message: String
    /// The bundle concerned, by name.
    public var bundle: String?
    /// File relative to the scan root.
    public var file: String?
    public var line: Int?
    public var column: Int?
    /// A plist key path (`NSAppTransportSecurity.NSAllowsArbitraryLoads`) or build setting.
    public var key: String?
    public var evidence: [EvidenceRef]
    public var fix: String?
    /// Stable semantic parts beyond rule and bundle that make this finding unique.
    public var fingerprintParts: [String]
    /// Other bundles with the same finding in the same shared file (reported once).
    public var alsoInBundles: [String] = []
    /// The fingerprint a stored finding was reported with (the server rebuilds findings from
    /// the fleet store, which keeps the fingerprint, not its parts).
    public var storedFingerprint: String?

    public init(rule: String, severity: Severity, message: String, bundle: String? = nil,
                file: String? = nil, line: Int? = nil, column: Int? = nil, key: String? = nil,
                evidence: [EvidenceRef] = [], fix: String? = nil, fingerprintParts: [String] = []) {
        self.rule = rule
        self.severity = severity
        self.message = message
        self.bundle = bundle
        self.file = file
        self.line = line
        self.column = column
        self.key = key
        self.evidence = evidence
        self.fix = fix
        self.fingerprintParts = fingerprintParts
    }

    /// What makes two findings of different bundles one cause: the same rule at the same place
    /// of the same file, for the same key and the same semantic parts. A file several targets
    /// share (one Info.plist for flavours of an app) gives each bundle a finding with this same
    /// identity; the scan reports it once, naming the others (`alsoInBundles`). Messages are
    /// never compared.
    public var sharedFileIdentity: SharedFileIdentity? {
        guard let file, bundle != nil else { return nil }
        return SharedFileIdentity(rule: rule, file: file, line: line, column: column, key: key, parts: fingerprintParts)
    }

    /// Built from rule, bundle, key and the rule's semantic parts; never from lines or counts,
    /// so baselines and code scanning survive unrelated edits. A finding shared by several
    /// bundles takes the first of them by name, whatever order the targets come in.
    public var fingerprint: String {
        if let storedFingerprint { return storedFingerprint }
        let owner = alsoInBundles.isEmpty ? bundle : ([bundle].compactMap { $0 } + alsoInBundles).min()
        let parts = [rule, owner ?? "", key ?? ""] + fingerprintParts
        return StableHash.hex(parts.joined(separator: "\u{1f}"))
    }
}

/// See `Finding.sharedFileIdentity`.
public struct SharedFileIdentity: Hashable, Sendable {
    public var rule: String
    public var file: String
    public var line: Int?
    public var column: Int?
    public var key: String?
    public var parts: [String]
}

/// FNV-1a 64-bit: stable across runs, platforms and Swift versions (unlike `Hasher`).
public enum StableHash {
    public static func hex(_ s: String) -> String {
        var h: UInt64 = 0xcbf29ce484222325
        for b in s.utf8 {
            h ^= UInt64(b)
            h = h &* 0x100000001b3
        }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
