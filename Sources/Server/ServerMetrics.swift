import Fleet
import Foundation

/// Counters the server exposes at `/metrics` in Prometheus' text format (version 0.0.4):
/// requests by operation and status, request durations as a histogram, uploads and their
/// bytes, and the scan queue's depth and totals (scans, failures, retries after a worker died
/// or timed out).
public final class ServerMetrics: @unchecked Sendable {
    static let buckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    let lock = NSLock()
    var requests: [String: Int] = [:]             // "operation|status"
    var durationCounts = Array(repeating: 0, count: buckets.count)
    var durationSum = 0.0
    var durationTotal = 0
    var uploads = 0
    var uploadBytes = 0

    public init() {}

    func observe(operation: String, status: Int, seconds: Double) {
        lock.lock()
        defer { lock.unlock() }
        requests["\(operation)|\(status)", default: 0] += 1
        for (i, b) in Self.buckets.enumerated() where seconds <= b { durationCounts[i] += 1 }
        durationSum += seconds
        durationTotal += 1
    }

    func uploaded(bytes: Int) {
        lock.lock()
        uploads += 1
        uploadBytes += bytes
        lock.unlock()
    }

    func prometheusText(queueDepth: Int?, queue: BatchStats?, queueError: String?) -> String {
        lock.lock()
        defer { lock.unlock() }
        var out = "# HELP preflight_http_requests_total Requests answered, by operation and status.\n"
        out += "# TYPE preflight_http_requests_total counter\n"
        for key in requests.keys.sorted() {
            let parts = key.split(separator: "|")
            out += "preflight_http_requests_total{operation=\"\(parts[0])\",status=\"\(parts[1])\"} \(requests[key] ?? 0)\n"
        }
        out += "# HELP preflight_http_request_duration_seconds Time to answer a request.\n"
        out += "# TYPE preflight_http_request_duration_seconds histogram\n"
        for (i, b) in Self.buckets.enumerated() {
            out += "preflight_http_request_duration_seconds_bucket{le=\"\(b)\"} \(durationCounts[i])\n"
        }
        out += "preflight_http_request_duration_seconds_bucket{le=\"+Inf\"} \(durationTotal)\n"
        out += "preflight_http_request_duration_seconds_sum \(durationSum)\n"
        out += "preflight_http_request_duration_seconds_count \(durationTotal)\n"
        out += "# HELP preflight_uploads_total Uploads accepted.\n# TYPE preflight_uploads_total counter\n"
        out += "preflight_uploads_total \(uploads)\n"
        out += "# HELP preflight_upload_bytes_total Bytes of uploads accepted.\n# TYPE preflight_upload_bytes_total counter\n"
        out += "preflight_upload_bytes_total \(uploadBytes)\n"
        if let queueDepth {
            out += "# HELP preflight_scan_queue_depth Uploads waiting for or in a scan.\n# TYPE preflight_scan_queue_depth gauge\n"
            out += "preflight_scan_queue_depth \(queueDepth)\n"
        }
        if let q = queue {
            for (name, help, value) in [("scans", "Scans finished by this replica.", q.scanned),
                                        ("scan_failures", "Scans that ended failed on this replica.", q.failed),
                                        ("scan_retries", "Attempts retried after a worker crashed or timed out.", q.retried)] {
                out += "# HELP preflight_\(name)_total \(help)\n# TYPE preflight_\(name)_total counter\npreflight_\(name)_total \(value)\n"
            }
            out += "# HELP preflight_worker_peak_bytes Peak resident memory of the largest scanning process so far.\n"
            out += "# TYPE preflight_worker_peak_bytes gauge\npreflight_worker_peak_bytes \(q.workerPeakKB * 1024)\n"
        }
        out += "# HELP preflight_scan_queue_up Whether the scan queue reaches the store.\n# TYPE preflight_scan_queue_up gauge\n"
        out += "preflight_scan_queue_up \(queueError == nil ? 1 : 0)\n"
        return out
    }
}

/// Requests per token per minute: a token bucket refilled continuously.
final class RateLimiter: @unchecked Sendable {
    let lock = NSLock()
    var buckets: [Int64: (tokens: Double, at: Double)] = [:]

    func allow(key: Int64, cost: Int, perMinute: Int, now: Double = Date().timeIntervalSince1970) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let capacity = Double(max(perMinute, 1))
        var b = buckets[key] ?? (capacity, now)
        b.tokens = min(capacity, b.tokens + (now - b.at) * capacity / 60)
        b.at = now
        guard b.tokens >= Double(cost) else {
            buckets[key] = b
            return false
        }
        b.tokens -= Double(cost)
        buckets[key] = b
        return true
    }
}
