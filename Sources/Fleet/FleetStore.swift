import Foundation

/// Where batch results go: a SQLite file (`SQLiteStore`) or a PostgreSQL database
/// (`PostgresStore`), with the same schema (`FleetSchema`). Every method is one transaction.
public protocol FleetStore: AnyObject {
    /// Takes an input for `owner`, or says why not (done already, failed for good, another
    /// live process has it). Creates the row on first sight.
    func claim(_ key: ScanKey, path: String, owner: ClaimOwner, policy: ClaimPolicy, now: Double) throws -> ClaimResult
    /// Extends the lease of a claim still held.
    func heartbeat(scanID: Int64, owner: ClaimOwner, leaseUntil: Double) throws
    /// Replaces whatever the row held by this result and marks it done, if `owner` still holds
    /// the claim (false otherwise: someone reclaimed it after our lease ran out; nothing written).
    func complete(scanID: Int64, owner: ClaimOwner, record: ScanRecord, startedAt: Date, durationMS: Int) throws -> Bool
    /// Records a failed attempt: `final` marks the row failed, else it goes back to `queued`
    /// (the next claim retries it, up to the attempt limit).
    func fail(scanID: Int64, owner: ClaimOwner, error: String, final: Bool, startedAt: Date, durationMS: Int) throws
    /// Undoes a claim (an interrupted run): back to `queued`, the attempt not counted.
    func release(scanID: Int64, owner: ClaimOwner) throws
    /// Rows of a read-only query (the summary's), every value as text or nil.
    func rows(_ sql: String) throws -> [[String?]]
    /// Rows of a read-only query with `?` parameters (the server's).
    func rows(_ sql: String, _ values: [FleetValue?]) throws -> [[String?]]
    /// Runs statements with `?` parameters in one transaction and returns the rows of the last
    /// one (a `RETURNING` clause or a `SELECT`), every value as text or nil.
    @discardableResult
    func write(_ statements: [FleetStatement]) throws -> [[String?]]
    func close()
    /// Whether the connection behind the store is gone for good (a database server restarted or
    /// unreachable), so that a long-running user opens a new one instead of failing forever.
    var isConnectionLost: Bool { get }
}

extension FleetStore {
    /// A file store has no connection to lose.
    public var isConnectionLost: Bool { false }
}

/// One statement with `?` parameters, for `FleetStore.write`.
public struct FleetStatement: Sendable {
    public var sql: String
    public var values: [FleetValue?]

    public init(_ sql: String, _ values: [FleetValue?] = []) {
        self.sql = sql
        self.values = values
    }
}

/// Who holds a claim: the host, the process id and a random id of this run, so a process that
/// restarted under the same host name and pid (a container's pid 1) is not taken for the old one.
public struct ClaimOwner: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var pid: Int32
    public var run: String

    public init(host: String, pid: Int32, run: String) {
        self.host = host
        self.pid = pid
        self.run = run
    }

    public static func current() -> ClaimOwner {
        ClaimOwner(host: ProcessInfo.processInfo.hostName, pid: getpid(), run: String(UUID().uuidString.prefix(8)).lowercased())
    }

    public var description: String { "\(host)/\(pid)/\(run)" }

    public init?(parsing s: String) {
        let parts = s.split(separator: "/").map(String.init)
        guard parts.count >= 3, let pid = Int32(parts[parts.count - 2]) else { return nil }
        self.init(host: parts[..<(parts.count - 2)].joined(separator: "/"), pid: pid, run: parts[parts.count - 1])
    }

    /// Whether the holder of a claim is certainly gone: it ran on this host and its process
    /// no longer exists, or the same pid now belongs to this very process under another run id.
    public func knowsDead(_ other: ClaimOwner) -> Bool {
        guard other.host == host else { return false }
        if other.pid == pid { return other.run != run }
        return kill(other.pid, 0) != 0 && errno == ESRCH
    }
}

public struct ClaimPolicy: Sendable {
    public var maxAttempts: Int
    /// Seconds a claim stays valid without a heartbeat.
    public var leaseSeconds: Double
    /// Claims rows that ended `failed` again (attempts start over).
    public var retryFailed: Bool

    public init(maxAttempts: Int, leaseSeconds: Double, retryFailed: Bool) {
        self.maxAttempts = maxAttempts
        self.leaseSeconds = leaseSeconds
        self.retryFailed = retryFailed
    }
}

public enum ClaimResult: Sendable, Equatable {
    case claimed(scanID: Int64, attempt: Int)
    case done
    case failed
    /// Another process holds it and may be alive: try again after its lease ends.
    case busy(until: Double)
    /// This claim found the attempts used up: the row is now failed.
    case exhausted(reason: String)
}

/// The state of a row as a claim sees it, and the decision both stores share.
struct ClaimState {
    var status: String
    var attempts: Int
    var claimedBy: String?
    var leaseExpires: Double?
    var error: String?

    enum Decision: Equatable {
        case take(attempt: Int, resetAttempts: Bool)
        case skip(ClaimResult)
        case giveUp(String)
    }

    func decide(owner: ClaimOwner, policy: ClaimPolicy, now: Double) -> Decision {
        switch status {
        case "done": return .skip(.done)
        case "failed":
            return policy.retryFailed ? .take(attempt: 1, resetAttempts: true) : .skip(.failed)
        case "running":
            let holder = claimedBy.flatMap(ClaimOwner.init(parsing:))
            let expired = (leaseExpires ?? 0) <= now
            if let holder, !expired, !owner.knowsDead(holder) { return .skip(.busy(until: leaseExpires ?? now)) }
            let why = "claimed by \(claimedBy ?? "?"), which " + (expired ? "stopped renewing its lease" : "is no longer running")
            if attempts >= policy.maxAttempts { return .giveUp("gave up after \(attempts) attempt\(attempts == 1 ? "" : "s"): last one \(why)") }
            return .take(attempt: attempts + 1, resetAttempts: false)
        default:
            if attempts >= policy.maxAttempts {
                return .giveUp("gave up after \(attempts) attempt\(attempts == 1 ? "" : "s"): \(error ?? "no reason recorded")")
            }
            return .take(attempt: attempts + 1, resetAttempts: false)
        }
    }
}

/// Opens the store a `--store` value names: `postgres://` or `postgresql://` URLs, else a
/// SQLite file path.
public enum FleetStores {
    public static func open(_ spec: String) throws -> any FleetStore {
        if isPostgres(spec) {
            #if PostgreSQL
            return try PostgresStore(url: spec)
            #else
            throw BatchError(postgresMissing)
            #endif
        }
        return try SQLiteStore(path: spec)
    }

    public static func isPostgres(_ spec: String) -> Bool {
        spec.hasPrefix("postgres://") || spec.hasPrefix("postgresql://")
    }

    /// Whether this build has the PostgreSQL store (the package trait of that name).
    public static var hasPostgres: Bool {
        #if PostgreSQL
        return true
        #else
        return false
        #endif
    }

    static let postgresMissing = """
        this build of preflight has no PostgreSQL store: use a SQLite file, a release binary or the \
        container image, or build with `swift build -c release --traits PostgreSQL`
        """

    /// The store's description for messages: a URL without its password.
    public static func describe(_ spec: String) -> String {
        guard var c = URLComponents(string: spec), c.password != nil else { return spec }
        c.password = "***"
        return c.string ?? spec
    }
}
