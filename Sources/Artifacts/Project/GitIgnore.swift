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

    /// The patterns of one `.gitignore`, with literal ones indexed so that a large file of plain
    /// names costs a lookup, not a scan.
    struct PatternList: Sendable, Equatable {
        var patterns: [Pattern] = []
        /// Literal patterns by the name (unanchored) or the relative path (anchored) they equal.
        var byName: [[UInt8]: [Int]] = [:]
        var byPath: [[UInt8]: [Int]] = [:]
        var wildcard: [Int] = []

        init(_ patterns: [Pattern]) {
            for p in patterns {
                let i = self.patterns.count
                self.patterns.append(p)
                if p.literalPrefix < p.glob.count { wildcard.append(i) } else if p.anchored { byPath[p.glob, default: []].append(i) } else { byName[p.glob, default: []].append(i) }
            }
        }

        /// The verdict of the last pattern that matches (true: ignored), nil when none does.
        func verdict(relative: [UInt8], name: [UInt8], isDirectory: Bool) -> Bool? {
            var best = -1
            for i in (byName[name] ?? []) + (byPath[relative] ?? []) where i > best && (!patterns[i].directoryOnly || isDirectory) { best = i }
            for i in wildcard.reversed() {
                if i <= best { break }
                let p = patterns[i]
                if (!p.directoryOnly || isDirectory) && GitIgnore.matches(p, relative: relative, name: name) { best = i; break }
            }
            return best >= 0 ? !patterns[best].negated : nil
        }
    }

    /// A `.gitignore` with a line longer than `maxLineBytes` (PATH_MAX on Apple platforms is
    /// 1024), a pattern with more than `maxStarsPerPattern` stars (each may recurse), more than
    /// `maxWildcardPatternsPerFile` wildcard patterns, or that would take the input past
    /// `maxWildcardPatterns` in all, is not read: no real file needs that, a hostile one could
    /// only make matching slow, and leaving a file out reports more, never less.
    public static let maxLineBytes = 1024
    public static let maxStarsPerPattern = 64
    public static let maxWildcardPatternsPerFile = 1_000
    public static let maxWildcardPatterns = 4_000

    /// Patterns by the folder of their `.gitignore` ("" is the input root), in file order.
    private var files: [String: PatternList] = [:]
    private var wildcardCount = 0

    public init() {}

    public var isEmpty: Bool { files.values.allSatisfy(\.patterns.isEmpty) }

    /// Adds the text of the `.gitignore` in `folder` (relative to the input root). Returns false
    /// when the file was left out for having too many wildcard patterns.
    @discardableResult
    public mutating func add(_ text: String, folder: String) -> Bool {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        guard !lines.contains(where: { $0.utf8.count > Self.maxLineBytes }) else { return false }
        let patterns = lines.compactMap { Self.parse(String($0)) }
        guard !patterns.contains(where: { $0.glob.lazy.filter { $0 == UInt8(ascii: "*") }.count > Self.maxStarsPerPattern }) else { return false }
        let wild = patterns.filter { $0.literalPrefix < $0.glob.count }.count
        guard wild <= Self.maxWildcardPatternsPerFile, wildcardCount + wild <= Self.maxWildcardPatterns else { return false }
        wildcardCount += wild
        let key = PathUtil.normalize(folder)
        files[key] = PatternList((files[key]?.patterns ?? []) + patterns)
        return true
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
        var memo: [String: Bool] = [:]
        return isIgnored(path, isDirectory: isDirectory, folders: &memo)
    }

    /// `isIgnored` with the verdicts of folders kept in `folders`, for many paths in a row.
    public func isIgnored(_ path: String, isDirectory: Bool?, folders memo: inout [String: Bool]) -> Bool {
        if files.isEmpty { return false }
        let parts = PathUtil.normalize(path).split(separator: "/").map(String.init)
        guard !parts.isEmpty else { return false }
        // A folder git ignores is never entered: nothing inside can be re-included.
        for i in 1..<parts.count {
            let folder = parts[..<i].joined(separator: "/")
            let ignored: Bool
            if let known = memo[folder] {
                ignored = known
            } else {
                ignored = decision(parts[..<i], isDirectory: true) == true
                memo[folder] = ignored
            }
            if ignored { return true }
        }
        switch isDirectory {
        case .some(let d): return decision(parts[...], isDirectory: d) == true
        case .none: return decision(parts[...], isDirectory: false) == true || decision(parts[...], isDirectory: true) == true
        }
    }

    /// The last matching pattern's verdict (true: ignored, false: re-included), deeper
    /// `.gitignore` files after shallower ones; nil when nothing matches.
    private func decision(_ parts: ArraySlice<String>, isDirectory: Bool) -> Bool? {
        var verdict: Bool?
        let name = Array(parts.last!.utf8)
        for depth in 0..<parts.count {
            guard let list = files[parts.prefix(depth).joined(separator: "/")] else { continue }
            let relative = Array(parts.dropFirst(depth).joined(separator: "/").utf8)
            if let v = list.verdict(relative: relative, name: name, isDirectory: isDirectory) { verdict = v }
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
                        // The literal is nowhere in the rest of the text: no later start of this
                        // or any outer star can find it either (git returns a plain no-match here
                        // and goes exponential on `*a*a*a…` against `aaa…b`).
                        if ti >= t.count { return .abortAll }
                        if tc != next { return .noMatch }
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
