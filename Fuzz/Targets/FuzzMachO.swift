import Foundation
import Formats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    var limits = ReaderLimits()
    limits.maxPlistObjects = 100_000
    limits.maxNestingDepth = 128
    limits.maxLoadCommands = 4_096
    limits.maxSymbols = 100_000
    limits.maxStringLength = 4_096
    guard let file = try? MachOReader.read(bytes, limits: limits, parts: .all) else { return 0 }
    for slice in file.slices { _ = slice.cStrings(maxCount: 1_000) }
    return 0
}
