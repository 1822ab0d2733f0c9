import Foundation
import Formats
import FuzzHarness

// The input is a `.strings` file: the full parser, and the quick check tables that are only
// validated use — which must never call readable a file the parser rejects.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    let limits = FuzzHarness.limits
    let parsed = (try? StringsFileParser.parse(bytes, limits: limits)) != nil
    if StringsQuickCheck.isCertainlyReadable(bytes, limits: limits) && !parsed {
        fatalError("StringsQuickCheck accepted a file StringsFileParser rejects")
    }
    return 0
}
