import Foundation
import XCTest
@testable import Formats

/// Helpers shared by the plist, strings and provisioning tests.
enum PlistTestSupport {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func fixture(_ path: String) throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent(path))
    }

    /// Compares a parsed node to a value read by Foundation (the oracle), ignoring positions.
    static func equal(_ node: PlistNode, _ any: Any) -> Bool {
        switch node.value {
        case .string(let s): return (any as? String) == s
        case .integer(let i):
            if let n = any as? Int64 { return n == i }
            if let n = any as? Int { return Int64(n) == i }
            guard let n = any as? NSNumber else { return false }
            return n.int64Value == i
        case .real(let d):
            guard let n = any as? NSNumber else { return false }
            return n.doubleValue == d || (d.isNaN && n.doubleValue.isNaN)
        case .bool(let b): return (any as? Bool) == b || (any as? NSNumber)?.boolValue == b
        case .date(let d): return (any as? Date) == d
        case .data(let d): return (any as? Data) == d
        case .array(let a):
            guard let other = any as? [Any], other.count == a.count else { return false }
            return zip(a, other).allSatisfy { equal($0, $1) }
        case .dictionary(let d):
            guard let other = any as? [String: Any], other.count == Set(d.keys).count else { return false }
            return d.entries.allSatisfy { e in other[e.key].map { equal(d[e.key]!, $0) } ?? false }
        }
    }

    static func error(_ body: () throws -> Any) -> String? {
        do { _ = try body(); return nil } catch { return "\(error)" }
    }
}
