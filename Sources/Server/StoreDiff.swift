import Fleet
import Foundation
import PreflightKit

/// Two scanned uploads compared from the store, the server's form of `preflight diff`:
/// permissions, entitlements, embedded SDKs and domains added or removed, and findings new or
/// fixed (by fingerprint, as baselines match them). Says when the app identifier changed, so
/// a gate reading it knows every permission of the new app is "new" for that reason.
enum StoreDiff {
    static func compare(_ q: ServerQueries, old: (ServerQueries.Upload, Int64), new: (ServerQueries.Upload, Int64)) throws -> [String: Any] {
        func set(_ sql: String, _ scan: Int64) throws -> Set<String> {
            Set(try q.store.rows(sql, [.int(scan)]).map { $0.map { $0 ?? "" }.joined(separator: " ") })
        }
        func change(_ sql: String) throws -> [String: [String]] {
            let a = try set(sql, old.1), b = try set(sql, new.1)
            return ["added": b.subtracting(a).sorted(), "removed": a.subtracting(b).sorted()]
        }
        let oldFindings = try q.findings(scanID: old.1), newFindings = try q.findings(scanID: new.1)
        let oldPrints = Set(oldFindings.map(\.fingerprint)), newPrints = Set(newFindings.map(\.fingerprint))
        let newOnes = newFindings.filter { !oldPrints.contains($0.fingerprint) }
        let fixed = oldFindings.filter { !newPrints.contains($0.fingerprint) }
        func doc(_ f: Finding) -> [String: Any] {
            var d: [String: Any] = ["rule": f.rule, "severity": f.severity.rawValue, "message": f.message, "fingerprint": f.fingerprint]
            if let v = f.file { d["file"] = v }
            if let v = f.line { d["line"] = v }
            return d
        }
        return [
            "from": ServerAPI.document(old.0), "to": ServerAPI.document(new.0),
            "appIdentifierChanged": old.0.appIdentifier != new.0.appIdentifier,
            "permissions": try change("SELECT key FROM permissions WHERE scan_id = ?"),
            "entitlements": try change("SELECT key, value FROM entitlements WHERE scan_id = ?"),
            "sdks": try change("SELECT name FROM frameworks WHERE scan_id = ? AND embedded = 1"),
            "domains": try change("SELECT domain FROM domains WHERE scan_id = ?"),
            "findings": ["new": newOnes.map(doc), "fixed": fixed.map(doc)],
        ]
    }
}
