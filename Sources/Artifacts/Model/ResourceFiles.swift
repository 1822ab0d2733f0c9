import Foundation
import Formats
import CPreflightZlib

/// Resource files that only some rules read (icon images, asset catalogs), read from the input
/// when a rule first asks and kept for the rest of the scan: an input without such rules, or
/// whose rules stop earlier, never reads them. PNG files are read up to their image data only.
public final class ResourceFiles: @unchecked Sendable {
    let source: FileSource
    /// The input's files, for rules that look for a resource by path.
    public let index: FileIndex
    let limits: ReaderLimits
    private let lock = NSLock()
    private var pngs: [String: Result<PNGHeader, FormatError>] = [:]
    private var catalogs: [String: Result<CompiledAssetCatalog, FormatError>] = [:]
    private var documents: [String: Result<PlistNode, FormatError>] = [:]
    private var transparency: [String: Result<Bool, FormatError>] = [:]
    private var plists: [String: Result<PlistNode, FormatError>] = [:]
    private var digests: [String: Result<[UInt8], FormatError>] = [:]
    private var nibs: [String: Result<[String], FormatError>] = [:]

    init(source: FileSource, index: FileIndex, limits: ReaderLimits) {
        self.source = source
        self.index = index
        self.limits = limits
    }

    /// The header of a PNG file: the first 64 KiB, or the whole file when its chunks before
    /// image data go further.
    public func pngHeader(_ path: String) -> Result<PNGHeader, FormatError> {
        cached(path, in: \.pngs) {
            let head = try source.readPrefix(path, maxBytes: PNGHeader.typicalPrefix)
            do {
                return try PNGHeader.read(head, isWholeFile: head.count < PNGHeader.typicalPrefix)
            } catch let e as FormatError where e.kind == .truncated && head.count == PNGHeader.typicalPrefix {
                return try PNGHeader.read(try source.readBytes(path))
            }
        }
    }

    /// Whether a PNG has a transparent pixel: its image data inflated and unfiltered (only
    /// for the few icons whose header allows transparency). Images larger than 4096×4096
    /// pixels are not decoded.
    public func hasTransparentPixel(_ path: String) -> Result<Bool, FormatError> {
        cached(path, in: \.transparency) {
            let parts = try PNGPixels.parts(try source.readBytes(path))
            guard let size = PNGPixels.inflatedSize(parts.header, interlaced: parts.interlaced), parts.header.width <= 4096, parts.header.height <= 4096 else {
                throw FormatError.limit(PNGHeader.format, "max-icon-pixels", "\(parts.header.width)×\(parts.header.height) is larger than an icon")
            }
            return try PNGPixels.hasTransparentPixel(parts, inflated: try Self.inflateZlib(parts.imageData, expected: size))
        }
    }

    /// Inflates a zlib stream (PNG image data), producing at most `expected` bytes.
    static func inflateZlib(_ input: [UInt8], expected: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: expected)
        var z = z_stream()
        guard inflateInit_(&z, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw FormatError.malformed(PNGHeader.format, "zlib cannot start")
        }
        defer { inflateEnd(&z) }
        var input = input
        let result: Int32 = input.withUnsafeMutableBufferPointer { inBuf in
            out.withUnsafeMutableBufferPointer { outBuf in
                z.next_in = inBuf.baseAddress
                z.avail_in = UInt32(clamping: inBuf.count)
                z.next_out = outBuf.baseAddress
                z.avail_out = UInt32(clamping: outBuf.count)
                return CPreflightZlib.inflate(&z, Z_FINISH)
            }
        }
        guard result == Z_STREAM_END || result == Z_BUF_ERROR || result == Z_OK else {
            throw FormatError.malformed(PNGHeader.format, "image data cannot be inflated (zlib \(result))")
        }
        return Array(out.prefix(expected - Int(z.avail_out)))
    }

    /// Whether a file is a Git LFS pointer (a checkout without its large files): its content
    /// is not known.
    public func isGitLFSPointer(_ path: String) -> Bool {
        guard let head = try? source.readPrefix(path, maxBytes: 40) else { return false }
        return head.starts(with: Array("version https://git-lfs.github.com/spec".utf8))
    }

    /// A compiled asset catalog (`Assets.car`): its facets and rendition headers. A file that
    /// does not start as a BOM store is refused from its first bytes, never inflated whole.
    public func compiledAssetCatalog(_ path: String) -> Result<CompiledAssetCatalog, FormatError> {
        cached(path, in: \.catalogs) {
            let head = try source.readPrefix(path, maxBytes: 8)
            guard head.count < 8 || head.elementsEqual("BOMStore".utf8) else {
                throw FormatError.malformed(BOMStore.format, "no BOMStore signature", offset: 0)
            }
            return try CompiledAssetCatalog.read(try source.readBytes(path), limits: limits)
        }
    }

    /// A JSON document (an asset catalog's `Contents.json`).
    public func json(_ path: String) -> Result<PlistNode, FormatError> {
        cached(path, in: \.documents) { try JSONReader.parse(try source.read(path), limits: limits) }
    }

    /// A property list (a code signature's `_CodeSignature/CodeResources`).
    public func propertyList(_ path: String) -> Result<PlistNode, FormatError> {
        cached(path, in: \.plists) { try PropertyListReader.read(try source.read(path), limits: limits).0 }
    }

    /// The SHA-1 or SHA-256 of a file's bytes (files larger than the read limits are refused
    /// by the source, not hashed).
    public func digest(_ path: String, _ algorithm: DigestAlgorithm) -> Result<[UInt8], FormatError> {
        cached(algorithm.rawValue + ":" + path, in: \.digests) { algorithm.hash(try source.readBytes(path)) }
    }

    /// The classes a compiled nib instantiates (`CompiledNib`).
    public func nibClassNames(_ path: String) -> Result<[String], FormatError> {
        cached(path, in: \.nibs) { try CompiledNib.classNames(try source.readBytes(path), limits: limits) }
    }

    /// The compiled nib files of an interface file a built bundle ships: the `.nib` itself,
    /// or the `.nib` files inside a `.storyboardc` or a nib folder.
    public func compiledNibFiles(_ interface: String) -> [String] {
        if index.entry(interface)?.kind == .file { return [interface] }
        return index.files(under: interface).filter { $0.kind == .file && PathUtil.pathExtension($0.path) == "nib" }.map(\.path)
    }

    private func cached<T>(_ path: String, in table: ReferenceWritableKeyPath<ResourceFiles, [String: Result<T, FormatError>]>,
                           read: () throws -> T) -> Result<T, FormatError> {
        lock.lock()
        if let hit = self[keyPath: table][path] { lock.unlock(); return hit }
        lock.unlock()
        let result: Result<T, FormatError>
        do { result = .success(try read()) } catch let e as FormatError {
            result = .failure(e)
        } catch {
            result = .failure(FormatError(.malformed, format: "file", reason: "\(error)"))
        }
        lock.lock()
        self[keyPath: table][path] = result
        lock.unlock()
        return result
    }
}
