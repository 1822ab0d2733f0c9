import XCTest
import Foundation

/// The per-slice `hardening` facts of `preflight inspect --format json` agree with LLVM's
/// tools on real binaries: PIE with the header flags `llvm-objdump --macho --private-header`
/// prints, cryptid with its `LC_ENCRYPTION_INFO` dump, stack-protector, ARC, hash and random
/// imports with `llvm-nm -u`. Set `PREFLIGHT_HARDENING_BINARIES` to a file listing more Mach-O
/// paths (one a line, e.g. binaries unzipped from real .ipa files) to check them too.
final class HardeningOracleTests: XCTestCase {
    static let fixtures = CLITests.packageRoot.appendingPathComponent("Tests/Fixtures/MachO")

    func paths() throws -> [String] {
        var out = ["Hardened", "NoPIE", "Secrets", "App", "Fat", "MyKit.framework/MyKit", "WebView"].map { Self.fixtures.appendingPathComponent($0).path }
        if let list = ProcessInfo.processInfo.environment["PREFLIGHT_HARDENING_BINARIES"] {
            out += try String(contentsOfFile: list, encoding: .utf8).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        }
        return out
    }

    func testHardeningFactsMatchLLVM() throws {
        guard try InspectOracleTests.tool("llvm-nm", ["--version"]) != nil else { throw XCTSkip("llvm-nm is not installed") }
        for path in try paths() {
            let r = try CLITests.run(["inspect", path, "--format", "json"])
            XCTAssertEqual(r.status, 0, r.stderr)
            let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            let binary = try XCTUnwrap((doc["binaries"] as? [[String: Any]])?.first)
            for slice in try XCTUnwrap(binary["slices"] as? [[String: Any]]) {
                let arch = try XCTUnwrap(slice["arch"] as? String)
                let h = try XCTUnwrap(slice["hardening"] as? [String: Any], "\(path) \(arch)")
                let nm = try XCTUnwrap(try InspectOracleTests.tool("llvm-nm", ["-u", "--arch=\(arch)", path]))
                let imports = Set(nm.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
                let headers = try XCTUnwrap(try InspectOracleTests.tool("llvm-objdump", ["--macho", "--private-headers", "--arch=\(arch)", path]))
                let headerLines = headers.split(separator: "\n").map(String.init)
                let flagsLine = try XCTUnwrap(headerLines.firstIndex { $0.contains("magic") && $0.contains("flags") }.map { headerLines[$0 + 1] })
                let context = "\(path) \(arch)"
                if flagsLine.contains(" EXECUTE ") {
                    XCTAssertEqual(h["pie"] as? Bool, flagsLine.contains(" PIE"), context)
                } else {
                    XCTAssertTrue(h["pie"] is NSNull, context)
                }
                let canary = imports.intersection(["___stack_chk_fail", "___stack_chk_guard"])
                let sp = try XCTUnwrap(h["stackProtector"] as? [String: Any])
                XCTAssertEqual(sp["state"] as? String, canary.isEmpty ? "not-imported" : "present", context)
                XCTAssertEqual(Set(sp["proof"] as? [String] ?? []), canary, context)
                let arc = imports.intersection(["_objc_release", "_swift_release", "_objc_retain", "_swift_retain", "_objc_storeStrong",
                                                "_objc_autoreleaseReturnValue", "_objc_retainAutoreleasedReturnValue"])
                let mm = try XCTUnwrap(h["memoryManagement"] as? [String: Any])
                if !arc.isEmpty { XCTAssertEqual(Set(mm["proof"] as? [String] ?? []), arc, context) } else { XCTAssertNotEqual(mm["state"] as? String, "arc", context) }
                let hashes = imports.filter { $0.range(of: "^_(CC_MD[245]|CC_SHA1|MD5|SHA1)(_Init|_Update|_Final)?$", options: .regularExpression) != nil }
                XCTAssertEqual(Set(h["weakHashes"] as? [String] ?? []), hashes, context)
                let random = imports.intersection(["_rand", "_random", "_srand", "_srandom", "_drand48", "_lrand48"])
                XCTAssertEqual(Set(h["insecureRandom"] as? [String] ?? []), random, context)
                let cryptid = headerLines.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("cryptid ") }
                    .flatMap { Int($0.trimmingCharacters(in: .whitespaces).dropFirst(8)) }
                if let cryptid { XCTAssertEqual(h["cryptid"] as? Int, cryptid, context) } else { XCTAssertTrue(h["cryptid"] is NSNull, context) }
                XCTAssertEqual(h["restricted"] as? Bool, headerLines.contains { $0.contains("segname __RESTRICT") }, context)
            }
        }
    }
}
