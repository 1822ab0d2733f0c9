import Foundation

/// Markdown for a terminal, as `preflight explain` prints a rule's page: headings emphasised,
/// prose and list items wrapped to the width, code blocks indented and never reflowed (their
/// `↓` markers kept), inline code and bold set apart. With `styled` the emphasis is ANSI (bold,
/// underline, colour); without it the text is plain: headings underlined with `=` or `-`, code
/// spans keep their backticks. Covers the Markdown that rule pages use (RuleDocumentation).
struct TerminalMarkdown {
    var width: Int
    var styled: Bool

    init(width: Int, styled: Bool) {
        self.width = max(width, 20)
        self.styled = styled
    }

    enum Style: Equatable { case plain, code, bold }

    static let reset = "\u{1B}[0m"
    static let bold = "\u{1B}[1m"
    static let headingStyles = ["\u{1B}[1;4m", "\u{1B}[1m", "\u{1B}[1m"]
    static let codeStyle = "\u{1B}[36m"
    static let markerStyle = "\u{1B}[1;31m"

    func render(_ markdown: String) -> String {
        var out: [String] = []
        var paragraph: [String] = []
        var code: [String]?
        // One blank line between blocks, none at the start.
        func blank() { if let last = out.last, !last.isEmpty { out.append("") } }
        func flush() {
            guard !paragraph.isEmpty else { return }
            let text = paragraph.joined(separator: " ")
            paragraph = []
            if text.hasPrefix("- ") || text.hasPrefix("* ") {
                out += wrap(String(text.dropFirst(2)), first: "  • ", rest: "    ")
            } else {
                blank()
                out += wrap(text, first: "", rest: "")
            }
        }
        for line in markdown.components(separatedBy: "\n") {
            if var block = code {
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                    blank()
                    out += block.map(codeLine)
                    out.append("")
                    code = nil
                } else {
                    block.append(line)
                    code = block
                }
                continue
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                flush()
                code = []
            } else if trimmed.isEmpty {
                flush()
                blank()
            } else if let level = headingLevel(trimmed) {
                flush()
                blank()
                out += heading(String(trimmed.drop(while: { $0 == "#" }).drop(while: { $0 == " " })), level: level)
            } else if trimmed.hasPrefix("- ") || trimmed.hasPrefix("* ") {
                // Each item is its own block; lines that follow it without a marker continue it.
                flush()
                if out.last.map({ !$0.hasPrefix("  • ") && !$0.hasPrefix("    ") }) ?? false { blank() }
                paragraph = [trimmed]
            } else {
                paragraph.append(trimmed)
            }
        }
        if let block = code {  // an unterminated fence: still shown as code
            blank()
            out += block.map(codeLine)
        }
        flush()
        while out.last == "" { out.removeLast() }
        return out.joined(separator: "\n") + "\n"
    }

    func headingLevel(_ line: String) -> Int? {
        let hashes = line.prefix(while: { $0 == "#" }).count
        guard (1...6).contains(hashes), line.dropFirst(hashes).first == " " else { return nil }
        return hashes
    }

    func heading(_ text: String, level: Int) -> [String] {
        let lines = wrap(text, first: "", rest: "", base: styled ? Self.headingStyles[min(level, 3) - 1] : "")
        guard !styled, level <= 2 else { return lines }
        let length = lines.map(visibleLength).max() ?? 0
        return lines + [String(repeating: level == 1 ? "=" : "-", count: length)]
    }

    /// A code line: four spaces in, tabs as four spaces, never wrapped; `↓` stands out when styled.
    func codeLine(_ line: String) -> String {
        let text = line.replacingOccurrences(of: "\t", with: "    ")
        guard !text.isEmpty else { return "" }
        guard styled else { return "    " + text }
        let marked = text.replacingOccurrences(of: "↓", with: Self.markerStyle + "↓" + Self.reset + Self.codeStyle)
        return "    " + Self.codeStyle + marked + Self.reset
    }

    // MARK: Inline text

    typealias Cell = (character: Character, style: Style)

    /// Characters with their style: `code` spans and `**bold**`; in plain text the backticks stay
    /// and the asterisks go.
    func cells(_ text: String) -> [Cell] {
        var out: [Cell] = []
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            if chars[i] == "`", let end = chars[(i + 1)...].firstIndex(of: "`") {
                let span = chars[i...end]
                out += (styled ? Array(span.dropFirst().dropLast()) : Array(span)).map { ($0, .code) }
                i = end + 1
            } else if chars[i] == "*", i + 1 < chars.count, chars[i + 1] == "*", let end = closingBold(chars, from: i + 2) {
                out += chars[(i + 2)..<end].map { ($0, .bold) }
                i = end + 2
            } else {
                out.append((chars[i], .plain))
                i += 1
            }
        }
        return out
    }

    func closingBold(_ chars: [Character], from start: Int) -> Int? {
        var j = start
        while j + 1 < chars.count {
            if chars[j] == "*" && chars[j + 1] == "*" { return j > start ? j : nil }
            j += 1
        }
        return nil
    }

    /// Words (runs of cells between spaces) laid out in lines of at most `width` visible
    /// characters; a word longer than a line (a URL) gets a line of its own, unbroken.
    func wrap(_ text: String, first: String, rest: String, base: String = "") -> [String] {
        var words: [[Cell]] = [[]]
        for cell in cells(text) {
            if cell.character == " " {
                if !(words.last?.isEmpty ?? true) { words.append([]) }
            } else {
                words[words.count - 1].append(cell)
            }
        }
        if words.last?.isEmpty == true { words.removeLast() }
        var lines: [String] = []
        var current: [Cell] = []
        var prefix = first
        for word in words {
            if !current.isEmpty && prefix.count + current.count + 1 + word.count > width {
                lines.append(prefix + styledText(current, base: base))
                current = []
                prefix = rest
            }
            if !current.isEmpty { current.append((" ", current.last!.style == word.first?.style ? current.last!.style : .plain)) }
            current += word
        }
        if !current.isEmpty || lines.isEmpty { lines.append(prefix + styledText(current, base: base)) }
        return lines
    }

    func styledText(_ cells: [Cell], base: String) -> String {
        guard styled else { return String(cells.map(\.character)) }
        var out = base
        var style = Style.plain
        for cell in cells {
            if cell.style != style {
                out += Self.reset + base + (cell.style == .code ? Self.codeStyle : cell.style == .bold ? Self.bold : "")
                style = cell.style
            }
            out.append(cell.character)
        }
        return base.isEmpty && style == .plain ? out : out + Self.reset
    }

    func visibleLength(_ line: String) -> Int {
        line.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression).count
    }
}

extension TerminalMarkdown {
    /// For standard output: styled on a terminal unless `NO_COLOR` is set (or TERM is dumb), as
    /// wide as the terminal (else `COLUMNS`, else 80).
    static func forStandardOutput(environment: [String: String] = ProcessInfo.processInfo.environment) -> TerminalMarkdown {
        let tty = isatty(1) == 1
        let styled = tty && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
        var width = 0
        if tty {
            var size = winsize()
            if withUnsafeMutablePointer(to: &size, { ioctl(1, UInt(TIOCGWINSZ), $0) }) == 0 { width = Int(size.ws_col) }
        }
        if width <= 0 { width = environment["COLUMNS"].flatMap { Int($0) } ?? 80 }
        return TerminalMarkdown(width: width, styled: styled)
    }
}
