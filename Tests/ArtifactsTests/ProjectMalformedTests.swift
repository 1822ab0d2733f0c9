import Foundation
import XCTest
@testable import Artifacts
import Formats

/// Fixture `Malformed` and hostile inputs: clear errors or problems, never a crash or a hang.
final class ProjectMalformedTests: XCTestCase {
    func load(_ project: String, limits: ReaderLimits = .default) throws -> ProjectLoadResult {
        let source = try ProjectFixtures.source("Malformed")
        return try XcodeProjectLoader.load(project: project, source: source, index: FileIndex(source.entries), limits: limits)
    }

    func loadText(_ pbxproj: String, limits: ReaderLimits = .default) throws -> ProjectLoadResult {
        let source = MemorySource(text: ["X.xcodeproj/project.pbxproj": pbxproj])
        return try XcodeProjectLoader.load(project: "X.xcodeproj", source: source, index: FileIndex(source.entries), limits: limits)
    }

    func assertFormatError(_ body: @autoclosure () throws -> ProjectLoadResult, _ expected: String,
                           file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertTrue(error is FormatError, "\(type(of: error)): \(error)", file: file, line: line)
            XCTAssertEqual(String(describing: error), expected, file: file, line: line)
        }
    }

    func testUnterminatedProject() {
        assertFormatError(try load("Unterminated.xcodeproj"),
                          "malformed project.pbxproj at line 11, column 14: unterminated array opened at line 11")
    }

    func testRootObjectMissing() {
        assertFormatError(try load("NoRoot.xcodeproj"),
                          "malformed project.pbxproj at line 8, column 15: 'rootObject' E4000000000000000000A001 is not in 'objects'")
    }

    func testStructuralErrors() {
        assertFormatError(try loadText(""), "malformed project.pbxproj at line 1, column 1: empty document")
        assertFormatError(try loadText("(a, b)"), "malformed project.pbxproj at line 1, column 1: the top level is of type array, not a dictionary")
        assertFormatError(try loadText("{ rootObject = R; }"), "malformed project.pbxproj at line 1, column 1: no 'objects' dictionary")
        assertFormatError(try loadText("{ objects = {}; }"), "malformed project.pbxproj at line 1, column 1: no 'rootObject'")
        assertFormatError(try loadText("{ objects = (); rootObject = R; }"),
                          "malformed project.pbxproj at line 1, column 13: 'objects' is of type array, not a dictionary")
        assertFormatError(try loadText("{ objects = { R = { isa = PBXGroup; }; }; rootObject = R; }"),
                          "malformed project.pbxproj at line 1, column 56: 'rootObject' R is a PBXGroup, not a PBXProject")
        assertFormatError(try loadText("{ objects = { R = { isa = PBXProject; }; }; rootObject = R; } }"),
                          "malformed project.pbxproj at line 1, column 63: unexpected text after the top-level value")
        assertFormatError(try loadText("{ objects = { R = { isa = PBXProject; name = \"open ; }; }; rootObject = R; }"),
                          "malformed project.pbxproj at line 1, column 46: unterminated string")
    }

    func testLimits() {
        var small = ReaderLimits()
        small.maxFileBytes = 10
        XCTAssertThrowsError(try loadText("{ objects = {}; rootObject = R; }", limits: small)) { error in
            XCTAssertEqual((error as? FormatError)?.kind, .limitExceeded("max-file-bytes"))
        }
        // Deep nesting stops at the depth limit instead of exhausting the stack.
        let deep = String(repeating: "(", count: 100_000)
        XCTAssertThrowsError(try loadText(deep)) { error in
            XCTAssertEqual((error as? FormatError)?.kind, .limitExceeded("max-nesting-depth"))
        }
        var few = ReaderLimits()
        few.maxPlistObjects = 5
        XCTAssertThrowsError(try loadText("{ objects = { A = { isa = PBXGroup; }; }; rootObject = R; }", limits: few)) { error in
            XCTAssertEqual((error as? FormatError)?.kind, .limitExceeded("max-plist-objects"))
        }
    }

    func testMissingProjectFile() {
        let source = MemorySource(text: ["App.xcodeproj/xcuserdata/me.xcuserdatad/x.plist": "x"])
        XCTAssertThrowsError(try XcodeProjectLoader.load(project: "App.xcodeproj", source: source, index: FileIndex(source.entries))) { error in
            XCTAssertEqual(error as? XcodeProjectError, .noProjectFile("App.xcodeproj"))
        }
    }

    static func describe(_ p: LoadProblem) -> String {
        var s: String
        switch p.kind {
        case .unreadable(let e): s = "unreadable: \(e)"
        case .missingReference(let setting): s = "missing \(setting): \(p.path)"
        case .caseMismatch(let setting, let actual): s = "case \(setting): \(p.path) -> \(actual)"
        default: s = "\(p.kind): \(p.path)"
        }
        if let b = p.bundle { s += " [\(b)]" }
        if let r = p.referencedFrom { s += " from \(r.path):\(r.position.map(\.description) ?? "-")" }
        return s
    }

    func testBrokenObjectGraphBecomesProblems() throws {
        let r = try load("Broken.xcodeproj")
        XCTAssertEqual(r.targets.map(\.name), ["App", "Orphan"])
        XCTAssertEqual(r.bundles.map(\.name), ["App", "Orphan"])
        XCTAssertEqual(r.bundles.map(\.kind), [.app, .framework])
        let pbx = "malformed project.pbxproj"
        XCTAssertEqual(r.problems.map(Self.describe), [
            "unreadable: \(pbx) at line 111, column 4: build configuration E5000000000000000000C404 is missing or not an XCBuildConfiguration with a name [App]",
            "unreadable: \(pbx) at line 65, column 4: buildConfigurationList E5000000000000000000L404 is not an XCConfigurationList in 'objects' [Orphan]",
            "unreadable: \(pbx) at line 75, column 4: target E5000000000000000000T404 is not in 'objects'",
            "missing INFOPLIST_FILE: /Users/someone/App/Info.plist [App] from Broken.xcodeproj/project.pbxproj:98:5",
            "missing PBXFileReference: Tail/Ouroboros/Loop.swift [App] from Broken.xcodeproj/project.pbxproj:10:110",
            "unreadable: \(pbx) at line 9, column 79: file reference E5000000000000000000F404 is not in 'objects' [App]",
            "unreadable: \(pbx) at line 44, column 4: build file E5000000000000000000B404 is not in 'objects' [App]",
            "unreadable: \(pbx) at line 53, column 4: build phase E5000000000000000000H404 is not in 'objects' [App]",
            "unreadable: \(pbx) at line 25, column 3: group E5000000000000000000G003 is its own ancestor (cyclic group references); its files are resolved from the project folder",
        ])
    }

    func testSelfReferencingSettingsTerminate() throws {
        let app = try load("Broken.xcodeproj").bundle("App")
        XCTAssertEqual(app.buildSettings["SELF"]?.value, "$(SELF) again")
        XCTAssertEqual(app.buildSettings["PING"]?.value, "<$(PING)>")
        XCTAssertEqual(app.buildSettings["PONG"]?.value, "<$(PING)>")
        XCTAssertEqual(app.buildSettings["EXPONENTIAL_0"]?.value.count, 512)
        XCTAssertEqual(app.settingsIdentifier, "com.example.$(SELF) again")
        XCTAssertNil(app.infoPlistPath)
    }

    func testDiscoverySkipsDependenciesAndBuildOutput() {
        let paths = [
            "App.xcodeproj/project.pbxproj",
            "App.xcodeproj/project.xcworkspace/contents.xcworkspacedata",
            "Pods/Pods.xcodeproj/project.pbxproj",
            "ios/Pods/Pods.xcodeproj/project.pbxproj",
            "sub/build/Gen.xcodeproj/project.pbxproj",
            "a/Carthage/Checkouts/Lib/Lib.xcodeproj/project.pbxproj",
            "DerivedData/X/Y.xcodeproj/project.pbxproj",
            ".build/checkouts/dep/Dep.xcodeproj/project.pbxproj",
            "Empty.xcodeproj/xcuserdata/me.xcuserdatad/xcschemes/xcschememanagement.plist",
            "Tools/Gen.xcodeproj/project.pbxproj",
            "notaproject/project.pbxproj",
            "buildtools/B.xcodeproj/project.pbxproj",
        ]
        let source = MemorySource(text: Dictionary(uniqueKeysWithValues: paths.map { ($0, "{}") }))
        XCTAssertEqual(XcodeProjectLoader.discoverProjects(in: FileIndex(source.entries)),
                       ["App.xcodeproj", "Tools/Gen.xcodeproj", "buildtools/B.xcodeproj"])
    }

    func testOpenStepSurrogatePairEscape() throws {
        let node = try OpenStepParser.parse(text: #"{ a = "\UD83D\UDE00 ok"; b = "\UD83D x"; }"#)
        XCTAssertEqual(node["a"]?.string, "\u{1F600} ok")
        XCTAssertEqual(node["b"]?.string, "\u{FFFD} x", "a lone surrogate stays a replacement character")
    }

    func testOpenStepPositionsInPbxproj() throws {
        let text = "// !$*UTF8*$!\n{\n\tobjects = {\n\t\tA /* c */ = {isa = PBXGroup; path = \"a b\"; };\n\t};\n}\n"
        let node = try OpenStepParser.parse(text: text)
        let a = try XCTUnwrap(node["objects"]?.dictionary?.entry("A"))
        XCTAssertEqual(a.keyPosition, SourcePosition(line: 4, column: 3))
        XCTAssertEqual(a.value.dictionary?.entry("path")?.keyPosition, SourcePosition(line: 4, column: 32))
        XCTAssertEqual(a.value["path"]?.string, "a b")
    }
}

/// Inputs built to exhaust the stack or the clock.
final class ProjectHostileTests: XCTestCase {
    func testVeryDeepGroupChainIsCut() throws {
        var objects = ""
        let n = 20_000
        for i in 0..<n {
            objects += "G\(i) = {isa = PBXGroup; children = (G\(i + 1)); path = d; sourceTree = \"<group>\"; };\n"
        }
        objects += "G\(n) = {isa = PBXGroup; children = (F); path = d; sourceTree = \"<group>\"; };\n"
        objects += "F = {isa = PBXFileReference; path = f.swift; sourceTree = \"<group>\"; };\n"
        objects += "B = {isa = PBXBuildFile; fileRef = F; };\nS = {isa = PBXSourcesBuildPhase; files = (B); };\n"
        objects += "T = {isa = PBXNativeTarget; name = App; buildPhases = (S); productType = \"com.apple.product-type.application\"; };\n"
        objects += "P = {isa = PBXProject; mainGroup = G0; targets = (T); };\n"
        let source = MemorySource(text: ["X.xcodeproj/project.pbxproj": "{ objects = {\n\(objects)}; rootObject = P; }"])
        let r = try XcodeProjectLoader.load(project: "X.xcodeproj", source: source, index: FileIndex(source.entries))
        XCTAssertEqual(r.bundles.count, 1)
        XCTAssertTrue(r.problems.contains { if case .unreadable(let e) = $0.kind { return e.reason.hasPrefix("groups nested deeper than 256") } else { return false } },
                      r.problems.map(ProjectMalformedTests.describe).joined(separator: "\n"))
    }

    func testVeryDeepReferenceNestingIsCut() {
        let deep = String(repeating: "$(A_", count: 50_000) + "X" + String(repeating: ")", count: 50_000)
        let r = BuildSettingsResolver(levels: [[SettingDefinition(key: "V", value: deep), SettingDefinition(key: "W", value: "ok $(V)")]],
                                      context: SettingsContext())
        XCTAssertEqual(r.value("V"), deep.count > BuildSettingsResolver.maxLength ? String(deep.prefix(BuildSettingsResolver.maxLength)) : deep)
        XCTAssertEqual(r.value("W")?.hasPrefix("ok $(A_$(A_"), true)
    }

    func testManyMissingReferencesStayFast() throws {
        var objects = "", files = ""
        let n = 5_000
        for i in 0..<n {
            objects += "F\(i) = {isa = PBXFileReference; path = missing\(i).swift; sourceTree = SOURCE_ROOT; };\nB\(i) = {isa = PBXBuildFile; fileRef = F\(i); };\n"
            files += "B\(i),"
        }
        objects += "S = {isa = PBXSourcesBuildPhase; files = (\(files)); };\n"
        objects += "T = {isa = PBXNativeTarget; name = App; buildPhases = (S); productType = \"com.apple.product-type.application\"; };\n"
        objects += "G = {isa = PBXGroup; children = (); sourceTree = \"<group>\"; };\nP = {isa = PBXProject; mainGroup = G; targets = (T); };\n"
        var text: [String: String] = ["X.xcodeproj/project.pbxproj": "{ objects = {\n\(objects)}; rootObject = P; }"]
        for i in 0..<5_000 { text["Other/f\(i).txt"] = "" }
        let source = MemorySource(text: text)
        let start = Date()
        let r = try XcodeProjectLoader.load(project: "X.xcodeproj", source: source, index: FileIndex(source.entries))
        XCTAssertEqual(r.problems.count, n)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "quadratic work somewhere (0.3 s in a debug build when linear)")
    }
}
