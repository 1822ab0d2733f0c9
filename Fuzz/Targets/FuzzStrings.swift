import Foundation
import Formats
import FuzzHarness

// The input is a `.strings` file: the full parser, and the byte-speed summary the localization
// rules read — which must never read a file the parser rejects, nor read one differently.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    let limits = FuzzHarness.limits
    let parsed = try? StringsFileParser.parse(bytes, limits: limits)
    if let summary = StringsSummaryScanner.summary(bytes, limits: limits) {
        guard let parsed else { fatalError("StringsSummaryScanner read a file StringsFileParser rejects") }
        if summary != StringsTableSummary(parsed) { fatalError("StringsSummaryScanner and StringsFileParser disagree") }
    }
    return 0
}
