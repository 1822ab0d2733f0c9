import XCTest
import PreflightKit

/// Review labels of the real-app corpus (`../shared/corpus/LABELS.json`). Every mismatch a
/// reviewer confirmed by reading the code must be reported at the labelled bundle, and every
/// one confirmed as a false positive must not be. The corpus holds data files only; labels
/// that need project files or code are checked on the full sources when
/// `PREFLIGHT_CORPUS_SOURCES` names a folder of checkouts (`owner+repo/` at the labelled commits).
/// `Tests/PreflightKitTests/CORPUS.md` says, label by label, what Preflight reports and why.
final class CorpusLabelTests: XCTestCase {
    /// Label kinds and the rule that reports them.
    static let ruleForKind: [String: String] = [
        "localized_purpose_string_without_base_key": "localized_purpose_string_without_key",
        "purpose_strings_not_localized": "purpose_strings_not_localized",
        "purpose_string_missing": "missing_purpose_string",
        "path_case_mismatch": "path_case_mismatch",
        "purpose_string_missing_in_localization": "missing_purpose_string_translation",
        "location_keys_inconsistent": "location_always_without_when_in_use",
        "purpose_string_low_quality": "generic_purpose_string",
        "privacy_manifest_missing": "required_reason_api_undeclared",
        "required_reason_undeclared": "required_reason_api_undeclared",
    ]

    struct Label {
        var app: String, repo: String, kind: String, target: String, confirmed: Bool, falsePositive: Bool, detail: String
        var file = ""
    }

    func labels() throws -> [Label] {
        let url = CorpusTests.corpus.appendingPathComponent("LABELS.json")
        guard FileManager.default.fileExists(atPath: url.path) else { throw XCTSkip("no corpus") }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: [String: Any]]
        return json.flatMap { app, v in
            (v["mismatches"] as? [[String: Any]] ?? []).map {
                Label(app: app, repo: v["repo"] as? String ?? "", kind: $0["kind"] as? String ?? "",
                      target: $0["target"] as? String ?? "",
                      confirmed: ($0["verification"] as? String ?? "").hasPrefix("confirmed"),
                      falsePositive: $0["false_positive"] as? Bool ?? false, detail: $0["detail"] as? String ?? "",
                      file: $0["file"] as? String ?? "")
            }
        }
    }

    func findings(_ path: String) throws -> [Finding] { try PreflightScanner.scan(path).findings }

    func reported(_ findings: [Finding], rule: String, bundle: String) -> Bool {
        findings.contains { $0.rule == rule && ($0.bundle == bundle || $0.alsoInBundles.contains(bundle)) }
    }

    /// Confirmed labels that the data files alone can show.
    func testConfirmedLabelsOnDataFiles() throws {
        let dataOnly: Set<String> = ["localized_purpose_string_without_base_key"]
        for label in try labels() where label.confirmed && dataOnly.contains(label.kind) {
            let f = try findings(CorpusTests.corpus.appendingPathComponent("apps/\(label.app)").path)
            let rule = try XCTUnwrap(Self.ruleForKind[label.kind])
            XCTAssertEqual(reported(f, rule: rule, bundle: label.target), !label.falsePositive,
                           "\(label.app) \(label.kind) at \(label.target): \(label.detail)")
        }
    }

    /// Confirmed labels on the full sources (opt-in: they are fetched, not committed).
    func testConfirmedLabelsOnFullSources() throws {
        guard let root = ProcessInfo.processInfo.environment["PREFLIGHT_CORPUS_SOURCES"] else {
            throw XCTSkip("set PREFLIGHT_CORPUS_SOURCES to a folder of owner+repo checkouts")
        }
        var cache: [String: [Finding]] = [:]
        for label in try labels() where label.confirmed {
            guard let rule = Self.ruleForKind[label.kind] else { continue }
            let path = root + "/" + label.repo.replacingOccurrences(of: "/", with: "+")
            guard FileManager.default.fileExists(atPath: path) else { XCTFail("missing checkout \(path)"); continue }
            if cache[path] == nil { cache[path] = try findings(path) }
            XCTAssertEqual(reported(cache[path]!, rule: rule, bundle: label.target), !label.falsePositive,
                           "\(label.app) \(label.kind) at \(label.target): \(label.detail)")
        }
    }

    /// The `ats_relaxed` labels (grep only, but read from the Info.plist: the value is certain).
    /// `NSAllowsArbitraryLoads` = true is an `ats_arbitrary_loads` warning on that Info.plist;
    /// `NSAllowsLocalNetworking` = true alone is no finding: iOS 10+ allows local hosts anyway
    /// and App Review asks no justification for it (CORPUS.md).
    func testATSLabelsOnDataFiles() throws {
        var cache: [String: [Finding]] = [:]
        let ats = try labels().filter { $0.kind == "ats_relaxed" }
        XCTAssertGreaterThan(ats.count, 20)
        for label in ats {
            let path = CorpusTests.corpus.appendingPathComponent("apps/\(label.app)").path
            if cache[path] == nil { cache[path] = try findings(path) }
            let here = cache[path]!.filter { $0.rule.hasPrefix("ats_") && $0.file == label.file }
            if label.detail.contains("NSAllowsArbitraryLoads = true") {
                XCTAssertEqual(here.filter { $0.rule == "ats_arbitrary_loads" }.map(\.severity), [.warning], "\(label.app) \(label.file)")
            } else {
                XCTAssertTrue(label.detail.contains("NSAllowsLocalNetworking = true"), label.detail)
                XCTAssertEqual(here.map(\.rule), [], "\(label.app) \(label.file)")
            }
        }
    }
}
