import Foundation
import Findings

/// Findings a team accepts on purpose (`suppressions:` in `.preflight.yml`): every finding that
/// matches all the fields given — rule, bundle, path glob (`*` within a folder, `**` across
/// folders, `?` one character) and key — is left out of the findings and listed, with the
/// reason, among the suppressed ones reports show.
public struct Suppression: Sendable, Equatable {
    public var rule: String?
    public var bundle: String?
    public var path: String?
    public var key: String?
    public var reason: String

    public init(rule: String? = nil, bundle: String? = nil, path: String? = nil, key: String? = nil, reason: String) {
        self.rule = rule
        self.bundle = bundle
        self.path = path
        self.key = key
        self.reason = reason
    }

    public func matches(_ f: Finding) -> Bool {
        if let rule, rule != f.rule { return false }
        if let bundle, bundle != f.bundle, !f.alsoInBundles.contains(bundle) { return false }
        if let key, key != f.key { return false }
        if let path {
            guard let file = f.file, Self.glob(path, matches: file) else { return false }
        }
        return true
    }

    /// Whether a path matches a glob: `**` any run of characters, `*` any run without `/`,
    /// `?` one character other than `/`. Iterative with backtracking to the last star: linear
    /// in practice, never recursive.
    static func glob(_ pattern: String, matches path: String) -> Bool {
        let p = Array(pattern.utf8), s = Array(path.utf8)
        var i = 0, j = 0
        var star: (p: Int, s: Int, crossesFolders: Bool)?
        while j < s.count {
            if i < p.count, p[i] == UInt8(ascii: "*") {
                let double = i + 1 < p.count && p[i + 1] == UInt8(ascii: "*")
                i += double ? 2 : 1
                if double, i < p.count, p[i] == UInt8(ascii: "/") { i += 1 }
                star = (i, j, double)
            } else if i < p.count, p[i] == s[j] || (p[i] == UInt8(ascii: "?") && s[j] != UInt8(ascii: "/")) {
                i += 1
                j += 1
            } else if let last = star, last.crossesFolders || s[last.s] != UInt8(ascii: "/") {
                star = (last.p, last.s + 1, last.crossesFolders)
                i = last.p
                j = last.s + 1
            } else {
                return false
            }
        }
        while i < p.count, p[i] == UInt8(ascii: "*") { i += 1 }
        return i == p.count
    }
}
