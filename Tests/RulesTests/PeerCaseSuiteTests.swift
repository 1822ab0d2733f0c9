import XCTest
import Artifacts
import Evidence
@testable import Rules
import SwiftSourceScan

/// Our own cases for the families of the major code-scanning engine's Swift security queries
/// (its public query help: what each query reports, its recommendation) and OWASP MASTG's iOS
/// storage, crypto and network tests — written here from those descriptions and the APIs'
/// documentation, never copied from another project's tests (issue 22, "Evidence"). Each case
/// is a small app folder scanned as a user would; a bad case must be reported by one of its
/// family's rules, a good case (the near misses: a hashed password, a random key, a TLS 1.2
/// minimum…) by none. A case Preflight still gets wrong carries the reason (`knownMiss`), and
/// the test fails when it starts being right, so the marks and `docs/accuracy.md` ("Own cases
/// from the peers' documentation") stay true.
final class PeerCaseSuiteTests: XCTestCase {
    func testEveryFamilyCase() throws {
        var rows: [PeerFamily: (cases: Int, bad: Int, found: Int, missed: Int, good: Int, falsePositives: Int)] = [:]
        var failures: [String] = []
        for c in PeerCases.all {
            let reported = try Self.rulesReporting(c.files, among: c.family.rules)
            let hit = !reported.isEmpty
            var row = rows[c.family] ?? (0, 0, 0, 0, 0, 0)
            row.cases += 1
            switch c.verdict {
            case .bad:
                row.bad += 1
                if hit { row.found += 1 } else { row.missed += 1 }
                if hit, c.knownMiss != nil { failures.append("\(c.family.rawValue)/\(c.name): now found by \(reported) — remove its knownMiss mark") }
                if !hit, c.knownMiss == nil { failures.append("\(c.family.rawValue)/\(c.name): bad case not reported by \(c.family.rules)") }
            case .good:
                row.good += 1
                if hit { row.falsePositives += 1 }
                if hit, c.knownMiss == nil { failures.append("\(c.family.rawValue)/\(c.name): good case reported by \(reported)") }
                if !hit, c.knownMiss != nil { failures.append("\(c.family.rawValue)/\(c.name): no longer reported — remove its knownMiss mark") }
            }
            rows[c.family] = row
        }
        var table = "family | cases | bad | found | missed | good | false\n"
        var total = (0, 0, 0, 0, 0, 0)
        for family in PeerFamily.allCases {
            guard let r = rows[family] else { failures.append("\(family.rawValue): no case"); continue }
            table += "\(family.rawValue) | \(r.cases) | \(r.bad) | \(r.found) | \(r.missed) | \(r.good) | \(r.falsePositives)\n"
            total = (total.0 + r.cases, total.1 + r.bad, total.2 + r.found, total.3 + r.missed, total.4 + r.good, total.5 + r.falsePositives)
            if r.bad < 2 || r.good < 2 { failures.append("\(family.rawValue): needs at least two bad and two good cases") }
        }
        table += "total | \(total.0) | \(total.1) | \(total.2) | \(total.3) | \(total.4) | \(total.5)\n"
        print(table)
        for failure in failures { XCTFail(failure) }
        if let out = ProcessInfo.processInfo.environment["PREFLIGHT_PEER_CASES_OUT"] { try Self.export(to: URL(fileURLWithPath: out)) }
    }

    /// Writes every case as an app folder (`<family>/<nn>-<bad|good>/App/…`, the family's rule
    /// ids in `<family>/rules`), to scan with another build of `preflight` (how the figures
    /// before a change were measured).
    static func export(to root: URL) throws {
        for (n, c) in PeerCases.all.enumerated() {
            let family = root.appendingPathComponent(c.family.rawValue.replacingOccurrences(of: " ", with: "_").replacingOccurrences(of: ",", with: ""))
            try FileManager.default.createDirectory(at: family, withIntermediateDirectories: true)
            try Data(c.family.rules.map { $0.description.identifier }.joined(separator: "|").utf8).write(to: family.appendingPathComponent("rules"))
            let folder = family.appendingPathComponent(String(format: "%03d-%@", n, c.verdict == .bad ? "bad" : "good"))
            var files = c.files
            files["App/Info.plist"] = files["App/Info.plist"] ?? FlowFacts.infoPlist
            for (path, text) in files {
                let url = folder.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            }
        }
    }

    /// Names of the rules in `rules` with a finding on the app made of `files` (an Info.plist
    /// added), scanned as a source folder by both source scanners.
    static func rulesReporting(_ files: [String: String], among rules: [any Rule.Type]) throws -> [String] {
        var all = files
        all["App/Info.plist"] = all["App/Info.plist"] ?? FlowFacts.infoPlist
        let source = MemorySource(name: "Example", files: all.mapValues { Data($0.utf8) }, symlinks: [:])
        let loaded = try ProductLoader.load(source: source, kind: .folder)
        let context = RuleContext(product: loaded.product,
                                  evidence: EvidenceIndex.build(loaded, scanners: [SwiftSourceScanning(), ObjCSourceScanning()]))
        return rules.filter { !$0.init().check(context).isEmpty }.map { $0.description.identifier }
    }
}

/// The query families of the peer's Swift help, each judged by the Preflight rules that cover it.
enum PeerFamily: String, CaseIterable {
    case logging = "cleartext logging"
    case database = "cleartext storage, database"
    case preferences = "cleartext storage, preferences"
    case transmission = "cleartext transmission"
    case constantPassword = "constant password"
    case constantSalt = "constant salt"
    case hardcodedKey = "hard-coded encryption key"
    case staticIV = "static IV"
    case ecb = "ECB"
    case tls = "insecure TLS configuration"
    case iterations = "insufficient hash iterations"
    case weakHash = "weak hash of sensitive data"
    case passwordHash = "weak password hashing"

    var rules: [any Rule.Type] {
        switch self {
        case .logging: [CredentialLoggedRule.self]
        case .database: [CleartextDatabaseStorageRule.self]
        case .preferences: [SecretInPreferencesRule.self]
        case .transmission: [CredentialInCleartextURLRule.self]
        case .constantPassword: [WeakKeyDerivationRule.self, HardcodedCryptoKeyRule.self]
        case .constantSalt, .iterations: [WeakKeyDerivationRule.self]
        case .hardcodedKey: [HardcodedCryptoKeyRule.self]
        case .staticIV: [StaticIVRule.self]
        case .ecb: [ECBModeEncryptionRule.self]
        case .tls: [TLSBelow12Rule.self]
        case .weakHash, .passwordHash: [SensitiveDataWeakHashRule.self]
        }
    }
}

struct PeerCase {
    enum Verdict { case bad, good }
    var family: PeerFamily
    var name: String
    var verdict: Verdict
    var files: [String: String]
    /// Why Preflight still gets this case wrong (a bad case missed, a good case reported).
    var knownMiss: String?

    static func bad(_ family: PeerFamily, _ name: String, _ files: [String: String], knownMiss: String? = nil) -> PeerCase {
        PeerCase(family: family, name: name, verdict: .bad, files: files, knownMiss: knownMiss)
    }

    static func good(_ family: PeerFamily, _ name: String, _ files: [String: String], knownMiss: String? = nil) -> PeerCase {
        PeerCase(family: family, name: name, verdict: .good, files: files, knownMiss: knownMiss)
    }
}

enum PeerCases {
    static var all: [PeerCase] { logging + database + preferences + transmission + constantPassword + constantSalt
        + hardcodedKey + staticIV + ecb + tls + iterations + weakHash + passwordHash }
}
