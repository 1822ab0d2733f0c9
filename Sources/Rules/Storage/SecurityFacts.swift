import Foundation
import Artifacts
import Evidence
import Formats

/// How the storage rules read the security facts (`EvidenceIndex.securityUsages`): per host
/// bundle (an app, extension, App Clip or watch app: the process whose entitlements apply),
/// shipping code only, with how certain each use is.
struct SecurityFacts {
    typealias Security = ProtectedResourceCatalog.Security

    /// A fact and the bundle whose code holds it (the host itself or a framework it embeds).
    struct Fact {
        var usage: Usage
        var holder: AppBundle
        /// The host certainly runs it: a binary, its own sources, or linked code its code names.
        var direct: Bool

        /// Code of a package or pod, or linked code the host's own code does not name: rules
        /// lower their severity for it and say so.
        var mayNotRun: Bool { !direct || SecurityFacts.isPackaged(usage) }

        /// The finding at `severity` with the reason appended, when the host may not run the code.
        func lowered(_ f: Finding, to severity: Severity, _ reason: String = "code the bundle may not run") -> Finding {
            guard mayNotRun else { return f }
            var out = f
            out.severity = severity
            out.message += " (\(usage.origin.label), \(reason))"
            return out
        }
    }

    let context: RuleContext
    private let chains: EmbeddingChains
    private let byName: [String: AppBundle]

    init(_ context: RuleContext) {
        self.context = context
        chains = EmbeddingChains(context.product)
        byName = Dictionary(context.product.bundles.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// Hosts with the facts of one capability their code holds, in bundle order.
    func byHost(_ capability: String) -> [(host: AppBundle, facts: [Fact])] {
        var grouped: [String: [Fact]] = [:]
        for u in context.evidence.securityUsages where u.capability == capability && u.ships {
            guard let holder = byName[u.bundle], holder.kind.ships, let host = chains.host(of: holder.name) else { continue }
            grouped[host.name, default: []].append(Fact(usage: u, holder: holder, direct: UsageReading.isDirect(u, host: holder)))
        }
        // A file compiled into the host and into a framework it embeds is one place: kept once,
        // the most certain reading first.
        return context.product.bundles.compactMap { b in
            guard let facts = grouped[b.name] else { return nil }
            var seen = Set<String>()
            let unique = facts.sorted { $0.direct && !$1.direct }.filter { f in
                guard case .source(let path, let line, let column) = f.usage.location else { return true }
                return seen.insert("\(path):\(line):\(column):\(f.usage.key)").inserted
            }
            return (b, unique)
        }
    }

    /// Every fact of a capability in shipping code, with its host.
    func all(_ capability: String) -> [(host: AppBundle, fact: Fact)] {
        byHost(capability).flatMap { entry in entry.facts.map { (host: entry.host, fact: $0) } }
    }

    /// The finding's place for a fact: the source line, or the binary.
    static func location(_ u: Usage) -> FileLocation {
        switch u.location {
        case .source(let path, let line, let column): return FileLocation(path: path, position: SourcePosition(line: line, column: column))
        case .binary(let path, _): return FileLocation(path: path)
        }
    }

    static func isSource(_ u: Usage) -> Bool {
        if case .source = u.location { return true }
        return false
    }

    /// Code of a package or pod compiled into the bundle.
    static func isPackaged(_ u: Usage) -> Bool {
        if case .linked(let kind, _, _) = u.origin { return kind == .package || kind == .pod }
        return false
    }
}

/// A bundle's entitlements as the storage rules read them.
struct BundleEntitlements {
    let file: PlistFile
    let root: PlistDictionary

    /// Nil when the bundle's entitlements are not known (no signature with entitlements, no
    /// `CODE_SIGN_ENTITLEMENTS` file) or not a dictionary.
    init?(_ bundle: AppBundle) {
        guard let file = bundle.entitlements, let root = file.root?.dictionary else { return nil }
        self.file = file
        self.root = root
    }

    func strings(_ key: String) -> [String] {
        guard let node = root[key] else { return [] }
        if let s = node.string { return [s] }
        return node.strings
    }

    func location(_ key: String) -> FileLocation {
        let entry = root.entry(key)
        return FileLocation(path: file.path, position: entry?.value.position ?? entry?.keyPosition ?? file.root?.position)
    }

    var rootLocation: FileLocation { FileLocation(path: file.path, position: file.root?.position) }
}

/// Team-prefixed identifiers as entitlements and code write them: `$(AppIdentifierPrefix)x`,
/// `$(TeamIdentifierPrefix)x` and `ABCDE12345.x` all become `<team>.x`.
enum TeamPrefixed {
    static let placeholder = "<team>."

    /// `team`: the team the bundle is signed with (built apps). When known, only that team's
    /// prefix is the bundle's own; another team's ten characters stay as written.
    static func normalized(_ value: String, bundleIdentifier: String?, team: String? = nil) -> String {
        var v = value
        for prefix in ["$(AppIdentifierPrefix)", "${AppIdentifierPrefix}", "$(TeamIdentifierPrefix)", "${TeamIdentifierPrefix}"]
        where v.hasPrefix(prefix) {
            v = placeholder + v.dropFirst(prefix.count)
            break
        }
        if !v.hasPrefix(placeholder), hasTeamIdentifier(v), team.map({ v.hasPrefix($0 + ".") }) ?? true { v = placeholder + v.dropFirst(11) }
        if let id = bundleIdentifier {
            for name in ["$(PRODUCT_BUNDLE_IDENTIFIER)", "${PRODUCT_BUNDLE_IDENTIFIER}", "$(CFBundleIdentifier)"] {
                v = v.replacingOccurrences(of: name, with: id)
            }
        }
        return v
    }

    /// `ABCDE12345.` — ten upper-case letters or digits and a dot.
    static func hasTeamIdentifier(_ value: String) -> Bool {
        let bytes = Array(value.utf8.prefix(11))
        guard bytes.count == 11, bytes[10] == UInt8(ascii: ".") else { return false }
        return bytes[0..<10].allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) }
    }

    /// Whether a normalized entitlement value (which may still hold `$(…)` settings) admits the name.
    static func matches(_ entitlement: String, _ name: String) -> Bool {
        guard entitlement.contains("$(") || entitlement.contains("${") || entitlement.contains("*") else { return entitlement == name }
        // A setting the project does not resolve, or a wildcard, stands for any text.
        var pattern = "^"
        var rest = Substring(entitlement)
        while let c = rest.first {
            if rest.hasPrefix("$(") || rest.hasPrefix("${") {
                let close: Character = rest.hasPrefix("$(") ? ")" : "}"
                guard let end = rest.firstIndex(of: close) else { return false }
                pattern += ".*"
                rest = rest[rest.index(after: end)...]
            } else if c == "*" {
                pattern += ".*"
                rest = rest.dropFirst()
            } else {
                pattern += NSRegularExpression.escapedPattern(for: String(c))
                rest = rest.dropFirst()
            }
        }
        return name.range(of: pattern + "$", options: .regularExpression) != nil
    }
}
