import Foundation
import Formats
import FuzzHarness

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    let limits = FuzzHarness.limits
    _ = try? JSONReader.parse(bytes, limits: limits)
    _ = try? StringCatalogParser.parse(bytes, limits: limits)
    return 0
}
