import XCTest
import Artifacts
import Evidence
@testable import Rules
import SwiftSourceScan

/// Runs every rule's triggering and non-triggering examples: they are the rules' tests.
final class RuleExampleTests: XCTestCase {
    struct Marker: Equatable { var path: String; var line: Int; var column: Int }

    /// Removes `↓` markers and returns where they were.
    static func stripMarkers(_ files: [String: String]) -> ([String: String], [Marker]) {
        var out: [String: String] = [:], markers: [Marker] = []
        for (path, text) in files {
            var clean = "", line = 1, column = 1
            for ch in text {
                if ch == "↓" { markers.append(Marker(path: path, line: line, column: column)); continue }
                clean.append(ch)
                if ch == "\n" { line += 1; column = 1 } else { column += ch.unicodeScalars.count }
            }
            out[path] = clean
        }
        return (out, markers)
    }

    static func run(_ rule: any Rule.Type, files: [String: String], example: RuleExample) throws -> [Finding] {
        let name = example.kind == .app ? "Example.app" : "Example"
        var data = files.mapValues { Data($0.utf8) }
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/MachO")
        for (path, fixture) in example.binaryFixtures {
            data[path] = try Data(contentsOf: fixtures.appendingPathComponent(fixture))
        }
        let source = MemorySource(name: name, files: data, symlinks: example.symlinks)
        let loaded = try ProductLoader.load(source: source, kind: example.kind)
        let context = RuleContext(product: loaded.product, evidence: EvidenceIndex.build(loaded, scanners: [SwiftSourceScanning(), ObjCSourceScanning()]))
        return rule.init().check(context)
    }

    func testEveryRuleHasExamples() {
        for rule in RuleRegistry.all {
            let d = rule.description
            XCTAssertFalse(d.triggering.isEmpty, "\(d.identifier) has no triggering example")
            XCTAssertFalse(d.nonTriggering.isEmpty, "\(d.identifier) has no non-triggering example")
            XCTAssertTrue(d.identifier.allSatisfy { $0.isLowercase || $0 == "_" || $0.isNumber }, "\(d.identifier) is not snake_case")
        }
        let ids = RuleRegistry.all.map { $0.description.identifier }
        XCTAssertEqual(ids.count, Set(ids).count, "duplicate rule identifiers")
    }

    func testTriggeringExamples() throws {
        for rule in RuleRegistry.all {
            let d = rule.description
            for (i, example) in d.triggering.enumerated() {
                let (files, markers) = Self.stripMarkers(example.files)
                let findings = try Self.run(rule, files: files, example: example)
                XCTAssertFalse(findings.isEmpty, "\(d.identifier): triggering example \(i + 1) raised nothing")
                XCTAssertTrue(findings.allSatisfy { $0.rule == d.identifier })
                for m in markers {
                    XCTAssertTrue(findings.contains { $0.file == m.path && $0.line == m.line && $0.column == m.column },
                                  "\(d.identifier): example \(i + 1) has no finding at \(m.path):\(m.line):\(m.column); got \(findings.map { "\($0.file ?? "-"):\($0.line ?? 0):\($0.column ?? 0)" })")
                }
                // Fingerprints must survive an unrelated edit that moves every line.
                let shifted = files.mapValues { text -> String in
                    guard let nl = text.firstIndex(of: "\n") else { return text }
                    return String(text[...nl]) + "\n" + text[text.index(after: nl)...]
                }
                let again = try Self.run(rule, files: shifted, example: example)
                XCTAssertEqual(Set(findings.map(\.fingerprint)), Set(again.map(\.fingerprint)),
                               "\(d.identifier): fingerprints changed when lines moved (example \(i + 1))")
            }
        }
    }

    func testNonTriggeringExamples() throws {
        for rule in RuleRegistry.all {
            let d = rule.description
            for (i, example) in d.nonTriggering.enumerated() {
                let (files, _) = Self.stripMarkers(example.files)
                let findings = try Self.run(rule, files: files, example: example)
                XCTAssertEqual(findings.map(\.message), [], "\(d.identifier): non-triggering example \(i + 1) raised findings")
            }
        }
    }
}
