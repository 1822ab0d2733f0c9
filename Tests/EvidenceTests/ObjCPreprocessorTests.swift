import XCTest
@testable import Evidence

/// The pieces under the Objective-C scanner: `#if` expressions, conditional regions,
/// line splicing and positions, and the lexer's tokens.
final class ObjCPreprocessorTests: XCTestCase {
    func evaluate(_ expression: String, _ macros: [String: ObjCMacroValue] = [:]) -> Bool? {
        ObjCConditionEvaluator.evaluate(Array(expression.utf8), macros: macros)
    }

    func testIntegerArithmeticAndPrecedence() {
        XCTAssertEqual(evaluate("1 + 2 * 3 == 7"), true)
        XCTAssertEqual(evaluate("(1 + 2) * 3 == 7"), false)
        XCTAssertEqual(evaluate("0x10 == 16 && 010 == 8 && 0b11 == 3 && 1'000 == 1000"), true)
        XCTAssertEqual(evaluate("2UL > 1l && -1 < 0 && ~0 == -1 && (1 << 4) == 16"), true)
        XCTAssertEqual(evaluate("0 ? 1 : 0"), false)
        XCTAssertEqual(evaluate("1 ? 2 : 0"), true)
        XCTAssertNil(evaluate("1 / 0"), "division by zero is not a value")
    }

    func testUnknownMacrosAndShortCircuits() {
        XCTAssertNil(evaluate("FOO"))
        XCTAssertNil(evaluate("FOO > 2"))
        XCTAssertEqual(evaluate("FOO || 1"), true)
        XCTAssertEqual(evaluate("FOO && 0"), false)
        XCTAssertNil(evaluate("FOO ? 1 : 0"))
        XCTAssertEqual(evaluate("FOO ? 1 : 1"), true)
        XCTAssertNil(evaluate("__has_include(<CoreLocation/CoreLocation.h>)"))
        XCTAssertNil(evaluate("__IPHONE_OS_VERSION_MIN_REQUIRED >= 140000"))
        XCTAssertEqual(evaluate("defined(__has_include) || 1"), true)
    }

    func testDefinedAndKnownMacros() {
        let macros: [String: ObjCMacroValue] = ["DEBUG": .undefined, "SIM": .defined(0), "ODD": .defined(nil)]
        XCTAssertEqual(evaluate("DEBUG", macros), false, "an undefined macro is 0")
        XCTAssertEqual(evaluate("defined(DEBUG)", macros), false)
        XCTAssertEqual(evaluate("!defined DEBUG && defined(SIM) && !SIM", macros), true)
        XCTAssertNil(evaluate("ODD", macros))
        XCTAssertEqual(evaluate("defined ODD", macros), true)
    }

    func testMalformedExpressionsAreUnknown() {
        for expression in ["", "(1", "1 +", "defined(", "defined()", "1 2", ")", "? :",
                           String(repeating: "(", count: 500) + "1" + String(repeating: ")", count: 500),
                           String(repeating: "-", count: 500) + "1"] {
            XCTAssertNil(evaluate(expression), expression.prefix(20) + "")
        }
    }

    func testConditionalRegions() {
        var conditionals = ObjCConditionals(definitions: [:], maxDepth: 4)
        XCTAssertEqual(conditionals.region, .shipping)
        conditionals.pushIf { ObjCConditionEvaluator.evaluate(Array("DEBUG".utf8), macros: $0) }
        XCTAssertEqual(conditionals.region, .notShipping)
        conditionals.pushIf { _ in false }
        XCTAssertEqual(conditionals.region, .dead)
        conditionals.alternative(nil)
        XCTAssertEqual(conditionals.region, .notShipping, "#else inside #if DEBUG is still debug-only")
        conditionals.popIf()
        conditionals.alternative(nil)
        XCTAssertEqual(conditionals.region, .shipping)
        conditionals.popIf()
        conditionals.popIf()  // unbalanced #endif
        XCTAssertEqual(conditionals.region, .shipping)
        for _ in 0..<10 { conditionals.pushIf { _ in false } }
        XCTAssertEqual(conditionals.region, .dead, "levels past the cap inherit the region")
        for _ in 0..<10 { conditionals.popIf() }
        XCTAssertEqual(conditionals.region, .shipping)
    }

    func testSplicedOffsetsMapBackToLinesAndColumns() {
        let source = "ab\\\ncd\\\r\nef\ngh"
        var (positions, spliced) = ObjCSourcePositions.splice(Array(source.utf8))
        XCTAssertEqual(String(decoding: spliced, as: UTF8.self), "abcdef\ngh")
        XCTAssertEqual(positions.lineAndColumn(0).line, 1)
        XCTAssertEqual(positions.lineAndColumn(2).line, 2)  // c
        XCTAssertEqual(positions.lineAndColumn(2).column, 1)
        XCTAssertEqual(positions.lineAndColumn(5).line, 3)  // f
        XCTAssertEqual(positions.lineAndColumn(5).column, 2)
        XCTAssertEqual(positions.lineAndColumn(7).line, 4)  // g
        XCTAssertEqual(positions.lineAndColumn(7).column, 1)
    }

    func testTokenKinds() {
        let source = #"x = a->b.c::d ... @"s" @[1] @selector(f:) 'c' R"(r)" 1.5e-3 == [y z:w ? u : v];"#
        var lexer = ObjCLexer(bytes: Array(source.utf8), definitions: [:], maxConditionalDepth: 8)
        var kinds: [ObjCToken.Kind] = []
        while let token = lexer.next() { kinds.append(token.kind) }
        XCTAssertEqual(kinds, [
            .identifier, .assign, .identifier, .arrow, .identifier, .dot, .identifier, .scope, .identifier,
            .otherOperator, .literal, .at, .leftBracket, .literal, .rightBracket,
            .atKeyword, .leftParen, .identifier, .colon, .rightParen, .literal, .literal, .literal,
            .otherOperator, .leftBracket, .identifier, .identifier, .colon, .identifier, .question,
            .identifier, .colon, .identifier, .rightBracket, .semicolon,
        ])
    }

    func testCFileWithCFunctions() {
        let usages = ObjCSourceScanner.scan(source: """
            #include <dns_sd.h>
            static void browse(void) {
                DNSServiceRef ref;
                DNSServiceBrowse(&ref, 0, 0, "_http._tcp", NULL, callback, NULL);
                nw_browser_t browser = nw_browser_create(descriptor, parameters);
            }
            """, path: "browse.c")
        XCTAssertEqual(usages.map { "\($0.capability) \($0.api) \($0.line):\($0.column)" }, [
            "local_network DNSServiceBrowse() 4:5",
            "local_network nw_browser_create() 5:28",
        ])
    }

    func testEmptyDefinitionMeansOne() {
        let source = "#if FEATURE\nCNContactStore *s;\n#endif"
        XCTAssertEqual(ObjCSourceScanner.scan(source: source, path: "a.m", definitions: ["FEATURE": ""]).map(\.ships), [true])
        XCTAssertEqual(ObjCSourceScanner.scan(source: source, path: "a.m", definitions: ["FEATURE": "0"]), [])
    }
}
