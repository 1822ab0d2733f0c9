import Foundation

/// What one fast pass over a source file's bytes says, before any parser runs: which of a
/// set of names it mentions as identifiers, which of them it declares, and which modules it
/// imports. Comments are skipped; string literals are not told apart, so a name inside a
/// string counts as mentioned (the parser decides later), never as declared.
public struct SourceFacts: Sendable, Equatable {
    /// Names of the set that occur as whole identifiers outside comments.
    public var mentioned: Set<String> = []
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

/// The byte scanner behind `SourceFacts`: one linear pass, identifiers hashed without
/// building strings unless their hash is one of the names'.
public struct SourceFactsScanner: Sendable {
    private let names: [UInt64: [[UInt8]]]

    public init(names: Set<String>) {
        var table: [UInt64: [[UInt8]]] = [:]
        for n in names { table[Self.hash(Array(n.utf8)[...]), default: []].append(Array(n.utf8)) }
        self.names = table
    }

    static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf29ce484222325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        return h
    }

    /// Words the scanner reacts to, found by hash so other identifiers never become strings.
    private enum Keyword { case declaration, importWord, include, interface, exported, importKind }

    private static let keywords: [UInt64: [([UInt8], Keyword)]] = {
        var table: [UInt64: [([UInt8], Keyword)]] = [:]
        func add(_ word: String, _ k: Keyword) { table[hash(Array(word.utf8)[...]), default: []].append((Array(word.utf8), k)) }
        for w in ["class", "struct", "enum", "protocol", "actor", "typealias", "associatedtype", "func"] { add(w, .declaration) }
        add("import", .importWord)
        add("include", .include)
        add("interface", .interface)
        add("_exported", .exported)
        for w in ["var", "let"] { add(w, .importKind) }
        return table
    }()

    private static func keyword(_ word: ArraySlice<UInt8>, hash h: UInt64) -> Keyword? {
        keywords[h]?.first { $0.0.elementsEqual(word) }?.1
    }

    private static func isIdentifierStart(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a) || b == 0x5f || b >= 0x80
    }

    private static func isIdentifierByte(_ b: UInt8) -> Bool { isIdentifierStart(b) || (b >= 0x30 && b <= 0x39) }

    public func scan(_ bytes: [UInt8]) -> SourceFacts {
        var facts = SourceFacts()
        let n = bytes.count
        var i = 0
        enum Previous { case other, declaration, hashImport }
        var previous = Previous.other
        var afterAt = false          // the last token was `@`
        var afterHash = false        // the last token was `#`
        var exportedOnLine = false   // `@_exported` seen on this line
        var importing: Bool?         // reading a Swift/`@import` module name; true when exported
        while i < n {
            let b = bytes[i]
            if b == 0x2f, i + 1 < n, bytes[i + 1] == 0x2f {  // line comment
                while i < n, bytes[i] != 0x0a { i += 1 }
                continue
            }
            if b == 0x2f, i + 1 < n, bytes[i + 1] == 0x2a {  // block comment (Swift nests them)
                var depth = 1
                i += 2
                while i < n, depth > 0 {
                    if bytes[i] == 0x2a, i + 1 < n, bytes[i + 1] == 0x2f { depth -= 1; i += 2 }
                    else if bytes[i] == 0x2f, i + 1 < n, bytes[i + 1] == 0x2a { depth += 1; i += 2 }
                    else { i += 1 }
                }
                continue
            }
            if b == 0x0a { exportedOnLine = false; i += 1; continue }
            if b == 0x20 || b == 0x09 || b == 0x0d { i += 1; continue }
            if Self.isIdentifierStart(b) {
                let start = i
                while i < n, Self.isIdentifierByte(bytes[i]) { i += 1 }
                let word = bytes[start..<i]
                let h = Self.hash(word)
                if let candidates = names[h], candidates.contains(where: { $0.elementsEqual(word) }) {
                    let name = String(decoding: word, as: UTF8.self)
                    facts.mentioned.insert(name)
                    if previous == .declaration { facts.declared.insert(name) }
                }
                let keyword = Self.keyword(word, hash: h)
                var next = Previous.other
                if let exported = importing {
                    if keyword != .importKind && keyword != .declaration {
                        let module = String(decoding: word, as: UTF8.self)
                        facts.imports.insert(module)
                        if exported { facts.exportedImports.insert(module) }
                        importing = nil
                    }
                } else if afterHash && (keyword == .importWord || keyword == .include) {
                    next = .hashImport
                } else if keyword == .importWord {
                    importing = exportedOnLine
                } else if keyword == .declaration || (afterAt && keyword == .interface) {
                    next = .declaration
                } else if afterAt && keyword == .exported {
                    exportedOnLine = true
                }
                previous = next
                afterAt = false
                afterHash = false
                continue
            }
            if b == 0x3c, previous == .hashImport {  // <Framework/Header.h>
                var j = i + 1
                let start = j
                while j < n, Self.isIdentifierByte(bytes[j]) { j += 1 }
                if j < n, bytes[j] == 0x2f, j > start { facts.imports.insert(String(decoding: bytes[start..<j], as: UTF8.self)) }
                i = j
            } else {
                i += 1
            }
            afterAt = b == 0x40
            afterHash = b == 0x23
            if b != 0x2e { importing = nil }  // `import Foo.Bar` keeps Foo
            if b != 0x40 && b != 0x23 && !(b == 0x2e && importing != nil) { previous = .other }
        }
        return facts
    }

    /// Words between `import` and the module name (`import class UIKit.UIView`).
    private static let importKinds: Set<String> = ["class", "struct", "enum", "protocol", "func", "typealias", "var", "let"]
}
