import Foundation
import XCTest
@testable import Formats

/// Maximum default nesting must fit in a 512 KiB thread stack (the size of secondary threads
/// on Apple platforms), since scans parse bundles in parallel.
final class PlistStackTests: XCTestCase {
    func onSmallStack(_ body: @escaping @Sendable () -> Void) {
        let done = expectation(description: "done")
        let t = Thread {
            body()
            done.fulfill()
        }
        t.stackSize = 512 * 1024
        t.start()
        wait(for: [done], timeout: 60)
    }

    static func check(_ body: () throws -> PlistNode) {
        do { _ = try body() } catch { XCTFail("\(error)") }
    }

    func testDeepestAllowedInputsFitSmallStacks() {
        onSmallStack {
            let n = ReaderLimits.default.maxNestingDepth
            let xml = String(repeating: "<dict><key>k</key>", count: n) + "<true/>" + String(repeating: "</dict>", count: n)
            Self.check { try XMLPropertyListParser.parse(Data(xml.utf8)) }
            let json = String(repeating: "{\"k\":", count: n) + "1" + String(repeating: "}", count: n)
            Self.check { try JSONReader.parse(Data(json.utf8)) }
            let os = String(repeating: "{k=", count: n) + "v" + String(repeating: ";}", count: n)
            Self.check { try OpenStepParser.parse(Data(os.utf8)) }
            // Nested arrays with 2-byte refs: object k = [k+1].
            let objects: [[UInt8]] = (0...n).map { k in k == n ? [0x09] : [0xA1, UInt8((k + 1) >> 8), UInt8((k + 1) & 0xFF)] }
            Self.check { try BinaryPropertyListParser.parse(PlistBinaryTests.bplist(objects, offsetSize: 2, refSize: 2)) }
        }
    }
}
