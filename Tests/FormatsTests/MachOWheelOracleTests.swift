import Foundation
import XCTest
@testable import Formats

/// Opt-in (PREFLIGHT_WHEEL_TESTS=1, needs network to PyPI, pip, llvm-nm, llvm-objdump): downloads
/// real iOS wheels built by other toolchains (Xcode's ld, not lld), finds every Mach-O inside,
/// and checks each slice against llvm-nm -u and llvm-objdump --private-headers.
final class MachOWheelOracleTests: XCTestCase {
    func testIOSWheelsAgreeWithLLVM() throws {
        guard ProcessInfo.processInfo.environment["PREFLIGHT_WHEEL_TESTS"] == "1" else {
            throw XCTSkip("set PREFLIGHT_WHEEL_TESTS=1 to download iOS wheels from PyPI")
        }
        for tool in ["python3", "llvm-nm", "llvm-objdump"] where MachOOracle.which(tool) == nil {
            throw XCTSkip("\(tool) not on PATH")
        }
        let fm = FileManager.default
        let tmp = fm.temporaryDirectory.appendingPathComponent("preflight-wheels-\(UUID().uuidString)")
        defer { try? fm.removeItem(at: tmp) }
        try fm.createDirectory(at: tmp, withIntermediateDirectories: true)

        // The device wheels the brief names, plus the arm64 simulator builds of the same
        // packages (a second platform in LC_BUILD_VERSION).
        let platforms = [("ios_13_0_arm64_iphoneos", "iOS"), ("ios_13_0_arm64_iphonesimulator", "iOS Simulator")]
        var checked = 0
        var allWheels: [String] = []
        for (tag, platformName) in platforms {
            let dir = tmp.appendingPathComponent(tag)
            let download = MachOOracle.run("python3", [
                "-m", "pip", "download", "--only-binary=:all:", "--platform", tag,
                "--python-version", "3.13", "--no-deps", "-d", dir.path, "pillow", "cffi",
            ])
            XCTAssertNotNil(download, "pip download failed for \(tag)")
            let wheels = ((try? fm.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix(".whl") }
            XCTAssertEqual(wheels.count, 2, "\(wheels)")
            allWheels += wheels
            let root = dir.appendingPathComponent("unpacked")
            for wheel in wheels {
                XCTAssertNotNil(MachOOracle.run("python3", ["-m", "zipfile", "-e", dir.appendingPathComponent(wheel).path,
                                                            root.appendingPathComponent(wheel).path]), "unzip \(wheel)")
            }
            checked += try Self.checkEveryMachO(under: root) { slice, name in
                XCTAssertEqual(slice.platform, platformName, name)
                XCTAssertFalse(slice.boundSymbols.isEmpty, name)
                // Everything the dynamic loader binds is an undefined symbol too (wheels are not stripped).
                XCTAssertTrue(Set(slice.boundSymbols).isSubset(of: Set(slice.importedSymbols)), name)
            }
        }
        let wheels = allWheels
        XCTAssertGreaterThanOrEqual(checked, 18, "Mach-O slices checked")
        print("checked \(checked) Mach-O slices from \(wheels.sorted())")
    }

    /// Opt-in (PREFLIGHT_MACHO_DIR=<folder>): every Mach-O under a folder of your own (an
    /// unpacked .ipa, a DerivedData build, unpacked wheels) against the same oracles.
    func testEveryMachOUnderAFolderAgreesWithLLVM() throws {
        guard let dir = ProcessInfo.processInfo.environment["PREFLIGHT_MACHO_DIR"], !dir.isEmpty else {
            throw XCTSkip("set PREFLIGHT_MACHO_DIR to a folder with Mach-O files")
        }
        for tool in ["llvm-nm", "llvm-objdump"] where MachOOracle.which(tool) == nil {
            throw XCTSkip("\(tool) not on PATH")
        }
        let checked = try Self.checkEveryMachO(under: URL(fileURLWithPath: dir)) { _, _ in }
        XCTAssertGreaterThan(checked, 0, "no Mach-O found under \(dir)")
        print("checked \(checked) Mach-O slices under \(dir)")
    }

    /// Reads every regular file under `root` that starts with a Mach-O magic, compares each
    /// slice with llvm-nm and llvm-objdump, runs `extra`, and returns the number of slices.
    static func checkEveryMachO(under root: URL, file: StaticString = #filePath, line: UInt = #line,
                                _ extra: (MachOSlice, String) -> Void) throws -> Int {
        let fm = FileManager.default
        var checked = 0
        let enumerator = fm.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey, .isSymbolicLinkKey])
        while let url = enumerator?.nextObject() as? URL {
            let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .isSymbolicLinkKey])
            guard values?.isRegularFile == true, values?.isSymbolicLink != true,
                  let handle = try? FileHandle(forReadingFrom: url) else { continue }
            let head = handle.readData(ofLength: 8)
            try? handle.close()
            guard MachOReader.isMachO(head) else { continue }
            let name = url.path.replacingOccurrences(of: root.path + "/", with: "")
            let machO: MachOFile
            do {
                machO = try MachOReader.read(try Data(contentsOf: url))
            } catch {
                XCTFail("\(name): \(error)", file: file, line: line)
                continue
            }
            for slice in machO.slices {
                XCTAssertTrue(MachOOracle.assertAgrees(slice, at: url, context: name, file: file, line: line),
                              "oracles failed for \(name)", file: file, line: line)
                MachOOracle.assertBindsAgree(slice, at: url, context: name, file: file, line: line)
                extra(slice, name)
                checked += 1
            }
        }
        return checked
    }
}
