import Foundation
import Formats

/// Plist values written in a manifest: literals, `.string(…)`, `.boolean(…)`, `.integer(…)`,
/// `.real(…)`, `.array(…)`, `.dictionary(…)`.
enum TuistPlistValues {
    static func node(_ value: ManifestValue?, scope: inout ManifestScope) -> PlistNode {
        guard let value else { return PlistNode(.dictionary(PlistDictionary())) }
        let v = scope.resolve(value)
        let pos = v.position
        guard scope.enter(v) else { return PlistNode(.string(""), position: pos) }
        defer { scope.leave() }
        switch v.kind {
        case .string, .interpolation:
            return PlistNode(.string(scope.string(v, "Info.plist value") ?? ""), position: pos)
        case .bool(let b): return PlistNode(.bool(b), position: pos)
        case .number(let n):
            if let i = Int64(n) { return PlistNode(.integer(i), position: pos) }
            return PlistNode(.real(Double(n) ?? 0), position: pos)
        case .array(let items):
            return PlistNode(.array(items.map { node($0, scope: &scope) }), position: pos)
        case .dictionary(let entries):
            var out: [PlistEntry] = []
            for e in entries {
                guard let key = scope.string(e.key, "Info.plist key") else { continue }
                out.append(PlistEntry(key: key, keyPosition: e.key.position, value: node(e.value, scope: &scope)))
            }
            return PlistNode(.dictionary(PlistDictionary(out)), position: pos)
        case .call(let n, _, let args) where [".string", ".boolean", ".integer", ".real", ".array", ".dictionary"].contains(n):
            return node(args.firstUnlabelled, scope: &scope)
        case .call(let n, _, let args) where (n == "Plist.Value" || n == "Value") && args["stringLiteral"] != nil:
            return node(args["stringLiteral"], scope: &scope)
        case .call(".merging", let base?, let args):
            // `a.merging(b) { _, new in new }`: b's keys win. What cannot be read is reported
            // and the rest kept.
            var merged = node(base, scope: &scope).dictionary?.entries ?? []
            if let other = node(args.firstUnlabelled, scope: &scope).dictionary?.entries {
                let keys = Set(other.map(\.key))
                merged = merged.filter { !keys.contains($0.key) } + other
            }
            return PlistNode(.dictionary(PlistDictionary(merged)), position: pos)
        default:
            scope.unreadable(v, "Info.plist value")
            return PlistNode(.string(""), position: pos)
        }
    }
}
