import Foundation

public enum ConcurrentMap {
    /// `map` over all cores, results in input order. The transform must be thread-safe.
    public static func map<T: Sendable, R: Sendable>(_ items: [T], _ transform: @escaping @Sendable (T) -> R) -> [R] {
        guard items.count > 1 else { return items.map(transform) }
        let box = ResultBox<R>(count: items.count)
        DispatchQueue.concurrentPerform(iterations: items.count) { i in
            box.set(i, transform(items[i]))
        }
        return box.values()
    }

    private final class ResultBox<R>: @unchecked Sendable {
        private var results: [R?]
        private let lock = NSLock()
        init(count: Int) { results = Array(repeating: nil, count: count) }
        func set(_ i: Int, _ value: R) { lock.lock(); results[i] = value; lock.unlock() }
        func values() -> [R] { results.map { $0! } }
    }
}
