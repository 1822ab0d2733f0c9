import Foundation
import XCTest
@testable import Artifacts
import Formats

/// Malformed and hostile XcodeGen specs: a load problem naming the file (with a line when the
/// YAML reader has one) and a fall back to Info.plist discovery, never a crash or a hang.
final class XcodeGenHostileSpecTests: XCTestCase {
    static let infoPlist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.example.app</string></dict></plist>
    """

    /// Loads a folder holding `spec` as project.yml plus a loose App/Info.plist.
    func load(_ spec: String, limits: ReaderLimits = .default, extra: [String: String] = [:]) throws -> Product {
        var text = ["project.yml": spec, "App/Info.plist": Self.infoPlist]
        text.merge(extra) { _, b in b }
        return try ProductLoader.load(source: MemorySource(name: "hostile", text: text), kind: .folder, limits: limits).product
    }

    func formatError(_ product: Product, file: StaticString = #filePath, line: UInt = #line) throws -> FormatError {
        let errors = product.problems.compactMap { p -> FormatError? in
            if case .unreadable(let e) = p.kind, p.path == "project.yml" { return e }
            return nil
        }
        return try XCTUnwrap(errors.first, "no unreadable project.yml in \(product.problems)", file: file, line: line)
    }

    func assertFellBack(_ product: Product, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(product.bundles.map(\.name), ["App"], "Info.plist discovery", file: file, line: line)
        XCTAssertEqual(product.kind, .folder, file: file, line: line)
    }

    func testBadSyntaxHasALine() throws {
        let product = try load("name: X\ntargets:\n  App: [type, application\n  Other: {}\n")
        let e = try formatError(product)
        XCTAssertEqual(e.kind, .malformed)
        XCTAssertEqual(e.format, "YAML")
        XCTAssertNotNil(e.line)
        assertFellBack(product)
    }

    func testBinaryGarbageAndBadEncoding() throws {
        let product = try load("name: X\ntargets: \u{0}\u{1}\u{7f}[\u{0}")
        XCTAssertNotNil(try formatError(product))
        assertFellBack(product)
        let latin1 = try ProductLoader.load(source: MemorySource(name: "l", files: [
            "project.yml": Data([0x6e, 0x61, 0x6d, 0x65, 0x3a, 0x20, 0xff, 0xfe, 0x00, 0xe9]), "App/Info.plist": Data(Self.infoPlist.utf8),
        ]), kind: .folder).product
        XCTAssertFalse(latin1.problems.isEmpty)
        assertFellBack(latin1)
    }

    func testAliasBombStopsAtTheNodeLimit() throws {
        var lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
        let names = ["b", "c", "d", "e", "f", "g", "h", "i", "j"]
        var previous = "a"
        for n in names {
            lines.append("\(n): &\(n) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]")
            previous = n
        }
        lines.append("targets:\n  App:\n    type: application\n    settings: *j")
        let started = Date()
        let product = try load(lines.joined(separator: "\n"))
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        let e = try formatError(product)
        XCTAssertEqual(e.kind, .limitExceeded("max-plist-objects"))
        assertFellBack(product)
    }

    func testDeepFlowNestingIsRefusedBeforeParsing() throws {
        let product = try load("name: X\ntargets: " + String(repeating: "[", count: 200_000))
        let e = try formatError(product)
        XCTAssertEqual(e.kind, .limitExceeded("max-nesting-depth"))
        XCTAssertEqual(e.line, 2)
        assertFellBack(product)
    }

    func testDeepBlockNestingIsRefused() throws {
        var yaml = "name: X\ntargets:\n"
        for depth in 1...3000 { yaml += String(repeating: " ", count: depth) + "k\(depth):\n" }
        let e = try formatError(try load(yaml))
        XCTAssertEqual(e.kind, .limitExceeded("max-nesting-depth"))
        // Compact sequences nest on one line.
        let compact = try formatError(try load("name: X\ntargets:\n  " + String(repeating: "- ", count: 5000) + "x\n"))
        XCTAssertEqual(compact.kind, .limitExceeded("max-nesting-depth"))
    }

    func testNestingWithinALowerLimitIsCheckedWhileConverting() throws {
        var limits = ReaderLimits()
        limits.maxNestingDepth = 6
        let product = try load("name: X\ntargets: {App: {settings: {base: {A: [[[[[1]]]]]}}}}\n", limits: limits)
        XCTAssertEqual(try formatError(product).kind, .limitExceeded("max-nesting-depth"))
    }

    func testBlockScalarsAndQuotesDoNotCountAsNesting() {
        var script = ""
        for depth in 1...400 { script += String(repeating: " ", count: 6 + depth) + "echo [[[{{{ \(depth)\n" }
        let yaml = """
        name: "X [not flow"
        targets:
          App:
            type: application
            preBuildScripts:
              - script: |
        \(script)
                name: 'quoted [[[ ''still'' [[['
        """
        XCTAssertLessThan(YAMLNestingBound.estimate(yaml).depth, 20)
    }

    func testIncludeCycleAndTooManyIncludes() throws {
        let product = try load("name: X\ninclude: [a.yml]\ntargets: {App: {type: application, platform: iOS}}\n",
                               extra: ["a.yml": "include: [b.yml]\n", "b.yml": "include: [a.yml]\n"])
        XCTAssertTrue(product.problems.contains { p in
            if case .unreadable(let e) = p.kind { return e.reason.contains("includes itself") }
            return false
        }, "\(product.problems)")
        XCTAssertNotNil(product.bundle(named: "App"), "the rest of the spec still loads")
    }

    func testSeveralDocumentsAndTags() throws {
        XCTAssertEqual(try formatError(try load("name: A\ntargets: {}\n---\nname: B\n")).kind, .malformed)
        let tagged = try load("name: X\ntargets: !!map\n  App: !custom {type: !!str application, platform: iOS}\n",
                              extra: ["App/A.swift": ""])
        XCTAssertEqual(tagged.bundle(named: "App")?.kind, .app, "\(tagged.problems)")
    }

    func testWrongShapesAreProblemsOrIgnored() throws {
        // A top-level scalar, a mapping key that is a collection, targets of the wrong type.
        XCTAssertEqual(try formatError(try load("just a string")).kind, .malformed)
        XCTAssertEqual(try formatError(try load("? [a, b]\n: c\ntargets: {}\n")).kind, .unsupported)
        assertFellBack(try load("name: X\ntargets: [App, Other]\n"))
        let noType = try load("name: X\ntargets:\n  App: [1, 2]\n")
        XCTAssertTrue(noType.problems.contains { "\($0.kind)".contains("has no type") }, "\(noType.problems)")
        // A project.yml of some other tool is not a spec and is not reported.
        let other = try load("stages: [build, test]\n")
        XCTAssertEqual(other.problems, [])
        assertFellBack(other)
    }

    func testMergeKeysAndAnchorsAreApplied() throws {
        let spec = """
        name: X
        targetTemplates: {}
        base: &base
          type: application
          platform: iOS
        targets:
          App:
            <<: *base
            settings:
              PRODUCT_BUNDLE_IDENTIFIER: com.example.app
        """
        let product = try load(spec, extra: ["App/A.swift": ""])
        XCTAssertEqual(product.problems, [])
        XCTAssertEqual(product.bundle(named: "App")?.kind, .app)
        XCTAssertEqual(product.bundle(named: "App")?.identifier, "com.example.app")
    }

    func testOversizedSpecIsRefused() throws {
        var limits = ReaderLimits()
        limits.maxFileBytes = 64
        let product = try load("name: X\ntargets: {App: {type: application, platform: iOS, sources: [App]}}\n", limits: limits)
        XCTAssertEqual(try formatError(product).kind, .limitExceeded("max-file-bytes"))
    }
}

extension XcodeGenHostileSpecTests {
    func testLargeTemplatesUsedByManyTargetsStopAtTheBudget() throws {
        var yaml = "name: X\ntargetTemplates:\n  Big:\n    type: framework\n    platform: iOS\n    settings:\n"
        for i in 0..<500 { yaml += "      S\(i): v\n" }
        yaml += "targets:\n"
        for i in 0..<500 { yaml += "  T\(i): {templates: [Big]}\n" }
        var limits = ReaderLimits()
        limits.maxPlistObjects = 50_000
        let started = Date()
        let product = try load(yaml, limits: limits)
        XCTAssertLessThan(Date().timeIntervalSince(started), 20)
        XCTAssertTrue(product.problems.contains { "\($0.kind)".contains("target templates copy more than") }, "\(product.problems.prefix(3))")
    }

    func testSourcesNamingTheSameFolderOverAndOverStopAtTheBudget() throws {
        var extra: [String: String] = [:]
        for i in 0..<200 { extra["Big/F\(i).swift"] = "" }
        let yaml = "name: X\ntargets:\n  App:\n    type: application\n    platform: iOS\n    sources:\n"
            + String(repeating: "      - Big\n", count: 2_000)
        var limits = ReaderLimits()
        limits.maxArchiveEntries = 1_000
        let product = try load(yaml, limits: limits, extra: extra)
        XCTAssertTrue(product.problems.contains { "\($0.kind)".contains("max-archive-entries") }, "\(product.problems.prefix(3))")
        XCTAssertEqual(product.bundle(named: "App")?.sourceFiles.count, 200)
    }

    func testManyConfigurationsStopAtTheSettingsBudget() throws {
        var yaml = "name: X\nconfigs:\n"
        for i in 0..<2_000 { yaml += "  C\(i): release\n" }
        yaml += "settings:\n" + (0..<50).map { "  S\($0): v\n" }.joined()
        yaml += "targets:\n" + (0..<50).map { "  T\($0): {type: framework, platform: iOS}\n" }.joined()
        var limits = ReaderLimits()
        limits.maxPlistObjects = 100_000
        let product = try load(yaml, limits: limits)
        XCTAssertTrue(product.problems.contains { "\($0.kind)".contains("max-plist-objects") }, "\(product.problems.prefix(3))")
    }
}
