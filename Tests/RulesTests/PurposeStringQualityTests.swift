import XCTest
@testable import Rules

/// Precision and recall of the purpose-string quality checks on real strings labelled by hand
/// (`Tests/Fixtures/PurposeStrings/`, figures in `docs/accuracy.md`). A false warning on a good
/// string costs more than a miss, so precision has the high floor.
final class PurposeStringQualityTests: XCTestCase {
    struct Sample { var label: String; var split: String; var key: String; var language: String; var string: String; var source: String }

    static let samples: [Sample] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/PurposeStrings/labelled.tsv")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").dropFirst().map { line in
            let c = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Sample(label: c[0], split: c[1], key: c[2], language: c[3], string: unescape(c[4]), source: "\(c[5])/\(c[6])")
        }
    }()

    /// `\t`, `\n`, `\r` and `\\` inside the string column.
    static func unescape(_ s: String) -> String {
        var out = "", escaped = false
        for ch in s {
            if escaped {
                out.append(["t": "\t", "n": "\n", "r": "\r"][ch] ?? ch)
                escaped = false
            } else if ch == "\\" { escaped = true } else { out.append(ch) }
        }
        return out
    }

    struct Confusion: CustomStringConvertible {
        var tp = 0, fp = 0, fn = 0, tn = 0
        var precision: Double { tp + fp == 0 ? 1 : Double(tp) / Double(tp + fp) }
        var recall: Double { tp + fn == 0 ? 1 : Double(tp) / Double(tp + fn) }
        mutating func add(predicted: Bool, actual: Bool) {
            switch (predicted, actual) {
            case (true, true): tp += 1
            case (true, false): fp += 1
            case (false, true): fn += 1
            case (false, false): tn += 1
            }
        }
        var description: String {
            "TP \(tp) FP \(fp) FN \(fn) TN \(tn), precision \(String(format: "%.3f", precision)), recall \(String(format: "%.3f", recall))"
        }
    }

    /// What `generic_purpose_string` reports: not a placeholder, and generic.
    static func warnsGeneric(_ s: Sample) -> Bool { PurposeStrings.defect(s.string) == nil && PurposeStrings.isGeneric(s.string) }
    /// What `placeholder_purpose_string` reports without build settings.
    static func flagsPlaceholder(_ s: Sample) -> Bool { PurposeStrings.defect(s.string) != nil }

    func testTheSetIsWhatTheDocsDescribe() {
        let s = Self.samples
        XCTAssertGreaterThanOrEqual(s.count, 330)
        XCTAssertEqual(Set(s.map(\.string)).count, s.count, "strings are distinct")
        XCTAssertGreaterThanOrEqual(s.filter { $0.label == "generic" }.count, 40)
        XCTAssertGreaterThanOrEqual(s.filter { !$0.language.hasPrefix("en") }.count, 30)
        XCTAssertTrue(s.allSatisfy { ["good", "generic", "placeholder"].contains($0.label) && ["tuning", "holdout"].contains($0.split) })
        XCTAssertTrue(s.allSatisfy { $0.key.hasSuffix("UsageDescription") && !$0.source.isEmpty })
    }

    func testGenericPurposeStrings() {
        // Placeholders belong to the other check; generic is judged on good and generic strings.
        let judged = Self.samples.filter { $0.label != "placeholder" }
        var all = Confusion()
        for split in ["tuning", "holdout"] {
            var c = Confusion()
            for s in judged where s.split == split {
                let predicted = Self.warnsGeneric(s)
                c.add(predicted: predicted, actual: s.label == "generic")
                all.add(predicted: predicted, actual: s.label == "generic")
                if predicted, s.label != "generic" { print("generic_purpose_string false positive (\(split)): \(s.key) \"\(s.string)\" [\(s.source)]") }
                if !predicted, s.label == "generic" { print("generic_purpose_string miss (\(split)): [\(s.language)] \"\(s.string)\"") }
            }
            print("generic_purpose_string, \(split): \(c)")
        }
        print("generic_purpose_string, all: \(all)")
        XCTAssertGreaterThanOrEqual(all.precision, 0.95, "false warnings on good strings")
        XCTAssertGreaterThanOrEqual(all.recall, 0.72, "measured 0.767 (46 of 60)")
    }

    func testBuildSettingReferencesStandForTheAppName() {
        XCTAssertTrue(PurposeStrings.isGeneric("$(PRODUCT_NAME) needs access to your camera."))
        XCTAssertTrue(PurposeStrings.isGeneric("${PRODUCT_NAME} would like to use your location"))
        XCTAssertFalse(PurposeStrings.isGeneric("$(PRODUCT_NAME) scans receipts"))
        // One pass: a hostile value of many unclosed references does not take quadratic time.
        XCTAssertFalse(PurposeStrings.isGeneric(String(repeating: "$(", count: 200_000) + "scan"))
    }

    func testPlaceholderPurposeStrings() {
        var c = Confusion()
        for s in Self.samples {
            let predicted = Self.flagsPlaceholder(s)
            c.add(predicted: predicted, actual: s.label == "placeholder")
            if predicted != (s.label == "placeholder") { print("placeholder_purpose_string \(predicted ? "false positive" : "miss"): \"\(s.string)\" [\(s.source)]") }
        }
        print("placeholder_purpose_string, all: \(c)")
        XCTAssertEqual(c.fp, 0, "a good or generic string taken for a placeholder")
        XCTAssertGreaterThanOrEqual(c.recall, 0.75)
    }
}
