import Foundation
import Formats

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

    /// A compiled asset catalog (`Assets.car`): its facets and rendition headers.
    public func compiledAssetCatalog(_ path: String) -> Result<CompiledAssetCatalog, FormatError> {
        cached(path, in: \.catalogs) { try CompiledAssetCatalog.read(try source.readBytes(path), limits: limits) }
    }

    /// A JSON document (an asset catalog's `Contents.json`).
    public func json(_ path: String) -> Result<PlistNode, FormatError> {
        cached(path, in: \.documents) { try JSONReader.parse(try source.read(path), limits: limits) }
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
