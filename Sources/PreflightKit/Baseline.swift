import Foundation
import Findings

/// The findings a team accepted when adopting Preflight on an existing app: a versioned file of
/// finding fingerprints (rule, bundle, key and the rule's semantic parts — never lines), so a
/// scan with the baseline reports only what is new. A fingerprint met several times is kept
/// with its count: a second finding of the same kind is new.
public struct Baseline: Sendable, Equatable {
    public static let version = 1

    public struct Entry: Sendable, Equatable, Codable {
        public var fingerprint: String
        public var rule: String
        public var bundle: String?
        public var key: String?
        public var count: Int
    }

    public var entries: [Entry]

    public init(findings: [Finding]) {
        var byPrint: [String: Entry] = [:]
        for f in findings {
            byPrint[f.fingerprint, default: Entry(fingerprint: f.fingerprint, rule: f.rule, bundle: f.bundle, key: f.key, count: 0)].count += 1
        }
        entries = byPrint.values.sorted { ($0.rule, $0.bundle ?? "", $0.key ?? "", $0.fingerprint) < ($1.rule, $1.bundle ?? "", $1.key ?? "", $1.fingerprint) }
    }

    struct File: Codable {
        var version: Int
        var tool: String
        var findings: [Entry]
    }

    public struct ReadError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public init(data: Data, path: String) throws {
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: data) } catch {
            throw ReadError(description: "\(path) is not a Preflight baseline: \(error)")
        }
        guard file.version == Self.version else {
            throw ReadError(description: "\(path) is a baseline of version \(file.version); this Preflight reads version \(Self.version)")
        }
        guard file.findings.allSatisfy({ $0.count > 0 }) else { throw ReadError(description: "\(path): a count is not positive") }
        entries = file.findings
    }

    public func data() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(File(version: Self.version, tool: "preflight", findings: entries)) + Data("\n".utf8)
    }

    /// The findings the baseline does not cover, and the entries no finding matched any more
    /// (fixed since, or changed beyond recognition: they can be removed from the file).
    public func filter(_ findings: [Finding]) -> (new: [Finding], stale: [Entry]) {
        var cursor = BaselineCursor(self)
        let new = cursor.take(findings)
        return (new, entries.filter(cursor.untouched))
    }
}

/// A baseline consumed input by input: each finding it covers uses up one of its entry's count.
struct BaselineCursor {
    private var remaining: [String: Int]

    init(_ baseline: Baseline) {
        remaining = Dictionary(baseline.entries.map { ($0.fingerprint, $0.count) }, uniquingKeysWith: +)
    }

    /// The findings the baseline does not cover.
    mutating func take(_ findings: [Finding]) -> [Finding] {
        findings.filter { f in
            guard let left = remaining[f.fingerprint], left > 0 else { return true }
            remaining[f.fingerprint] = left - 1
            return false
        }
    }

    /// Whether no finding has used up any of this entry's count.
    func untouched(_ entry: Baseline.Entry) -> Bool { (remaining[entry.fingerprint] ?? 0) == entry.count }
}
