import XCTest
import PreflightKit

/// Real `.ipa` files from public repositories (fastlane's `fastlane_core/spec/fixtures/ipas/`,
/// MobSF's `StaticAnalyzer/test_files/helloworld.ipa`). They are not committed: put them in a
/// folder and set `PREFLIGHT_REAL_IPAS` to it. Files whose name contains `not-an-ipa` or
/// `no-app-bundle` must fail with a clear error; every other one must load completely.
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
            for b in loaded.product.bundles {
                for bin in b.binaries {
                    XCTAssertNil(bin.error, "\(name): \(bin.path): \(bin.error.map(String.init(describing:)) ?? "")")
                    XCTAssertFalse(bin.macho?.slices.isEmpty ?? true, "\(name): \(bin.path) has no slices")
                }
                if let e = b.infoPlist?.error { XCTFail("\(name): \(b.name) Info.plist: \(e)") }
            }
            _ = PreflightScanner.scan(loaded)
        }
    }
}
