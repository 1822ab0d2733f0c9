import Fleet
import Foundation

/// A store for a process that outlives its database connections: opened on first use, and
/// opened again after the connection behind it was lost (the PostgreSQL server restarted or
/// was unreachable for a while). Meanwhile every call throws, so requests fail with a clear
/// 503 instead of hanging, and work resumes by itself once the database answers again.
/// A SQLite store never loses its connection and is kept for the process's life.
public final class ReconnectingStore: FleetStore, @unchecked Sendable {
    let open: () throws -> any FleetStore
    let lock = NSLock()
    var current: (any FleetStore)?

    public init(open: @escaping () throws -> any FleetStore) {
        self.open = open
    }

    /// The store to use now, opening one if there is none; a lost connection is closed first.
    func store() throws -> any FleetStore {
        lock.lock()
        defer { lock.unlock() }
        if let s = current, !s.isConnectionLost { return s }
        current?.close()
        current = nil
        let s = try open()
        current = s
        return s
    }

    /// Opens the connection now (at start, so that a wrong URL is an error at once).
    public func connect() throws { _ = try store() }

    public var isConnectionLost: Bool { false }

    public func claim(_ key: ScanKey, path: String, owner: ClaimOwner, policy: ClaimPolicy, now: Double) throws -> ClaimResult {
        try store().claim(key, path: path, owner: owner, policy: policy, now: now)
    }

    public func heartbeat(scanID: Int64, owner: ClaimOwner, leaseUntil: Double) throws {
        try store().heartbeat(scanID: scanID, owner: owner, leaseUntil: leaseUntil)
    }

    public func complete(scanID: Int64, owner: ClaimOwner, record: ScanRecord, startedAt: Date, durationMS: Int) throws -> Bool {
        try store().complete(scanID: scanID, owner: owner, record: record, startedAt: startedAt, durationMS: durationMS)
    }

    public func fail(scanID: Int64, owner: ClaimOwner, error: String, final: Bool, startedAt: Date, durationMS: Int) throws {
        try store().fail(scanID: scanID, owner: owner, error: error, final: final, startedAt: startedAt, durationMS: durationMS)
    }

    public func release(scanID: Int64, owner: ClaimOwner) throws {
        try store().release(scanID: scanID, owner: owner)
    }

    public func rows(_ sql: String) throws -> [[String?]] { try store().rows(sql) }

    public func rows(_ sql: String, _ values: [FleetValue?]) throws -> [[String?]] { try store().rows(sql, values) }

    @discardableResult
    public func write(_ statements: [FleetStatement]) throws -> [[String?]] { try store().write(statements) }

    public func close() {
        lock.lock()
        defer { lock.unlock() }
        current?.close()
        current = nil
    }
}
