import Foundation
import Formats
import FuzzHarness

/// The icon readers: the compiled asset catalog (BOM store, its trees, facets and rendition
/// headers), the PNG header (as a whole file and as a prefix) and the transparency scan of
/// PNG image data (fed the file's IDAT bytes as if inflated: Formats has no zlib).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    if let catalog = try? CompiledAssetCatalog.read(bytes, limits: FuzzHarness.limits) {
        for facet in catalog.facets where facet.isAppIcon { _ = catalog.renditions(of: facet) }
        _ = catalog.isThinned
    }
    _ = try? PNGHeader.read(bytes)
    _ = try? PNGHeader.read(bytes, isWholeFile: false)
    if let parts = try? PNGPixels.parts(bytes), parts.header.width <= 4096, parts.header.height <= 4096,
       let needed = PNGPixels.inflatedSize(parts.header, interlaced: parts.interlaced), needed <= 1 << 22 {
        // The raw IDAT bytes stand in for inflated data: padded to the size the header needs,
        // they reach every filter and colour-type path.
        let inflated = parts.imageData + [UInt8](repeating: 0, count: max(0, needed - parts.imageData.count))
        _ = try? PNGPixels.hasTransparentPixel(parts, inflated: inflated)
    }
    return 0
}
