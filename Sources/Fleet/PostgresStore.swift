// Built with the PostgreSQL package trait only (`swift build --traits PostgreSQL`).
#if PostgreSQL
import Foundation
import Logging
import PostgresNIO

/// Batch results in a PostgreSQL database shared by shards on many machines: one connection per
/// process, one transaction per claim and per result, rows locked with `SELECT … FOR UPDATE`,
/// results keyed by input hash and versions (`INSERT … ON CONFLICT DO NOTHING`), so concurrent
/// shards never write the same scan twice. The schema is migrated under an advisory lock.
///
/// `--store postgres://user[:password]@host[:port]/database`; a `host=/path` query parameter
/// connects through a Unix socket folder instead. TLS is not offered yet: use it on a private
/// network or through a local TLS tunnel.
public final class PostgresStore: FleetStore {
    let connection: PostgresConnection
    let logger: Logger

    public init(url: String) throws {
        guard let c = URLComponents(string: url), let user = c.user, !user.isEmpty else {
            throw BatchError("cannot read PostgreSQL URL \(FleetStores.describe(url)): expected postgres://user@host/database")
        }
        let database = String(c.path.drop { $0 == "/" })
        let query = Dictionary((c.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, b in b })
        if let mode = query["sslmode"], !["disable", "allow", "prefer"].contains(mode) {
            throw BatchError("sslmode=\(mode) is not supported: this build connects without TLS")
        }
        let configuration: PostgresConnection.Configuration
        if let socketFolder = query["host"], socketFolder.hasPrefix("/") {
            configuration = .init(unixSocketPath: socketFolder + "/.s.PGSQL.\(c.port ?? 5432)", username: user,
                                  password: c.password, database: database.isEmpty ? user : database)
        } else {
            configuration = .init(host: c.host.map { $0.isEmpty ? "localhost" : $0 } ?? "localhost", port: c.port ?? 5432,
                                  username: user, password: c.password, database: database.isEmpty ? user : database, tls: .disable)
        }
        let logger = Logger(label: "preflight.fleet", factory: { _ in SwiftLogNoOpLogHandler() })
        self.logger = logger
        do {
            connection = try Self.blocking {
                try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
            }
        } catch {
            throw BatchError("cannot connect to \(FleetStores.describe(url)): \(String(reflecting: error))")
        }
        try migrate()
    }

    final class Box<T>: @unchecked Sendable { var result: Result<T, Error>? }

    /// Runs async work to its end from synchronous code (the batch loop is a plain poll loop),
    /// waiting at most `timeout` seconds.
    static func blocking<T>(timeout: Double = statementTimeout, _ body: @escaping @Sendable () async throws -> T) throws -> T {
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success else { throw TimedOut() }
        guard let result = box.result else { throw BatchError("lost a database result") }
        return try result.get()
    }

    /// The longest one statement or transaction may take before the connection is given up.
    static let statementTimeout: Double = 120
    struct TimedOut: Error {}

    /// Runs work on the connection. A connection already closed (the server restarted, the
    /// network dropped it) fails at once: PostgresNIO leaves a query written to a closed channel
    /// unanswered for ever. One that stops answering is closed after `statementTimeout`, so
    /// that its user (`isConnectionLost`) opens a new one.
    func onConnection<T>(_ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T) throws -> T {
        let connection = self.connection, logger = self.logger
        guard !connection.isClosed else { throw BatchError("the connection to PostgreSQL is closed") }
        do {
            return try Self.blocking { try await body(connection, logger) }
        } catch is TimedOut {
            let closing: EventLoopFuture<Void> = connection.close()
            _ = closing
            throw BatchError("PostgreSQL did not answer within \(Int(Self.statementTimeout)) s; the connection was closed")
        }
    }

    @discardableResult
    func transaction<T>(_ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T) throws -> T {
        try onConnection { connection, logger in
            try await connection.query("BEGIN", logger: logger)
            do {
                let value = try await body(connection, logger)
                try await connection.query("COMMIT", logger: logger)
                return value
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    static func query(_ sql: String, _ values: [FleetValue?]) -> PostgresQuery {
        var binds = PostgresBindings(capacity: values.count)
        for v in values {
            switch v {
            case .text(let s)?: binds.append(s)
            case .int(let i)?: binds.append(i)
            case .real(let d)?: binds.append(d)
            case nil: binds.appendNull()
            }
        }
        // `?` placeholders, as in SQLite, become `$1`, `$2`, …
        var out = "", n = 0
        for ch in sql {
            if ch == "?" {
                n += 1
                out += "$\(n)"
            } else {
                out.append(ch)
            }
        }
        return PostgresQuery(unsafeSQL: out, binds: binds)
    }

    static func text(_ cell: PostgresCell) -> String? {
        guard cell.bytes != nil else { return nil }
        switch cell.dataType {
        case .int8: return (try? cell.decode(Int64.self)).map { String($0) }
        case .int4: return (try? cell.decode(Int32.self)).map { String($0) }
        case .int2: return (try? cell.decode(Int16.self)).map { String($0) }
        case .float8: return (try? cell.decode(Double.self)).map { String($0) }
        case .bool: return (try? cell.decode(Bool.self)).map { $0 ? "1" : "0" }
        default: return try? cell.decode(String.self)
        }
    }

    static func all(_ rows: PostgresRowSequence) async throws -> [[String?]] {
        var out: [[String?]] = []
        for try await row in rows { out.append(row.map(text)) }
        return out
    }

    func migrate() throws {
        try transaction { c, logger in
            // Shards that start together wait here for the first one's migrations.
            try await c.query("SELECT pg_advisory_xact_lock(7365837274)", logger: logger)
            try await c.query("CREATE TABLE IF NOT EXISTS fleet_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
                              logger: logger)
            let applied = Set(try await Self.all(try await c.query("SELECT version FROM fleet_migrations", logger: logger)).compactMap { Int($0[0] ?? "") })
            for m in FleetSchema.migrations where !applied.contains(m.version) {
                for statement in m.sql { try await c.query(PostgresQuery(unsafeSQL: FleetSchema.sql(statement, for: .postgres)), logger: logger) }
                try await c.query(Self.query("INSERT INTO fleet_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                                             [.int(Int64(m.version)), .text(m.name), .text(Date().fleetTimestamp)]), logger: logger)
            }
        }
    }

    public func claim(_ key: ScanKey, path: String, owner: ClaimOwner, policy: ClaimPolicy, now: Double) throws -> ClaimResult {
        let keyValues: [FleetValue?] = [.text(key.inputSHA256), .text(key.preflightVersion), .text(key.rulesetVersion), .text(key.configHash)]
        return try transaction { c, logger -> ClaimResult in
            try await c.query(Self.query("""
                INSERT INTO scans (input_sha256, preflight_version, ruleset_version, config_hash, path, status, attempts)
                VALUES (?, ?, ?, ?, ?, 'queued', 0) ON CONFLICT DO NOTHING
                """, keyValues + [.text(path)]), logger: logger)
            let rows = try await Self.all(try await c.query(Self.query("""
                SELECT id, status, attempts, claimed_by, lease_expires, error FROM scans
                WHERE input_sha256 = ? AND preflight_version = ? AND ruleset_version = ? AND config_hash = ? FOR UPDATE
                """, keyValues), logger: logger))
            guard let row = rows.first, let id = Int64(row[0] ?? "") else { throw BatchError("scan row vanished") }
            let state = ClaimState(status: row[1] ?? "", attempts: Int(row[2] ?? "") ?? 0, claimedBy: row[3],
                                   leaseExpires: row[4].flatMap(Double.init), error: row[5])
            switch state.decide(owner: owner, policy: policy, now: now) {
            case .skip(let result): return result
            case .giveUp(let reason):
                try await c.query(Self.query("UPDATE scans SET status = 'failed', error = ?, claimed_by = NULL, lease_expires = NULL WHERE id = ?",
                                             [.text(reason), .int(id)]), logger: logger)
                return .exhausted(reason: reason)
            case .take(let attempt, _):
                try await c.query(Self.query("""
                    UPDATE scans SET status = 'running', attempts = ?, claimed_by = ?, lease_expires = ?, path = ?,
                    started_at = ?, finished_at = NULL, duration_ms = NULL WHERE id = ?
                    """, [.int(Int64(attempt)), .text(owner.description), .real(now + policy.leaseSeconds), .text(path),
                          .text(Date().fleetTimestamp), .int(id)]), logger: logger)
                return .claimed(scanID: id, attempt: attempt)
            }
        }
    }

    public func heartbeat(scanID: Int64, owner: ClaimOwner, leaseUntil: Double) throws {
        try transaction { c, logger in
            try await c.query(Self.query("UPDATE scans SET lease_expires = ? WHERE id = ? AND claimed_by = ? AND status = 'running'",
                                         [.real(leaseUntil), .int(scanID), .text(owner.description)]), logger: logger)
        }
    }

    public func complete(scanID: Int64, owner: ClaimOwner, record: ScanRecord, startedAt: Date, durationMS: Int) throws -> Bool {
        let rows = FleetSchema.rows(scanID: scanID, record: record)
        let columns = FleetSchema.resultColumns(record)
        let who = owner.description
        return try transaction { c, logger -> Bool in
            let held = try await Self.all(try await c.query(Self.query(
                "SELECT finding_count FROM scans WHERE id = ? AND claimed_by = ? AND status = 'running' FOR UPDATE", [.int(scanID), .text(who)]),
                logger: logger))
            guard let row = held.first else { return false }
            // Child rows exist only where a result was written before (finding_count is set with
            // them): skip eight round trips for the usual first result.
            if row.first.flatMap({ $0 }) != nil {
                for table in FleetSchema.resultTables {
                    try await c.query(Self.query("DELETE FROM \(table) WHERE scan_id = ?", [.int(scanID)]), logger: logger)
                }
            }
            // Rows of a table go in one statement each (multi-row VALUES), in chunks under the
            // protocol's 65,535-parameter limit.
            var i = 0
            while i < rows.count {
                let first = rows[i]
                var j = i
                var values: [FleetValue?] = []
                var tuples: [String] = []
                while j < rows.count, rows[j].table == first.table, rows[j].columns == first.columns, values.count + first.columns.count < 30_000 {
                    tuples.append("(" + first.columns.map { _ in "?" }.joined(separator: ", ") + ")")
                    values += rows[j].values
                    j += 1
                }
                let sql = "INSERT INTO \(first.table) (\(first.columns.joined(separator: ", "))) VALUES \(tuples.joined(separator: ", "))"
                try await c.query(Self.query(sql, values), logger: logger)
                i = j
            }
            try await c.query(Self.query("""
                UPDATE scans SET status = 'done', error = NULL, claimed_by = NULL, lease_expires = NULL, started_at = ?,
                finished_at = ?, duration_ms = ?, \(columns.map { "\($0.0) = ?" }.joined(separator: ", ")) WHERE id = ?
                """, [.text(startedAt.fleetTimestamp), .text(Date().fleetTimestamp), .int(Int64(durationMS))] + columns.map(\.1) + [.int(scanID)]),
                logger: logger)
            return true
        }
    }

    public func fail(scanID: Int64, owner: ClaimOwner, error: String, final: Bool, startedAt: Date, durationMS: Int) throws {
        try transaction { c, logger in
            try await c.query(Self.query("""
                UPDATE scans SET status = ?, error = ?, claimed_by = NULL, lease_expires = NULL, started_at = ?, finished_at = ?,
                duration_ms = ? WHERE id = ? AND claimed_by = ?
                """, [.text(final ? "failed" : "queued"), .text(error), .text(startedAt.fleetTimestamp), .text(Date().fleetTimestamp),
                      .int(Int64(durationMS)), .int(scanID), .text(owner.description)]), logger: logger)
        }
    }

    public func release(scanID: Int64, owner: ClaimOwner) throws {
        try transaction { c, logger in
            try await c.query(Self.query("""
                UPDATE scans SET status = 'queued', attempts = GREATEST(attempts - 1, 0), claimed_by = NULL, lease_expires = NULL
                WHERE id = ? AND claimed_by = ? AND status = 'running'
                """, [.int(scanID), .text(owner.description)]), logger: logger)
        }
    }

    public func rows(_ sql: String) throws -> [[String?]] {
        try onConnection { connection, logger in try await Self.all(try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)) }
    }

    public func rows(_ sql: String, _ values: [FleetValue?]) throws -> [[String?]] {
        let query = Self.query(sql, values)
        return try onConnection { connection, logger in try await Self.all(try await connection.query(query, logger: logger)) }
    }

    @discardableResult
    public func write(_ statements: [FleetStatement]) throws -> [[String?]] {
        let queries = statements.map { Self.query($0.sql, $0.values) }
        return try transaction { c, logger in
            var last: [[String?]] = []
            for q in queries { last = try await Self.all(try await c.query(q, logger: logger)) }
            return last
        }
    }

    public var isConnectionLost: Bool { connection.isClosed }

    public func close() {
        let connection = self.connection
        _ = try? Self.blocking(timeout: 10) { try await connection.close() }
    }
}
#endif
