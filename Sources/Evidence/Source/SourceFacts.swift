import Foundation

/// What one fast pass over a source file's bytes says, before any parser runs: which of a
/// set of names it mentions as identifiers, which of them it declares, and which modules it
/// imports. Comments and the text of string and character literals are skipped (a Swift
/// string's interpolations are code and are read).
public struct SourceFacts: Sendable, Equatable {
    /// Names of the set that occur as whole identifiers outside comments.
    public var mentioned: Set<String> = []
    /// Mentioned names that occur somewhere other than as the name a declaration introduces
    /// (`class X`, `func x`, `var x`, `let x`): the names code refers to. A Swift reserved word
    /// (`default`) counts only as a member (`.default`); unqualified it is the keyword.
    public var referenced: Set<String> = []
    /// Names of the set this file declares: Swift `class`/`struct`/`enum`/`protocol`/`actor`/
    /// `typealias`/`associatedtype`/`func`, Objective-C `@interface`/`@protocol`.
    public var declared: Set<String> = []
    /// Modules imported: Swift `import X` (any kind), Objective-C `@import X` and
    /// `#import <X/…>` / `#include <X/…>`.
    public var imports: Set<String> = []
    /// Swift `@_exported import X`: every file of the module sees X.
    public var exportedImports: Set<String> = []

    public init() {}
}

/// The byte scanner behind `SourceFacts`: one linear pass over the bytes; each identifier is
/// hashed once and looked up in one open-addressing table of the names and the keywords the
/// scanner reacts to, so other identifiers never become strings.
public struct SourceFactsScanner: Sendable {
    private let table: WordTable

    public init(names: Set<String>) {
        table = WordTable(names: names)
    }

    /// How literals are written: Swift strings (`"…"`, `"""…"""`, raw `#"…"#`, with `\(…)`
    /// interpolations) or C-family strings and character literals (`"…"`, `'…'`).
    public enum Language: Sendable { case swift, cFamily }

    /// Open Swift string literals deeper than this are read as code (a hostile file cannot
    /// make the scanner keep a stack without bound; reading text as code only adds names).
    static let maxOpenStrings = 64

    /// Words the scanner reacts to besides the names.
    enum Keyword { case declaration, binding, importWord, include, interface, exported }

    static let keywords: [(String, Keyword)] =
        ["class", "struct", "enum", "protocol", "actor", "typealias", "associatedtype", "func"].map { ($0, .declaration) }
        + [("var", .binding), ("let", .binding), ("import", .importWord), ("include", .include),
           ("interface", .interface), ("_exported", .exported)]

    /// Swift reserved words that are a name only as a member (`.default`).
    static let reservedWords: Set<String> = ["default", "init", "for", "in", "is", "as", "case", "self", "super"]

    public func scan(_ bytes: [UInt8], language: Language = .swift) -> SourceFacts {
        bytes.withUnsafeBufferPointer { scan(UnsafeRawBufferPointer($0), language: language) }
    }

    public func scan(_ data: Data, language: Language) -> SourceFacts {
        data.withUnsafeBytes { scan($0, language: language) }
    }

    /// A Swift string literal being read: its `#` count, whether it is multi-line, and, while
    /// an interpolation is open, the depth of parentheses inside it.
    private struct OpenString {
        var hashes: Int
        var multiline: Bool
        var interpolationDepth: Int?
    }

    public func scan(_ bytes: UnsafeRawBufferPointer, language: Language) -> SourceFacts {
        var facts = SourceFacts()
        let n = bytes.count
        var i = 0
        enum Previous { case other, declaration, binding, hashImport }
        var previous = Previous.other
        var afterAt = false          // the last token was `@`
        var afterHash = false        // the last token was `#`
        var afterDot = false         // the last token was `.`
        var exportedOnLine = false   // `@_exported` seen on this line
        var importing: Bool?         // reading a Swift/`@import` module name; true when exported
        var strings: [OpenString] = []
        var inText = false           // reading the text of the innermost open Swift string
        // How each entry was seen (bits below), turned into sets at the end: a name can occur
        // thousands of times, and hashing its string each time was most of the scan.
        var seen = [UInt8](repeating: 0, count: table.count)
        func count(_ byte: UInt8, from start: Int, upTo limit: Int) -> Int {
            var k = 0
            while k < limit, start + k < n, bytes[start + k] == byte { k += 1 }
            return k
        }
        while i < n {
            let b = bytes[i]
            if inText {
                let open = strings[strings.count - 1]
                if b == 0x5c, count(0x23, from: i + 1, upTo: open.hashes) == open.hashes {  // `\` + hashes
                    let j = i + 1 + open.hashes
                    if j < n, bytes[j] == 0x28 { strings[strings.count - 1].interpolationDepth = 0; inText = false }
                    i = j + 1
                } else if b == 0x22, count(0x22, from: i, upTo: open.multiline ? 3 : 1) == (open.multiline ? 3 : 1),
                          count(0x23, from: i + (open.multiline ? 3 : 1), upTo: open.hashes) == open.hashes {
                    i += (open.multiline ? 3 : 1) + open.hashes
                    strings.removeLast()
                    inText = false
                    previous = .other
                } else {
                    if b == 0x0a, !open.multiline { strings.removeLast(); inText = false }  // unterminated: the line ends it
                    i += 1
                }
                continue
            }
            if WordTable.isIdentifierStart(b) {
                let start = i
                var h = WordTable.offsetBasis
                repeat {
                    h = (h ^ UInt64(bytes[i])) &* WordTable.prime
                    i += 1
                } while i < n && WordTable.isIdentifierByte(bytes[i])
                let entry = table.lookup(hash: h, UnsafeRawBufferPointer(rebasing: bytes[start..<i]))
                var keyword: Keyword?
                if entry >= 0 {
                    if table.names[entry] != nil {
                        switch previous {
                        case .declaration: seen[entry] |= Self.seenMentioned | Self.seenDeclared
                        case .binding: seen[entry] |= Self.seenMentioned
                        default:
                            seen[entry] |= !table.memberOnly[entry] || afterDot ? Self.seenMentioned | Self.seenReferenced : Self.seenMentioned
                        }
                    }
                    keyword = table.keywords[entry]
                }
                var next = Previous.other
                if let exported = importing {
                    if keyword != .binding && keyword != .declaration {
                        let module = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
                        facts.imports.insert(module)
                        if exported { facts.exportedImports.insert(module) }
                        importing = nil
                    }
                } else if keyword != nil {
                    if afterHash && (keyword == .importWord || keyword == .include) {
                        next = .hashImport
                    } else if keyword == .importWord {
                        importing = exportedOnLine
                    } else if keyword == .declaration || (afterAt && keyword == .interface) {
                        next = .declaration
                    } else if keyword == .binding {
                        next = .binding
                    } else if afterAt && keyword == .exported {
                        exportedOnLine = true
                    }
                }
                previous = next
                afterAt = false
                afterHash = false
                afterDot = false
                continue
            }
            if b == 0x20 || b == 0x09 || b == 0x0d { i += 1; continue }
            if b == 0x0a { exportedOnLine = false; i += 1; continue }
            if language == .swift, b == 0x22 || b == 0x23 {
                let hashes = count(0x23, from: i, upTo: n)
                if i + hashes < n, bytes[i + hashes] == 0x22, strings.count < Self.maxOpenStrings {
                    let multiline = count(0x22, from: i + hashes, upTo: 3) == 3
                    strings.append(OpenString(hashes: hashes, multiline: multiline, interpolationDepth: nil))
                    inText = true
                    i += hashes + (multiline ? 3 : 1)
                    afterAt = false; afterHash = false; afterDot = false; importing = nil
                    continue
                }
            }
            if language == .cFamily, b == 0x22 || b == 0x27 {  // "string", 'c'
                i += 1
                while i < n, bytes[i] != b, bytes[i] != 0x0a { i += bytes[i] == 0x5c ? 2 : 1 }
                i += 1
                afterAt = false; afterHash = false; afterDot = false; importing = nil; previous = .other
                continue
            }
            if b == 0x28 || b == 0x29, !strings.isEmpty, let depth = strings[strings.count - 1].interpolationDepth {  // `\(…)`
                if b == 0x28 { strings[strings.count - 1].interpolationDepth = depth + 1 }
                if b == 0x29 {
                    if depth == 0 { strings[strings.count - 1].interpolationDepth = nil; inText = true; i += 1; continue }
                    strings[strings.count - 1].interpolationDepth = depth - 1
                }
            }
            if b == 0x2f, let end = Self.commentEnd(bytes, at: i, nested: true) {
                i = end
                continue
            }
            if b == 0x3c, previous == .hashImport {  // <Framework/Header.h>
                var j = i + 1
                let start = j
                while j < n, WordTable.isIdentifierByte(bytes[j]) { j += 1 }
                if j < n, bytes[j] == 0x2f, j > start {
                    facts.imports.insert(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<j]), as: UTF8.self))
                }
                i = j
            } else {
                i += 1
            }
            afterAt = b == 0x40
            afterHash = b == 0x23
            afterDot = b == 0x2e
            if b != 0x2e { importing = nil }  // `import Foo.Bar` keeps Foo
            if b != 0x40 && b != 0x23 && !(b == 0x2e && importing != nil) { previous = .other }
        }
        for (entry, how) in seen.enumerated() where how != 0 {
            guard let name = table.names[entry] else { continue }
            facts.mentioned.insert(name)
            if how & Self.seenDeclared != 0 { facts.declared.insert(name) }
            if how & Self.seenReferenced != 0 { facts.referenced.insert(name) }
        }
        return facts
    }

    /// Where a comment that starts at `i` (`//` or `/*`) ends: the newline of a line comment,
    /// or the byte after a block comment's `*/` (nested ones counted when `nested`, as Swift
    /// does); nil when no comment starts there.
    @inline(__always)
    static func commentEnd(_ bytes: UnsafeRawBufferPointer, at start: Int, nested: Bool) -> Int? {
        let n = bytes.count
        guard start + 1 < n, bytes[start] == 0x2f else { return nil }
        var i = start + 2
        if bytes[start + 1] == 0x2f {
            while i < n, bytes[i] != 0x0a { i += 1 }
            return i
        }
        guard bytes[start + 1] == 0x2a else { return nil }
        var depth = 1
        while i < n, depth > 0 {
            if bytes[i] == 0x2a, i + 1 < n, bytes[i + 1] == 0x2f { depth -= 1; i += 2 }
            else if nested, bytes[i] == 0x2f, i + 1 < n, bytes[i + 1] == 0x2a { depth += 1; i += 2 }
            else { i += 1 }
        }
        return min(i, n)
    }

    private static let seenMentioned: UInt8 = 1
    private static let seenDeclared: UInt8 = 2
    private static let seenReferenced: UInt8 = 4
}

/// The names and keywords of `SourceFactsScanner` in one open-addressing hash table keyed by
/// an FNV-1a hash of the word's bytes, which the scanner computes as it reads the word (a
/// Swift `Dictionary` would hash each key again). Entries are stored flat: no lookup retains.
struct WordTable: Sendable {
    static let offsetBasis: UInt64 = 0xcbf29ce484222325
    static let prime: UInt64 = 0x100000001b3

    private var hashes: [UInt64] = []
    private var offsets: [Int] = []
    private var bytes: [UInt8] = []
    private(set) var names: [String?] = []
    private(set) var keywords: [SourceFactsScanner.Keyword?] = []
    private(set) var memberOnly: [Bool] = []
    var count: Int { hashes.count }
    /// Entry index + 1, 0 for an empty slot; the count is a power of two.
    private var slots: [Int32]
    private let mask: Int

    init(names: Set<String>) {
        var byWord: [String: (name: String?, keyword: SourceFactsScanner.Keyword?)] = [:]
        for n in names { byWord[n] = (n, nil) }
        for (w, k) in SourceFactsScanner.keywords { byWord[w, default: (nil, nil)].keyword = k }
        var size = 16
        while size < byWord.count * 4 { size *= 2 }
        slots = Array(repeating: 0, count: size)
        mask = size - 1
        offsets = [0]
        for (word, entry) in byWord.sorted(by: { $0.key < $1.key }) {
            let h = Self.hash(Array(word.utf8))
            var slot = Int(truncatingIfNeeded: h) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            hashes.append(h)
            bytes.append(contentsOf: word.utf8)
            offsets.append(bytes.count)
            self.names.append(entry.name)
            keywords.append(entry.keyword)
            memberOnly.append(entry.name.map(SourceFactsScanner.reservedWords.contains) ?? false)
            slots[slot] = Int32(hashes.count)
        }
    }

    static func hash<C: Collection>(_ bytes: C) -> UInt64 where C.Element == UInt8 {
        var h = offsetBasis
        for b in bytes { h = (h ^ UInt64(b)) &* prime }
        return h
    }

    /// The entry for a word whose `hash` the caller computed, or -1.
    func lookup(hash h: UInt64, _ word: UnsafeRawBufferPointer) -> Int {
        var slot = Int(truncatingIfNeeded: h) & mask
        while true {
            let index = Int(slots[slot]) - 1
            if index < 0 { return -1 }
            if hashes[index] == h {
                let start = offsets[index], end = offsets[index + 1]
                if end - start == word.count, bytes.withUnsafeBufferPointer({ stored in
                    word.elementsEqual(UnsafeBufferPointer(rebasing: stored[start..<end]))
                }) { return index }
            }
            slot = (slot + 1) & mask
        }
    }

    static func isIdentifierStart(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a) || b == 0x5f || b >= 0x80
    }

    static func isIdentifierByte(_ b: UInt8) -> Bool { isIdentifierStart(b) || (b >= 0x30 && b <= 0x39) }
}
