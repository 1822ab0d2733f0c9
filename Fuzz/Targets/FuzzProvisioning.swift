import Foundation
import Formats
import FuzzHarness

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    let limits = FuzzHarness.limits
    _ = try? ProvisioningProfileParser.signedContent(bytes, limits: limits)
    if let profile = try? ProvisioningProfileParser.parse(bytes, limits: limits) {
        for c in profile.developerCertificates { _ = CMSSignedData.subjectCommonName(c) }
    }
    // The same bytes as a code signature's CMS blob: certificates and their subjects.
    for c in (try? CMSSignedData.certificates(bytes, limits: limits)) ?? [] { _ = CMSSignedData.subjectCommonName(c) }
    return 0
}
