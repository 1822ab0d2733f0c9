import Fleet
import Foundation

/// Scans uploads in the batch mode's worker processes (timeouts, crash isolation, leases,
/// retries): a thread that looks for uploads without a finished scan and runs them through
/// `BatchRunner` with its own store connection. Replicas share the work through the store's
/// claims, and a restarted server finds what was accepted and not yet scanned.
public final class ScanQueue: @unchecked Sendable {
    let openStore: () throws -> any FleetStore
    let options: BatchOptions
    let versions: ServerQueries.ScanVersions
    let log: @Sendable (String) -> Void
    let condition = NSCondition()
    var woken = false
    var stopping = false
    var thread: Thread?
    var finished = false
    /// Totals for metrics.
    public private(set) var stats = BatchStats()
    public private(set) var lastError: String?

    public init(openStore: @escaping () throws -> any FleetStore, options: BatchOptions, versions: ServerQueries.ScanVersions,
                log: @escaping @Sendable (String) -> Void) {
        var options = options
        options.handlesSignals = false
        self.openStore = openStore
        self.options = options
        self.versions = versions
        self.log = log
    }

    public func start() {
        let t = Thread { [self] in loop() }
        t.name = "preflight-scan-queue"
        thread = t
        t.start()
    }

    /// An upload arrived: look now rather than at the next poll.
    public func wake() {
        condition.lock()
        woken = true
        condition.signal()
        condition.unlock()
    }

    /// Finishes the scans in flight (up to the batch grace time), then returns. Uploads not
    /// scanned stay queued in the store for the next start.
    public func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        while !finished && thread != nil { condition.wait(until: Date().addingTimeInterval(0.2)) }
        condition.unlock()
    }

    var isStopping: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopping
    }

    func loop() {
        defer {
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
        }
        var store: (any FleetStore)?
        while !isStopping {
            do {
                if store == nil { store = try openStore() }
                guard let s = store else { continue }
                let pending = try ServerQueries(store: s, versions: versions).pendingPaths()
                if !pending.isEmpty {
                    var o = options
                    o.shouldStop = { [weak self] in self?.isStopping ?? true }
                    let runner = BatchRunner(store: s, options: o, log: log)
                    let run = try runner.run(pending.map(BatchInput.init(path:)))
                    record(run)
                    // Inputs another replica holds come back on the next look.
                    if run.scanned + run.failed > 0 { continue }
                }
                lastError = nil
            } catch {
                // The store is unavailable: requests fail cleanly meanwhile; try again later.
                lastError = "\(error)"
                log("scan queue: \(error)")
                store?.close()
                store = nil
            }
            condition.lock()
            if !woken && !stopping { condition.wait(until: Date().addingTimeInterval(lastError == nil ? 2 : 5)) }
            woken = false
            condition.unlock()
        }
        store?.close()
    }

    func record(_ run: BatchStats) {
        condition.lock()
        stats.inputs += run.inputs
        stats.scanned += run.scanned
        stats.failed += run.failed
        stats.retried += run.retried
        stats.rolledBack += run.rolledBack
        stats.workerPeakKB = max(stats.workerPeakKB, run.workerPeakKB)
        condition.unlock()
    }

    public var snapshot: BatchStats {
        condition.lock()
        defer { condition.unlock() }
        return stats
    }
}
