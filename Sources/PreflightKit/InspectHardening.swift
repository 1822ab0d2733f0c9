import Foundation
import Artifacts
import Evidence
import Formats

extension InspectReport {
    /// Databases, key stores and key files each bundle of a built app ships, by bundle name.
    public static func shippedStores(_ loaded: LoadedInput) -> [String: [ShippedStore]] {
        Dictionary(grouping: SecretEvidence.scan(loaded).stores) { $0.bundle ?? "" }
    }

    /// The per-slice hardening facts (`HardeningFacts`) as JSON.
    static func hardeningJSON(_ s: MachOSlice) -> [String: Any] {
        let h = HardeningFacts(s)
        var d: [String: Any] = [:]
        d["pie"] = h.pie ?? NSNull()
        switch h.stackProtector {
        case .present(let names): d["stackProtector"] = ["state": "present", "proof": names] as [String: Any]
        case .notImported: d["stackProtector"] = ["state": "not-imported", "proof": [String]()] as [String: Any]
        }
        switch h.memory {
        case .arc(let names):
            d["memoryManagement"] = ["state": "arc", "proof": names, "manualRetainReleaseSelectors": h.manualRetainReleaseSelectors] as [String: Any]
        case .manual(let sels): d["memoryManagement"] = ["state": "manual", "proof": sels] as [String: Any]
        case .notApplicable: d["memoryManagement"] = ["state": "not-applicable", "proof": [String]()] as [String: Any]
        case .unknown: d["memoryManagement"] = ["state": "unknown", "proof": [String]()] as [String: Any]
        }
        d["cryptid"] = h.cryptID.map { Int($0) } ?? NSNull()
        d["restricted"] = h.restricted
        d["executableStack"] = h.executableStack
        d["getTaskAllow"] = h.getTaskAllow ?? NSNull()
        d["weakHashes"] = h.weakHashes
        d["ciphers"] = h.symmetricCrypto
        d["insecureRandom"] = h.insecureRandom
        d["secureRandom"] = h.secureRandom
        return d
    }

    static func storeJSON(_ s: ShippedStore) -> [String: Any] {
        var d: [String: Any] = ["path": s.path, "kind": s.kind.rawValue, "size": s.size]
        if let k = s.keyShape { d["holds"] = k.rawValue }
        if let schema = s.schema {
            d["tables"] = schema.tables.map { t -> [String: Any] in
                ["name": t.name, "populated": t.populated, "rowsOnRootPage": t.rowsOnRootPage.map { $0 as Any } ?? NSNull()]
            }
            if schema.partial { d["schemaPartial"] = true }
        }
        return d
    }

    static func storeText(_ s: ShippedStore) -> String {
        var out = "  shipped \(s.kind.rawValue): \(s.path) (\(s.size) bytes)"
        if let k = s.keyShape { out += k == .other ? ", no private key recognised" : ", holds \(k.rawValue)" }
        if let schema = s.schema {
            let tables = schema.tables.map { t in "\(t.name)\(t.populated ? " (rows)" : t.rowsOnRootPage == 0 ? " (empty)" : "")" }
            out += tables.isEmpty ? ", no tables read" : ", tables: \(tables.joined(separator: ", "))"
            if schema.partial { out += " (schema partly read)" }
        } else if s.kind == .sqlite {
            out += ", no SQLite header (encrypted, e.g. SQLCipher, or another format)"
        }
        return out + "\n"
    }
}
