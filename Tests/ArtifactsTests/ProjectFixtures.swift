import Foundation
import XCTest
@testable import Artifacts
import Formats

/// Loads a folder under `Tests/Fixtures/Projects/` into a `MemorySource`, paths relative to it.
enum ProjectFixtures {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Projects")

    static func source(_ name: String) throws -> MemorySource {
        let base = root.appendingPathComponent(name)
        var files: [String: Data] = [:]
        let basePath = base.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey]) else {
            throw SourceError(path: basePath, reason: "fixture folder not found")
        }
        for case let url as URL in walker {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(basePath + "/") else { continue }
            files[String(path.dropFirst(basePath.count + 1))] = try Data(contentsOf: url)
        }
        guard !files.isEmpty else { throw SourceError(path: basePath, reason: "fixture folder is empty") }
        return MemorySource(name: name, files: files)
    }

    static func load(_ name: String, project: String, configuration: String? = nil) throws -> (ProjectLoadResult, MemorySource) {
        let source = try source(name)
        let result = try XcodeProjectLoader.load(project: project, source: source, index: FileIndex(source.entries),
                                                 configuration: configuration)
        return (result, source)
    }
}

extension ProjectLoadResult {
    func bundle(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> AppBundle {
        try XCTUnwrap(bundles.first { $0.name == name }, "no bundle \(name) in \(bundles.map(\.name))", file: file, line: line)
    }
}
