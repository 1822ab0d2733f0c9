import XCTest
@testable import Artifacts

/// `files(under:)` answers from a sorted index exactly what a scan of every entry answers.
final class FileIndexTests: XCTestCase {
    func linear(_ entries: [FileEntry], _ folder: String) -> [String] {
        let prefix = folder.isEmpty ? "" : folder + "/"
        return entries.filter { $0.path.hasPrefix(prefix) && $0.path != folder }.map(\.path)
    }

    func testSameAsAScanOfEveryEntry() {
        let paths = ["App", "App/A.swift", "App/Sub/B.swift", "App-Extra/C.swift", "App.xcodeproj/project.pbxproj",
                     "Apps/D.swift", "a/App/E.swift", "App/Sub", "Z", "App/Z.swift", "App/É.swift"]
        for set in [paths.filter { $0.utf8.allSatisfy { $0 < 0x80 } }, paths] {
            let entries = set.map { FileEntry(path: $0, kind: $0.hasSuffix(".swift") || $0.hasSuffix(".pbxproj") ? .file : .directory, size: 0) }
            let index = FileIndex(entries)
            for folder in ["", "App", "App/Sub", "Apps", "a", "Missing", "App/É", "É"] {
                XCTAssertEqual(index.files(under: folder).map(\.path), linear(entries, folder), folder)
            }
        }
    }
}
