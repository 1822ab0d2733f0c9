import Foundation
import Formats
import Yams

/// Reads a YAML document into `YAMLNode`s under the reader limits.
///
/// Yams composes recursively and libyaml has no nesting limit, so a document is first
/// checked by `YAMLNestingBound` (an upper bound of its nesting, from the text) and refused
/// when that bound exceeds `max-nesting-depth`; only then does Yams compose it. Aliases are
/// expanded while converting and every node of the expansion counts against
/// `max-plist-objects`, so an alias bomb ("billion laughs") stops at the limit instead of
/// growing exponentially. Merge keys (`<<: *base`) are applied the same way.
enum YAMLReader {
    static let format = "YAML"

    static func read(_ text: String, file: String, baseDir: String, limits: ReaderLimits) throws -> YAMLNode? {
        let bound = YAMLNestingBound.estimate(text)
        if bound.depth > limits.maxNestingDepth {
            throw FormatError(.limitExceeded("max-nesting-depth"), format: format,
                              reason: "nesting may reach \(bound.depth) levels, more than \(limits.maxNestingDepth)",
                              line: bound.line)
        }
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw formatError(error)
        }
        guard let node else { return nil }
        var converter = Converter(file: file, baseDir: baseDir, limits: limits)
        return try converter.convert(node, depth: 0)
    }

    static func formatError(_ error: YamlError) -> FormatError {
        func make(_ problem: String, _ mark: Mark?) -> FormatError {
            FormatError(.malformed, format: format, reason: problem, line: mark?.line, column: mark?.column)
        }
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            let text = [context?.text, problem].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
            return make(text, mark)
        case .reader(let problem, let offset, _, _):
            return FormatError(.malformed, format: format, reason: problem, offset: offset)
        default:
            return make("\(error)".split(separator: "\n").first.map(String.init) ?? "unreadable", nil)
        }
    }

    struct Converter {
        let file: String
        let baseDir: String
        let limits: ReaderLimits
        var count = 0

        init(file: String, baseDir: String, limits: ReaderLimits) {
            self.file = file
            self.baseDir = baseDir
            self.limits = limits
        }

        static func position(_ mark: Mark?) -> SourcePosition {
            SourcePosition(line: mark?.line ?? 1, column: mark?.column ?? 1)
        }

        mutating func tick(_ mark: Mark?) throws {
            count += 1
            if count > limits.maxPlistObjects {
                throw FormatError(.limitExceeded("max-plist-objects"), format: YAMLReader.format,
                                  reason: "more than \(limits.maxPlistObjects) nodes (aliases expanded)",
                                  line: mark?.line, column: mark?.column)
            }
        }

        mutating func convert(_ node: Node, depth: Int) throws -> YAMLNode {
            try tick(node.mark)
            guard depth <= limits.maxNestingDepth else {
                throw FormatError(.limitExceeded("max-nesting-depth"), format: YAMLReader.format,
                                  reason: "nested deeper than \(limits.maxNestingDepth) levels",
                                  line: node.mark?.line, column: node.mark?.column)
            }
            let pos = Self.position(node.mark)
            switch node {
            case .scalar(let s):
                return YAMLNode(value: .scalar(s.string, quoted: s.style != .plain && s.style != .any), file: file, baseDir: baseDir, position: pos)
            case .sequence(let seq):
                var items: [YAMLNode] = []
                for item in seq { items.append(try convert(item, depth: depth + 1)) }
                return YAMLNode(value: .sequence(items), file: file, baseDir: baseDir, position: pos)
            case .mapping(let map):
                var pairs: [(key: String, keyPosition: SourcePosition, value: YAMLNode)] = []
                var merged: [(key: String, keyPosition: SourcePosition, value: YAMLNode)] = []
                for (k, v) in map {
                    try tick(k.mark)
                    guard case .scalar(let key) = k else {
                        throw FormatError(.unsupported, format: YAMLReader.format, reason: "a mapping key that is not a scalar",
                                          line: k.mark?.line, column: k.mark?.column)
                    }
                    let value = try convert(v, depth: depth + 1)
                    if key.string == "<<", key.style == .plain || key.style == .any {
                        // Merge key: the entries of the mapping(s) fill in keys this mapping lacks.
                        for source in value.sequence ?? [value] { merged += source.mapping ?? [] }
                    } else {
                        pairs.append((key.string, Self.position(k.mark), value))
                    }
                }
                let own = Set(pairs.map(\.key))
                var seen = Set<String>()
                for m in merged where !own.contains(m.key) && seen.insert(m.key).inserted { pairs.append(m) }
                return YAMLNode(value: .mapping(pairs), file: file, baseDir: baseDir, position: pos)
            }
        }
    }
}
