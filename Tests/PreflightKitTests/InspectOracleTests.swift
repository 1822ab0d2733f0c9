import XCTest
import Foundation

/// `preflight inspect --symbols --format json` on the committed Mach-O fixtures agrees with
/// LLVM's tools (installed by .ci/run): imported symbols with `llvm-nm -u`, platform and
/// minimum OS with `llvm-objdump --macho --private-headers`.
final class InspectOracleTests: XCTestCase {
    static let fixtures = CLITests.packageRoot.appendingPathComponent("Tests/Fixtures/MachO")

    static func tool(_ name: String, _ args: [String]) throws -> String? {
        let which = Process()
        which.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        which.arguments = [name] + args
        let out = Pipe()
        which.standardOutput = out
        which.standardError = Pipe()
        do { try which.run() } catch { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        which.waitUntilExit()
        return which.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }

    func testImportedSymbolsMatchLLVMNm() throws {
        for name in ["App", "AppChained", "Fat", "MyKit.framework/MyKit"] {
            let path = Self.fixtures.appendingPathComponent(name).path
            let r = try CLITests.run(["inspect", path, "--symbols", "--format", "json"])
            XCTAssertEqual(r.status, 0, r.stderr)
            let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            XCTAssertEqual((doc["input"] as? [String: Any])?["kind"] as? String, "machO")
            let binary = try XCTUnwrap((doc["binaries"] as? [[String: Any]])?.first)
            let slices = try XCTUnwrap(binary["slices"] as? [[String: Any]])
            XCTAssertFalse(slices.isEmpty)
            for slice in slices {
                let arch = try XCTUnwrap(slice["arch"] as? String)
                let ours = try XCTUnwrap(slice["importedSymbols"] as? [String])
                guard let nm = try Self.tool("llvm-nm", ["-u", "--arch=\(arch)", path]) else {
                    throw XCTSkip("llvm-nm is not installed")
                }
                let theirs = nm.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasSuffix(":") }
                XCTAssertEqual(ours, theirs, "\(name) \(arch)")
                XCTAssertFalse(ours.isEmpty, "\(name) \(arch) imports nothing")
                if let headers = try Self.tool("llvm-objdump", ["--macho", "--private-headers", "--arch=\(arch)", path]),
                   let minos = slice["minOS"] as? String {
                    XCTAssertTrue(headers.contains("minos \(minos)") || headers.contains("version \(minos)"), "\(name) \(arch): minOS \(minos) not in llvm-objdump output")
                    for lib in slice["linkedLibraries"] as? [String] ?? [] {
                        XCTAssertTrue(headers.contains("name \(lib) "), "\(name) \(arch): \(lib) not in llvm-objdump output")
                    }
                }
            }
        }
    }
}
