import Foundation
import Formats

/// Resolves build settings the way Xcode does, over levels given lowest first (Xcode
/// defaults, project xcconfig, project settings, target xcconfig, target settings).
///
/// - Within a level, conditional assignments that match the context win over unconditional
///   ones (more conditions win over fewer); non-matching ones are ignored. Between levels the
///   higher level wins.
/// - `$(inherited)` (and `$(value)`) is the value of the same setting just below the
///   assignment that uses it: the previous assignment in the same `.xcconfig` (Xcode chains
///   them), else the level below.
/// - References: `$(NAME)`, `${NAME}` and, as Xcode's macro parser still accepts, the
///   deprecated `$NAME`; `$$` is a literal `$`. Names may be nested (`$(A_$(B))`) and followed
///   by operators (`:lower`, `:upper`, `:identifier`, `:c99extidentifier`,
///   `:rfc1034identifier`, `:quote`, `:base`, `:file`, `:dir`, `:suffix`, `:standardizepath`,
///   `:not`, `:default=…`, `:dir=…`, `:file=…`, `:base=…`, `:suffix=…`), applied left to right.
/// - A reference to a setting defined nowhere stays as written (`$(UNKNOWN)`) so that rules
///   can report it, unless a `:default=` operator supplies a value.
/// - Expansion is bounded: a setting that refers to itself (directly or through others) is
///   left unexpanded at the point of the cycle, nesting is capped at `maxDepth`, and one value
///   never grows beyond `maxLength` characters.
public final class BuildSettingsResolver {
    public static let maxDepth = 64
    public static let maxLength = 1 << 16
    /// References nested inside one another (`$(A_$(B_$(C)))`, and through evaluation).
    public static let maxNesting = 256

    /// Matching definitions, flattened lowest first.
    private let stack: [SettingDefinition]
    /// Positions in `stack` per key, ascending.
    private let positions: [String: [Int]]
    private var cache: [CacheKey: String] = [:]
    private var inProgress = Set<CacheKey>()
    private var nesting = 0

    private struct CacheKey: Hashable {
        var key: String
        var below: Int
    }

    public init(levels: [[SettingDefinition]], context: SettingsContext) {
        var stack: [SettingDefinition] = []
        for level in levels {
            let matching = level.enumerated().filter { context.matches($0.element.conditions) }
            // Stable: unconditional first, then by number of conditions.
            let ordered = matching.sorted {
                ($0.element.conditions.count, $0.offset) < ($1.element.conditions.count, $1.offset)
            }
            stack.append(contentsOf: ordered.map(\.element))
        }
        var positions: [String: [Int]] = [:]
        for (i, d) in stack.enumerated() { positions[d.key, default: []].append(i) }
        self.stack = stack
        self.positions = positions
    }

    /// Every setting name defined at some level, sorted.
    public var keys: [String] { positions.keys.sorted() }

    /// The definition that wins for `key`, if any.
    public func definition(_ key: String) -> SettingDefinition? {
        positions[key]?.last.map { stack[$0] }
    }

    /// The resolved value of `key`, or nil when no level defines it.
    /// Leading and trailing whitespace is trimmed (an empty `$(inherited)` leaves a space).
    public func value(_ key: String) -> String? {
        evaluate(key, below: stack.count, depth: 0)?.trimmingWhitespace()
    }

    /// The resolved value with the location of the winning assignment.
    public func setting(_ key: String) -> SettingValue? {
        guard let v = value(key) else { return nil }
        return SettingValue(v, location: definition(key)?.location)
    }

    /// Every defined setting, resolved.
    public func resolvedAll() -> [String: SettingValue] {
        var out: [String: SettingValue] = [:]
        for k in keys { if let s = setting(k) { out[k] = s } }
        return out
    }

    /// Expands an arbitrary expression against the top of the stack.
    public func expand(_ expression: String) -> String {
        expand(expression, key: nil, position: stack.count, depth: 0)
    }

    // MARK: - Evaluation

    private func evaluate(_ key: String, below: Int, depth: Int) -> String? {
        guard let list = positions[key] else { return nil }
        // Highest position strictly below `below`.
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid] < below { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0 else { return nil }
        let pos = list[lo - 1]
        let ck = CacheKey(key: key, below: pos + 1)
        if let cached = cache[ck] { return cached }
        guard depth < Self.maxDepth, !inProgress.contains(ck) else { return nil }
        inProgress.insert(ck)
        let v = expand(stack[pos].value, key: key, position: pos, depth: depth + 1)
        inProgress.remove(ck)
        cache[ck] = v
        return v
    }

    private func expand(_ expression: String, key: String?, position: Int, depth: Int) -> String {
        guard expression.utf8.contains(UInt8(ascii: "$")) else { return expression }
        let bytes = Array(expression.utf8)
        var i = 0
        var out = Output()
        parseFragment(bytes, &i, stops: [], into: &out, key: key, position: position, depth: depth)
        return out.string
    }

    /// Appends literal text and expanded references until a stop byte (not consumed) or the end.
    private func parseFragment(_ s: [UInt8], _ i: inout Int, stops: [UInt8], into out: inout Output,
                               key: String?, position: Int, depth: Int) {
        while i < s.count {
            let c = s[i]
            if stops.contains(c) { return }
            if c == UInt8(ascii: "$") {
                parseReference(s, &i, into: &out, key: key, position: position, depth: depth)
            } else {
                var j = i + 1
                while j < s.count, s[j] != UInt8(ascii: "$"), !stops.contains(s[j]) { j += 1 }
                out.append(bytes: s[i..<j])
                i = j
            }
        }
    }

    private func parseReference(_ s: [UInt8], _ i: inout Int, into out: inout Output,
                                key: String?, position: Int, depth: Int) {
        let start = i
        nesting += 1
        defer { nesting -= 1 }
        guard nesting <= Self.maxNesting else {
            // Too deeply nested to be a real setting: keep the rest as written.
            out.append(bytes: s[start..<s.count])
            i = s.count
            return
        }
        i += 1
        guard i < s.count else { out.append("$"); return }
        let c = s[i]
        if c == UInt8(ascii: "(") || c == UInt8(ascii: "{") {
            let close = c == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}")
            i += 1
            var name = Output()
            parseFragment(s, &i, stops: [UInt8(ascii: ":"), close], into: &name, key: key, position: position, depth: depth)
            var ops: [(String, String?)] = []
            while i < s.count, s[i] == UInt8(ascii: ":") {
                i += 1
                var j = i
                while j < s.count, isOperatorChar(s[j]) { j += 1 }
                let op = String(decoding: s[i..<j], as: UTF8.self)
                i = j
                if i < s.count, s[i] == UInt8(ascii: "=") {
                    i += 1
                    var arg = Output()
                    parseFragment(s, &i, stops: [UInt8(ascii: ":"), close], into: &arg, key: key, position: position, depth: depth)
                    ops.append((op, arg.string))
                } else {
                    ops.append((op, nil))
                    // Skip anything invalid up to the next operator or the end of the reference.
                    while i < s.count, s[i] != UInt8(ascii: ":"), s[i] != close { i += 1 }
                }
            }
            guard i < s.count, s[i] == close else {
                // Unterminated reference: keep it as written.
                out.append(bytes: s[start..<s.count])
                i = s.count
                return
            }
            i += 1
            substitute(name: name.string, operators: ops, raw: s[start..<i], into: &out, key: key, position: position, depth: depth)
        } else if isNameStart(c) {
            var j = i + 1
            while j < s.count, isNameChar(s[j]) { j += 1 }
            let name = String(decoding: s[i..<j], as: UTF8.self)
            i = j
            substitute(name: name, operators: [], raw: s[start..<j], into: &out, key: key, position: position, depth: depth)
        } else if c == UInt8(ascii: "$") {
            i += 1
            out.append("$")
        } else {
            out.append("$")
        }
    }

    private func substitute(name: String, operators: [(String, String?)], raw: ArraySlice<UInt8>, into out: inout Output,
                            key: String?, position: Int, depth: Int) {
        var value: String?
        if name == "inherited" || name == "value" {
            if let key { value = evaluate(key, below: position, depth: depth) ?? "" } else { value = "" }
        } else if name.isEmpty {
            value = ""  // `$()` is empty: how xcconfigs write `https:/$()/host` past the `//` comment rule
        } else {
            value = evaluate(name, below: stack.count, depth: depth)
        }
        guard var v = value ?? (operators.contains { $0.0 == "default" } ? "" : nil) else {
            out.append(bytes: raw)
            return
        }
        for (op, arg) in operators { v = MacroOperators.apply(op, argument: arg, to: v) }
        out.append(v)
    }

    private func isOperatorChar(_ c: UInt8) -> Bool { isNameChar(c) }
    private func isNameStart(_ c: UInt8) -> Bool {
        (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == UInt8(ascii: "_")
    }
    private func isNameChar(_ c: UInt8) -> Bool { isNameStart(c) || (c >= 48 && c <= 57) }

    /// A string builder that stops growing at `maxLength` bytes.
    private struct Output {
        var bytes: [UInt8] = []
        mutating func append(_ s: String) { append(bytes: ArraySlice(s.utf8)) }
        mutating func append(bytes s: ArraySlice<UInt8>) {
            let room = BuildSettingsResolver.maxLength - bytes.count
            guard room > 0 else { return }
            bytes.append(contentsOf: s.prefix(room))
        }
        var string: String { String(decoding: bytes, as: UTF8.self) }
    }
}
