import Foundation
import Formats

/// Reads `.xcconfig` files: `KEY = value`, `KEY[sdk=iphoneos*] = value`, `//` comments (Xcode
/// ends a line at `//` wherever it appears, which is why URLs are written `https:/$()/`),
/// `#include "path"` and `#include? "path"` (optional) relative to the including file.
/// Assignments come out in order with their line and column, included files inlined where
/// they are included. Include cycles are skipped and include depth is capped.
public enum XCConfigReader {
    public static let maxIncludeDepth = 16

    public struct Result: Sendable {
        public var definitions: [SettingDefinition] = []
        public var problems: [LoadProblem] = []
        /// Every file read, in order.
        public var files: [String] = []
    }

    /// Reads `path` (relative to the input root; must exist exactly) and what it includes.
    /// An include not found beside the including file is looked up in `projectDir` too, as
    /// Xcode does (element-ios's extension xcconfigs include `Config/…` of the project folder).
    public static func read(path: String, source: FileSource, index: FileIndex, limits: ReaderLimits,
                            bundle: String? = nil, projectDir: String? = nil) -> Result {
        var result = Result()
        var stack: [String] = []
        readFile(path, source: source, index: index, limits: limits, bundle: bundle, projectDir: projectDir, stack: &stack, into: &result)
        return result
    }

    /// Parses one file's text without following includes (includes are returned separately).
    public static func parse(text: String, path: String) -> (lines: [Line], problems: [LoadProblem]) {
        var lines: [Line] = []
        var problems: [LoadProblem] = []
        var lineNo = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            lineNo += 1
            var line = Substring(rawLine)
            if let comment = line.range(of: "//") { line = line[..<comment.lowerBound] }
            let leading = line.prefix { $0 == " " || $0 == "\t" || $0 == "\u{feff}" }
            let column = leading.unicodeScalars.count + 1
            let body = line.dropFirst(leading.count).trimmingCharacters(in: .whitespaces)
            if body.isEmpty { continue }
            let pos = SourcePosition(line: lineNo, column: column)
            if body.hasPrefix("#include") {
                var rest = body.dropFirst("#include".count)
                let optional = rest.hasPrefix("?")
                if optional { rest = rest.dropFirst() }
                let spec = rest.trimmingCharacters(in: .whitespaces)
                if spec.count >= 2, spec.hasPrefix("\""), spec.hasSuffix("\"") {
                    lines.append(.include(String(spec.dropFirst().dropLast()), optional: optional, position: pos))
                } else if spec.hasPrefix("<") {
                    // `#include <DEVELOPER_DIR/...>` names files outside the input.
                    continue
                } else {
                    problems.append(LoadProblem(.unreadable(FormatError(.malformed, format: "xcconfig",
                        reason: "#include needs a quoted path", line: lineNo, column: column)), path: path))
                }
                continue
            }
            guard let eq = assignmentOperator(in: body) else {
                problems.append(LoadProblem(.unreadable(FormatError(.malformed, format: "xcconfig",
                    reason: "expected 'NAME = value'", line: lineNo, column: column)), path: path))
                continue
            }
            let rawKey = String(body[..<eq])
            var value = body[body.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            if value.hasSuffix(";") { value = String(value.dropLast()).trimmingCharacters(in: .whitespaces) }
            guard let (key, conditions) = SettingDefinition.parseKey(rawKey) else {
                problems.append(LoadProblem(.unreadable(FormatError(.malformed, format: "xcconfig",
                    reason: "invalid setting name '\(rawKey.trimmingCharacters(in: .whitespaces))'", line: lineNo, column: column)), path: path))
                continue
            }
            lines.append(.assignment(SettingDefinition(key: key, conditions: conditions, value: value,
                                                       location: FileLocation(path: path, position: pos))))
        }
        return (lines, problems)
    }

    /// The `=` of `NAME[cond=value] = value`: the first one outside brackets.
    static func assignmentOperator(in body: String) -> String.Index? {
        var depth = 0
        var i = body.startIndex
        while i < body.endIndex {
            switch body[i] {
            case "[": depth += 1
            case "]": depth = max(0, depth - 1)
            case "=" where depth == 0: return i
            default: break
            }
            i = body.index(after: i)
        }
        return nil
    }

    public enum Line: Sendable, Equatable {
        case assignment(SettingDefinition)
        case include(String, optional: Bool, position: SourcePosition)
    }

    private static func readFile(_ path: String, source: FileSource, index: FileIndex, limits: ReaderLimits, bundle: String?,
                                 projectDir: String?, stack: inout [String], into result: inout Result) {
        let text: String
        do {
            text = try ProjectFiles.readText(path, source: source, index: index, limits: limits, format: "xcconfig")
        } catch let e as FormatError {
            result.problems.append(LoadProblem(.unreadable(e), path: path, bundle: bundle))
            return
        } catch {
            result.problems.append(LoadProblem(.inaccessible(String(describing: error)), path: path, bundle: bundle))
            return
        }
        stack.append(path)
        defer { stack.removeLast() }
        result.files.append(path)
        let (lines, problems) = parse(text: text, path: path)
        result.problems += problems.map { var p = $0; p.bundle = bundle; return p }
        for line in lines {
            switch line {
            case .assignment(let d):
                result.definitions.append(d)
            case .include(let spec, let optional, let pos):
                let from = FileLocation(path: path, position: pos)
                let setting = optional ? "#include?" : "#include"
                // Absolute or climbing out of the input: not something the input can provide.
                guard let target = ProjectPaths.join(PathUtil.parent(path), spec) else {
                    if !optional { result.problems.append(LoadProblem(.missingReference(setting: setting), path: spec, bundle: bundle, referencedFrom: from)) }
                    continue
                }
                var actual: String
                var lookup = index.lookup(target)
                if case .missing = lookup, let projectDir, let fromProject = ProjectPaths.join(projectDir, spec) {
                    let second = index.lookup(fromProject)
                    if case .missing = second {} else { lookup = second }
                }
                switch lookup {
                case .exact(let e): actual = e.path
                case .caseMismatch(let e):
                    actual = e.path
                    result.problems.append(LoadProblem(.caseMismatch(setting: setting, actualPath: e.path), path: target, bundle: bundle, referencedFrom: from))
                case .missing:
                    if !optional { result.problems.append(LoadProblem(.missingReference(setting: setting), path: target, bundle: bundle, referencedFrom: from)) }
                    continue
                }
                actual = PathUtil.normalize(actual)
                if stack.contains(actual) {
                    result.problems.append(LoadProblem(.unreadable(FormatError(.malformed, format: "xcconfig",
                        reason: "#include cycle: \((stack + [actual]).joined(separator: " -> "))", line: pos.line, column: pos.column)),
                        path: path, bundle: bundle, referencedFrom: from))
                    continue
                }
                if stack.count >= maxIncludeDepth {
                    result.problems.append(LoadProblem(.unreadable(FormatError(.limitExceeded("max-include-depth"), format: "xcconfig",
                        reason: "#include nested deeper than \(maxIncludeDepth)", line: pos.line, column: pos.column)),
                        path: path, bundle: bundle, referencedFrom: from))
                    continue
                }
                readFile(actual, source: source, index: index, limits: limits, bundle: bundle, projectDir: projectDir, stack: &stack, into: &result)
            }
        }
    }
}
