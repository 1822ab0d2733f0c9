import Foundation
import Artifacts
import Formats

/// Where an App Transport Security key belongs in `NSAppTransportSecurity`.
public enum ATSKeyLevel: String, Sendable, Equatable {
    /// Directly in `NSAppTransportSecurity`.
    case top
    /// In one domain's dictionary of `NSExceptionDomains`.
    case exceptionDomain = "exception domain"
    /// In one domain's dictionary of `NSPinnedDomains`.
    case pinnedDomain = "pinned domain"
    /// In one element of `NSPinnedCAIdentities` or `NSPinnedLeafIdentities`.
    case pinnedIdentity = "pinned identity"
}

/// The property-list type a key's value must have.
public enum ATSValueType: String, Sendable, Equatable {
    case boolean, string, dictionary, array
}

/// One ATS key as the platform documents it.
///
/// Sources: `../shared/reference/facts/ats.json` (21 keys) and Apple's `NSAppTransportSecurity`
/// reference; `status` is `legacy` for the iOS 9-era `NSTemporaryException…` /
/// `NSThirdPartyException…` spellings and `deprecated` for `NSAllowsArbitraryLoadsInMedia`,
/// the iOS 10 beta name of `NSAllowsArbitraryLoadsForMedia` (the iOS 10 text in
/// `seeds/004_…` still uses it).
public struct ATSKeyFact: Sendable, Equatable {
    public enum Status: String, Sendable, Equatable { case current, legacy, deprecated }

    public var key: String
    public var level: ATSKeyLevel
    public var type: ATSValueType
    public var status: Status
    /// For a legacy or deprecated spelling: the documented key it stands for.
    public var currentName: String?
    /// The first iOS major version that reads the key.
    public var introduced: Int
}

/// The catalog of ATS keys.
public enum ATSKeys {
    public static let root = "NSAppTransportSecurity"
    public static let allowsArbitraryLoads = "NSAllowsArbitraryLoads"
    public static let allowsArbitraryLoadsForMedia = "NSAllowsArbitraryLoadsForMedia"
    public static let allowsArbitraryLoadsInMedia = "NSAllowsArbitraryLoadsInMedia"
    public static let allowsArbitraryLoadsInWebContent = "NSAllowsArbitraryLoadsInWebContent"
    public static let allowsLocalNetworking = "NSAllowsLocalNetworking"
    public static let exceptionDomains = "NSExceptionDomains"
    public static let pinnedDomains = "NSPinnedDomains"
    public static let includesSubdomains = "NSIncludesSubdomains"
    public static let exceptionAllowsInsecureHTTPLoads = "NSExceptionAllowsInsecureHTTPLoads"
    public static let exceptionMinimumTLSVersion = "NSExceptionMinimumTLSVersion"
    public static let exceptionRequiresForwardSecrecy = "NSExceptionRequiresForwardSecrecy"
    public static let requiresCertificateTransparency = "NSRequiresCertificateTransparency"
    public static let pinnedCAIdentities = "NSPinnedCAIdentities"
    public static let pinnedLeafIdentities = "NSPinnedLeafIdentities"
    public static let spkiSHA256 = "SPKI-SHA256-BASE64"

    public static let all: [ATSKeyFact] = {
        func fact(_ key: String, _ level: ATSKeyLevel, _ type: ATSValueType, _ introduced: Int = 9,
                  _ status: ATSKeyFact.Status = .current, _ current: String? = nil) -> ATSKeyFact {
            ATSKeyFact(key: key, level: level, type: type, status: status, currentName: current, introduced: introduced)
        }
        var out = [
            fact(allowsArbitraryLoads, .top, .boolean),
            fact(allowsArbitraryLoadsForMedia, .top, .boolean, 10),
            fact(allowsArbitraryLoadsInWebContent, .top, .boolean, 10),
            fact(allowsLocalNetworking, .top, .boolean, 10),
            fact(exceptionDomains, .top, .dictionary),
            fact(pinnedDomains, .top, .dictionary, 14),
            fact(allowsArbitraryLoadsInMedia, .top, .boolean, 10, .deprecated, allowsArbitraryLoadsForMedia),
            fact(includesSubdomains, .exceptionDomain, .boolean),
            fact(exceptionAllowsInsecureHTTPLoads, .exceptionDomain, .boolean),
            fact(exceptionMinimumTLSVersion, .exceptionDomain, .string),
            fact(exceptionRequiresForwardSecrecy, .exceptionDomain, .boolean),
            fact(requiresCertificateTransparency, .exceptionDomain, .boolean),
            fact(includesSubdomains, .pinnedDomain, .boolean, 14),
            fact(pinnedCAIdentities, .pinnedDomain, .array, 14),
            fact(pinnedLeafIdentities, .pinnedDomain, .array, 14),
            fact(spkiSHA256, .pinnedIdentity, .string, 14),
        ]
        for prefix in ["NSTemporaryException", "NSThirdPartyException"] {
            out.append(fact(prefix + "AllowsInsecureHTTPLoads", .exceptionDomain, .boolean, 9, .legacy, exceptionAllowsInsecureHTTPLoads))
            out.append(fact(prefix + "MinimumTLSVersion", .exceptionDomain, .string, 9, .legacy, exceptionMinimumTLSVersion))
            out.append(fact(prefix + "RequiresForwardSecrecy", .exceptionDomain, .boolean, 9, .legacy, exceptionRequiresForwardSecrecy))
        }
        return out
    }()

    /// The fact for `key` at `level`, if the key belongs there.
    public static func fact(_ key: String, at level: ATSKeyLevel) -> ATSKeyFact? {
        all.first { $0.key == key && $0.level == level }
    }

    /// The closest known key to a misspelled one: the same letters in another case, a key it
    /// is the start of, else a key at most a quarter of its length (and at least two) edits
    /// away; keys at `level` first.
    public static func suggestion(for key: String, at level: ATSKeyLevel) -> String? {
        guard key.count <= 80 else { return nil }
        let candidates = all.filter { $0.level == level && $0.status == .current }.map(\.key)
            + all.filter { $0.level != level && $0.status == .current }.map(\.key)
        if let same = candidates.first(where: { $0.lowercased() == key.lowercased() }) { return same }
        // A truncated key (`SPKI-SHA256` for `SPKI-SHA256-BASE64`).
        if key.count >= 8, let longer = candidates.first(where: { $0.lowercased().hasPrefix(key.lowercased()) }) { return longer }
        var best: (key: String, distance: Int)?
        for candidate in candidates {
            let d = editDistance(key, candidate)
            if d <= max(2, candidate.count / 4), d < (best?.distance ?? Int.max) { best = (candidate, d) }
        }
        return best?.key
    }

    /// Levenshtein distance between two short strings, by characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count), current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

/// A TLS protocol version as `NSExceptionMinimumTLSVersion` names it (ats.json:
/// `allowed_values` TLSv1.0–TLSv1.3; default TLSv1.2).
public enum TLSVersion: String, Sendable, Comparable, CaseIterable {
    case tls10 = "TLSv1.0", tls11 = "TLSv1.1", tls12 = "TLSv1.2", tls13 = "TLSv1.3"

    public static func < (a: TLSVersion, b: TLSVersion) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// One key's value as written, with where it was written. `value` is nil when the value has
/// the wrong type (an `ATSIssue` says so); the key is still *present*, which matters for the
/// iOS 10 keys that make iOS ignore `NSAllowsArbitraryLoads` "with any value".
public struct ATSSetting<Value: Sendable & Equatable>: Sendable, Equatable {
    public var value: Value?
    /// The spelling used (a legacy spelling for some exception keys).
    public var key: String
    public var keyPath: String
    public var keyPosition: SourcePosition?
    public var valuePosition: SourcePosition?
}

/// One entry of `NSExceptionDomains`.
public struct ATSExceptionDomain: Sendable, Equatable {
    /// The domain string exactly as written.
    public var name: String
    public var keyPath: String
    public var keyPosition: SourcePosition?
    public var valuePosition: SourcePosition?
    /// The domain's dictionary has no entries (or is not a dictionary): iOS still applies ATS
    /// defaults to the domain and ignores every global key for it.
    public var isEmpty: Bool
    public var includesSubdomains: ATSSetting<Bool>?
    /// `NSExceptionAllowsInsecureHTTPLoads`, else a legacy spelling of it.
    public var allowsInsecureHTTPLoads: ATSSetting<Bool>?
    public var minimumTLSVersion: ATSSetting<TLSVersion>?
    public var requiresForwardSecrecy: ATSSetting<Bool>?
    public var requiresCertificateTransparency: ATSSetting<Bool>?
}

/// One `SPKI-SHA256-BASE64` value of a pinned domain.
public struct ATSPinnedIdentity: Sendable, Equatable {
    /// Nil when the element is not a dictionary with a string under `SPKI-SHA256-BASE64`.
    public var value: String?
    public var keyPath: String
    public var position: SourcePosition?
}

/// One entry of `NSPinnedDomains` (iOS 14+).
public struct ATSPinnedDomain: Sendable, Equatable {
    public var name: String
    public var keyPath: String
    public var keyPosition: SourcePosition?
    public var includesSubdomains: ATSSetting<Bool>?
    /// Nil when the key is absent (or not an array).
    public var caIdentities: [ATSPinnedIdentity]?
    public var leafIdentities: [ATSPinnedIdentity]?
    /// Where each identity array's value starts, by key.
    public var arrayPositions: [String: SourcePosition] = [:]
}

/// Something wrong with how a key is written.
public struct ATSIssue: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A key that iOS does not read at this level; a close known key if one exists.
        case unknownKey(suggestion: String?)
        /// A known key written at a level where iOS does not read it.
        case misplacedKey(belongsIn: ATSKeyLevel)
        case wrongType(expected: ATSValueType, found: String)
        /// A string that is not one of the values iOS knows (a TLS version).
        case invalidValue(expected: [String])
        case legacyKey(current: String)
        case deprecatedKey(current: String)
    }

    public var kind: Kind
    public var key: String
    /// Dotted path from the Info.plist root, e.g. `NSAppTransportSecurity.NSExceptionDomains.example.com.NSIncludesSubdomains`.
    public var keyPath: String
    public var position: SourcePosition?
}

/// `NSAppTransportSecurity` of one bundle as written: every key parsed and type-checked.
/// What iOS does with it is `ATSPolicy`'s business.
public struct ATSConfiguration: Sendable, Equatable {
    /// The Info.plist (or the build setting) the dictionary comes from.
    public var location: FileLocation
    /// Where the dictionary's value starts.
    public var valuePosition: SourcePosition?
    public var allowsArbitraryLoads: ATSSetting<Bool>?
    public var allowsArbitraryLoadsForMedia: ATSSetting<Bool>?
    /// The deprecated `NSAllowsArbitraryLoadsInMedia`, kept apart (see `ATSPolicy`).
    public var allowsArbitraryLoadsInMedia: ATSSetting<Bool>?
    public var allowsArbitraryLoadsInWebContent: ATSSetting<Bool>?
    public var allowsLocalNetworking: ATSSetting<Bool>?
    public var exceptionDomains: [ATSExceptionDomain] = []
    public var pinnedDomains: [ATSPinnedDomain] = []
    public var issues: [ATSIssue] = []

    /// At most this many domains are read from each domain dictionary (hostile input).
    public static let maximumDomains = 2_000
    /// At most this many issues are kept.
    public static let maximumIssues = 1_000

    /// The bundle's configuration as the built app will have it; nil when it sets none.
    public init?(bundle: AppBundle) {
        guard let value = bundle.infoValue(ATSKeys.root) else { return nil }
        self.init(node: value.node, location: value.location)
    }

    public init(node: PlistNode, location: FileLocation) {
        self.location = location
        valuePosition = node.position
        guard let dict = node.dictionary else {
            record(ATSIssue(kind: .wrongType(expected: .dictionary, found: node.value.typeName), key: ATSKeys.root,
                                   keyPath: ATSKeys.root, position: node.position ?? location.position))
            return
        }
        for entry in Self.lastEntries(dict) {
            let path = ATSKeys.root + "." + entry.key
            switch entry.key {
            case ATSKeys.allowsArbitraryLoads: allowsArbitraryLoads = boolean(entry, path)
            case ATSKeys.allowsArbitraryLoadsForMedia: allowsArbitraryLoadsForMedia = boolean(entry, path)
            case ATSKeys.allowsArbitraryLoadsInWebContent: allowsArbitraryLoadsInWebContent = boolean(entry, path)
            case ATSKeys.allowsLocalNetworking: allowsLocalNetworking = boolean(entry, path)
            case ATSKeys.allowsArbitraryLoadsInMedia:
                record(ATSIssue(kind: .deprecatedKey(current: ATSKeys.allowsArbitraryLoadsForMedia), key: entry.key, keyPath: path,
                                       position: entry.keyPosition))
                allowsArbitraryLoadsInMedia = boolean(entry, path)
            case ATSKeys.exceptionDomains:
                guard let domains = typed(entry, path, .dictionary)?.dictionary else { continue }
                for d in Self.lastEntries(domains).prefix(Self.maximumDomains) { exceptionDomains.append(exceptionDomain(d, path: path + "." + d.key)) }
            case ATSKeys.pinnedDomains:
                guard let domains = typed(entry, path, .dictionary)?.dictionary else { continue }
                for d in Self.lastEntries(domains).prefix(Self.maximumDomains) { pinnedDomains.append(pinnedDomain(d, path: path + "." + d.key)) }
            default: unknown(entry, path, at: .top)
            }
        }
    }

    /// Each key once, with its last value (what CoreFoundation keeps), in first-written order.
    /// Linear: a hostile dictionary may hold millions of entries.
    static func lastEntries(_ dict: PlistDictionary) -> [PlistEntry] {
        var last: [String: Int] = [:]
        for (i, e) in dict.entries.enumerated() { last[e.key] = i }
        var seen = Set<String>()
        return dict.entries.compactMap { e in seen.insert(e.key).inserted ? last[e.key].map { dict.entries[$0] } : nil }
    }

    /// Records an issue, up to `maximumIssues` (a hostile plist may hold millions of bad keys).
    private mutating func record(_ issue: ATSIssue) {
        if issues.count < Self.maximumIssues { issues.append(issue) }
    }

    private mutating func typed(_ entry: PlistEntry, _ path: String, _ type: ATSValueType) -> PlistNode? {
        let ok: Bool
        switch type {
        case .boolean: ok = entry.value.bool != nil
        case .string: ok = entry.value.string != nil
        case .dictionary: ok = entry.value.dictionary != nil
        case .array: ok = entry.value.array != nil
        }
        if ok { return entry.value }
        record(ATSIssue(kind: .wrongType(expected: type, found: entry.value.value.typeName), key: entry.key, keyPath: path,
                               position: entry.value.position ?? entry.keyPosition))
        return nil
    }

    private mutating func boolean(_ entry: PlistEntry, _ path: String) -> ATSSetting<Bool> {
        ATSSetting(value: typed(entry, path, .boolean)?.bool, key: entry.key, keyPath: path, keyPosition: entry.keyPosition,
                   valuePosition: entry.value.position)
    }

    private mutating func unknown(_ entry: PlistEntry, _ path: String, at level: ATSKeyLevel) {
        guard issues.count < Self.maximumIssues else { return }
        let elsewhere = ATSKeys.all.first { $0.key == entry.key && $0.level != level }
        let kind: ATSIssue.Kind = elsewhere.map { .misplacedKey(belongsIn: $0.level) }
            ?? .unknownKey(suggestion: ATSKeys.suggestion(for: entry.key, at: level))
        record(ATSIssue(kind: kind, key: entry.key, keyPath: path, position: entry.keyPosition))
    }

    private mutating func exceptionDomain(_ entry: PlistEntry, path: String) -> ATSExceptionDomain {
        var domain = ATSExceptionDomain(name: entry.key, keyPath: path, keyPosition: entry.keyPosition, valuePosition: entry.value.position,
                                        isEmpty: true)
        guard let dict = typed(entry, path, .dictionary)?.dictionary else { return domain }
        domain.isEmpty = dict.entries.isEmpty
        // Documented spellings win over legacy ones written in the same dictionary.
        var legacyInsecure: ATSSetting<Bool>?, legacyTLS: ATSSetting<TLSVersion>?, legacyForwardSecrecy: ATSSetting<Bool>?
        for e in Self.lastEntries(dict) {
            let keyPath = path + "." + e.key
            guard let fact = ATSKeys.fact(e.key, at: .exceptionDomain) else {
                unknown(e, keyPath, at: .exceptionDomain)
                continue
            }
            if fact.status == .legacy, let current = fact.currentName {
                record(ATSIssue(kind: .legacyKey(current: current), key: e.key, keyPath: keyPath, position: e.keyPosition))
            }
            switch fact.currentName ?? fact.key {
            case ATSKeys.includesSubdomains: domain.includesSubdomains = boolean(e, keyPath)
            case ATSKeys.requiresCertificateTransparency: domain.requiresCertificateTransparency = boolean(e, keyPath)
            case ATSKeys.exceptionAllowsInsecureHTTPLoads:
                if fact.status == .current { domain.allowsInsecureHTTPLoads = boolean(e, keyPath) } else if legacyInsecure == nil { legacyInsecure = boolean(e, keyPath) }
            case ATSKeys.exceptionRequiresForwardSecrecy:
                if fact.status == .current {
                    domain.requiresForwardSecrecy = boolean(e, keyPath)
                } else if legacyForwardSecrecy == nil {
                    legacyForwardSecrecy = boolean(e, keyPath)
                }
            case ATSKeys.exceptionMinimumTLSVersion:
                var version: TLSVersion?
                if let s = typed(e, keyPath, .string)?.string {
                    version = TLSVersion(rawValue: s)
                    if version == nil {
                        record(ATSIssue(kind: .invalidValue(expected: TLSVersion.allCases.map(\.rawValue)), key: e.key, keyPath: keyPath,
                                               position: e.value.position))
                    }
                }
                let setting = ATSSetting(value: version, key: e.key, keyPath: keyPath, keyPosition: e.keyPosition, valuePosition: e.value.position)
                if fact.status == .current { domain.minimumTLSVersion = setting } else if legacyTLS == nil { legacyTLS = setting }
            default: break
            }
        }
        domain.allowsInsecureHTTPLoads = domain.allowsInsecureHTTPLoads ?? legacyInsecure
        domain.minimumTLSVersion = domain.minimumTLSVersion ?? legacyTLS
        domain.requiresForwardSecrecy = domain.requiresForwardSecrecy ?? legacyForwardSecrecy
        return domain
    }

    private mutating func pinnedDomain(_ entry: PlistEntry, path: String) -> ATSPinnedDomain {
        var domain = ATSPinnedDomain(name: entry.key, keyPath: path, keyPosition: entry.keyPosition)
        guard let dict = typed(entry, path, .dictionary)?.dictionary else { return domain }
        for e in Self.lastEntries(dict) {
            let keyPath = path + "." + e.key
            switch e.key {
            case ATSKeys.includesSubdomains: domain.includesSubdomains = boolean(e, keyPath)
            case ATSKeys.pinnedCAIdentities:
                domain.caIdentities = identities(e, keyPath)
                domain.arrayPositions[e.key] = e.value.position
            case ATSKeys.pinnedLeafIdentities:
                domain.leafIdentities = identities(e, keyPath)
                domain.arrayPositions[e.key] = e.value.position
            default: unknown(e, keyPath, at: .pinnedDomain)
            }
        }
        return domain
    }

    private mutating func identities(_ entry: PlistEntry, _ path: String) -> [ATSPinnedIdentity]? {
        guard let elements = typed(entry, path, .array)?.array else { return nil }
        var out: [ATSPinnedIdentity] = []
        for (i, element) in elements.prefix(Self.maximumDomains).enumerated() {
            let elementPath = "\(path)[\(i)]"
            guard let dict = element.dictionary else {
                record(ATSIssue(kind: .wrongType(expected: .dictionary, found: element.value.typeName), key: entry.key, keyPath: elementPath,
                                       position: element.position))
                out.append(ATSPinnedIdentity(value: nil, keyPath: elementPath, position: element.position))
                continue
            }
            var value: String?, position = element.position
            for e in Self.lastEntries(dict) {
                let keyPath = elementPath + "." + e.key
                if e.key == ATSKeys.spkiSHA256 {
                    value = typed(e, keyPath, .string)?.string
                    position = e.value.position ?? e.keyPosition
                } else {
                    unknown(e, keyPath, at: .pinnedIdentity)
                }
            }
            out.append(ATSPinnedIdentity(value: value, keyPath: elementPath + "." + ATSKeys.spkiSHA256, position: position))
        }
        return out
    }
}
