import Foundation
import Formats
import FuzzHarness

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    let limits = FuzzHarness.machOLimits
    guard let file = try? MachOReader.read(bytes, limits: limits, parts: .all) else { return 0 }
    for slice in file.slices { _ = slice.cStrings(maxCount: 1_000) }
    return 0
}
