import Foundation

/// A URL found in one file or string, before it is attributed to a bundle.
public struct FoundURL: Sendable, Hashable {
    public var url: String
    public var scheme: String
    public var host: String
    /// 1-based; 0 for a string outside a source file.
    public var line: Int
    public var column: Int
    public var use: URLUse
    public var api: String?
    /// False inside an `#if DEBUG` / `#ifdef DEBUG` branch (compiled out of release builds).
    public var ships: Bool = true
}

/// Finds `http://` and `https://` URLs in the string literals of Swift and C-family source
/// (comments skipped; a Swift interpolation splits a literal, and a host that runs into one is
/// not a host) and in plain strings (a binary's C strings). One linear pass over the bytes;
/// files without `://` are not lexed at all.
///
/// A URL counts only when its host is complete and public (`URLHosts`): `"http://"`,
/// `"http://%@"`, `"http://\(host)"`, `"http://api.\(domain)"` and `"http://{host}"` name no
/// host. Around a source literal, the calls it is an argument of (through `URL(string:)` or
/// `[NSURL URLWithString:]`) tell what loads it (`URLUse`).
public enum URLLiteralScanner {
    /// URLs kept per file or string; the rest are dropped (a hostile file cannot grow the list).
    public static let maxURLsPerFile = 500
    /// Characters of a URL kept for messages.
    public static let maxURLLength = 200
    /// Bytes looked at before a literal for the calls around it.
    static let contextBytes = 400

    public static func scan(_ data: Data, language: SourceFactsScanner.Language) -> [FoundURL] {
        data.withUnsafeBytes { scan($0, language: language) }
    }

    public static func scan(_ text: String, language: SourceFactsScanner.Language) -> [FoundURL] {
        scan(Data(text.utf8), language: language)
    }

    /// URLs in a plain string (no literal syntax, no position).
    public static func urls(in string: String) -> [FoundURL] {
        guard string.contains("://") else { return [] }
        let bytes = Array(string.utf8)
        return bytes.withUnsafeBytes { b in
            var out: [FoundURL] = []
            extract(b, Segment(start: 0, end: b.count, literalStart: 0, interpolated: false)) { _, url, scheme, host in
                out.append(FoundURL(url: url, scheme: scheme, host: host, line: 0, column: 0, use: .unknown, api: nil))
                return out.count < maxURLsPerFile
            }
            return out
        }
    }

    /// The text of one string literal between its quotes, or up to an interpolation.
    struct Segment {
        var start: Int
        var end: Int
        /// Where the literal opens (its first quote, or `@`/`#`).
        var literalStart: Int
        /// The text runs on into an interpolation after `end`.
        var interpolated: Bool
    }

    public static func scan(_ bytes: UnsafeRawBufferPointer, language: SourceFactsScanner.Language) -> [FoundURL] {
        guard contains(bytes, "://") else { return [] }
        let segments = language == .swift ? swiftSegments(bytes) : cSegments(bytes)
        var hits: [(offset: Int, url: String, scheme: String, host: String, literalStart: Int)] = []
        for s in segments {
            var more = true
            extract(bytes, s) { offset, url, scheme, host in
                hits.append((offset, url, scheme, host, s.literalStart))
                more = hits.count < maxURLsPerFile
                return more
            }
            if !more { break }
        }
        // Line and column of each hit: one walk, the hits being in file order.
        let debugOnly = hits.isEmpty ? [] : debugRanges(bytes)
        var out: [FoundURL] = []
        var line = 1, column = 1, cursor = 0
        for h in hits {
            while cursor < h.offset, cursor < bytes.count {
                let b = bytes[cursor]
                if b == 0x0a { line += 1; column = 1 } else if b & 0xc0 != 0x80 { column += 1 }
                cursor += 1
            }
            let (use, api) = callContext(bytes, before: h.literalStart, language: language)
            out.append(FoundURL(url: h.url, scheme: h.scheme, host: h.host, line: line, column: column, use: use, api: api,
                                ships: !debugOnly.contains { $0.contains(h.offset) }))
        }
        return out
    }

    /// Whether `needle` occurs in `bytes`; `memchr` finds each candidate first byte.
    static func contains(_ bytes: UnsafeRawBufferPointer, _ needle: StaticString) -> Bool {
        let n = needle.utf8CodeUnitCount
        guard n > 0, bytes.count >= n, let base = bytes.baseAddress else { return false }
        let first = Int32(needle.utf8Start[0])
        var i = 0
        while i <= bytes.count - n {
            guard let hit = memchr(base + i, first, bytes.count - n + 1 - i) else { return false }
            i = base.distance(to: UnsafeRawPointer(hit))
            if memcmp(base + i, needle.utf8Start, n) == 0 { return true }
            i += 1
        }
        return false
    }

    // MARK: Domain mentions

    /// Which of `names` (lower-case domain names) the string literals of a source file
    /// mention, as a whole host or the end of one (`cdn.acme.com` mentions `acme.com`).
    /// Files that do not hold a name's bytes are not lexed.
    public static func mentions(_ bytes: UnsafeRawBufferPointer, language: SourceFactsScanner.Language, names: [String]) -> Set<String> {
        let present = names.filter { occurs(bytes, $0, from: 0, to: bytes.count) }
        guard !present.isEmpty else { return [] }
        var out = Set<String>()
        for s in language == .swift ? swiftSegments(bytes) : cSegments(bytes) {
            for name in present where !out.contains(name) && occurs(bytes, name, from: s.start, to: s.end) { out.insert(name) }
            if out.count == present.count { break }
        }
        return out
    }

    /// Which of `names` plain text (a resource, a C string) mentions.
    public static func mentions(inText bytes: UnsafeRawBufferPointer, names: [String]) -> Set<String> {
        Set(names.filter { occurs(bytes, $0, from: 0, to: bytes.count) })
    }

    /// Whether `name` occurs in `bytes[from..<to]` as a host or a host's last labels: no
    /// host byte before it but a dot, no host byte or dot-and-letter after it.
    static func occurs(_ bytes: UnsafeRawBufferPointer, _ name: String, from: Int, to: Int) -> Bool {
        let needle = Array(name.utf8)
        guard let first = needle.first, to - from >= needle.count else { return false }
        func isHostByte(_ b: UInt8) -> Bool { (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a) || (b >= 0x30 && b <= 0x39) || b == 0x2d || b == 0x5f }
        var i = from
        while i <= to - needle.count {
            if bytes[i] == first {
                var k = 1
                while k < needle.count, bytes[i + k] == needle[k] { k += 1 }
                if k == needle.count {
                    let end = i + k
                    let leftOK = i == 0 || !isHostByte(bytes[i - 1])
                    let rightOK = end >= bytes.count || !(isHostByte(bytes[end]) || (bytes[end] == 0x2e && end + 1 < bytes.count && isHostByte(bytes[end + 1])))
                    if leftOK && rightOK { return true }
                }
            }
            i += 1
        }
        return false
    }

    // MARK: Debug-only code

    /// Conditional-compilation blocks deeper than this are not followed.
    static let maxConditionalDepth = 64

    /// Byte ranges compiled only into debug builds: the branch of `#if DEBUG` / `#ifdef DEBUG`
    /// (Swift and C) up to its `#else`, `#elseif`/`#elif` or `#endif`. Only the plain `DEBUG`
    /// condition counts; any other condition is taken to ship. Directives are read at the start
    /// of a line, whatever literal or comment they might sit in.
    static func debugRanges(_ bytes: UnsafeRawBufferPointer) -> [Range<Int>] {
        let n = bytes.count
        var stack: [Bool] = []  // per open #if: is the current branch debug-only
        var out: [Range<Int>] = []
        var debugStart: Int?
        var i = 0
        while i < n {
            var j = i
            while j < n, bytes[j] == 0x20 || bytes[j] == 0x09 { j += 1 }
            var lineEnd = j
            while lineEnd < n, bytes[lineEnd] != 0x0a { lineEnd += 1 }
            if j < n, bytes[j] == 0x23 {
                let words = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(j + 1)..<lineEnd]), as: UTF8.self)
                    .split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
                let wasDebug = stack.contains(true)
                switch words.first {
                case "if", "ifdef":
                    if stack.count < maxConditionalDepth { stack.append(words.count == 2 && words[1] == "DEBUG") }
                case "else", "elseif", "elif":
                    if !stack.isEmpty { stack[stack.count - 1] = false }
                case "endif":
                    if !stack.isEmpty { stack.removeLast() }
                default:
                    break
                }
                let isDebug = stack.contains(true)
                if isDebug, !wasDebug { debugStart = lineEnd }
                if !isDebug, wasDebug, let start = debugStart { out.append(start..<j); debugStart = nil }
            }
            i = lineEnd + 1
        }
        if let start = debugStart { out.append(start..<n) }
        return out
    }

    // MARK: Literals

    /// Open Swift string literals deeper than this end the scan of the file.
    static let maxOpenStrings = 64

    /// String-literal text of a Swift file: `"…"`, `"""…"""`, raw `#"…"#`; interpolations are
    /// code (a literal inside one is read too); comments, nested block comments included, are skipped.
    static func swiftSegments(_ bytes: UnsafeRawBufferPointer) -> [Segment] {
        struct Open { var hashes: Int; var multiline: Bool; var depth: Int?; var literalStart: Int }
        let n = bytes.count
        func count(_ byte: UInt8, from start: Int, upTo limit: Int) -> Int {
            var k = 0
            while k < limit, start + k < n, bytes[start + k] == byte { k += 1 }
            return k
        }
        var out: [Segment] = []
        var strings: [Open] = []
        var inText = false
        var segmentStart = 0
        var i = 0
        while i < n {
            let b = bytes[i]
            if inText {
                let open = strings[strings.count - 1]
                let quotes = open.multiline ? 3 : 1
                if b == 0x5c, count(0x23, from: i + 1, upTo: open.hashes) == open.hashes {  // `\` + hashes
                    let j = i + 1 + open.hashes
                    if j < n, bytes[j] == 0x28 {
                        out.append(Segment(start: segmentStart, end: i, literalStart: open.literalStart, interpolated: true))
                        strings[strings.count - 1].depth = 0
                        inText = false
                    }
                    i = j + 1
                } else if b == 0x22, count(0x22, from: i, upTo: quotes) == quotes, count(0x23, from: i + quotes, upTo: open.hashes) == open.hashes {
                    out.append(Segment(start: segmentStart, end: i, literalStart: open.literalStart, interpolated: false))
                    strings.removeLast()
                    inText = false
                    i += quotes + open.hashes
                } else if b == 0x0a, !open.multiline {  // unterminated: the line ends it
                    out.append(Segment(start: segmentStart, end: i, literalStart: open.literalStart, interpolated: false))
                    strings.removeLast()
                    inText = false
                    i += 1
                } else {
                    i += 1
                }
                continue
            }
            if b == 0x2f, let end = SourceFactsScanner.commentEnd(bytes, at: i, nested: true) {
                i = end
                continue
            }
            if b == 0x22 || b == 0x23 {
                let hashes = count(0x23, from: i, upTo: n)
                if i + hashes < n, bytes[i + hashes] == 0x22 {
                    guard strings.count < maxOpenStrings else { return out }
                    let multiline = count(0x22, from: i + hashes, upTo: 3) == 3
                    strings.append(Open(hashes: hashes, multiline: multiline, depth: nil, literalStart: i))
                    inText = true
                    i += hashes + (multiline ? 3 : 1)
                    segmentStart = i
                    continue
                }
                i += max(hashes, 1)
                continue
            }
            if b == 0x28 || b == 0x29, let depth = strings.last?.depth {  // inside `\(…)`
                if b == 0x28 {
                    strings[strings.count - 1].depth = depth + 1
                } else if depth == 0 {
                    strings[strings.count - 1].depth = nil
                    inText = true
                    segmentStart = i + 1
                } else {
                    strings[strings.count - 1].depth = depth - 1
                }
            }
            i += 1
        }
        if inText, let open = strings.last { out.append(Segment(start: segmentStart, end: n, literalStart: open.literalStart, interpolated: false)) }
        return out
    }

    /// String-literal text of a C, Objective-C or C++ file: `"…"` and `@"…"`, escapes kept;
    /// character literals and comments skipped.
    static func cSegments(_ bytes: UnsafeRawBufferPointer) -> [Segment] {
        let n = bytes.count
        var out: [Segment] = []
        var i = 0
        while i < n {
            let b = bytes[i]
            if b == 0x2f, let end = SourceFactsScanner.commentEnd(bytes, at: i, nested: false) {
                i = end
                continue
            }
            if b == 0x22 || b == 0x27 {
                let literalStart = i > 0 && bytes[i - 1] == 0x40 ? i - 1 : i
                i += 1
                let start = i
                while i < n, bytes[i] != b, bytes[i] != 0x0a { i += bytes[i] == 0x5c ? 2 : 1 }
                if b == 0x22 { out.append(Segment(start: start, end: min(i, n), literalStart: literalStart, interpolated: false)) }
                i += 1
                continue
            }
            i += 1
        }
        return out
    }

    // MARK: URLs

    static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5a ? b | 0x20 : b }

    static func isAuthorityByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a) || (b >= 0x30 && b <= 0x39)
            || b == 0x2d || b == 0x2e || b == 0x5f || b == 0x40 || b == 0x3a || b == 0x5b || b == 0x5d || b == 0x7e
    }

    /// Bytes that end a URL's path for display.
    static func endsURL(_ b: UInt8) -> Bool {
        b <= 0x20 || b == 0x22 || b == 0x27 || b == 0x3c || b == 0x3e || b == 0x5c || b == 0x60 || b >= 0x7f
    }

    /// Bytes right after an authority that mean the host goes on in a template, a format or code.
    static func continuesHost(_ b: UInt8) -> Bool {
        b == 0x25 || b == 0x7b || b == 0x24 || b == 0x28 || b == 0x2b || b == 0x2a || b == 0x7c || b == 0x3d || b == 0x2c
    }

    /// Calls `found` with each URL of a segment: its offset, text, scheme and host. Stops when
    /// `found` returns false.
    static func extract(_ bytes: UnsafeRawBufferPointer, _ s: Segment, _ found: (Int, String, String, String) -> Bool) {
        var k = s.start
        while k + 7 <= s.end {
            guard lower(bytes[k]) == 0x68, lower(bytes[k + 1]) == 0x74, lower(bytes[k + 2]) == 0x74, lower(bytes[k + 3]) == 0x70 else {
                k += 1
                continue
            }
            let secure = lower(bytes[k + 4]) == 0x73
            let colon = k + (secure ? 5 : 4)
            guard colon + 3 <= s.end, bytes[colon] == 0x3a, bytes[colon + 1] == 0x2f, bytes[colon + 2] == 0x2f,
                  k == s.start || !(WordTable.isIdentifierByte(bytes[k - 1])) else {
                k += 1
                continue
            }
            let authorityStart = colon + 3
            var j = authorityStart
            while j < s.end, isAuthorityByte(bytes[j]) { j += 1 }
            var end = j
            while end < s.end, end - k < maxURLLength, !endsURL(bytes[end]) { end += 1 }  // bounded: no rescans of a long path
            defer { k = max(j, k + 1) }
            let complete = j < s.end ? !continuesHost(bytes[j]) && bytes[j] != 0x5c : !s.interpolated
            guard complete, j > authorityStart,
                  let host = host(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[authorityStart..<j]), as: UTF8.self)) else { continue }
            let path = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[j..<end]), as: UTF8.self)
            guard URLHosts.isNetworkHost(host), !URLHosts.isNonTraffic(host: host, path: path) else { continue }
            let url = String(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[k..<end]), as: UTF8.self).prefix(maxURLLength))
            if !found(k, url, secure ? "https" : "http", host) { return }
        }
    }

    /// The host of an authority (`user@host:port`), lower case; nil when it ends in a dot (a
    /// prefix such as `http://www.`) or its port is not a number.
    static func host(_ authority: String) -> String? {
        var h = Substring(authority)
        if let at = h.lastIndex(of: "@") { h = h[h.index(after: at)...] }
        if h.hasPrefix("[") { return nil }  // IPv6 literal
        if let c = h.firstIndex(of: ":") {
            guard h[h.index(after: c)...].allSatisfy(\.isNumber) else { return nil }
            h = h[..<c]
        }
        guard !h.isEmpty, !h.hasSuffix("."), !h.contains("["), !h.contains("]") else { return nil }
        return h.lowercased()
    }

    // MARK: Calls around a literal

    /// The calls a literal is an argument of, innermost first, read backwards from the
    /// literal over unclosed `(` and `[` (up to `contextBytes`, stopping at `{`, `}`, `;`):
    /// the dotted name before each `(`, or the words of each Objective-C message `[…`.
    static func enclosingCalls(_ bytes: UnsafeRawBufferPointer, before literal: Int) -> [String] {
        var calls: [String] = []
        var depth = 0
        var i = literal - 1
        let stop = max(0, literal - contextBytes)
        while i >= stop, calls.count < 4 {
            let b = bytes[i]
            if b == 0x7b || b == 0x7d || b == 0x3b { break }
            if b == 0x29 || b == 0x5d { depth += 1 } else if b == 0x28 || b == 0x5b {
                if depth > 0 {
                    depth -= 1
                } else if b == 0x28 {
                    var j = i
                    while j > stop, WordTable.isIdentifierByte(bytes[j - 1]) || bytes[j - 1] == 0x2e || bytes[j - 1] == 0x3f || bytes[j - 1] == 0x21 { j -= 1 }
                    var name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[j..<i]), as: UTF8.self)
                    // `Data(contentsOf:`, `String(contentsOf:`: the label says it loads.
                    var k = i + 1
                    while k < literal, bytes[k] == 0x20 || bytes[k] == 0x0a { k += 1 }
                    if literal - k >= 10, String(decoding: UnsafeRawBufferPointer(rebasing: bytes[k..<k + 10]), as: UTF8.self) == "contentsOf" {
                        name += " contentsOf"
                    }
                    calls.append(name)
                } else {
                    // `[receiver selector:` up to the literal or to the nested message.
                    var j = i + 1, words: [String] = []
                    while j < literal, words.count < 4 {
                        if bytes[j] == 0x22 || bytes[j] == 0x40 { break }
                        if bytes[j] == 0x5b {  // a nested message: its words are not this one's
                            var nested = 0
                            repeat {
                                if bytes[j] == 0x5b { nested += 1 } else if bytes[j] == 0x5d { nested -= 1 }
                                j += 1
                            } while j < literal && nested > 0
                            continue
                        }
                        if WordTable.isIdentifierStart(bytes[j]) {
                            let w = j
                            while j < literal, WordTable.isIdentifierByte(bytes[j]) { j += 1 }
                            words.append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[w..<j]), as: UTF8.self))
                        } else {
                            j += 1
                        }
                    }
                    calls.append(words.joined(separator: " "))
                }
            }
            i -= 1
        }
        return calls
    }

    /// Words that say what a call does with a URL (the last name of a call, or a word of a message).
    static let uses: [String: URLUse] = [
        "dataTask": .urlSession, "downloadTask": .urlSession, "uploadTask": .urlSession, "dataTaskWithURL": .urlSession,
        "downloadTaskWithURL": .urlSession, "dataTaskWithRequest": .urlSession,
        "downloadTaskWithRequest": .urlSession, "uploadTaskWithRequest": .urlSession, "dataWithContentsOfURL": .urlSession, "contentsOf": .urlSession,
        "stringWithContentsOfURL": .urlSession, "AsyncImage": .urlSession, "NSURLConnection": .urlSession,
        "URLRequest": .request, "NSURLRequest": .request, "NSMutableURLRequest": .request, "requestWithURL": .request,
        "loadRequest": .webView,
        "AVPlayer": .media, "AVURLAsset": .media, "AVAsset": .media, "AVPlayerItem": .media, "AVQueuePlayer": .media,
        "playerWithURL": .media, "URLAssetWithURL": .media, "assetWithURL": .media, "playerItemWithURL": .media,
        "open": .external, "openURL": .external, "canOpenURL": .external, "SFSafariViewController": .external, "Link": .external,
        "SafariView": .external, "loadHTMLString": .reference,
    ]

    /// What loads a literal, from the calls around it; `.unknown` when none says.
    static func callContext(_ bytes: UnsafeRawBufferPointer, before literal: Int, language: SourceFactsScanner.Language) -> (URLUse, String?) {
        let calls = enclosingCalls(bytes, before: literal)
        for (i, call) in calls.enumerated() {
            guard case (let use?, let api) = use(of: call) else { continue }
            // A request built inside the call that loads it (`webView.load(URLRequest(url: …))`,
            // `session.dataTask(with: URLRequest(…))`): the outer call says where it goes.
            if use == .request {
                for outer in calls.dropFirst(i + 1) {
                    if case (let o?, let outerAPI) = self.use(of: outer), o == .webView || o == .urlSession { return (o, outerAPI) }
                }
            }
            return (use, api)
        }
        return (.unknown, nil)
    }

    /// What one enclosing call does with a URL, if its words say.
    static func use(of call: String) -> (URLUse?, String?) {
        let words = call.split(whereSeparator: { $0 == " " || $0 == "." || $0 == "?" || $0 == "!" }).map(String.init)
        guard let last = words.last else { return (nil, nil) }
        // `webView.load(…)`: a web view; `AF.request(…)`: Alamofire over URLSession.
        if last == "load", words.contains(where: { $0.lowercased().contains("web") }) { return (.webView, call) }
        if last == "request", words.contains("AF") || words.contains("Alamofire") { return (.urlSession, call) }
        if last == "data" || last == "download" || last == "bytes", words.contains(where: { $0.lowercased().contains("session") }) {
            return (.urlSession, call)
        }
        // A message names its receiver first (`NSURLRequest requestWithURL`): any word decides.
        let candidates = call.contains(" ") ? words.reversed() : [last]
        for w in candidates {
            if let use = uses[w] { return (use, call) }
        }
        return (nil, nil)
    }
}
