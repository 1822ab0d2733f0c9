import Foundation
import XCTest
@testable import Formats

/// The compiled asset catalog (BOM) and PNG header readers, on the fixtures that
/// Tests/Fixtures/AssetCatalog/make-fixtures.py writes and, when PREFLIGHT_REAL_ASSETS_CAR
/// names them (paths separated by ':'), on Assets.car files that Xcode built.
final class AssetCatalogReaderTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/AssetCatalog")

    func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: Self.fixtures.appendingPathComponent(name)))
    }

    func sizes(_ catalog: CompiledAssetCatalog, _ facet: String) -> [String] {
        guard let f = catalog.facet(named: facet) else { return [] }
        return catalog.renditions(of: f).map { "\($0.attribute(.idiom) ?? 99):\($0.width)x\($0.height)@\($0.scale)" }.sorted()
    }

    func testCompleteCatalog() throws {
        let car = try CompiledAssetCatalog.read(try bytes("AppIcon-complete.car"))
        XCTAssertEqual(car.facets.map(\.name), ["AppIcon", "logo"])
        XCTAssertEqual(car.facets.map(\.isAppIcon), [true, false])
        XCTAssertFalse(car.isThinned)
        XCTAssertEqual(sizes(car, "AppIcon"), ["1:120x120@200", "1:180x180@300", "2:152x152@200", "2:167x167@200", "2:76x76@100", "6:1024x1024@100"])
        XCTAssertEqual(car.renditions(of: car.facet(named: "logo")!).map(\.name), ["logo@2x.png"])
    }

    func testTreesWithBranchNodesAndLinkedLeaves() throws {
        // Leaves of three entries: both trees have a branch over several linked leaves.
        let car = try CompiledAssetCatalog.read(try bytes("AppIcon-alternates.car"))
        XCTAssertEqual(car.facets.map(\.name), ["AppIcon", "Dark", "Light"])
        XCTAssertEqual(car.renditions.count, 13)
        XCTAssertEqual(sizes(car, "Dark"), ["1:120x120@200", "1:180x180@300"])
    }

    func testThinnedCatalog() throws {
        let car = try CompiledAssetCatalog.read(try bytes("AppIcon-thinned.car"))
        XCTAssertTrue(car.isThinned)
        XCTAssertEqual(sizes(car, "AppIcon"), ["1:120x120@200"])
    }

    func testReaderLimitsApply() throws {
        var limits = ReaderLimits()
        limits.maxPlistObjects = 3
        XCTAssertThrowsError(try CompiledAssetCatalog.read(try bytes("AppIcon-complete.car"), limits: limits)) { error in
            XCTAssertEqual((error as? FormatError)?.kind, .limitExceeded("max-plist-objects"))
        }
    }

    func testNotABOMStore() {
        XCTAssertThrowsError(try CompiledAssetCatalog.read(Array("not a catalog at all, just some text here".utf8))) { error in
            XCTAssertEqual("\(error)", "malformed BOM store at offset 0x0: no BOMStore signature")
        }
    }

    func testRealCatalogsWhenNamed() throws {
        guard let list = ProcessInfo.processInfo.environment["PREFLIGHT_REAL_ASSETS_CAR"] else {
            throw XCTSkip("set PREFLIGHT_REAL_ASSETS_CAR to Assets.car paths (':'-separated) to read real catalogs")
        }
        for path in list.split(separator: ":") {
            let car = try CompiledAssetCatalog.read([UInt8](try Data(contentsOf: URL(fileURLWithPath: String(path)))))
            XCTAssertFalse(car.facets.isEmpty, "\(path)")
            XCTAssertFalse(car.renditions.isEmpty, "\(path)")
            for f in car.facets where f.isAppIcon {
                XCTAssertTrue(car.renditions(of: f).contains { $0.width > 0 }, "\(path): \(f.name) has no sized rendition")
            }
        }
    }

    // MARK: - PNG

    func testPNGHeaders() throws {
        let opaque = try PNGHeader.read(try bytes("opaque-1024.png"))
        XCTAssertEqual([opaque.width, opaque.height], [1024, 1024])
        XCTAssertFalse(opaque.hasAlpha)
        let alpha = try PNGHeader.read(try bytes("alpha-1024.png"))
        XCTAssertTrue(alpha.hasAlphaChannel)
        let trns = try PNGHeader.read(try bytes("trns-1024.png"))
        XCTAssertFalse(trns.hasAlphaChannel)
        XCTAssertTrue(trns.hasAlpha)
        let cgbi = try PNGHeader.read(try bytes("cgbi-120.png"))
        XCTAssertTrue(cgbi.isAppleOptimized)
        XCTAssertEqual(cgbi.width, 120)
    }

    func testPNGPrefixStopsBeforeImageDataAndAsksForMore() throws {
        let png = try bytes("trns-1024.png")
        // Signature, IHDR and tRNS: enough, image data never read.
        XCTAssertTrue(try PNGHeader.read(Array(png.prefix(8 + 25 + 18 + 8)), isWholeFile: false).hasTransparencyChunk)
        XCTAssertThrowsError(try PNGHeader.read(Array(png.prefix(40)), isWholeFile: false)) { error in
            XCTAssertEqual((error as? FormatError)?.kind, .truncated)
        }
    }

    func testNotAPNG() {
        XCTAssertThrowsError(try PNGHeader.read(Array("GIF89a".utf8))) { error in
            XCTAssertEqual("\(error)", "malformed PNG at offset 0x0: no PNG signature")
        }
    }

    // MARK: - PNG pixels (fed inflated rows directly)

    func parts(_ width: Int, _ height: Int, colorType: UInt8, depth: UInt8 = 8, transparency: [UInt8] = []) -> PNGPixels.Parts {
        PNGPixels.Parts(header: PNGHeader(width: width, height: height, bitDepth: depth, colorType: colorType, hasTransparencyChunk: !transparency.isEmpty,
                                          isAppleOptimized: false),
                        imageData: [], transparency: transparency, interlaced: false)
    }

    func testAlphaAfterEachFilter() throws {
        let rgba = parts(2, 1, colorType: 6)
        // None: the second pixel's alpha is 0.
        XCTAssertTrue(try PNGPixels.hasTransparentPixel(rgba, inflated: [0, 1, 2, 3, 255, 1, 2, 3, 0]))
        // Sub: the second pixel repeats the first (differences of 0): opaque.
        XCTAssertFalse(try PNGPixels.hasTransparentPixel(rgba, inflated: [1, 1, 2, 3, 255, 0, 0, 0, 0]))
        // Up, then Average and Paeth over an opaque first row: still opaque.
        let tall = parts(1, 4, colorType: 6)
        XCTAssertFalse(try PNGPixels.hasTransparentPixel(tall, inflated: [0, 9, 9, 9, 255, 2, 0, 0, 0, 0, 3, 5, 5, 5, 128, 4, 0, 0, 0, 0]))
        // Average of 255 (above) and 0 (no left pixel) is 127: 127 + 1 = 128, translucent.
        XCTAssertTrue(try PNGPixels.hasTransparentPixel(tall, inflated: [0, 9, 9, 9, 255, 3, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]))
        XCTAssertThrowsError(try PNGPixels.hasTransparentPixel(rgba, inflated: [5, 0, 0, 0, 0, 0, 0, 0, 0]))
    }

    func testPaletteAndColourKey() throws {
        // 2-bit palette indices 0,1,2,3 in one byte; entry 1 is transparent.
        XCTAssertTrue(try PNGPixels.hasTransparentPixel(parts(4, 1, colorType: 3, depth: 2, transparency: [255, 0]), inflated: [0, 0b0001_1011]))
        XCTAssertFalse(try PNGPixels.hasTransparentPixel(parts(4, 1, colorType: 3, depth: 2, transparency: [255, 0]), inflated: [0, 0b0000_0000]))
        // RGB with the key (1, 2, 3): present in the second pixel only.
        let key: [UInt8] = [0, 1, 0, 2, 0, 3]
        XCTAssertTrue(try PNGPixels.hasTransparentPixel(parts(2, 1, colorType: 2, transparency: key), inflated: [0, 9, 9, 9, 1, 2, 3]))
        XCTAssertFalse(try PNGPixels.hasTransparentPixel(parts(2, 1, colorType: 2, transparency: key), inflated: [0, 9, 9, 9, 1, 2, 4]))
    }

    func testInterlacedImageIsReadPassByPass() throws {
        // 2×2 Adam7: pass 1 holds (0,0), pass 6 (1,0), pass 7 the second row.
        var image = parts(2, 2, colorType: 6)
        image.interlaced = true
        XCTAssertEqual(PNGPixels.inflatedSize(image.header, interlaced: true), 19)
        XCTAssertTrue(try PNGPixels.hasTransparentPixel(image, inflated: [0, 1, 1, 1, 255, 0, 2, 2, 2, 255, 0, 3, 3, 3, 255, 4, 4, 4, 0]))
        XCTAssertFalse(try PNGPixels.hasTransparentPixel(image, inflated: [0, 1, 1, 1, 255, 0, 2, 2, 2, 255, 0, 3, 3, 3, 255, 4, 4, 4, 255]))
    }

    func testShortImageDataIsAnError() {
        XCTAssertThrowsError(try PNGPixels.hasTransparentPixel(parts(4, 4, colorType: 6), inflated: [0, 1, 2])) { error in
            XCTAssertEqual((error as? FormatError)?.kind, .truncated)
        }
    }
}
