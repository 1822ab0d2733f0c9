import XCTest
import Foundation
@testable import Artifacts
@testable import Formats

/// The fast paths of the path and text helpers answer what their plain definitions answer.
final class PathUtilTests: XCTestCase {
    static let paths = ["", "a", "a/b", "/a", "a/", "a//b", "./a", "a/./b", "a/../b", "../a", "a/..", ".", "..", "...",
                        ".hidden", "a/.b", "a/b.c/d", "a/...", "É/ü.swift", "//", "a/b/", "x/./", "..a", "a..", "a/.../b"]

    /// `normalize` as written before its fast path.
    static func slowNormalize(_ path: String) -> String {
        var parts: [Substring] = []
        for c in path.split(separator: "/", omittingEmptySubsequences: true) {
            if c == "." { continue }
            if c == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
            parts.append(c)
        }
        return parts.joined(separator: "/")
    }

    func testNormalizeMatchesItsDefinition() {
        for p in Self.paths { XCTAssertEqual(PathUtil.normalize(p), Self.slowNormalize(p), p) }
    }

    func testLastComponentAndParent() {
        for p in Self.paths {
            XCTAssertEqual(PathUtil.lastComponent(p), p.split(separator: "/").last.map(String.init) ?? p, p)
            let parent = p.range(of: "/", options: .backwards).map { String(p[..<$0.lowerBound]) } ?? ""
            XCTAssertEqual(PathUtil.parent(p), parent, p)
        }
    }

    func testTrimmingWhitespaceMatchesFoundation() {
        for s in ["", " ", "a", " a", "a ", "\ta\t", "a b", "\u{00A0}a", "a\u{2003}", "é", " é ", "\n", "a\n"] {
            XCTAssertEqual(s.trimmingWhitespace(), s.trimmingCharacters(in: .whitespaces), s.debugDescription)
        }
    }

    func testSynchronizedFolderExclusionsCoverFoldersAndFiles() {
        let excluded: Set<String> = ["Info.plist", "Preview Content", "Sub/Gen"]
        XCTAssertTrue(SynchronizedFolders.isExcluded("Info.plist", by: excluded))
        XCTAssertTrue(SynchronizedFolders.isExcluded("Preview Content/Assets.swift", by: excluded))
        XCTAssertTrue(SynchronizedFolders.isExcluded("Sub/Gen/A.swift", by: excluded))
        XCTAssertFalse(SynchronizedFolders.isExcluded("Sub/Generated.swift", by: excluded))
        XCTAssertFalse(SynchronizedFolders.isExcluded("Preview Contents/A.swift", by: excluded))
        XCTAssertFalse(SynchronizedFolders.isExcluded("Sub", by: excluded))
    }

    func testHiddenAndOpaquePaths() {
        XCTAssertTrue(SynchronizedFolders.isHiddenOrOpaque(".DS_Store"))
        XCTAssertTrue(SynchronizedFolders.isHiddenOrOpaque("A/.git/config"))
        XCTAssertTrue(SynchronizedFolders.isHiddenOrOpaque("Assets.xcassets/AppIcon.appiconset/Contents.json"))
        XCTAssertTrue(SynchronizedFolders.isHiddenOrOpaque("Model.XCDataModelD/v1.xcdatamodel/contents"))
        XCTAssertFalse(SynchronizedFolders.isHiddenOrOpaque("Assets.xcassets"), "the folder itself is one member")
        XCTAssertFalse(SynchronizedFolders.isHiddenOrOpaque("Views/Main.swift"))
        XCTAssertFalse(SynchronizedFolders.isHiddenOrOpaque("v1.2/File.swift"))
    }

    func testDirectoryReadsWholeFilesAndKeepsTheLimit() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pathutil-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let body = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0) })
        try body.write(to: dir.appendingPathComponent("big.bin"))
        try Data().write(to: dir.appendingPathComponent("empty.bin"))
        var limits = ReaderLimits.default
        limits.maxFileBytes = 100_000
        let source = try DirectorySource(dir, limits: limits)
        XCTAssertEqual(try source.read("big.bin"), body)
        XCTAssertEqual(try source.read("./empty.bin"), Data())
        limits.maxFileBytes = 99_999
        XCTAssertThrowsError(try DirectorySource(dir, limits: limits).read("big.bin"))
    }
}
