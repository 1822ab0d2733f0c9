import XCTest
import PreflightKit

/// Real `.ipa` files from public repositories (fastlane's `fastlane_core/spec/fixtures/ipas/`,
/// MobSF's `StaticAnalyzer/test_files/helloworld.ipa`). They are not committed: put them in a
/// folder and set `PREFLIGHT_REAL_IPAS` to it. Files whose name contains `not-an-ipa` or
/// `no-app-bundle` must fail with a clear error; every other one must load, each binary read
/// unless its bytes are not a Mach-O at all (fastlane's `with_swift_twice.ipa` ships
/// zero-length Swift dylibs): such a binary must be an `unreadable_file` error of the scan.
final class RealIPATests: XCTestCase {
    func testRealIPAsLoad() throws {
        guard let dir = ProcessInfo.processInfo.environment["PREFLIGHT_REAL_IPAS"] else {
            throw XCTSkip("set PREFLIGHT_REAL_IPAS to a folder of real .ipa files")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".ipa") }.sorted()
        XCTAssertFalse(files.isEmpty)
        for name in files {
            let path = dir + "/" + name
            if name.contains("not-an-ipa") || name.contains("no-app-bundle") {
                XCTAssertThrowsError(try PreflightScanner.load(path), name) { error in
                    XCTAssertTrue(error is InputError, "\(name): \(error)")
                }
                continue
            }
            let loaded = try PreflightScanner.load(path)
            XCTAssertFalse(loaded.product.bundles.isEmpty, name)
            let findings = PreflightScanner.scan(loaded).findings
            for b in loaded.product.bundles {
                for bin in b.binaries {
                    if bin.error != nil, let bytes = try? loaded.source.read(bin.path), !Self.hasMachOMagic(bytes) {
                        // Not a binary at all: reported, not read.
                        XCTAssertTrue(findings.contains { $0.rule == "unreadable_file" && $0.severity == .error && $0.file == bin.path },
                                      "\(name): \(bin.path) is not a Mach-O and no unreadable_file error says so")
                        continue
                    }
                    XCTAssertNil(bin.error, "\(name): \(bin.path): \(bin.error.map(String.init(describing:)) ?? "")")
                    XCTAssertFalse(bin.macho?.slices.isEmpty ?? true, "\(name): \(bin.path) has no slices")
                }
                if let e = b.infoPlist?.error { XCTFail("\(name): \(b.name) Info.plist: \(e)") }
            }
        }
    }

    /// Whether the bytes start like a Mach-O file (thin or fat, either byte order).
    static func hasMachOMagic(_ data: Data) -> Bool {
        guard data.count >= 4 else { return false }
        let m = data.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return [0xfeed_face, 0xfeed_facf, 0xcefa_edfe, 0xcffa_edfe, 0xcafe_babe, 0xcafe_babf, 0xbeba_feca, 0xbfba_feca].contains(m)
    }
}
