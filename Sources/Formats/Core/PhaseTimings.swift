import Foundation

/// Where a scan spends its time (`preflight scan --timings`): wall time of named phases, in
/// the order they first ran, and counts that explain them (files parsed, rules run). Phases
/// measured on several threads at once add up, so they can exceed the wall time of the run.
public final class PhaseTimings: @unchecked Sendable {
    public struct Entry: Sendable, Equatable {
        public var name: String
        public var seconds: Double
        /// How many times the phase ran (a rule per input, a file per parse).
        public var count: Int
    }

    private let lock = NSLock()
    private var entries: [Entry] = []
    private var index: [String: Int] = [:]

    public init() {}

    /// Runs `body`, adding its wall time to the phase `name`.
    public func measure<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { add(name, seconds: Double(DispatchTime.now().uptimeNanoseconds &- start) / 1e9) }
        return try body()
    }

    /// Adds time (or, with zero seconds, a count) to a phase.
    public func add(_ name: String, seconds: Double, count: Int = 1) {
        lock.lock()
        defer { lock.unlock() }
        if let i = index[name] {
            entries[i].seconds += seconds
            entries[i].count += count
        } else {
            index[name] = entries.count
            entries.append(Entry(name: name, seconds: seconds, count: count))
        }
    }

    public var all: [Entry] {
        lock.lock()
        defer { lock.unlock() }
        return entries
    }
}

extension Optional where Wrapped == PhaseTimings {
    /// Measures when timings are asked for; runs `body` alone otherwise.
    public func measure<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        switch self {
        case .some(let t): return try t.measure(name, body)
        case .none: return try body()
        }
    }
}
