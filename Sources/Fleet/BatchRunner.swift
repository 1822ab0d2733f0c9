import Foundation
#if canImport(Glibc)
import Glibc
#endif

public struct BatchOptions: Sendable {
    /// The `preflight` executable that runs workers (`batch worker`), and their arguments.
    public var executable: String
    public var workerArguments: [String]
    /// Worker processes scanning side by side.
    public var jobs: Int
    /// Seconds one input may take before its worker is killed and the attempt fails.
    public var timeout: Double
    public var policy: ClaimPolicy
    /// A worker is replaced after this many inputs, so its memory never grows with the run.
    public var recycleAfter: Int
    /// Seconds the inputs in flight get to finish after SIGINT or SIGTERM; a second signal
    /// or the end of this time rolls them back.
    public var grace: Double
    public var preflightVersion: String
    public var rulesetVersion: String
    public var configHash: String
    /// Whether the run installs its own SIGINT/SIGTERM handlers (the `batch` command). A host
    /// process with its own shutdown (the server) leaves them alone and asks through `shouldStop`.
    public var handlesSignals = true
    /// Read at least every 200 ms: true starts the same graceful stop as a first signal.
    public var shouldStop: (@Sendable () -> Bool)?

    public init(executable: String, workerArguments: [String], jobs: Int, timeout: Double, policy: ClaimPolicy,
                recycleAfter: Int = 500, grace: Double = 5, preflightVersion: String, rulesetVersion: String, configHash: String) {
        self.executable = executable
        self.workerArguments = workerArguments
        self.jobs = jobs
        self.timeout = timeout
        self.policy = policy
        self.recycleAfter = recycleAfter
        self.grace = grace
        self.preflightVersion = preflightVersion
        self.rulesetVersion = rulesetVersion
        self.configHash = configHash
    }
}

public struct BatchStats: Sendable, Codable, Equatable {
    public var inputs = 0
    public var scanned = 0
    public var alreadyDone = 0
    public var alreadyFailed = 0
    /// Inputs that ended failed in this run (scan error, attempts used up, unreadable).
    public var failed = 0
    /// Attempts that failed and were tried again.
    public var retried = 0
    /// Inputs rolled back by an interruption.
    public var rolledBack = 0
    /// The signal that interrupted the run, 0 if none.
    public var signal: Int32 = 0
    public var seconds = 0.0
    /// Peak resident memory of the batch process, and of the largest of its workers, in KiB.
    public var batchPeakKB = 0
    public var workerPeakKB = 0

    public init() {}
}

/// SIGINT and SIGTERM set a flag the batch loop reads at least every 200 ms.
enum BatchSignals {
    nonisolated(unsafe) static var received: Int32 = 0
    nonisolated(unsafe) static var count: Int32 = 0

    static func install() {
        for s in [SIGINT, SIGTERM] {
            signal(s) { sig in
                BatchSignals.received = sig
                BatchSignals.count += 1
            }
        }
    }
}

/// Runs a batch: for each input, hash it, claim it in the store, have a worker scan it, write
/// the result in one transaction. Inputs are claimed one at a time, so shards and restarted
/// processes share the work through the store alone.
public final class BatchRunner {
    let store: any FleetStore
    let options: BatchOptions
    let owner = ClaimOwner.current()
    let log: (String) -> Void

    struct Job {
        var input: BatchInput
        var scanID: Int64
        var attempt: Int
        var started: Date
        var startedClock: Double
        var nextBeat: Double
    }

    struct Slot {
        var worker: WorkerProcess?
        var job: Job?
    }

    public init(store: any FleetStore, options: BatchOptions, log: @escaping (String) -> Void) {
        self.store = store
        self.options = options
        self.log = log
    }

    static func clock() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
    static func wall() -> Double { Date().timeIntervalSince1970 }

    public func run(_ inputs: [BatchInput]) throws -> BatchStats {
        // A worker that dies before reading its input turns the write to its pipe into
        // SIGPIPE, which would end this process (the server's too, where the caller handles
        // SIGINT/SIGTERM itself): the write fails with EPIPE instead and the attempt is retried.
        signal(SIGPIPE, SIG_IGN)
        if options.handlesSignals { BatchSignals.install() }
        var stats = BatchStats()
        stats.inputs = inputs.count
        let begin = Self.clock()
        var queue = inputs[...]
        // Inputs another live process holds, with the time its lease ends.
        var waiting: [(input: BatchInput, after: Double)] = []
        var digests: [String: String] = [:]
        var slots = Array(repeating: Slot(), count: max(1, options.jobs))
        var stopAt: Double?

        func key(_ sha: String) -> ScanKey {
            ScanKey(inputSHA256: sha, preflightVersion: options.preflightVersion, rulesetVersion: options.rulesetVersion,
                    configHash: options.configHash)
        }

        /// Claims an input and hands it to slot `i`; false when it needs no scan now.
        func start(_ input: BatchInput, in i: Int) throws -> Bool {
            let sha: String
            if let known = digests[input.path] { sha = known } else {
                do { sha = try InputDigest.sha256(path: input.path) } catch {
                    log("\(input.path): failed: \(error)")
                    stats.failed += 1
                    return false
                }
                digests[input.path] = sha
            }
            switch try store.claim(key(sha), path: input.path, owner: owner, policy: options.policy, now: Self.wall()) {
            case .done:
                stats.alreadyDone += 1
                return false
            case .failed:
                stats.alreadyFailed += 1
                return false
            case .busy(let until):
                // Look again soon: the holder may finish, or its lease may end.
                waiting.append((input, Self.clock() + max(0.2, min(until - Self.wall(), 1.0))))
                return false
            case .exhausted(let reason):
                log("\(input.path): failed: \(reason)")
                stats.failed += 1
                return false
            case .claimed(let scanID, let attempt):
                if let w = slots[i].worker, w.handled >= options.recycleAfter {
                    w.stop(kill: false)
                    slots[i].worker = nil
                }
                if slots[i].worker == nil {
                    slots[i].worker = try WorkerProcess(executable: options.executable, arguments: options.workerArguments)
                }
                let now = Self.clock()
                slots[i].job = Job(input: input, scanID: scanID, attempt: attempt, started: Date(), startedClock: now,
                                   nextBeat: now + options.policy.leaseSeconds / 4)
                if !(slots[i].worker?.send(path: input.path) ?? false) {
                    // Reported when its output closes.
                }
                return true
            }
        }

        func elapsedMS(_ job: Job) -> Int { Int((Self.clock() - job.startedClock) * 1000) }

        /// A worker that died or ran out of time: the attempt failed, the input goes back to the
        /// front of the queue (the claim gives up once the attempts are used).
        func attemptFailed(_ i: Int, _ reason: String) throws {
            guard let job = slots[i].job else { return }
            slots[i].job = nil
            let final = job.attempt >= options.policy.maxAttempts
            let message = reason + " (attempt \(job.attempt) of \(options.policy.maxAttempts))"
            try store.fail(scanID: job.scanID, owner: owner, error: message, final: final, startedAt: job.started, durationMS: elapsedMS(job))
            if final {
                log("\(job.input.path): failed: \(message)")
                stats.failed += 1
            } else {
                log("\(job.input.path): \(message); trying again")
                stats.retried += 1
                queue.insert(job.input, at: queue.startIndex)
            }
        }

        func finished(_ i: Int, _ line: Data) throws {
            guard let job = slots[i].job else { return }
            slots[i].job = nil
            guard let response = try? JSONDecoder().decode(WorkerResponse.self, from: line) else {
                slots[i].job = job
                slots[i].worker?.stop(kill: true)
                slots[i].worker = nil
                try attemptFailed(i, "worker answered something that is not a result")
                return
            }
            if let record = response.record {
                if try store.complete(scanID: job.scanID, owner: owner, record: record, startedAt: job.started, durationMS: elapsedMS(job)) {
                    stats.scanned += 1
                } else {
                    log("\(job.input.path): lost its claim to another process (lease ran out); its result was not written")
                }
            } else {
                // The scanner's own clear error (not an app, a broken archive, a reader limit):
                // the same bytes fail the same way, so it is final at once.
                let reason = response.error ?? "no result"
                try store.fail(scanID: job.scanID, owner: owner, error: reason, final: true, startedAt: job.started, durationMS: elapsedMS(job))
                log("\(job.input.path): failed: \(reason)")
                stats.failed += 1
            }
        }

        defer {
            for s in slots { s.worker?.stop(kill: true) }
        }

        while true {
            let signalled = options.handlesSignals && BatchSignals.received != 0
            if (signalled || options.shouldStop?() == true) && stopAt == nil {
                stats.signal = signalled ? BatchSignals.received : 0
                stopAt = Self.clock() + options.grace
                if slots.contains(where: { $0.job != nil }) {
                    log("\(signalled ? "signal \(BatchSignals.received)" : "stop requested"): finishing the inputs in flight (up to \(Int(options.grace)) s; again to stop now)")
                }
            }
            if let s = stopAt, Self.clock() >= s || (options.handlesSignals && BatchSignals.count > 1) {
                for i in slots.indices {
                    guard let job = slots[i].job else { continue }
                    slots[i].worker?.stop(kill: true)
                    slots[i].worker = nil
                    slots[i].job = nil
                    try store.release(scanID: job.scanID, owner: owner)
                    log("\(job.input.path): rolled back")
                    stats.rolledBack += 1
                }
                break
            }
            if stopAt == nil {
                for i in slots.indices where slots[i].job == nil {
                    while slots[i].job == nil {
                        let input: BatchInput
                        if let next = queue.first {
                            queue = queue.dropFirst()
                            input = next
                        } else if let w = waiting.firstIndex(where: { $0.after <= Self.clock() }) {
                            input = waiting.remove(at: w).input
                        } else { break }
                        _ = try start(input, in: i)
                    }
                }
            }
            let busy = slots.indices.filter { slots[$0].job != nil }
            if busy.isEmpty {
                if stopAt != nil || (queue.isEmpty && waiting.isEmpty) { break }
                usleep(200_000)
                continue
            }
            var fds = busy.map { pollfd(fd: slots[$0].worker?.output ?? -1, events: Int16(POLLIN), revents: 0) }
            let now = Self.clock()
            let nearest = busy.compactMap { slots[$0].job.map { $0.startedClock + options.timeout } }.min() ?? now + 0.2
            let wait = Int32(max(0, min(200, (nearest - now) * 1000).rounded(.up)))
            _ = poll(&fds, nfds_t(fds.count), wait)
            for (n, i) in busy.enumerated() where fds[n].revents != 0 {
                guard let worker = slots[i].worker else { continue }
                switch worker.read() {
                case .nothing: break
                case .line(let line): try finished(i, line)
                case .closed:
                    let how = worker.stop(kill: true)
                    slots[i].worker = nil
                    try attemptFailed(i, "the scanning process \(how)")
                }
            }
            let after = Self.clock()
            for i in slots.indices {
                guard let job = slots[i].job else { continue }
                if after - job.startedClock >= options.timeout {
                    slots[i].worker?.stop(kill: true)
                    slots[i].worker = nil
                    try attemptFailed(i, "timed out after \(Self.seconds(options.timeout)) s")
                } else if after >= job.nextBeat {
                    try store.heartbeat(scanID: job.scanID, owner: owner, leaseUntil: Self.wall() + options.policy.leaseSeconds)
                    slots[i].job?.nextBeat = after + options.policy.leaseSeconds / 4
                }
            }
        }
        for i in slots.indices {
            slots[i].worker?.stop(kill: false)
            slots[i].worker = nil
        }
        stats.seconds = Self.clock() - begin
        var usage = rusage()
        #if os(Linux)
        let selfWho = __rusage_who_t(RUSAGE_SELF.rawValue), childrenWho = __rusage_who_t(RUSAGE_CHILDREN.rawValue)
        #else
        let selfWho = RUSAGE_SELF, childrenWho = RUSAGE_CHILDREN
        #endif
        getrusage(selfWho, &usage)
        stats.batchPeakKB = usage.ru_maxrss
        getrusage(childrenWho, &usage)
        stats.workerPeakKB = usage.ru_maxrss
        return stats
    }

    static func seconds(_ s: Double) -> String {
        s == s.rounded() ? String(Int(s)) : String(format: "%g", s)
    }
}
