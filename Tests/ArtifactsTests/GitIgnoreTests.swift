import XCTest
import Foundation
@testable import Artifacts
import TestSupport

/// The `.gitignore` matcher against gitignore(5), case by case, and against git itself
/// (`git check-ignore --no-index`) when git is installed.
final class GitIgnoreTests: XCTestCase {
    /// (.gitignore files by folder, path, is a folder, ignored?)
    typealias Case = (files: [String: String], path: String, isDirectory: Bool, ignored: Bool)

    static let cases: [Case] = [
        // Blank lines, comments, escapes, trailing spaces.
        ([".": "\n# comment\nfoo\n"], "foo", false, true),
        ([".": "# foo\n"], "# foo", false, false),
        ([".": "\\#foo\n"], "#foo", false, true),
        ([".": "foo   \n"], "foo", false, true),
        ([".": "foo\\ \n"], "foo ", false, true),
        ([".": "foo\\ \n"], "foo", false, false),
        ([".": "\\!important\n"], "!important", false, true),
        // A name without a slash matches at any depth; a slash anchors to the .gitignore's folder.
        ([".": "foo\n"], "a/b/foo", false, true),
        ([".": "/foo\n"], "a/foo", false, false),
        ([".": "/foo\n"], "foo", false, true),
        ([".": "a/foo\n"], "x/a/foo", false, false),
        ([".": "a/foo\n"], "a/foo", false, true),
        (["sub": "foo\n"], "sub/x/foo", false, true),
        (["sub": "foo\n"], "foo", false, false),
        (["sub": "/foo\n"], "sub/foo", false, true),
        (["sub": "/foo\n"], "sub/x/foo", false, false),
        // Trailing slash: folders only, and everything in them.
        ([".": "build/\n"], "build", false, false),
        ([".": "build/\n"], "build", true, true),
        ([".": "build/\n"], "a/build/out.o", false, true),
        ([".": "doc/frotz/\n"], "doc/frotz/x", false, true),
        ([".": "doc/frotz/\n"], "a/doc/frotz/x", false, false),
        // Wildcards never cross a slash.
        ([".": "*.swift\n"], "a/b/c.swift", false, true),
        ([".": "a/*.swift\n"], "a/b/c.swift", false, false),
        ([".": "a/*.swift\n"], "a/c.swift", false, true),
        ([".": "fo?\n"], "foo", false, true),
        ([".": "fo?\n"], "fo", false, false),
        ([".": "a?b\n"], "a/b", false, false),
        // Character classes.
        ([".": "file[0-9].txt\n"], "file7.txt", false, true),
        ([".": "file[0-9].txt\n"], "filex.txt", false, false),
        ([".": "file[!0-9].txt\n"], "filex.txt", false, true),
        ([".": "file[!0-9].txt\n"], "file7.txt", false, false),
        ([".": "file[^ab].txt\n"], "filec.txt", false, true),
        ([".": "[]]x\n"], "]x", false, true),
        ([".": "[[:digit:]]x\n"], "5x", false, true),
        ([".": "[[:upper:]]x\n"], "ax", false, false),
        // Double asterisks.
        ([".": "**/foo\n"], "foo", false, true),
        ([".": "**/foo\n"], "a/b/foo", false, true),
        ([".": "**/foo/bar\n"], "x/foo/bar", false, true),
        ([".": "abc/**\n"], "abc/x/y", false, true),
        ([".": "abc/**\n"], "abc", true, false),
        ([".": "a/**/b\n"], "a/b", false, true),
        ([".": "a/**/b\n"], "a/x/y/b", false, true),
        ([".": "a/**/b\n"], "x/a/b", false, false),
        ([".": "a**b\n"], "axxb", false, true),
        // git's manual calls this `**` an ordinary star, but git matches across folders (its
        // literal-prefix step leaves `**/b` to match `/y/b`); we follow git.
        ([".": "a/x**/b\n"], "a/x/y/b", false, true),
        ([".": "a/x*/b\n"], "a/x/y/b", false, false),
        ([".": "*/b\n"], "a/b", false, true),
        ([".": "*/b\n"], "x/a/b", false, false),
        ([".": "a/*\n"], "a/b/c", false, true),
        ([".": "[a-\n"], "[a-", false, false),
        ([".": "x[[:bogus:]]\n"], "xb", false, false),
        ([".": "[[:alpha:]-z]x\n"], "-x", false, true),
        // Negation: the last match wins, deeper files override shallower ones.
        ([".": "*.plist\n!Info.plist\n"], "App/Info.plist", false, false),
        ([".": "*.plist\n!Info.plist\n"], "App/Other.plist", false, true),
        ([".": "!Info.plist\n*.plist\n"], "App/Info.plist", false, true),
        ([".": "*.plist\n", "App": "!Keep.plist\n"], "App/Keep.plist", false, false),
        ([".": "!Keep.plist\n", "App": "*.plist\n"], "App/Keep.plist", false, true),
        // A file in an ignored folder cannot be re-included.
        ([".": "gen/\n!gen/keep.swift\n"], "gen/keep.swift", false, true),
        ([".": "gen/*\n!gen/keep.swift\n"], "gen/keep.swift", false, false),
        ([".": "gen\n", "gen": "!keep.swift\n"], "gen/keep.swift", false, true),
    ]

    static func ignore(_ files: [String: String]) -> GitIgnore {
        var g = GitIgnore()
        for (folder, text) in files.sorted(by: { $0.key < $1.key }) { g.add(text, folder: folder == "." ? "" : folder) }
        return g
    }

    func testDocumentedSemantics() {
        for (i, c) in Self.cases.enumerated() {
            XCTAssertEqual(Self.ignore(c.files).isIgnored(c.path, isDirectory: c.isDirectory), c.ignored,
                           "case \(i): \(c.files) \(c.path)\(c.isDirectory ? "/" : "")")
        }
    }

    func testUnknownKindMatchesEitherWay() {
        let g = Self.ignore([".": "Generated/\n"])
        XCTAssertTrue(g.isIgnored("App/Generated", isDirectory: nil))
        XCTAssertFalse(g.isIgnored("App/Generated", isDirectory: false))
        XCTAssertFalse(GitIgnore().isIgnored("anything", isDirectory: nil))
    }

    func testLimits() {
        // A line longer than any path, or a pattern of many stars: the file is left out.
        var g = GitIgnore()
        XCTAssertFalse(g.add("!" + String(repeating: "a", count: GitIgnore.maxLineBytes) + "\n*.log\n", folder: ""))
        XCTAssertFalse(g.add(String(repeating: "*a", count: GitIgnore.maxStarsPerPattern + 1) + "\n*.log\n", folder: ""))
        XCTAssertFalse(g.isIgnored("x.log"))
        XCTAssertTrue(g.add(String(repeating: "*a", count: GitIgnore.maxStarsPerPattern) + "\n*.log\n", folder: ""))
        XCTAssertTrue(g.isIgnored("x.log"))
        // The worst such pattern against a long name that almost matches: git's early aborts keep it quick.
        let t0 = Date()
        XCTAssertFalse(g.isIgnored(String(repeating: "a", count: 1000) + "b"))
        XCTAssertLessThan(Date().timeIntervalSince(t0), 5)
        // Too many wildcard patterns: the file is left out (more is reported, never less).
        var big = GitIgnore()
        let many = (0...GitIgnore.maxWildcardPatternsPerFile).map { "*.ext\($0)" }.joined(separator: "\n")
        XCTAssertFalse(big.add(many + "\n*.log\n", folder: ""))
        XCTAssertFalse(big.isIgnored("x.log"))
        // Many plain names are looked up, not scanned: a hundred thousand of them stay fast.
        var names = GitIgnore()
        XCTAssertTrue(names.add((0..<100_000).map { "file\($0).swift" }.joined(separator: "\n") + "\n!file7.swift\n", folder: ""))
        let start = Date()
        var folders: [String: Bool] = [:]
        for i in 0..<20_000 {
            XCTAssertEqual(names.isIgnored("a/b/file\(i).swift", isDirectory: nil, folders: &folders), i != 7)
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 20)
    }

    func testLoadsNestedFilesFromAnInput() throws {
        let source = MemorySource(name: "in", files: [".gitignore": Data("*.log\n".utf8), "App/.gitignore": Data("/Secrets.xcconfig\n".utf8)])
        let g = GitIgnore.load(index: FileIndex(source.entries), source: source)
        XCTAssertTrue(g.isIgnored("App/Secrets.xcconfig"))
        XCTAssertFalse(g.isIgnored("Secrets.xcconfig"))
        XCTAssertTrue(g.isIgnored("x/y.log"))
    }

    /// Every case again, asking git, so that the table above is git's behaviour and not ours.
    func testAgreesWithGit() throws {
        guard let git = ["/usr/bin/git", "/usr/local/bin/git", "/opt/homebrew/bin/git"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("git is not installed")
        }
        for (i, c) in Self.cases.enumerated() {
            let dir = try Scratch.folder("gitignore-\(i)")
            for (folder, text) in c.files {
                let d = dir.appendingPathComponent(folder)
                try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
                try Data(text.utf8).write(to: d.appendingPathComponent(".gitignore"))
            }
            let p = Process()
            p.executableURL = URL(fileURLWithPath: git)
            p.currentDirectoryURL = dir
            // Without a repository git reads no .gitignore; an empty one is enough.
            let initRepo = Process()
            initRepo.executableURL = URL(fileURLWithPath: git)
            initRepo.arguments = ["init", "-q", dir.path]
            try initRepo.run(); initRepo.waitUntilExit()
            // A folder is asked about as git meets it while walking: existing, without a trailing slash.
            if c.isDirectory {
                try FileManager.default.createDirectory(at: dir.appendingPathComponent(c.path), withIntermediateDirectories: true)
            }
            p.arguments = ["-c", "core.excludesFile=/dev/null", "check-ignore", "--no-index", "-q", "--", c.path]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run(); p.waitUntilExit()
            // 0: ignored, 1: not ignored.
            XCTAssertEqual(p.terminationStatus == 0, c.ignored, "git disagrees on case \(i): \(c.files) \(c.path)")
        }
    }
}
