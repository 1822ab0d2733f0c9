import Foundation
import Findings

/// SARIF 2.1.0 for code scanning: rules metadata, levels, security severity and partial
/// fingerprints so results keep their identity across unrelated edits.
public enum SARIFReporter: Reporter {
    public static let identifier = "sarif"
    public static let summary = "SARIF 2.1.0 for code scanning"

    public static func render(_ input: ReportInput, options: ReportOptions = ReportOptions()) throws -> String {
        let used = Set(input.scans.flatMap { $0.findings.map(\.rule) + $0.suppressed.map(\.finding.rule) })
        let rules = input.rules.filter { used.contains($0.identifier) || !$0.optIn }
        let ruleIndex = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.identifier, $0) })
        var results: [[String: Any]] = []
        for scan in input.scans {
            // Suppressed findings are results too, marked so code scanning shows them as dismissed.
            let all: [(Finding, String?)] = scan.findings.map { ($0, nil) } + scan.suppressed.map { ($0.finding, $0.reason) }
            for (f, reason) in all {
                var result: [String: Any] = [
                    "ruleId": f.rule,
                    "level": level(f.severity),
                    "message": ["text": f.message],
                    "partialFingerprints": ["preflightFingerprint/v1": f.fingerprint],
                ]
                if let i = ruleIndex[f.rule] { result["ruleIndex"] = i }
                var physical: [String: Any] = [
                    "artifactLocation": scan.rootDirectory != nil
                        ? ["uri": uriPath(f.file ?? ""), "uriBaseId": "SRCROOT"]
                        : ["uri": uriPath(scan.input + "/" + (f.file ?? ""))],
                ]
                if let line = f.line {
                    var region: [String: Any] = ["startLine": line]
                    if let c = f.column { region["startColumn"] = c }
                    physical["region"] = region
                }
                var location: [String: Any] = ["physicalLocation": physical]
                var logical: [[String: Any]] = []
                if let b = f.bundle { logical.append(["name": b, "kind": "module"]) }
                if let k = f.key { logical.append(["name": k, "fullyQualifiedName": (f.bundle.map { $0 + ":" } ?? "") + k, "kind": "member"]) }
                if !logical.isEmpty { location["logicalLocations"] = logical }
                result["locations"] = [location]
                let related = f.evidence.enumerated().compactMap { (i, e) -> [String: Any]? in
                    switch e {
                    case .file(let p, let l):
                        var loc: [String: Any] = ["artifactLocation": ["uri": uriPath(p), "uriBaseId": "SRCROOT"]]
                        if let l { loc["region"] = ["startLine": l] }
                        return ["id": i, "physicalLocation": loc, "message": ["text": "evidence"]]
                    case .symbol(let b, let s):
                        return ["id": i, "physicalLocation": ["artifactLocation": ["uri": uriPath(b), "uriBaseId": "SRCROOT"]],
                                "message": ["text": "uses \(s)"]]
                    }
                }
                if !related.isEmpty { result["relatedLocations"] = related }
                if let reason { result["suppressions"] = [["kind": "external", "justification": reason]] }
                results.append(result)
            }
        }
        var run: [String: Any] = [
            "tool": ["driver": [
                "name": "Preflight",
                "semanticVersion": input.tool.version,
                "version": input.tool.version,
                "informationUri": input.tool.informationURI,
                "rules": rules.map { ruleMetadata($0, documentation: input.tool.informationURI) },
            ]],
            "results": results,
            // An input that could not be read: the run did not succeed, and says why.
            "invocations": [[
                "executionSuccessful": input.errors.isEmpty,
                "toolExecutionNotifications": input.errors.map { ["level": "error", "message": ["text": $0]] },
            ]],
            "columnKind": "unicodeCodePoints",
        ]
        if let root = input.scans.first?.rootDirectory {
            let uri = URL(fileURLWithPath: root, isDirectory: true).absoluteString
            run["originalUriBaseIds"] = ["SRCROOT": ["uri": uri.hasSuffix("/") ? uri : uri + "/"]]
        }
        let doc: [String: Any] = [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [run],
        ]
        let data = try JSONSerialization.data(withJSONObject: doc, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func level(_ s: Severity) -> String { s == .error ? "error" : s == .warning ? "warning" : "note" }

    static func uriPath(_ p: String) -> String {
        p.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? p
    }

    /// The rule's page under `docs/rules/` of the repository the tool's information URI names.
    static func helpURI(_ identifier: String, documentation base: String) -> String {
        (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/blob/main/docs/rules/" + identifier + ".md"
    }

    static func ruleMetadata(_ d: RuleInfo, documentation base: String) -> [String: Any] {
        // SARIF's tags are unique: the area is often a tag already (privacy).
        var tags: [String] = []
        for tag in d.tags + [d.area] where !tags.contains(tag) { tags.append(tag) }
        var properties: [String: Any] = ["tags": tags]
        if d.tags.contains("security") {
            properties["security-severity"] = d.severity == .error ? "7.5" : d.severity == .warning ? "5.0" : "2.0"
        }
        return [
            "id": d.identifier,
            "name": d.name.replacingOccurrences(of: " ", with: ""),
            "shortDescription": ["text": d.summary],
            "fullDescription": ["text": d.rationale],
            "help": ["text": d.rationale, "markdown": "**\(d.name)**\n\n\(d.rationale)"],
            "helpUri": helpURI(d.identifier, documentation: base),
            "defaultConfiguration": ["level": level(d.severity), "enabled": !d.optIn],
            "properties": properties,
        ]
    }
}
