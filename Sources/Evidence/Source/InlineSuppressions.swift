import Foundation
import Artifacts
import Formats

/// A comment in a source file that accepts a finding about the code it stands by:
/// `// preflight:disable:next missing_purpose_string — reason` on the line before the use, or
/// `// preflight:disable:this rule_id — reason` at the end of its line. Several rule ids may
/// be listed with commas; the reason (after `—`, `--` or ` - `) is required: a comment without
/// one accepts nothing.
public struct InlineSuppression: Sendable, Equatable {
    public var rules: Set<String>
    public var reason: String

    public init(rules: Set<String>, reason: String) {
        self.rules = rules
        self.reason = reason
    }
}

public enum InlineSuppressions {
    static let marker = "preflight:disable:"
    static let markerBytes = Array(marker.utf8)

    /// The suppressions of each of these source files, by the line they apply to.
    public static func read(_ paths: Set<String>, from source: FileSource, limits: ReaderLimits) -> [String: [Int: [InlineSuppression]]] {
        var out: [String: [Int: [InlineSuppression]]] = [:]
        for path in paths.sorted() {
            guard let data = try? source.read(path), data.count <= limits.maxSourceFileBytes,
                  data.withUnsafeBytes({ ByteSearch.firstOffset(of: markerBytes, in: $0) }) != nil else { continue }
            let found = parse(String(decoding: data, as: UTF8.self))
            if !found.isEmpty { out[path] = found }
        }
        return out
    }

    /// Line (1-based) → the suppressions that apply to it.
    public static func parse(_ text: String) -> [Int: [InlineSuppression]] {
        var out: [Int: [InlineSuppression]] = [:]
        guard text.contains(marker) else { return out }
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let m = line.range(of: marker), let comment = line.range(of: "//") ?? line.range(of: "/*"),
                  comment.upperBound <= m.lowerBound else { continue }
            let rest = line[m.upperBound...]
            let target: Int
            if rest.hasPrefix("next") { target = index + 2 } else if rest.hasPrefix("this") { target = index + 1 } else { continue }
            let body = rest.dropFirst(4)
            guard let separator = ["—", "--", " - "].compactMap({ body.range(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound }) else { continue }
            let reason = body[separator.upperBound...].trimmingCharacters(in: .whitespaces)
                .replacingOccurrences(of: "*/", with: "").trimmingCharacters(in: .whitespaces)
            let rules = Set(body[..<separator.lowerBound].split { $0 == "," || $0 == " " }.map(String.init))
            guard !reason.isEmpty, !rules.isEmpty else { continue }
            out[target, default: []].append(InlineSuppression(rules: rules, reason: reason))
        }
        return out
    }
}
