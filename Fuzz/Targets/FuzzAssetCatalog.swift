import Foundation
import Formats
import FuzzHarness

/// The icon readers: the compiled asset catalog (BOM store, its trees, facets and rendition
/// headers) and the PNG header, read as a whole file and as a prefix.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    if let catalog = try? CompiledAssetCatalog.read(bytes, limits: FuzzHarness.limits) {
        for facet in catalog.facets where facet.isAppIcon { _ = catalog.renditions(of: facet) }
        _ = catalog.isThinned
    }
    _ = try? PNGHeader.read(bytes)
    _ = try? PNGHeader.read(bytes, isWholeFile: false)
    return 0
}
