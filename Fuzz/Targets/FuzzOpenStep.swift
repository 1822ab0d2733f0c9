import Foundation
import Formats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    var limits = ReaderLimits()
    limits.maxPlistObjects = 100_000
    _ = try? OpenStepParser.parse(bytes, limits: limits)
    _ = try? OpenStepParser.parse(bytes, limits: limits, bracelessDictionary: true)
    _ = try? InfoPlistPreprocessor.preprocess(bytes, definitions: [:], limits: limits)
    return 0
}
