import Foundation
import Formats

/// The `.gitignore` files of an input, matched the way git matches them (gitignore(5)), so
/// that a reference to a file the repository deliberately does not contain (downloaded or
/// generated at build time) is not reported as missing. Git itself is never run.
///
/// Rules implemented: blank lines and `#` comments are skipped (`\#` is a literal `#`);
/// trailing spaces are dropped unless escaped; `!` negates (`\!` is a literal `!`); a trailing
/// `/` matches directories only; a pattern with a `/` at its start or middle is anchored to
/// its `.gitignore`'s folder, otherwise it matches a name at any depth below it; `*` and `?`
/// never match `/`; `[…]` classes with ranges, `[:alpha:]`-style names and `!`/`^` negation;
/// `**` as a whole component matches any number of folders (`**/x`, `a/**/b`; a trailing
/// `/**` matches everything inside); deeper `.gitignore` files and later lines win; and a
/// file inside an ignored folder stays ignored whatever a `!` line says, because git never
/// looks inside that folder.
///
/// Matching is a port of git's `wildmatch.c` with `dir.c`'s literal-prefix step, so that it
/// agrees with git where git departs from its manual: `a/x**/b` matches `a/x/y/b` (once the
/// literal prefix `a/x` is consumed, the `**` stands at the start of what is left).
public struct GitIgnore: Sendable, Equatable {
    struct Pattern: Sendable, Equatable {
        /// The glob as bytes, without `!`, a leading `/` or trailing `/`s.
        var glob: [UInt8]
        /// Bytes before the first wildcard (`*?[\\`): compared literally first, as git does.
        var literalPrefix: Int
        /// The pattern has a `/` (besides a trailing one): it matches the whole path below its
        /// `.gitignore`'s folder; otherwise the last path component at any depth.
        var anchored: Bool
        var negated: Bool
        var directoryOnly: Bool
    }

    /// Patterns by the folder of their `.gitignore` ("" is the input root), in file order.
    private var files: [String: [Pattern]] = [:]

    public init() {}

    public var isEmpty: Bool { files.values.allSatisfy(\.isEmpty) }

    /// Adds the text of the `.gitignore` in `folder` (relative to the input root).
    public mutating func add(_ text: String, folder: String) {
        let patterns = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .compactMap { Self.parse(String($0)) }
        files[PathUtil.normalize(folder), default: []] += patterns
    }

    /// Every `.gitignore` of an indexed input (files larger than `maxBytes` are skipped).
    public static func load(index: FileIndex, source: FileSource, maxBytes: Int = 1 << 20) -> GitIgnore {
        var out = GitIgnore()
        for e in index.entries where e.kind == .file && PathUtil.lastComponent(e.path) == ".gitignore" && e.size <= Int64(maxBytes) {
            guard let data = try? source.read(e.path) else { continue }
            out.add(String(decoding: data, as: UTF8.self), folder: PathUtil.parent(e.path))
        }
        return out
    }

    /// True when git would ignore `path` (relative to the input root). `isDirectory` nil means
    /// unknown (a path that does not exist): ignored if ignored as either a file or a folder.
    public func isIgnored(_ path: String, isDirectory: Bool? = false) -> Bool {
        if files.isEmpty { return false }
        let parts = PathUtil.normalize(path).split(separator: "/").map(String.init)
        guard !parts.isEmpty else { return false }
        // A folder git ignores is never entered: nothing inside can be re-included.
        for i in 1..<parts.count where decision(parts[..<i], isDirectory: true) == true { return true }
        switch isDirectory {
        case .some(let d): return decision(parts[...], isDirectory: d) == true
        case .none: return decision(parts[...], isDirectory: false) == true || decision(parts[...], isDirectory: true) == true
        }
    }

    /// The last matching pattern's verdict (true: ignored, false: re-included), deeper
    /// `.gitignore` files after shallower ones; nil when nothing matches.
    private func decision(_ parts: ArraySlice<String>, isDirectory: Bool) -> Bool? {
        var verdict: Bool?
        for depth in 0..<parts.count {
            let folder = parts.prefix(depth).joined(separator: "/")
            guard let patterns = files[folder] else { continue }
            let relative = Array(parts.dropFirst(depth).joined(separator: "/").utf8)
            let name = Array(parts.last!.utf8)
            for p in patterns where !p.directoryOnly || isDirectory {
                if Self.matches(p, relative: relative, name: name) { verdict = !p.negated }
            }
        }
        return verdict
    }

    /// git's `match_basename` / `match_pathname`.
    static func matches(_ p: Pattern, relative: [UInt8], name: [UInt8]) -> Bool {
        guard p.anchored else {
            if p.literalPrefix == p.glob.count { return p.glob == name }
            return Wildmatch.match(p.glob[...], name[...], pathname: false)
        }
        guard p.literalPrefix <= relative.count, p.glob[..<p.literalPrefix].elementsEqual(relative[..<p.literalPrefix]) else { return false }
        let restGlob = p.glob[p.literalPrefix...], restName = relative[p.literalPrefix...]
        if restGlob.isEmpty { return restName.isEmpty }
        return Wildmatch.match(restGlob, restName, pathname: true)
    }

    /// One line of a `.gitignore` as a pattern, or nil for blanks and comments.
    static func parse(_ rawLine: String) -> Pattern? {
        var line = Array(rawLine.utf8)
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        // Trailing spaces are ignored unless quoted with a backslash.
        while line.last == UInt8(ascii: " ") {
            var backslashes = 0
            var i = line.count - 2
            while i >= 0, line[i] == UInt8(ascii: "\\") { backslashes += 1; i -= 1 }
            if backslashes % 2 == 1 { break }
            line.removeLast()
        }
        guard let first = line.first, first != UInt8(ascii: "#") else { return nil }
        var negated = false
        if first == UInt8(ascii: "!") { negated = true; line.removeFirst() }
        var directoryOnly = false
        if line.last == UInt8(ascii: "/") {
            directoryOnly = true
            line.removeLast()
        }
        guard !line.isEmpty else { return nil }
        let anchored = line.contains(UInt8(ascii: "/"))
        if line.first == UInt8(ascii: "/") { line.removeFirst() }
        guard !line.isEmpty else { return nil }
        let prefix = line.firstIndex { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "\\") } ?? line.count
        return Pattern(glob: line, literalPrefix: prefix, anchored: anchored, negated: negated, directoryOnly: directoryOnly)
    }
}

/// A port of git's `wildmatch.c` (itself from rsync): `*`, `?`, `[…]` classes, `\\` escapes,
/// and with `pathname` the slash rules: `*`, `?` and classes never match `/`, a `**` that is a
/// whole component matches across folders. Recursion depth is bounded by the number of stars.
enum Wildmatch {
    enum Result { case match, noMatch, abortAll, abortToStarStar }

    static func match(_ pattern: ArraySlice<UInt8>, _ text: ArraySlice<UInt8>, pathname: Bool) -> Bool {
        dowild(Array(pattern), 0, Array(text), 0, pathname: pathname) == .match
    }

    private static let slash = UInt8(ascii: "/"), star = UInt8(ascii: "*")

    private static func dowild(_ p: [UInt8], _ pStart: Int, _ t: [UInt8], _ tStart: Int, pathname: Bool) -> Result {
        var pi = pStart, ti = tStart
        func at(_ a: [UInt8], _ i: Int) -> UInt8 { i < a.count ? a[i] : 0 }
        while pi < p.count {
            var pCh = p[pi]
            let tCh = at(t, ti)
            if ti >= t.count && pCh != star { return .abortAll }
            switch pCh {
            case UInt8(ascii: "\\"):
                pi += 1
                pCh = at(p, pi)
                if tCh != pCh || pi >= p.count { return .noMatch }
            case UInt8(ascii: "?"):
                if pathname && tCh == slash { return .noMatch }
            case star:
                var matchSlash: Bool
                pi += 1
                if at(p, pi) == star {
                    let prev = pi - 2
                    while at(p, pi) == star { pi += 1 }
                    if (prev < pStart || p[prev] == slash)
                        && (pi >= p.count || p[pi] == slash || (p[pi] == UInt8(ascii: "\\") && at(p, pi + 1) == slash)) {
                        // `foo/**/bar` also matches `foo/bar`.
                        if at(p, pi) == slash, pi < p.count, dowild(p, pi + 1, t, ti, pathname: pathname) == .match { return .match }
                        matchSlash = true
                    } else {
                        matchSlash = !pathname
                    }
                } else {
                    matchSlash = !pathname
                }
                if pi >= p.count {
                    // A trailing `**` matches everything, a trailing `*` only up to a slash.
                    if !matchSlash, t[ti...].contains(slash) { return .noMatch }
                    return .match
                } else if !matchSlash && p[pi] == slash {
                    // A single star followed by a slash matches the rest of this component.
                    guard let s = t[ti...].firstIndex(of: slash) else { return .noMatch }
                    ti = s
                    break
                }
                var tc = tCh
                while true {
                    if ti >= t.count { break }
                    // Advance quickly to the literal that follows the star.
                    let next = p[pi]
                    if !(next == star || next == UInt8(ascii: "?") || next == UInt8(ascii: "[") || next == UInt8(ascii: "\\")) {
                        while ti < t.count, matchSlash || t[ti] != slash {
                            if t[ti] == next { break }
                            ti += 1
                        }
                        tc = at(t, ti)
                        if ti >= t.count || tc != next { return .noMatch }
                    }
                    let matched = dowild(p, pi, t, ti, pathname: pathname)
                    if matched != .noMatch {
                        if !matchSlash || matched != .abortToStarStar { return matched }
                    } else if !matchSlash && tc == slash {
                        return .abortToStarStar
                    }
                    ti += 1
                    tc = at(t, ti)
                }
                return .abortAll
            case UInt8(ascii: "["):
                pi += 1
                pCh = at(p, pi)
                if pCh == UInt8(ascii: "^") { pCh = UInt8(ascii: "!") }
                let negated = pCh == UInt8(ascii: "!")
                if negated { pi += 1; pCh = at(p, pi) }
                var prevCh: UInt8 = 0
                var matched = false
                repeat {
                    if pi >= p.count { return .abortAll }
                    if pCh == UInt8(ascii: "\\") {
                        pi += 1
                        pCh = at(p, pi)
                        if pi >= p.count { return .abortAll }
                        if tCh == pCh { matched = true }
                    } else if pCh == UInt8(ascii: "-"), prevCh != 0, pi + 1 < p.count, p[pi + 1] != UInt8(ascii: "]") {
                        pi += 1
                        pCh = p[pi]
                        if pCh == UInt8(ascii: "\\") {
                            pi += 1
                            pCh = at(p, pi)
                            if pi >= p.count { return .abortAll }
                        }
                        if tCh <= pCh && tCh >= prevCh { matched = true }
                        pCh = 0
                    } else if pCh == UInt8(ascii: "["), at(p, pi + 1) == UInt8(ascii: ":") {
                        pi += 2
                        let s = pi
                        while pi < p.count, p[pi] != UInt8(ascii: "]") { pi += 1 }
                        if pi >= p.count { return .abortAll }
                        let len = pi - s - 1
                        if len < 0 || p[pi - 1] != UInt8(ascii: ":") {
                            // No `:]`: an ordinary `[` in the set.
                            pi = s - 2
                            pCh = UInt8(ascii: "[")
                            if tCh == pCh { matched = true }
                            prevCh = pCh
                            pi += 1
                            pCh = at(p, pi)
                            if pi < p.count && pCh == UInt8(ascii: "]") { break }
                            continue
                        }
                        guard let inClass = namedClass(String(decoding: p[s..<(s + len)], as: UTF8.self), tCh) else { return .abortAll }
                        if inClass { matched = true }
                        pCh = 0
                    } else if tCh == pCh {
                        matched = true
                    }
                    prevCh = pCh
                    pi += 1
                    pCh = at(p, pi)
                } while pi >= p.count || pCh != UInt8(ascii: "]")
                if matched == negated || (pathname && tCh == slash) { return .noMatch }
            default:
                if tCh != pCh { return .noMatch }
            }
            pi += 1
            ti += 1
        }
        return ti < t.count ? .noMatch : .match
    }

    /// `[:name:]` classes (ASCII, as git); nil for an unknown name, which spoils the pattern.
    private static func namedClass(_ name: String, _ c: UInt8) -> Bool? {
        let ch = Character(Unicode.Scalar(c))
        switch name {
        case "alnum": return c < 128 && (ch.isLetter || ch.isNumber)
        case "alpha": return c < 128 && ch.isLetter
        case "blank": return c == 32 || c == 9
        case "cntrl": return c < 32 || c == 127
        case "digit": return (48...57).contains(c)
        case "graph": return (33...126).contains(c)
        case "lower": return (97...122).contains(c)
        case "print": return (32...126).contains(c)
        case "punct": return (33...47).contains(c) || (58...64).contains(c) || (91...96).contains(c) || (123...126).contains(c)
        case "space": return c == 32 || (9...13).contains(c)
        case "upper": return (65...90).contains(c)
        case "xdigit": return (48...57).contains(c) || (65...70).contains(c) || (97...102).contains(c)
        default: return nil
        }
    }
}
