import XCTest
import Artifacts
import Evidence
@testable import Rules
import SwiftSourceScan

/// Runs every rule's triggering and non-triggering examples: they are the rules' tests.
final class RuleExampleTests: XCTestCase {
    /// Where a finding must point: a line and column of a file, or a path as a whole (no line).
    struct Marker: Equatable, CustomStringConvertible {
        var path: String
        var line: Int?
        var column: Int?

        var description: String { line.map { "\(path):\($0):\(column ?? 0)" } ?? "\(path) (no line)" }
    }

    /// Removes `↓` markers from the files' text and paths and returns where they were.
    static func stripMarkers(_ files: [String: String]) -> ([String: String], [Marker]) {
        var out: [String: String] = [:], markers: [Marker] = []
        for (markedPath, text) in files {
            let (path, pathMarker) = stripPathMarker(markedPath)
            if let pathMarker { markers.append(pathMarker) }
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

    /// A `↓` in a path marks a finding about the path before it, with no line (see `RuleExample`).
    static func stripPathMarker(_ markedPath: String) -> (String, Marker?) {
        guard let i = markedPath.firstIndex(of: "↓") else { return (markedPath, nil) }
        return (markedPath.replacingOccurrences(of: "↓", with: ""), Marker(path: String(markedPath[..<i]), line: nil, column: nil))
    }

    /// The example without its markers (in files, symlinks and binary fixtures), and the markers.
    static func strip(_ example: RuleExample) -> (example: RuleExample, markers: [Marker]) {
        var clean = example
        var markers: [Marker]
        (clean.files, markers) = stripMarkers(example.files)
        func paths<V>(_ entries: [String: V]) -> [String: V] {
            Dictionary(uniqueKeysWithValues: entries.map { markedPath, value in
                let (path, marker) = stripPathMarker(markedPath)
                if let marker { markers.append(marker) }
                return (path, value)
            })
        }
        clean.symlinks = paths(example.symlinks)
        clean.binaryFixtures = paths(example.binaryFixtures)
        return (clean, markers)
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

    /// Every rule shows at least two cases that trigger it and two that do not, and every
    /// triggering example marks where its finding points.
    func testEveryRuleHasExamples() {
        for rule in RuleRegistry.all {
            let d = rule.description
            XCTAssertGreaterThanOrEqual(d.triggering.count, 2, "\(d.identifier) has \(d.triggering.count) triggering example(s); show at least two distinct cases")
            XCTAssertGreaterThanOrEqual(d.nonTriggering.count, 2, "\(d.identifier) has \(d.nonTriggering.count) non-triggering example(s); show at least two distinct cases")
            for (i, example) in d.triggering.enumerated() where Self.strip(example).markers.isEmpty {
                XCTFail("\(d.identifier): triggering example \(i + 1) has no ↓ marking where the finding points (see RuleExample)")
            }
            for (i, example) in d.nonTriggering.enumerated() where !Self.strip(example).markers.isEmpty {
                XCTFail("\(d.identifier): non-triggering example \(i + 1) has a ↓, but raises no finding for it to mark")
            }
            XCTAssertTrue(d.identifier.allSatisfy { $0.isLowercase || $0 == "_" || $0.isNumber }, "\(d.identifier) is not snake_case")
        }
        let ids = RuleRegistry.all.map { $0.description.identifier }
        XCTAssertEqual(ids.count, Set(ids).count, "duplicate rule identifiers")
    }

    func testTriggeringExamples() throws {
        for rule in RuleRegistry.all {
            let d = rule.description
            for (i, example) in d.triggering.enumerated() {
                let (clean, markers) = Self.strip(example)
                let files = clean.files
                let findings = try Self.run(rule, files: files, example: clean)
                XCTAssertFalse(findings.isEmpty, "\(d.identifier): triggering example \(i + 1) raised nothing")
                XCTAssertTrue(findings.allSatisfy { $0.rule == d.identifier })
                for m in markers {
                    XCTAssertTrue(findings.contains { $0.file == m.path && $0.line == m.line && $0.column == m.column },
                                  "\(d.identifier): example \(i + 1) has no finding at \(m); got \(findings.map { Marker(path: $0.file ?? "-", line: $0.line, column: $0.column) })")
                }
                // Fingerprints must survive an unrelated edit that moves every line.
                let shifted = files.mapValues { text -> String in
                    guard let nl = text.firstIndex(of: "\n") else { return text }
                    return String(text[...nl]) + "\n" + text[text.index(after: nl)...]
                }
                let again = try Self.run(rule, files: shifted, example: clean)
                XCTAssertEqual(Set(findings.map(\.fingerprint)), Set(again.map(\.fingerprint)),
                               "\(d.identifier): fingerprints changed when lines moved (example \(i + 1))")
            }
        }
    }

    func testNonTriggeringExamples() throws {
        for rule in RuleRegistry.all {
            let d = rule.description
            for (i, example) in d.nonTriggering.enumerated() {
                let (clean, _) = Self.strip(example)
                let findings = try Self.run(rule, files: clean.files, example: clean)
                XCTAssertEqual(findings.map(\.message), [], "\(d.identifier): non-triggering example \(i + 1) raised findings")
            }
        }
    }
}
