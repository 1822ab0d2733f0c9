import Foundation
import GRDB

/// Batch results in a SQLite file through GRDB, in WAL mode so that shard processes on one
/// machine write one file side by side (each write waits for the lock up to a minute) and
/// readers never block them.
public final class SQLiteStore: FleetStore {
    let pool: DatabasePool

    public init(path: String) throws {
        var config = Configuration()
        config.busyMode = .timeout(60)
        config.prepareDatabase { db in
            // Durable across a process crash (what batch mode guards against); WAL is GRDB's default for a pool.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        do { pool = try DatabasePool(path: path, configuration: config) } catch {
            throw BatchError("cannot open SQLite store \(path): \(error)")
        }
        var migrator = DatabaseMigrator()
        for m in FleetSchema.migrations {
            migrator.registerMigration("\(m.version) \(m.name)") { db in
                for statement in m.sql { try db.execute(sql: FleetSchema.sql(statement, for: .sqlite)) }
            }
        }
        // Shards started together race to create the schema: the loser sees it applied on the next try.
        var lastError: Error?
        for _ in 0..<5 {
            do {
                try migrator.migrate(pool)
                lastError = nil
                break
            } catch {
                lastError = error
                usleep(200_000)
            }
        }
        if let lastError { throw BatchError("cannot migrate SQLite store \(path): \(lastError)") }
    }

    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.writeWithoutTransaction { db in
            var result: T?
            try db.inTransaction(.immediate) {
                result = try body(db)
                return .commit
            }
            guard let result else { throw BatchError("transaction returned nothing") }
            return result
        }
    }

    static func arguments(_ values: [FleetValue?]) -> StatementArguments {
        StatementArguments(values.map { v -> (any DatabaseValueConvertible)? in
            switch v {
            case .text(let s)?: return s
            case .int(let i)?: return i
            case .real(let d)?: return d
            case nil: return nil
            }
        })
    }

    public func claim(_ key: ScanKey, path: String, owner: ClaimOwner, policy: ClaimPolicy, now: Double) throws -> ClaimResult {
        try write { db -> ClaimResult in
            let keyArgs: StatementArguments = [key.inputSHA256, key.preflightVersion, key.rulesetVersion, key.configHash]
            try db.execute(sql: """
                INSERT INTO scans (input_sha256, preflight_version, ruleset_version, config_hash, path, status, attempts)
                VALUES (?, ?, ?, ?, ?, 'queued', 0) ON CONFLICT DO NOTHING
                """, arguments: keyArgs + [path])
            guard let row = try Row.fetchOne(db, sql: """
                SELECT id, status, attempts, claimed_by, lease_expires, error FROM scans
                WHERE input_sha256 = ? AND preflight_version = ? AND ruleset_version = ? AND config_hash = ?
                """, arguments: keyArgs) else { throw BatchError("scan row vanished") }
            let id: Int64 = row["id"]
            let state = ClaimState(status: row["status"], attempts: row["attempts"], claimedBy: row["claimed_by"],
                                   leaseExpires: row["lease_expires"], error: row["error"])
            switch state.decide(owner: owner, policy: policy, now: now) {
            case .skip(let result): return result
            case .giveUp(let reason):
                try db.execute(sql: "UPDATE scans SET status = 'failed', error = ?, claimed_by = NULL, lease_expires = NULL WHERE id = ?",
                               arguments: [reason, id])
                return .exhausted(reason: reason)
            case .take(let attempt, _):
                try db.execute(sql: """
                    UPDATE scans SET status = 'running', attempts = ?, claimed_by = ?, lease_expires = ?, path = ?,
                    started_at = ?, finished_at = NULL, duration_ms = NULL WHERE id = ?
                    """, arguments: [attempt, owner.description, now + policy.leaseSeconds, path, Date().fleetTimestamp, id])
                return .claimed(scanID: id, attempt: attempt)
            }
        }
    }

    public func heartbeat(scanID: Int64, owner: ClaimOwner, leaseUntil: Double) throws {
        try write { db in
            try db.execute(sql: "UPDATE scans SET lease_expires = ? WHERE id = ? AND claimed_by = ? AND status = 'running'",
                           arguments: [leaseUntil, scanID, owner.description])
        }
    }

    public func complete(scanID: Int64, owner: ClaimOwner, record: ScanRecord, startedAt: Date, durationMS: Int) throws -> Bool {
        try write { db -> Bool in
            let held = try Int64.fetchOne(db, sql: "SELECT id FROM scans WHERE id = ? AND claimed_by = ? AND status = 'running'",
                                          arguments: [scanID, owner.description])
            guard held != nil else { return false }
            for table in FleetSchema.resultTables { try db.execute(sql: "DELETE FROM \(table) WHERE scan_id = ?", arguments: [scanID]) }
            for row in FleetSchema.rows(scanID: scanID, record: record) {
                let sql = "INSERT INTO \(row.table) (\(row.columns.joined(separator: ", "))) VALUES (\(row.columns.map { _ in "?" }.joined(separator: ", ")))"
                try db.cachedStatement(sql: sql).execute(arguments: Self.arguments(row.values))
            }
            let columns = FleetSchema.resultColumns(record)
            try db.execute(sql: """
                UPDATE scans SET status = 'done', error = NULL, claimed_by = NULL, lease_expires = NULL, started_at = ?,
                finished_at = ?, duration_ms = ?, \(columns.map { "\($0.0) = ?" }.joined(separator: ", ")) WHERE id = ?
                """, arguments: [startedAt.fleetTimestamp, Date().fleetTimestamp, durationMS] + Self.arguments(columns.map(\.1)) + [scanID])
            return true
        }
    }

    public func fail(scanID: Int64, owner: ClaimOwner, error: String, final: Bool, startedAt: Date, durationMS: Int) throws {
        try write { db in
            try db.execute(sql: """
                UPDATE scans SET status = ?, error = ?, claimed_by = NULL, lease_expires = NULL, started_at = ?, finished_at = ?,
                duration_ms = ? WHERE id = ? AND claimed_by = ?
                """, arguments: [final ? "failed" : "queued", error, startedAt.fleetTimestamp, Date().fleetTimestamp, durationMS,
                                 scanID, owner.description])
        }
    }

    public func release(scanID: Int64, owner: ClaimOwner) throws {
        try write { db in
            try db.execute(sql: """
                UPDATE scans SET status = 'queued', attempts = MAX(attempts - 1, 0), claimed_by = NULL, lease_expires = NULL
                WHERE id = ? AND claimed_by = ? AND status = 'running'
                """, arguments: [scanID, owner.description])
        }
    }

    public func rows(_ sql: String) throws -> [[String?]] {
        try rows(sql, [])
    }

    public func rows(_ sql: String, _ values: [FleetValue?]) throws -> [[String?]] {
        try pool.read { db in try Self.texts(Row.fetchAll(db, sql: sql, arguments: Self.arguments(values))) }
    }

    @discardableResult
    public func write(_ statements: [FleetStatement]) throws -> [[String?]] {
        try write { db -> [[String?]] in
            var last: [[String?]] = []
            for s in statements { last = try Self.texts(Row.fetchAll(db, sql: s.sql, arguments: Self.arguments(s.values))) }
            return last
        }
    }

    static func texts(_ rows: [Row]) -> [[String?]] {
        rows.map { row in
            (0..<row.count).map { i -> String? in
                let v: DatabaseValue = row[i]
                switch v.storage {
                case .null: return nil
                case .int64(let n): return String(n)
                case .double(let d): return String(d)
                case .string(let s): return s
                case .blob(let b): return String(decoding: b, as: UTF8.self)
                }
            }
        }
    }

    public func close() { try? pool.close() }
}
