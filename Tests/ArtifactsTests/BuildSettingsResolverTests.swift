import Foundation
import XCTest
@testable import Artifacts
import Formats

final class BuildSettingsResolverTests: XCTestCase {
    func d(_ raw: String, _ value: String) -> SettingDefinition {
        let (key, conditions) = SettingDefinition.parseKey(raw)!
        return SettingDefinition(key: key, conditions: conditions, value: value)
    }

    func resolver(_ levels: [[SettingDefinition]], context: SettingsContext = SettingsContext()) -> BuildSettingsResolver {
        BuildSettingsResolver(levels: levels, context: context)
    }

    func testReferenceForms() {
        let r = resolver([[d("NAME", "My App"), d("B", "NAME"), d("A_NAME", "nested"), d("EMPTY", "")]])
        XCTAssertEqual(r.expand("$(NAME)|${NAME}|$NAME.x|$$NAME|$(A_$(B))|$()|$(EMPTY)|$"), "My App|My App|My App.x|$NAME|nested||| $".replacingOccurrences(of: "| $", with: "|$"))
        XCTAssertEqual(r.expand("$(UNKNOWN) and ${ALSO_UNKNOWN} and $(NAME"), "$(UNKNOWN) and ${ALSO_UNKNOWN} and $(NAME")
        XCTAssertEqual(r.expand("$(A_$(UNKNOWN))"), "$(A_$(UNKNOWN))")
        XCTAssertEqual(r.expand("$(UNKNOWN:default=fallback) $(EMPTY:default=e) $(NAME:default=x)"), "fallback e My App")
    }

    func testOperators() {
        let r = resolver([[d("NAME", "My App-2.0 (Beta)"), d("P", "/a/b/../c/./file.tar.gz"), d("REL", "dir/sub/"),
                           d("DIGIT", "9lives"), d("U", "Ünïcode name"), d("YES_", "YES")]])
        XCTAssertEqual(r.expand("$(NAME:lower)"), "my app-2.0 (beta)")
        XCTAssertEqual(r.expand("$(NAME:upper)"), "MY APP-2.0 (BETA)")
        XCTAssertEqual(r.expand("$(NAME:rfc1034identifier)"), "My-App-2.0--Beta-")
        XCTAssertEqual(r.expand("$(NAME:rfc1034identifier:lower)"), "my-app-2.0--beta-")
        XCTAssertEqual(r.expand("$(NAME:identifier)"), "My_App_2_0__Beta_")
        XCTAssertEqual(r.expand("$(NAME:c99extidentifier)"), "My_App_2_0__Beta_")
        XCTAssertEqual(r.expand("$(DIGIT:c99extidentifier)"), "_9lives")
        XCTAssertEqual(r.expand("$(U:c99extidentifier)"), "Ünïcode_name")
        XCTAssertEqual(r.expand("$(U:identifier)"), "_n_code_name")
        XCTAssertEqual(r.expand("$(P:file)"), "file.tar.gz")
        XCTAssertEqual(r.expand("$(P:base)"), "file.tar")
        XCTAssertEqual(r.expand("$(P:suffix)"), ".gz")
        XCTAssertEqual(r.expand("$(P:dir)"), "/a/b/../c/./")
        XCTAssertEqual(r.expand("$(P:standardizepath)"), "/a/c/file.tar.gz")
        XCTAssertEqual(r.expand("$(REL:file)"), "sub")
        XCTAssertEqual(r.expand("$(NAME:file:dir)"), "./")
        XCTAssertEqual(r.expand("$(P:suffix=zip)"), "/a/b/../c/./file.tar.zip")
        XCTAssertEqual(r.expand("$(P:file=x.txt)"), "/a/b/../c/./x.txt")
        XCTAssertEqual(r.expand("$(P:base=y)"), "/a/b/../c/./y.gz")
        XCTAssertEqual(r.expand("$(NAME:quote)"), #"My\ App-2.0\ (Beta)"#)
        XCTAssertEqual(r.expand("$(YES_:not) $(NAME:not)"), "NO YES")
        XCTAssertEqual(r.expand("$(NAME:nosuchop)"), "My App-2.0 (Beta)", "unknown operators leave the value alone")
    }

    func testInheritedAcrossLevelsAndWithinAnXcconfig() {
        let r = resolver([
            [d("FLAGS", "-default")],
            [d("FLAGS", "$(inherited) -a"), d("FLAGS", "$(inherited) -b")],  // two lines of one xcconfig
            [],
            [d("FLAGS", "-reset $(value)")],
        ])
        XCTAssertEqual(r.value("FLAGS"), "-reset -default -a -b")
        XCTAssertEqual(resolver([[d("X", "$(inherited) x")]]).value("X"), "x", "nothing below: empty, then trimmed")
    }

    func testConditions() {
        let levels = [
            [d("ID", "base"), d("ID[sdk=iphoneos*]", "device"), d("ID[sdk=iphonesimulator*]", "sim"),
             d("ARCH_ONLY[arch=x86_64]", "intel"), d("ARCH_ONLY[arch=arm64]", "arm"),
             d("BOTH[sdk=iphoneos*]", "sdk"), d("BOTH[sdk=iphoneos*][arch=arm64]", "sdk+arch"),
             d("CFG[config=Rel*]", "release-ish"), d("CFG", "plain"),
             d("ODD[foo=bar]", "never")],
            [d("OVERRIDE[sdk=iphoneos*]", "lower")],
            [d("OVERRIDE", "higher level wins")],
        ]
        let device = resolver(levels)
        XCTAssertEqual(device.value("ID"), "device")
        XCTAssertEqual(device.value("ARCH_ONLY"), "arm")
        XCTAssertEqual(device.value("BOTH"), "sdk+arch")
        XCTAssertEqual(device.value("CFG"), "release-ish", "conditional beats unconditional within a level, whatever the order")
        XCTAssertNil(device.value("ODD"))
        XCTAssertEqual(device.value("OVERRIDE"), "higher level wins")
        let sim = resolver(levels, context: SettingsContext(sdk: "iphonesimulator", arch: "x86_64", configuration: "Debug"))
        XCTAssertEqual(sim.value("ID"), "sim")
        XCTAssertEqual(sim.value("ARCH_ONLY"), "intel")
        XCTAssertEqual(sim.value("CFG"), "plain")
        XCTAssertEqual(sim.setting("ID")?.value, "sim")
    }

    func testParseKey() {
        XCTAssertEqual(SettingDefinition.parseKey("OTHER_LDFLAGS[sdk=iphoneos*][arch=arm64]")?.conditions,
                       [SettingCondition(name: "sdk", pattern: "iphoneos*"), SettingCondition(name: "arch", pattern: "arm64")])
        XCTAssertEqual(SettingDefinition.parseKey("A[sdk=iphoneos*,arch=arm64]")?.conditions.count, 2)
        XCTAssertNil(SettingDefinition.parseKey("9LIVES"))
        XCTAssertNil(SettingDefinition.parseKey("A[sdk"))
        XCTAssertNil(SettingDefinition.parseKey("A[sdk=x]junk"))
        XCTAssertNil(SettingDefinition.parseKey("HAS SPACE"))
    }

    func testCyclesAndBlowUpAreBounded() {
        var chain: [SettingDefinition] = []
        for i in 0..<40 { chain.append(d("E\(i)", "$(E\(i + 1))$(E\(i + 1))")) }
        chain.append(d("E40", "0123456789"))
        let r = resolver([[d("SELF", "[$(SELF)]"), d("A", "a$(B)"), d("B", "b$(C)"), d("C", "c$(A)"),
                           d("INH", "$(inherited)$(INH)")] + chain])
        XCTAssertEqual(r.value("SELF"), "[$(SELF)]")
        XCTAssertEqual(r.value("A"), "abc$(A)")
        XCTAssertEqual(r.value("INH"), "$(INH)")
        let big = r.value("E0")
        XCTAssertEqual(big?.utf8.count, BuildSettingsResolver.maxLength, "2^40 copies are cut at the length cap")
        var deep: [SettingDefinition] = []
        for i in 0..<200 { deep.append(d("D\(i)", "$(D\(i + 1))")) }
        deep.append(d("D200", "bottom"))
        let dr = resolver([deep])
        XCTAssertEqual(dr.value("D150"), "bottom")
        XCTAssertEqual(dr.value("D0"), "$(D\(BuildSettingsResolver.maxDepth))", "nesting stops at the depth cap, as written")
    }

    func testGlob() {
        XCTAssertTrue(Glob.matches("iphoneos*", "iphoneos"))
        XCTAssertTrue(Glob.matches("iphoneos*", "iphoneos17.0"))
        XCTAssertFalse(Glob.matches("iphoneos*", "iphonesimulator"))
        XCTAssertTrue(Glob.matches("*", ""))
        XCTAssertTrue(Glob.matches("a?c*z", "abcxyz"))
        XCTAssertFalse(Glob.matches("a?c", "ac"))
        XCTAssertFalse(Glob.matches(String(repeating: "*a", count: 50) + "b", String(repeating: "a", count: 200)))
    }

    // MARK: - xcconfig

    func testXCConfigParsing() {
        let text = """
        // comment
        #include "Base.xcconfig"
        #include? "Optional.xcconfig"
        #include <DEVELOPER_DIR/Makefiles/CoreOS/Xcode/BSD.xcconfig>
          KEY = value // trailing comment
        URL = https:/$()/example.com
        COND[sdk=iphoneos*][arch=arm64]=x;
        EMPTY =
        not a setting
        9BAD = 1
        """
        let (lines, problems) = XCConfigReader.parse(text: text, path: "C.xcconfig")
        let loc = { (l: Int, c: Int) in FileLocation(path: "C.xcconfig", position: SourcePosition(line: l, column: c)) }
        XCTAssertEqual(lines, [
            .include("Base.xcconfig", optional: false, position: SourcePosition(line: 2, column: 1)),
            .include("Optional.xcconfig", optional: true, position: SourcePosition(line: 3, column: 1)),
            .assignment(SettingDefinition(key: "KEY", value: "value", location: loc(5, 3))),
            .assignment(SettingDefinition(key: "URL", value: "https:/$()/example.com", location: loc(6, 1))),
            .assignment(SettingDefinition(key: "COND", conditions: [SettingCondition(name: "sdk", pattern: "iphoneos*"),
                                                                  SettingCondition(name: "arch", pattern: "arm64")],
                                          value: "x", location: loc(7, 1))),
            .assignment(SettingDefinition(key: "EMPTY", value: "", location: loc(8, 1))),
        ])
        XCTAssertEqual(problems.map(ProjectMalformedTests.describe), [
            "unreadable: malformed xcconfig at line 9, column 1: expected 'NAME = value': C.xcconfig",
            "unreadable: malformed xcconfig at line 10, column 1: invalid setting name '9BAD': C.xcconfig",
        ].map { $0.replacingOccurrences(of: ": C.xcconfig", with: "") })
    }

    func testXCConfigIncludes() {
        let source = MemorySource(text: [
            "Configs/A.xcconfig": "#include \"sub/B.xcconfig\"\nA = a\n#include \"A.xcconfig\"\n#include \"Missing.xcconfig\"\n#include? \"Optional.xcconfig\"\n#include \"sub/case.xcconfig\"",
            "Configs/sub/B.xcconfig": "B = b\n#include \"../A.xcconfig\"",
            "Configs/sub/Case.xcconfig": "C = c",
        ])
        let r = XCConfigReader.read(path: "Configs/A.xcconfig", source: source, index: FileIndex(source.entries), limits: .default)
        XCTAssertEqual(r.definitions.map(\.key), ["B", "A", "C"])
        XCTAssertEqual(r.definitions[0].location, FileLocation(path: "Configs/sub/B.xcconfig", position: SourcePosition(line: 1, column: 1)))
        XCTAssertEqual(r.files, ["Configs/A.xcconfig", "Configs/sub/B.xcconfig", "Configs/sub/Case.xcconfig"])
        XCTAssertEqual(r.problems.map(ProjectMalformedTests.describe), [
            "unreadable: malformed xcconfig at line 2, column 1: #include cycle: Configs/A.xcconfig -> Configs/sub/B.xcconfig -> Configs/A.xcconfig: Configs/sub/B.xcconfig from Configs/sub/B.xcconfig:2:1",
            "unreadable: malformed xcconfig at line 3, column 1: #include cycle: Configs/A.xcconfig -> Configs/A.xcconfig: Configs/A.xcconfig from Configs/A.xcconfig:3:1",
            "missing #include: Configs/Missing.xcconfig from Configs/A.xcconfig:4:1",
            "case #include: Configs/sub/case.xcconfig -> Configs/sub/Case.xcconfig from Configs/A.xcconfig:6:1",
        ].map { $0.replacingOccurrences(of: #": Configs/sub/B.xcconfig from"#, with: " from").replacingOccurrences(of: #": Configs/A.xcconfig from"#, with: " from") })
    }

    func testXCConfigIncludeDepthIsBounded() {
        var files: [String: String] = [:]
        for i in 0..<40 { files["c\(i).xcconfig"] = "K\(i) = \(i)\n#include \"c\(i + 1).xcconfig\"" }
        files["c40.xcconfig"] = "END = yes"
        let source = MemorySource(text: files)
        let r = XCConfigReader.read(path: "c0.xcconfig", source: source, index: FileIndex(source.entries), limits: .default)
        XCTAssertEqual(r.definitions.count, XCConfigReader.maxIncludeDepth)
        XCTAssertEqual(r.problems.count, 1)
        if case .unreadable(let e)? = r.problems.first?.kind { XCTAssertEqual(e.kind, .limitExceeded("max-include-depth")) } else { XCTFail() }
    }
}
