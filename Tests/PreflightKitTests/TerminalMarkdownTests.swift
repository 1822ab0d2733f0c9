import XCTest
import Foundation
import PreflightKit
@testable import PreflightCLI

/// `preflight explain` renders a rule's docs/rules/ page for the terminal: every real page,
/// plain and styled, keeps its words, its code and its `↓` markers, and fits the width.
final class TerminalMarkdownTests: XCTestCase {
    static let escape = "\u{1B}["

    func strip(_ s: String) -> String { s.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression) }

    /// The page's code blocks, line by line, as they must appear: four spaces in, tabs expanded.
    func codeLines(_ markdown: String) -> [String] {
        var inside = false, out: [String] = []
        for line in markdown.components(separatedBy: "\n") {
            if line.hasPrefix("```") { inside.toggle(); continue }
            if inside { out.append(line.isEmpty ? "" : "    " + line.replacingOccurrences(of: "\t", with: "    ")) }
        }
        return out
    }

    /// The prose words of a page (outside code blocks), without Markdown's markers.
    func proseWords(_ markdown: String, keepBackticks: Bool) -> [String] {
        var inside = false, words: [String] = []
        for line in markdown.components(separatedBy: "\n") {
            if line.hasPrefix("```") { inside.toggle(); continue }
            if inside { continue }
            var text = line
            if let r = text.range(of: #"^(#+|-) "#, options: .regularExpression) { text.removeSubrange(r) }
            // `**` marks bold outside code spans only.
            text = text.components(separatedBy: "`").enumerated()
                .map { $0.offset % 2 == 0 ? $0.element.replacingOccurrences(of: "**", with: "") : $0.element }
                .joined(separator: keepBackticks ? "`" : "")
            words += text.split(separator: " ").map(String.init)
        }
        return words
    }

    func testEveryRulePageRendersPlainWithinTheWidth() throws {
        for width in [60, 100] {
            for rule in RuleRegistry.all {
                let page = RuleDocumentation.markdown(rule.description)
                let text = TerminalMarkdown(width: width, styled: false).render(page)
                let id = rule.description.identifier
                XCTAssertFalse(text.contains(Self.escape), "\(id): no ANSI in plain text")
                XCTAssertFalse(text.contains("```"), id)
                XCTAssertEqual(text.components(separatedBy: "↓").count, page.components(separatedBy: "↓").count, "\(id): every ↓ kept")
                let lines = text.components(separatedBy: "\n")
                // Code lines come through unchanged and in order.
                let code = codeLines(page)
                var cursor = 0
                for line in lines where cursor < code.count && line == code[cursor] { cursor += 1 }
                XCTAssertEqual(cursor, code.count, "\(id): code line \(cursor < code.count ? code[cursor] : "") is kept, indented")
                // Prose is wrapped, never cut: lines over the width are code or a single long word.
                let codeSet = Set(code)
                for line in lines where line.count > width && !codeSet.contains(line) {
                    XCTAssertEqual(line.replacingOccurrences(of: "•", with: " ").split(separator: " ").count, 1,
                                   "\(id): \(line.count) > \(width) and not one long word: \(line)")
                }
                // Headings are underlined, Markdown's markers are gone, no word is lost.
                XCTAssertTrue(text.hasPrefix(rule.description.name), id)
                XCTAssertTrue(text.contains("\nWhy\n---\n"), "\(id): the Why heading")
                XCTAssertFalse(lines.contains { $0.hasPrefix("#") }, id)
                let rendered = lines.filter { !codeSet.contains($0) && !$0.allSatisfy({ $0 == "=" || $0 == "-" }) }
                    .joined(separator: " ").replacingOccurrences(of: "•", with: " ").split(separator: " ").map(String.init)
                XCTAssertEqual(rendered, proseWords(page, keepBackticks: true), id)
            }
        }
    }

    func testAStyledPageEmphasisesHeadingsCodeAndMarkers() throws {
        let rule = try XCTUnwrap(RuleRegistry.rule("ats_arbitrary_loads"))
        let page = RuleDocumentation.markdown(rule.description)
        let text = TerminalMarkdown(width: 80, styled: true).render(page)
        let lines = text.components(separatedBy: "\n")
        XCTAssertTrue(lines[0].hasPrefix("\u{1B}[1;4mApp Transport Security"), lines[0])
        XCTAssertTrue(lines.contains("\u{1B}[1mWhy\u{1B}[0m"), "a level-2 heading is bold, without an underline line")
        XCTAssertFalse(lines.contains("---"))
        // Inline code is coloured instead of backticked; ↓ stands out inside a code block.
        XCTAssertTrue(text.contains("\u{1B}[36mNSAllowsArbitraryLoads\u{1B}[0m"), text)
        XCTAssertFalse(strip(text).contains("`NSAllowsArbitraryLoads`"))
        XCTAssertTrue(text.contains("    \u{1B}[36m    \u{1B}[1;31m↓\u{1B}[0m\u{1B}[36m<true/>\u{1B}[0m"), text)
        // Without the escapes, the lines fit as in plain text, and the words are the same.
        for line in lines where !line.hasPrefix("    \u{1B}[36m") && strip(line).count > 80 {
            XCTAssertEqual(strip(line).replacingOccurrences(of: "•", with: " ").split(separator: " ").count, 1, line)
        }
        let prose = text.components(separatedBy: "\n").filter { !$0.hasPrefix("    \u{1B}[36m") }.map(strip).joined(separator: " ")
        XCTAssertEqual(prose.replacingOccurrences(of: "•", with: " ").split(separator: " ").map(String.init), proseWords(page, keepBackticks: false))
    }

    func testWrappingListsAndBold() {
        let md = "# T\n\nOne two three four five six seven eight nine ten.\n\n- **error**: alpha beta gamma delta epsilon zeta eta theta\n- b\n\nAfter https://example.com/a/very/long/path/that/cannot/break ok.\n"
        let plain = TerminalMarkdown(width: 24, styled: false).render(md)
        XCTAssertEqual(plain, """
        T
        =

        One two three four five
        six seven eight nine
        ten.

          • error: alpha beta
            gamma delta epsilon
            zeta eta theta
          • b

        After
        https://example.com/a/very/long/path/that/cannot/break
        ok.

        """)
        let styled = TerminalMarkdown(width: 24, styled: true).render(md)
        XCTAssertTrue(styled.contains("  • \u{1B}[0m\u{1B}[1merror\u{1B}[0m: alpha beta"), styled)
    }

    /// The command: plain when piped, wrapped to COLUMNS; styled on a terminal unless NO_COLOR.
    func testExplainIsPlainInAPipeAndStyledOnATerminal() throws {
        let piped = try CLITests.run(["explain", "ats_arbitrary_loads"], environment: ["COLUMNS": "50"])
        XCTAssertEqual(piped.status, 0)
        XCTAssertFalse(piped.stdout.contains(Self.escape))
        let page = RuleDocumentation.markdown(try XCTUnwrap(RuleRegistry.rule("ats_arbitrary_loads")).description)
        XCTAssertEqual(piped.stdout, TerminalMarkdown(width: 50, styled: false).render(page))

        // `script` gives the command a terminal (util-linux, in every Debian).
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("no script(1)") }
        func onTerminal(_ environment: [String: String]) throws -> String {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            p.arguments = ["-qec", "'\(CLITests.executable.path)' explain ats_arbitrary_loads", "/dev/null"]
            var env = ProcessInfo.processInfo.environment
            env["NO_COLOR"] = nil
            env["TERM"] = "xterm"
            env["COLUMNS"] = "70"
            env.merge(environment) { _, new in new }
            p.environment = env
            let out = Pipe()
            p.standardOutput = out
            p.standardInput = FileHandle.nullDevice
            try p.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 0)
            return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        }
        let styled = try onTerminal([:])
        XCTAssertTrue(styled.contains("\u{1B}[1;4mApp Transport Security"), styled)
        XCTAssertEqual(strip(styled), strip(TerminalMarkdown(width: 70, styled: true).render(page)))
        let noColor = try onTerminal(["NO_COLOR": "1"])
        XCTAssertFalse(noColor.contains(Self.escape), noColor)
        XCTAssertEqual(noColor, TerminalMarkdown(width: 70, styled: false).render(page))
    }
}
