import Foundation

/// The batch results schema, the same in SQLite and PostgreSQL (docs/fleet.md documents each
/// table). Migrations are applied in order and recorded, and never edited once released: a
/// change is a new migration. Tokens: `{id}` an auto-increment key, `{ref}` a reference to it,
/// `{real}` a double.
public enum FleetSchema {
    public struct Migration: Sendable {
        public var version: Int
        public var name: String
        public var sql: [String]
    }

    public enum Dialect: Sendable { case sqlite, postgres }

    public static let migrations: [Migration] = [
        Migration(version: 1, name: "scans, bundles, findings, inventory", sql: [
            """
            CREATE TABLE scans (
              id {id},
              input_sha256 TEXT NOT NULL,
              preflight_version TEXT NOT NULL,
              ruleset_version TEXT NOT NULL,
              config_hash TEXT NOT NULL,
              path TEXT NOT NULL,
              status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
              attempts INTEGER NOT NULL DEFAULT 0,
              claimed_by TEXT,
              lease_expires {real},
              started_at TEXT,
              finished_at TEXT,
              duration_ms INTEGER,
              error TEXT,
              product_kind TEXT,
              app_identifier TEXT,
              app_name TEXT,
              app_version TEXT,
              minimum_os TEXT,
              finding_count INTEGER,
              suppressed_count INTEGER,
              UNIQUE (input_sha256, preflight_version, ruleset_version, config_hash)
            )
            """,
            "CREATE INDEX scans_status ON scans (status)",
            """
            CREATE TABLE bundles (
              scan_id {ref} NOT NULL REFERENCES scans (id) ON DELETE CASCADE,
              ordinal INTEGER NOT NULL,
              name TEXT NOT NULL,
              kind TEXT NOT NULL,
              path TEXT NOT NULL,
              identifier TEXT,
              version TEXT,
              build TEXT,
              minimum_os TEXT,
              parent TEXT,
              privacy_tracking INTEGER,
              background_modes TEXT NOT NULL,
              PRIMARY KEY (scan_id, ordinal)
            )
            """,
            """
            CREATE TABLE findings (
              scan_id {ref} NOT NULL REFERENCES scans (id) ON DELETE CASCADE,
              ordinal INTEGER NOT NULL,
              rule TEXT NOT NULL,
              severity TEXT NOT NULL,
              message TEXT NOT NULL,
              bundle TEXT,
              file TEXT,
              line INTEGER,
              col INTEGER,
              key TEXT,
              fix TEXT,
              fingerprint TEXT NOT NULL,
              PRIMARY KEY (scan_id, ordinal)
            )
            """,
            "CREATE INDEX findings_rule ON findings (rule, severity)",
            """
            CREATE TABLE finding_evidence (
              scan_id {ref} NOT NULL REFERENCES scans (id) ON DELETE CASCADE,
              finding_ordinal INTEGER NOT NULL,
              ordinal INTEGER NOT NULL,
              kind TEXT NOT NULL,
              path TEXT NOT NULL,
              line INTEGER,
              symbol TEXT,
              PRIMARY KEY (scan_id, finding_ordinal, ordinal)
            )
            """,
            """
            CREATE TABLE permissions (
              scan_id {ref} NOT NULL REFERENCES scans (id) ON DELETE CASCADE,
              bundle TEXT NOT NULL,
              key TEXT NOT NULL,
              purpose TEXT NOT NULL,
              PRIMARY KEY (scan_id, bundle, key)
            )
            """,
            "CREATE INDEX permissions_key ON permissions (key)",
            """
            CREATE TABLE entitlements (
              scan_id {ref} NOT NULL REFERENCES scans (id) ON DELETE CASCADE,
              bundle TEXT NOT NULL,
              key TEXT NOT NULL,
              value TEXT NOT NULL,
              PRIMARY KEY (scan_id, bundle, key)
            )
            """,
            """
            CREATE TABLE frameworks (
              scan_id {ref} NOT NULL REFERENCES scans (id) ON DELETE CASCADE,
              name TEXT NOT NULL,
              embedded INTEGER NOT NULL,
              identifier TEXT,
              version TEXT,
              PRIMARY KEY (scan_id, name, embedded)
            )
            """,
            "CREATE INDEX frameworks_name ON frameworks (name)",
            """
            CREATE TABLE domains (
              scan_id {ref} NOT NULL REFERENCES scans (id) ON DELETE CASCADE,
              domain TEXT NOT NULL,
              PRIMARY KEY (scan_id, domain)
            )
            """,
            """
            CREATE TABLE ats_policies (
              scan_id {ref} NOT NULL REFERENCES scans (id) ON DELETE CASCADE,
              bundle TEXT NOT NULL,
              globally_open TEXT NOT NULL,
              exception_domains TEXT NOT NULL,
              insecure_http_domains TEXT NOT NULL,
              pinned_domains TEXT NOT NULL,
              policy_json TEXT NOT NULL,
              PRIMARY KEY (scan_id, bundle)
            )
            """,
        ]),
        // The server's own tables (docs/server.md): API tokens (only their SHA-256 is kept),
        // browser sessions, uploads (the file is kept by content hash on disk; the scan is the
        // `scans` row with the same input hash and the server's versions) and the audit log.
        Migration(version: 2, name: "server: tokens, sessions, uploads, audit", sql: [
            """
            CREATE TABLE server_tokens (
              id {id},
              name TEXT NOT NULL,
              role TEXT NOT NULL CHECK (role IN ('reader', 'uploader', 'admin')),
              token_sha256 TEXT NOT NULL UNIQUE,
              created_at TEXT NOT NULL,
              revoked_at TEXT,
              last_used_at TEXT
            )
            """,
            """
            CREATE TABLE server_sessions (
              id_sha256 TEXT PRIMARY KEY,
              token_id {ref} NOT NULL REFERENCES server_tokens (id) ON DELETE CASCADE,
              csrf TEXT NOT NULL,
              expires_at {real} NOT NULL
            )
            """,
            """
            CREATE TABLE server_uploads (
              id {id},
              sha256 TEXT NOT NULL,
              size INTEGER NOT NULL,
              file_name TEXT NOT NULL,
              stored_path TEXT NOT NULL,
              uploaded_at TEXT NOT NULL,
              token_id {ref} REFERENCES server_tokens (id) ON DELETE SET NULL,
              deleted_at TEXT
            )
            """,
            "CREATE INDEX server_uploads_sha ON server_uploads (sha256)",
            """
            CREATE TABLE server_audit (
              id {id},
              at TEXT NOT NULL,
              token_id {ref},
              action TEXT NOT NULL,
              target TEXT,
              status INTEGER NOT NULL
            )
            """,
        ]),
    ]

    public static func sql(_ statement: String, for dialect: Dialect) -> String {
        switch dialect {
        case .sqlite:
            return statement.replacingOccurrences(of: "{id}", with: "INTEGER PRIMARY KEY AUTOINCREMENT")
                .replacingOccurrences(of: "{ref}", with: "INTEGER").replacingOccurrences(of: "{real}", with: "REAL")
        case .postgres:
            return statement.replacingOccurrences(of: "{id}", with: "BIGSERIAL PRIMARY KEY")
                .replacingOccurrences(of: "{ref}", with: "BIGINT").replacingOccurrences(of: "{real}", with: "DOUBLE PRECISION")
        }
    }

    /// The child tables a result fills, emptied before a result is written again.
    static let resultTables = ["finding_evidence", "findings", "bundles", "permissions", "entitlements", "frameworks", "domains", "ats_policies"]

    /// One row to insert: table, columns, values (nil is NULL).
    struct Row: Sendable {
        var table: String
        var columns: [String]
        var values: [FleetValue?]
    }

    /// The rows a result adds, in an order that respects references.
    static func rows(scanID: Int64, record: ScanRecord) -> [Row] {
        var out: [Row] = []
        func add(_ table: String, _ pairs: KeyValuePairs<String, FleetValue?>) {
            out.append(Row(table: table, columns: ["scan_id"] + pairs.map { $0.key }, values: [FleetValue.int(scanID)] + pairs.map { $0.value }))
        }
        for (i, b) in record.inventory.bundles.enumerated() {
            add("bundles", ["ordinal": .int(Int64(i)), "name": .text(b.name), "kind": .text(b.kind), "path": .text(b.path),
                            "identifier": b.identifier.map(FleetValue.text), "version": b.version.map(FleetValue.text),
                            "build": b.build.map(FleetValue.text), "minimum_os": b.minimumOS.map(FleetValue.text),
                            "parent": b.parent.map(FleetValue.text), "privacy_tracking": b.privacyTracking.map { FleetValue.int($0 ? 1 : 0) },
                            "background_modes": .text(b.backgroundModes.joined(separator: ","))])
            for (k, v) in b.permissions.sorted(by: { $0.key < $1.key }) {
                add("permissions", ["bundle": .text(b.name), "key": .text(k), "purpose": .text(v)])
            }
            for (k, v) in b.entitlements.sorted(by: { $0.key < $1.key }) {
                add("entitlements", ["bundle": .text(b.name), "key": .text(k), "value": .text(v)])
            }
            if let a = b.ats {
                add("ats_policies", ["bundle": .text(b.name), "globally_open": .text(a.globallyOpen.joined(separator: ",")),
                                     "exception_domains": .text(a.exceptionDomains.joined(separator: ",")),
                                     "insecure_http_domains": .text(a.insecureHTTPDomains.joined(separator: ",")),
                                     "pinned_domains": .text(a.pinnedDomains.joined(separator: ",")), "policy_json": .text(a.policy)])
            }
        }
        var frameworks = Set<String>()
        for f in record.inventory.frameworks where frameworks.insert(f.name).inserted {
            add("frameworks", ["name": .text(f.name), "embedded": .int(1), "identifier": f.identifier.map(FleetValue.text),
                               "version": f.version.map(FleetValue.text)])
        }
        for name in record.inventory.linkedSystemFrameworks {
            add("frameworks", ["name": .text(name), "embedded": .int(0), "identifier": nil, "version": nil])
        }
        for d in record.inventory.domains { add("domains", ["domain": .text(d)]) }
        for (i, f) in record.findings.enumerated() {
            add("findings", ["ordinal": .int(Int64(i)), "rule": .text(f.rule), "severity": .text(f.severity), "message": .text(f.message),
                             "bundle": f.bundle.map(FleetValue.text), "file": f.file.map(FleetValue.text),
                             "line": f.line.map { FleetValue.int(Int64($0)) }, "col": f.column.map { FleetValue.int(Int64($0)) },
                             "key": f.key.map(FleetValue.text), "fix": f.fix.map(FleetValue.text), "fingerprint": .text(f.fingerprint)])
            for (j, e) in f.evidence.enumerated() {
                add("finding_evidence", ["finding_ordinal": .int(Int64(i)), "ordinal": .int(Int64(j)), "kind": .text(e.kind),
                                         "path": .text(e.path), "line": e.line.map { FleetValue.int(Int64($0)) },
                                         "symbol": e.symbol.map(FleetValue.text)])
            }
        }
        return out
    }

    /// The scan row's columns a result sets besides its status.
    static func resultColumns(_ record: ScanRecord) -> [(String, FleetValue?)] {
        let main = record.mainBundle
        return [("product_kind", .text(record.productKind)), ("app_identifier", main?.identifier.map(FleetValue.text)),
                ("app_name", main.map { FleetValue.text($0.name) }), ("app_version", main?.version.map(FleetValue.text)),
                ("minimum_os", main?.minimumOS.map(FleetValue.text)), ("finding_count", .int(Int64(record.findings.count))),
                ("suppressed_count", .int(Int64(record.suppressedCount)))]
    }
}

public enum FleetValue: Sendable, Equatable {
    case text(String)
    case int(Int64)
    case real(Double)
}

extension Date {
    /// ISO 8601 in UTC with milliseconds, as every timestamp column holds it.
    public var fleetTimestampText: String { fleetTimestamp }

    /// ISO 8601 in UTC with milliseconds: sorts as text, reads in both databases.
    var fleetTimestamp: String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        f.timeZone = TimeZone(identifier: "UTC")
        return f.string(from: self)
    }
}
