import Foundation
import Findings
import PreflightKit

/// Which scan a row holds: the input's bytes and everything that can change the result. Two
/// runs with the same key produce the same findings, so a key already `done` is skipped.
public struct ScanKey: Sendable, Hashable, Codable {
    /// SHA-256 of the input's bytes (of its files, for a folder), lowercase hex.
    public var inputSHA256: String
    public var preflightVersion: String
    /// Hash of the registered rules (identifier and default severity of each).
    public var rulesetVersion: String
    /// Hash of what the configuration changes: enabled rules, overrides, suppressions, limits.
    public var configHash: String

    public init(inputSHA256: String, preflightVersion: String, rulesetVersion: String, configHash: String) {
        self.inputSHA256 = inputSHA256
        self.preflightVersion = preflightVersion
        self.rulesetVersion = rulesetVersion
        self.configHash = configHash
    }
}

/// What one scan produced, as the worker process sends it to the batch process (one JSON line).
public struct ScanRecord: Sendable, Codable, Equatable {
    public struct EvidenceRecord: Sendable, Codable, Equatable {
        /// `file` or `symbol`.
        public var kind: String
        public var path: String
        public var line: Int?
        public var symbol: String?
    }

    public struct FindingRecord: Sendable, Codable, Equatable {
        public var rule: String
        public var severity: String
        public var message: String
        public var bundle: String?
        public var file: String?
        public var line: Int?
        public var column: Int?
        public var key: String?
        public var fix: String?
        public var fingerprint: String
        public var evidence: [EvidenceRecord]

        public init(_ f: Finding) {
            rule = f.rule
            severity = f.severity.rawValue
            message = f.message
            bundle = f.bundle
            file = f.file
            line = f.line
            column = f.column
            key = f.key
            fix = f.fix
            fingerprint = f.fingerprint
            evidence = f.evidence.map { e in
                switch e {
                case .file(let path, let line): return EvidenceRecord(kind: "file", path: path, line: line, symbol: nil)
                case .symbol(let binary, let symbol): return EvidenceRecord(kind: "symbol", path: binary, line: nil, symbol: symbol)
                }
            }
        }
    }

    /// `ipa`, `app`, `xcarchive`, … (the loader's product kind).
    public var productKind: String
    public var findings: [FindingRecord]
    public var suppressedCount: Int
    public var inventory: AppInventory

    public init(_ result: ScanResult) {
        productKind = result.product.kind.rawValue
        findings = result.findings.map(FindingRecord.init)
        suppressedCount = result.suppressed.count
        inventory = AppInventory.of(result.product)
    }

    /// The app bundle (the first of kind `app`, else the first bundle).
    public var mainBundle: AppInventory.Bundle? {
        inventory.bundles.first { $0.kind == "app" } ?? inventory.bundles.first
    }
}

/// One line from the worker: a record, or why the input could not be scanned.
struct WorkerResponse: Codable {
    var record: ScanRecord?
    var error: String?
}

struct WorkerRequest: Codable {
    var path: String
}
