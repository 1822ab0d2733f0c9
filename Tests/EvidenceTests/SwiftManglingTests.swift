import Foundation
import XCTest
@testable import Evidence

/// The mangled substrings must name the intended types. Word substitution makes hand-written
/// manglings easy to get wrong (`PhotosPicker` in module `PhotosUI` is `8PhotosUI0A6PickerV`),
/// so each is checked with the toolchain's demangler.
final class SwiftManglingTests: XCTestCase {
    static func demanglerPath() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/swift-demangle" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Demangles many names in one process; `--compact` prints one line per input line.
    static func demangle(_ names: [String], with tool: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["--compact"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data((names.joined(separator: "\n") + "\n").utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// A type-metadata-accessor symbol around a `<module><type><kind>` substring.
    static func accessorSymbol(for substring: String) -> String {
        let kinds: Set<Character> = ["C", "V", "O", "P"]
        let typed = kinds.contains(substring.last!) ? substring : substring + "C"
        return "$s" + typed + "Ma"
    }

    func testSwiftTriggersDemangleToTheirTypes() throws {
        guard let tool = Self.demanglerPath() else { throw XCTSkip("swift-demangle is not on PATH") }
        var expected: [(substring: String, type: String)] = []
        for resource in ProtectedResourceCatalog.standard.resources {
            for trigger in resource.triggers.swiftSymbols {
                expected.append((trigger.name, trigger.demangled ?? "?"))
            }
        }
        let lookAlikeTypes = [
            "8PhotosUI0A6PickerV": "PhotosUI.PhotosPicker",
            "8PhotosUI0A10PickerItemV": "PhotosUI.PhotosPickerItem",
            "015_PhotosUI_SwiftB00A6PickerV": "_PhotosUI_SwiftUI.PhotosPicker",
        ]
        for lookAlike in ProtectedResourceCatalog.standard.lookAlikes where lookAlike.kind == .swiftSymbol {
            for name in lookAlike.names {
                XCTAssertNotNil(lookAlikeTypes[name], "add the expected type of \(name) to this test")
                expected.append((name, lookAlikeTypes[name] ?? "?"))
            }
        }
        XCTAssertFalse(expected.isEmpty)

        let lines = try Self.demangle(expected.map { Self.accessorSymbol(for: $0.substring) }, with: tool)
        XCTAssertEqual(lines.count, expected.count)
        for (entry, line) in zip(expected, lines) {
            XCTAssertEqual(line, "type metadata accessor for \(entry.type)", entry.substring)
        }
    }

    func testDemanglerCatchesAWrongLength() throws {
        guard let tool = Self.demanglerPath() else { throw XCTSkip("swift-demangle is not on PATH") }
        // The naive spelling of PhotosPicker: wrong length and no word substitution.
        let lines = try Self.demangle([Self.accessorSymbol(for: "8PhotosUI13PhotosPickerV")], with: tool)
        XCTAssertNotEqual(lines.first, "type metadata accessor for PhotosUI.PhotosPicker")
    }
}
