import Foundation
import Formats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    var limits = ReaderLimits()
    limits.maxPlistObjects = 100_000
    limits.maxNestingDepth = 128
    _ = try? ProvisioningProfileParser.signedContent(bytes, limits: limits)
    _ = try? ProvisioningProfileParser.parse(bytes, limits: limits)
    return 0
}
