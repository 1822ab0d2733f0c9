import Foundation
import Findings

/// The versioned JSON contract documented in docs/json-format.md.
public enum JSONReporter: Reporter {
    public static let identifier = "json"
    public static let summary = "the versioned JSON document of docs/json-format.md"
    public static let schemaVersion = 1

    struct Document: Encodable {
        var schemaVersion: Int
        var tool: ToolInfo
        var input: InputInfo
        var inputs: [InputInfo]?
        var bundles: [BundleInfo]
        var findings: [FindingInfo]
        var suppressed: [SuppressedInfo]
        var errors: [String]
    }
    struct SuppressedInfo: Encodable { var finding: FindingInfo; var reason: String }
    struct InputInfo: Encodable { var path: String; var kind: String }
    struct BundleInfo: Encodable {
        var name: String; var kind: String; var id: String?; var path: String; var infoPlist: String?
    }
    struct FindingInfo: Encodable {
        var rule: String; var severity: String; var message: String; var bundle: String?; var alsoInBundles: [String]
        var file: String?; var line: Int?; var column: Int?; var key: String?
        var evidence: [EvidenceInfo]; var fix: String?; var fingerprint: String
        var input: String?

        enum CodingKeys: String, CodingKey { case rule, severity, message, bundle, alsoInBundles, file, line, column, key, evidence, fix, fingerprint, input }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(rule, forKey: .rule)
            try c.encode(severity, forKey: .severity)
            try c.encode(message, forKey: .message)
            // Absent values are written as null so the schema is the same for every finding.
            try c.encode(bundle, forKey: .bundle)
            try c.encode(alsoInBundles, forKey: .alsoInBundles)
            try c.encode(file, forKey: .file)
            try c.encode(line, forKey: .line)
            try c.encode(column, forKey: .column)
            try c.encode(key, forKey: .key)
            try c.encode(evidence, forKey: .evidence)
            try c.encodeIfPresent(fix, forKey: .fix)
            try c.encode(fingerprint, forKey: .fingerprint)
            try c.encodeIfPresent(input, forKey: .input)
        }
    }
    struct EvidenceInfo: Encodable {
        var file: String?; var line: Int?; var binary: String?; var symbol: String?
    }

    public static func render(_ input: ReportInput, options: ReportOptions = ReportOptions()) throws -> String {
        let multi = input.scans.count > 1
        let inputs = input.scans.map { InputInfo(path: $0.input, kind: $0.kind) }
        let doc = Document(
            schemaVersion: schemaVersion, tool: input.tool,
            input: inputs.first ?? InputInfo(path: "", kind: "none"),
            inputs: multi ? inputs : nil,
            bundles: input.scans.flatMap { s in s.bundles.map(bundleInfo) },
            findings: input.scans.flatMap { s in s.findings.map { findingInfo($0, input: multi ? s.input : nil) } },
            suppressed: input.scans.flatMap { s in
                s.suppressed.map { SuppressedInfo(finding: findingInfo($0.finding, input: multi ? s.input : nil), reason: $0.reason) }
            },
            errors: input.errors)
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try enc.encode(doc), as: UTF8.self) + "\n"
    }

    static func bundleInfo(_ b: BundleSummary) -> BundleInfo {
        BundleInfo(name: b.name, kind: b.kind, id: b.identifier, path: b.path, infoPlist: b.infoPlist)
    }

    static func findingInfo(_ f: Finding, input: String?) -> FindingInfo {
        FindingInfo(rule: f.rule, severity: f.severity.rawValue, message: f.message, bundle: f.bundle,
                    alsoInBundles: f.alsoInBundles.sorted(),
                    file: f.file, line: f.line, column: f.column, key: f.key,
                    evidence: f.evidence.map {
                        switch $0 {
                        case .file(let p, let l): return EvidenceInfo(file: p, line: l)
                        case .symbol(let b, let s): return EvidenceInfo(binary: b, symbol: s)
                        }
                    }, fix: f.fix, fingerprint: f.fingerprint, input: input)
    }
}
