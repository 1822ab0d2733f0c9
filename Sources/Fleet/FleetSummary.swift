import Foundation

/// What a fleet reviewer reads first (`preflight batch summary`): inputs scanned and failed,
/// findings per rule and severity, the most common SDKs, system frameworks and permissions, and
/// the apps with cleartext or tracking issues. Counts the latest scan of each input (by its
/// bytes). The queries are portable SQL, the same on SQLite and PostgreSQL.
public struct FleetSummary: Codable, Sendable, Equatable {
    public struct RuleCount: Codable, Sendable, Equatable { public var rule: String; public var severity: String; public var findings: Int; public var apps: Int }
    public struct NameCount: Codable, Sendable, Equatable { public var name: String; public var apps: Int }
    public struct AppIssue: Codable, Sendable, Equatable {
        public var path: String
        public var identifier: String?
        public var version: String?
        /// Rules (and `ats-policy` for an ATS policy open to cleartext) that put the app on the list.
        public var reasons: [String]
    }
    public struct Failure: Codable, Sendable, Equatable { public var path: String; public var attempts: Int; public var error: String? }

    public var schemaVersion = 1
    public var inputs: Int
    public var done: Int
    public var failed: Int
    public var pending: Int
    public var findings: Int
    public var findingsByRule: [RuleCount]
    public var sdks: [NameCount]
    public var systemFrameworks: [NameCount]
    public var permissions: [NameCount]
    public var cleartextApps: [AppIssue]
    public var trackingApps: [AppIssue]
    public var failures: [Failure]

    public static let cleartextRules = ["ats_arbitrary_loads", "ats_cleartext_url", "ats_exception_domain"]
    public static let trackingRules = ["advertising_identifier_without_att", "privacy_manifest_tracking", "udid_access"]

    static let latest = "SELECT MAX(id) FROM scans GROUP BY input_sha256"
    static let latestDone = "SELECT id FROM scans WHERE status = 'done' AND id IN (\(latest))"

    public static func read(from store: any FleetStore, limit: Int = 20) throws -> FleetSummary {
        func int(_ s: String?) -> Int { Int(s ?? "") ?? 0 }
        var byStatus: [String: Int] = [:]
        for r in try store.rows("SELECT status, COUNT(*) FROM scans WHERE id IN (\(latest)) GROUP BY status") {
            byStatus[r[0] ?? ""] = int(r[1])
        }
        let rules = try store.rows("""
            SELECT rule, severity, COUNT(*), COUNT(DISTINCT scan_id) FROM findings WHERE scan_id IN (\(latestDone))
            GROUP BY rule, severity ORDER BY COUNT(*) DESC, rule, severity
            """).map { RuleCount(rule: $0[0] ?? "", severity: $0[1] ?? "", findings: int($0[2]), apps: int($0[3])) }
        func top(_ sql: String) throws -> [NameCount] {
            try store.rows(sql).map { NameCount(name: $0[0] ?? "", apps: int($0[1])) }
        }
        let sdks = try top("""
            SELECT name, COUNT(DISTINCT scan_id) FROM frameworks WHERE embedded = 1 AND scan_id IN (\(latestDone))
            GROUP BY name ORDER BY COUNT(DISTINCT scan_id) DESC, name LIMIT \(limit)
            """)
        let system = try top("""
            SELECT name, COUNT(DISTINCT scan_id) FROM frameworks WHERE embedded = 0 AND scan_id IN (\(latestDone))
            GROUP BY name ORDER BY COUNT(DISTINCT scan_id) DESC, name LIMIT \(limit)
            """)
        let permissions = try top("""
            SELECT key, COUNT(DISTINCT scan_id) FROM permissions WHERE scan_id IN (\(latestDone))
            GROUP BY key ORDER BY COUNT(DISTINCT scan_id) DESC, key LIMIT \(limit)
            """)
        func apps(rules: [String], extra: String?) throws -> [AppIssue] {
            let list = rules.map { "'\($0)'" }.joined(separator: ", ")
            var sql = """
                SELECT s.path, s.app_identifier, s.app_version, f.rule FROM scans s JOIN findings f ON f.scan_id = s.id
                WHERE s.id IN (\(latestDone)) AND f.rule IN (\(list))
                """
            if let extra { sql += " UNION SELECT s.path, s.app_identifier, s.app_version, \(extra)" }
            var out: [String: AppIssue] = [:]
            for r in try store.rows(sql + " ORDER BY 1, 4") {
                let path = r[0] ?? ""
                var app = out[path] ?? AppIssue(path: path, identifier: r[1], version: r[2], reasons: [])
                if let reason = r[3], !app.reasons.contains(reason) { app.reasons.append(reason) }
                out[path] = app
            }
            return out.values.sorted { $0.path < $1.path }
        }
        let cleartext = try apps(rules: cleartextRules, extra: """
            'ats-policy' FROM scans s JOIN ats_policies a ON a.scan_id = s.id
            WHERE s.id IN (\(latestDone)) AND (a.globally_open <> '' OR a.insecure_http_domains <> '')
            """)
        let tracking = try apps(rules: trackingRules, extra: nil)
        let failures = try store.rows("""
            SELECT path, attempts, error FROM scans WHERE status = 'failed' AND id IN (\(latest)) ORDER BY path LIMIT \(limit * 5)
            """).map { Failure(path: $0[0] ?? "", attempts: int($0[1]), error: $0[2]) }
        let total = byStatus.values.reduce(0, +)
        return FleetSummary(inputs: total, done: byStatus["done"] ?? 0, failed: byStatus["failed"] ?? 0,
                            pending: (byStatus["queued"] ?? 0) + (byStatus["running"] ?? 0),
                            findings: rules.reduce(0) { $0 + $1.findings }, findingsByRule: rules, sdks: sdks,
                            systemFrameworks: system, permissions: permissions, cleartextApps: cleartext, trackingApps: tracking,
                            failures: failures)
    }

    // MARK: - Output

    public func text() -> String {
        var out = "Preflight fleet: \(inputs) input\(inputs == 1 ? "" : "s"): \(done) scanned, \(failed) failed, \(pending) pending; \(findings) findings\n"
        func section(_ title: String, _ lines: [String]) {
            guard !lines.isEmpty else { return }
            out += "\n\(title)\n" + lines.map { "  \($0)\n" }.joined()
        }
        section("Findings by rule", findingsByRule.map { "\($0.severity) \($0.rule): \($0.findings) in \($0.apps) app\($0.apps == 1 ? "" : "s")" })
        section("Most common SDKs (embedded frameworks)", sdks.map { "\($0.name): \($0.apps)" })
        section("Most linked system frameworks", systemFrameworks.map { "\($0.name): \($0.apps)" })
        section("Most requested permissions", permissions.map { "\($0.name): \($0.apps)" })
        func app(_ a: AppIssue) -> String {
            "\(a.path)\(a.identifier.map { " (\($0)\(a.version.map { " \($0)" } ?? ""))" } ?? ""): \(a.reasons.joined(separator: ", "))"
        }
        section("Apps allowing cleartext traffic", cleartextApps.map(app))
        section("Apps with tracking issues", trackingApps.map(app))
        section("Failed inputs", failures.map { "\($0.path) after \($0.attempts) attempt\($0.attempts == 1 ? "" : "s"): \($0.error ?? "no reason recorded")" })
        return out
    }

    public func markdown() -> String {
        func cell(_ s: String?) -> String { (s ?? "").replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ") }
        var out = "# Preflight fleet summary\n\n| inputs | scanned | failed | pending | findings |\n|---:|---:|---:|---:|---:|\n"
        out += "| \(inputs) | \(done) | \(failed) | \(pending) | \(findings) |\n"
        func table(_ title: String, _ header: [String], _ rows: [[String]]) {
            guard !rows.isEmpty else { return }
            out += "\n## \(title)\n\n| \(header.joined(separator: " | ")) |\n|\(header.map { _ in "---" }.joined(separator: "|"))|\n"
            out += rows.map { "| " + $0.map(cell).joined(separator: " | ") + " |\n" }.joined()
        }
        table("Findings by rule", ["rule", "severity", "findings", "apps"], findingsByRule.map { ["`\($0.rule)`", $0.severity, "\($0.findings)", "\($0.apps)"] })
        table("Most common SDKs", ["framework", "apps"], sdks.map { [$0.name, "\($0.apps)"] })
        table("Most linked system frameworks", ["framework", "apps"], systemFrameworks.map { [$0.name, "\($0.apps)"] })
        table("Most requested permissions", ["key", "apps"], permissions.map { ["`\($0.name)`", "\($0.apps)"] })
        table("Apps allowing cleartext traffic", ["input", "identifier", "version", "why"],
              cleartextApps.map { [$0.path, $0.identifier ?? "", $0.version ?? "", $0.reasons.joined(separator: ", ")] })
        table("Apps with tracking issues", ["input", "identifier", "version", "why"],
              trackingApps.map { [$0.path, $0.identifier ?? "", $0.version ?? "", $0.reasons.joined(separator: ", ")] })
        table("Failed inputs", ["input", "attempts", "error"], failures.map { [$0.path, "\($0.attempts)", $0.error ?? ""] })
        return out
    }

    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }
}
