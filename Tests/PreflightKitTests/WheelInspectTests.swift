import XCTest
import Foundation

/// Real iOS binaries built by Apple's toolchain: the iOS wheels of `pillow` and `cffi` from
/// PyPI. For every Mach-O inside, `preflight inspect --symbols --format json` must agree exactly
/// with `llvm-nm -u` (imported symbols, per slice) and `llvm-objdump --macho --private-headers`
/// (platform, minimum OS, linked libraries). Runs in CI (`CI=true`) or with
/// `PREFLIGHT_WHEEL_TESTS=1`; skipped only when PyPI cannot be reached.
final class WheelInspectTests: XCTestCase {
    func testInspectAgreesWithLLVMOnIOSWheels() throws {
        let env = ProcessInfo.processInfo.environment
        guard env["PREFLIGHT_WHEEL_TESTS"] == "1" || env["CI"] == "true" else {
            throw XCTSkip("set PREFLIGHT_WHEEL_TESTS=1 (or CI=true) to download iOS wheels from PyPI")
        }
        let fm = FileManager.default
        let tmp = fm.temporaryDirectory.appendingPathComponent("preflight-wheel-cli-\(UUID().uuidString)")
        defer { try? fm.removeItem(at: tmp) }
        guard try InspectOracleTests.tool("python3", ["-m", "pip", "download", "--only-binary=:all:",
                                                      "--platform", "ios_13_0_arm64_iphoneos", "--python-version", "3.13",
                                                      "--no-deps", "-q", "-d", tmp.path, "pillow", "cffi"]) != nil else {
            throw XCTSkip("pip could not download the wheels (no network to PyPI?)")
        }
        let wheels = try fm.contentsOfDirectory(atPath: tmp.path).filter { $0.hasSuffix(".whl") }
        XCTAssertEqual(wheels.count, 2, "\(wheels)")
        let root = tmp.appendingPathComponent("unpacked")
        for w in wheels {
            XCTAssertNotNil(try InspectOracleTests.tool("python3", ["-m", "zipfile", "-e", tmp.appendingPathComponent(w).path, root.path]))
        }
        var checked = 0
        let walker = fm.enumerator(atPath: root.path)
        while let rel = walker?.nextObject() as? String {
            let path = root.appendingPathComponent(rel).path
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue,
                  let h = FileHandle(forReadingAtPath: path) else { continue }
            let head = [UInt8](h.readData(ofLength: 4))
            try? h.close()
            guard head == [0xcf, 0xfa, 0xed, 0xfe] || head == [0xca, 0xfe, 0xba, 0xbe] else { continue }
            let r = try CLITests.run(["inspect", path, "--symbols", "--format", "json"])
            XCTAssertEqual(r.status, 0, "\(rel): \(r.stderr)")
            let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            let slices = try XCTUnwrap((doc["binaries"] as? [[String: Any]])?.first?["slices"] as? [[String: Any]])
            for slice in slices {
                let arch = try XCTUnwrap(slice["arch"] as? String)
                let nm = try XCTUnwrap(try InspectOracleTests.tool("llvm-nm", ["-u", "--arch=\(arch)", path]), "llvm-nm")
                let expected = nm.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasSuffix(":") }
                XCTAssertEqual(slice["importedSymbols"] as? [String], expected, "\(rel) \(arch)")
                let headers = try XCTUnwrap(try InspectOracleTests.tool("llvm-objdump", ["--macho", "--private-headers", "--arch=\(arch)", path]))
                let libs = headers.split(separator: "\n").compactMap { line -> String? in
                    let t = line.trimmingCharacters(in: .whitespaces)
                    guard t.hasPrefix("name "), let r = t.range(of: " (offset") else { return nil }
                    return String(t[t.index(t.startIndex, offsetBy: 5)..<r.lowerBound])
                }
                // objdump also prints LC_ID_DYLIB's name; every library the slice links must be there.
                for lib in slice["linkedLibraries"] as? [String] ?? [] { XCTAssertTrue(libs.contains(lib), "\(rel): \(lib)") }
                XCTAssertEqual(slice["platform"] as? String, "iOS", rel)
                if let minos = slice["minOS"] as? String { XCTAssertTrue(headers.contains("minos \(minos)"), "\(rel): minos \(minos)") }
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 9, "Mach-O slices checked")
    }
}
