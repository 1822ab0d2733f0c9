import XCTest
import Foundation

/// The project's own Swift keeps the style the code base already has: swift-format's rules
/// (the toolchain's `swift-format`) with the committed `.swift-format`: 4-space indentation, and
/// off the rules that contradict that style — `DoNotUseSemicolons` (short statements share a
/// line), `OneVariableDeclarationPerLine` (related variables are declared together),
/// `OrderedImports` (imports go by layer, Foundation first), `GroupNumericLiterals` (hashes,
/// magic numbers and offsets are written as their specs give them), `OneCasePerLine` (small
/// enums list their cases on one line). Layout is not reformatted: the pretty printer's
/// findings are off (`--debug-disable-pretty-print`).
final class LintTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `swift-format` beside the `swift` that runs the tests (every Swift 6 toolchain has it).
    static func swiftFormat() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/swift-format"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    func testSourcesFollowTheCommittedStyle() throws {
        let tool = try XCTUnwrap(Self.swiftFormat(), "swift-format is not on PATH (it ships with the Swift toolchain)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.currentDirectoryURL = Self.root
        process.arguments = ["lint", "--strict", "--parallel", "--debug-disable-pretty-print", "--configuration", ".swift-format",
                             "--recursive", "Sources", "Tests", "Fuzz/Targets", "Fuzz/Harness"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = errors
        try process.run()
        let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "swift-format lint:\n\(output)")
    }
}
