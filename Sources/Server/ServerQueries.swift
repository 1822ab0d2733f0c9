import Fleet
import Foundation
import PreflightKit

/// What the server reads from the fleet store. An upload's scan is the `scans` row with the
/// upload's content hash and this server's versions (preflight, rules, configuration), so the
/// same bytes uploaded twice share one scan, and a new release of Preflight scans them again.
/// Sendable unchecked: its store is a GRDB pool (thread-safe) or a PostgreSQL connection the
/// server only reaches through its serial store queue (`ServerAPI.db`).
public struct ServerQueries: @unchecked Sendable {
    public struct ScanVersions: Sendable, Equatable {
        public var preflight: String
        public var ruleset: String
        public var config: String

        public init(preflight: String, ruleset: String, config: String) {
            self.preflight = preflight
            self.ruleset = ruleset
            self.config = config
        }
    }

    public struct Upload: Sendable, Equatable {
        public var id: Int64
        public var sha256: String
        public var size: Int64
        public var fileName: String
        public var storedPath: String
        public var uploadedAt: String
        public var scanID: Int64?
        /// queued, running, done or failed.
        public var status: String
        public var error: String?
        public var appIdentifier: String?
        public var appName: String?
        public var appVersion: String?
        public var findingCount: Int?
        public var durationMS: Int?
    }

    let store: any FleetStore
    let versions: ScanVersions

    public init(store: any FleetStore, versions: ScanVersions) {
        self.store = store
        self.versions = versions
    }

    var versionValues: [FleetValue?] { [.text(versions.preflight), .text(versions.ruleset), .text(versions.config)] }

    static let uploadColumns = """
        u.id, u.sha256, u.size, u.file_name, u.stored_path, u.uploaded_at, s.id, s.status, s.error, s.app_identifier,
        s.app_name, s.app_version, s.finding_count, s.duration_ms
        """
    static let scanJoin = """
        LEFT JOIN scans s ON s.input_sha256 = u.sha256 AND s.preflight_version = ? AND s.ruleset_version = ? AND s.config_hash = ?
        """

    static func upload(_ r: [String?]) -> Upload? {
        guard r.count >= 14, let id = r[0].flatMap(Int64.init) else { return nil }
        return Upload(id: id, sha256: r[1] ?? "", size: r[2].flatMap(Int64.init) ?? 0, fileName: r[3] ?? "", storedPath: r[4] ?? "",
                      uploadedAt: r[5] ?? "", scanID: r[6].flatMap(Int64.init), status: r[7] ?? "queued", error: r[8],
                      appIdentifier: r[9], appName: r[10], appVersion: r[11], findingCount: r[12].flatMap(Int.init),
                      durationMS: r[13].flatMap(Int.init))
    }

    public func upload(id: Int64) throws -> Upload? {
        try store.rows("SELECT \(Self.uploadColumns) FROM server_uploads u \(Self.scanJoin) WHERE u.id = ? AND u.deleted_at IS NULL",
                       versionValues + [.int(id)]).first.flatMap(Self.upload)
    }

    public func uploads(limit: Int, before: Int64?) throws -> [Upload] {
        try store.rows("""
            SELECT \(Self.uploadColumns) FROM server_uploads u \(Self.scanJoin)
            WHERE u.deleted_at IS NULL AND u.id < ? ORDER BY u.id DESC LIMIT ?
            """, versionValues + [.int(before ?? Int64.max), .int(Int64(limit))]).compactMap(Self.upload)
    }

    /// Stored files of live uploads whose scan is not finished: what the scan queue works on.
    public func pendingPaths() throws -> [String] {
        try store.rows("""
            SELECT DISTINCT u.stored_path FROM server_uploads u \(Self.scanJoin)
            WHERE u.deleted_at IS NULL AND (s.id IS NULL OR s.status IN ('queued', 'running'))
            """, versionValues).compactMap { $0.first ?? nil }
    }

    public func queueDepth() throws -> Int {
        let rows = try store.rows("""
            SELECT COUNT(*) FROM server_uploads u \(Self.scanJoin)
            WHERE u.deleted_at IS NULL AND (s.id IS NULL OR s.status IN ('queued', 'running'))
            """, versionValues)
        return rows.first?.first.flatMap { $0 }.flatMap { Int($0) } ?? 0
    }

    // MARK: One scan's contents

    public func findings(scanID: Int64) throws -> [Finding] {
        let evidence = try store.rows("""
            SELECT finding_ordinal, kind, path, line, symbol FROM finding_evidence WHERE scan_id = ? ORDER BY finding_ordinal, ordinal
            """, [.int(scanID)])
        var byFinding: [Int: [EvidenceRef]] = [:]
        for e in evidence {
            guard let n = e[0].flatMap(Int.init) else { continue }
            byFinding[n, default: []].append(e[1] == "symbol" ? .symbol(binary: e[2] ?? "", symbol: e[4] ?? "")
                                             : .file(path: e[2] ?? "", line: e[3].flatMap(Int.init)))
        }
        return try store.rows("""
            SELECT ordinal, rule, severity, message, bundle, file, line, col, key, fix, fingerprint FROM findings
            WHERE scan_id = ? ORDER BY ordinal
            """, [.int(scanID)]).compactMap { r in
            guard let n = r[0].flatMap(Int.init), let severity = r[2].flatMap(Severity.init(rawValue:)) else { return nil }
            var f = Finding(rule: r[1] ?? "", severity: severity, message: r[3] ?? "", bundle: r[4], file: r[5],
                            line: r[6].flatMap(Int.init), column: r[7].flatMap(Int.init), key: r[8],
                            evidence: byFinding[n] ?? [], fix: r[9])
            f.storedFingerprint = r[10]
            return f
        }
    }

    public func bundles(scanID: Int64) throws -> [[String: Any]] {
        try store.rows("""
            SELECT name, kind, path, identifier, version, build, minimum_os, parent, background_modes FROM bundles
            WHERE scan_id = ? ORDER BY ordinal
            """, [.int(scanID)]).map { r in
            var b: [String: Any] = ["name": r[0] ?? "", "kind": r[1] ?? "", "path": r[2] ?? ""]
            for (i, k) in ["identifier", "version", "build", "minimumOS", "parent"].enumerated() { if let v = r[3 + i] { b[k] = v } }
            b["backgroundModes"] = (r[8] ?? "").split(separator: ",").map(String.init)
            return b
        }
    }

    /// The report every reporter renders, rebuilt from the store.
    public func reportInput(for upload: Upload) throws -> ReportInput {
        guard let scanID = upload.scanID else { throw ServerError.conflict("upload \(upload.id) has not been scanned yet") }
        let bundles = try bundles(scanID: scanID).map {
            BundleSummary(name: $0["name"] as? String ?? "", kind: $0["kind"] as? String ?? "", identifier: $0["identifier"] as? String,
                          path: $0["path"] as? String ?? "", infoPlist: nil)
        }
        let scanned = ScannedInput(input: upload.fileName, kind: "ipa", bundles: bundles, rootDirectory: nil,
                                   findings: try findings(scanID: scanID))
        return ReportInput(tool: ToolInfo(version: PreflightScanner.version), scans: [scanned],
                           rules: RuleRegistry.all.map { $0.description.info })
    }

    /// Permissions, entitlements, frameworks, domains and ATS policies of one scan.
    public func inventory(scanID: Int64) throws -> [String: Any] {
        let id: [FleetValue?] = [.int(scanID)]
        let permissions = try store.rows("SELECT bundle, key, purpose FROM permissions WHERE scan_id = ? ORDER BY bundle, key", id)
            .map { ["bundle": $0[0] ?? "", "key": $0[1] ?? "", "purpose": $0[2] ?? ""] }
        let entitlements = try store.rows("SELECT bundle, key, value FROM entitlements WHERE scan_id = ? ORDER BY bundle, key", id)
            .map { ["bundle": $0[0] ?? "", "key": $0[1] ?? "", "value": $0[2] ?? ""] }
        let frameworks = try store.rows("SELECT name, embedded, identifier, version FROM frameworks WHERE scan_id = ? ORDER BY name", id)
            .map { r -> [String: Any] in
                var f: [String: Any] = ["name": r[0] ?? "", "embedded": r[1] == "1"]
                if let v = r[2] { f["identifier"] = v }
                if let v = r[3] { f["version"] = v }
                return f
            }
        let domains = try store.rows("SELECT domain FROM domains WHERE scan_id = ? ORDER BY domain", id).compactMap { $0[0] }
        let ats = try store.rows("""
            SELECT bundle, globally_open, exception_domains, insecure_http_domains, pinned_domains FROM ats_policies
            WHERE scan_id = ? ORDER BY bundle
            """, id).map { r -> [String: Any] in
            func list(_ s: String?) -> [String] { (s ?? "").split(separator: ",").map(String.init) }
            return ["bundle": r[0] ?? "", "globallyOpen": list(r[1]), "exceptionDomains": list(r[2]),
                    "insecureHTTPDomains": list(r[3]), "pinnedDomains": list(r[4])]
        }
        return ["bundles": try bundles(scanID: scanID), "permissions": permissions, "entitlements": entitlements,
                "frameworks": frameworks, "domains": domains, "ats": ats]
    }

    // MARK: Across apps

    /// Every scanned app with its uploads, newest first within an app.
    public func apps() throws -> [[String: Any]] {
        let rows = try store.rows("""
            SELECT s.app_identifier, s.app_name, s.app_version, u.id, u.uploaded_at, s.finding_count FROM server_uploads u
            JOIN scans s ON s.input_sha256 = u.sha256 AND s.preflight_version = ? AND s.ruleset_version = ? AND s.config_hash = ?
            WHERE u.deleted_at IS NULL AND s.status = 'done' ORDER BY s.app_identifier, u.id DESC
            """, versionValues)
        var order: [String] = [], byApp: [String: [String: Any]] = [:]
        for r in rows {
            let identifier = r[0] ?? "(no identifier)"
            if byApp[identifier] == nil {
                order.append(identifier)
                byApp[identifier] = ["identifier": identifier, "name": r[1] ?? "", "versions": [[String: Any]]()]
            }
            var versions = byApp[identifier]?["versions"] as? [[String: Any]] ?? []
            versions.append(["version": r[2] ?? "", "upload": Int64(r[3] ?? "") ?? 0, "uploadedAt": r[4] ?? "",
                             "findings": Int(r[5] ?? "") ?? 0])
            byApp[identifier]?["versions"] = versions
        }
        return order.compactMap { byApp[$0] }
    }

    /// The latest finished scan of each app (by identifier), the population fleet queries count.
    var latestScans: String {
        """
        SELECT MAX(s.id) AS id FROM server_uploads u
        JOIN scans s ON s.input_sha256 = u.sha256 AND s.preflight_version = ? AND s.ruleset_version = ? AND s.config_hash = ?
        WHERE u.deleted_at IS NULL AND s.status = 'done' GROUP BY COALESCE(s.app_identifier, u.sha256)
        """
    }

    /// A fleet question: rows grouped by `columns` of `table`, with the apps (latest scans)
    /// that have each, optionally filtered by equality on a column.
    public func fleet(table: String, columns: [String], filters: [String: String], condition: String? = nil) throws -> [[String: Any]] {
        let conditions = filters.keys.sorted().map { "t.\($0) = ?" } + (condition.map { [$0] } ?? [])
        let filterValues: [FleetValue?] = filters.keys.sorted().map { .text(filters[$0] ?? "") }
        let sql = """
            SELECT \(columns.map { "t.\($0)" }.joined(separator: ", ")), COUNT(DISTINCT t.scan_id),
            \(Self.aggregateIdentifiers(store)) FROM \(table) t JOIN scans s ON s.id = t.scan_id
            WHERE t.scan_id IN (\(latestScans))\(conditions.isEmpty ? "" : " AND " + conditions.joined(separator: " AND "))
            GROUP BY \(columns.map { "t.\($0)" }.joined(separator: ", ")) ORDER BY COUNT(DISTINCT t.scan_id) DESC,
            \(columns.map { "t.\($0)" }.joined(separator: ", ")) LIMIT 1000
            """
        return try store.rows(sql, versionValues + filterValues).map { r in
            var row: [String: Any] = [:]
            for (i, c) in columns.enumerated() { row[c] = r[i] ?? "" }
            row["apps"] = Int(r[columns.count] ?? "") ?? 0
            row["identifiers"] = Array(Set((r[columns.count + 1] ?? "").split(separator: "\u{1f}").map(String.init))).sorted()
            return row
        }
    }

    static func aggregateIdentifiers(_ store: any FleetStore) -> String {
        store is SQLiteStore ? "GROUP_CONCAT(COALESCE(s.app_identifier, ''), char(31))"
                             : "STRING_AGG(COALESCE(s.app_identifier, ''), chr(31))"
    }
}
