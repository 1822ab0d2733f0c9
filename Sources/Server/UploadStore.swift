import Formats
import Foundation

/// Uploaded files on disk, kept by content: `objects/ab/abcd….ipa` under the upload folder
/// (a shared volume when several replicas run). A body is streamed to `incoming/` while its
/// SHA-256 is computed, then moved into place; the same bytes uploaded twice are stored once.
/// Nothing a client sends becomes part of a path.
public struct UploadStore: Sendable {
    public let root: URL
    public let maxBytes: Int

    public init(root: String, maxBytes: Int) throws {
        self.root = URL(fileURLWithPath: root).standardizedFileURL
        self.maxBytes = maxBytes
        for folder in ["incoming", "objects"] {
            try FileManager.default.createDirectory(at: self.root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
    }

    public struct Stored: Sendable, Equatable {
        public var sha256: String
        public var size: Int
        public var path: String
    }

    public func path(for sha256: String) -> String {
        root.appendingPathComponent("objects/\(sha256.prefix(2))/\(sha256).ipa").path
    }

    /// A file being written: bytes go in as they arrive, over the limit is an error at once.
    public final class Writer {
        let store: UploadStore
        let temporary: String
        let handle: FileHandle
        var hasher = SHA256Digest()
        public private(set) var size = 0
        var head: [UInt8] = []
        var closed = false

        init(store: UploadStore) throws {
            self.store = store
            temporary = store.root.appendingPathComponent("incoming/\(UUID().uuidString).part").path
            guard FileManager.default.createFile(atPath: temporary, contents: nil, attributes: [.posixPermissions: 0o600]),
                  let h = FileHandle(forWritingAtPath: temporary) else {
                throw ServerError.unavailable("cannot write to the upload folder")
            }
            handle = h
        }

        public func write(_ bytes: ArraySlice<UInt8>) throws {
            guard size + bytes.count <= store.maxBytes else { throw ServerError.tooLarge(store.maxBytes) }
            if head.count < 4 { head += bytes.prefix(4 - head.count) }
            hasher.update(bytes)
            size += bytes.count
            do { try handle.write(contentsOf: Data(bytes)) } catch { throw ServerError.unavailable("cannot write to the upload folder: \(error)") }
        }

        /// Moves the file into place; an input that is not a ZIP archive (an `.ipa`) is refused.
        public func commit() throws -> Stored {
            try close()
            guard size > 0 else { discard(); throw ServerError.badRequest("the upload is empty") }
            guard head == [0x50, 0x4b, 0x03, 0x04] else {
                discard()
                throw ServerError.badRequest("the upload is not an .ipa (a ZIP archive starts with PK\\3\\4)")
            }
            let sha = hasher.finalize().hexString
            let target = store.path(for: sha)
            try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            if FileManager.default.fileExists(atPath: target) {
                discard()
            } else {
                do { try FileManager.default.moveItem(atPath: temporary, toPath: target) } catch {
                    // Another replica stored the same bytes at the same moment.
                    discard()
                    guard FileManager.default.fileExists(atPath: target) else { throw ServerError.unavailable("cannot store the upload: \(error)") }
                }
            }
            return Stored(sha256: sha, size: size, path: target)
        }

        func close() throws {
            guard !closed else { return }
            closed = true
            try? handle.close()
        }

        /// Removes the partial file (a refused or broken upload).
        public func discard() {
            try? close()
            try? FileManager.default.removeItem(atPath: temporary)
        }
    }

    public func writer() throws -> Writer { try Writer(store: self) }

    /// Removes partial files older than `seconds` (a server stopped mid-upload).
    public func sweepIncoming(olderThan seconds: Double) {
        let folder = root.appendingPathComponent("incoming")
        let limit = Date().addingTimeInterval(-seconds)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            let p = folder.appendingPathComponent(name).path
            if let d = (try? FileManager.default.attributesOfItem(atPath: p))?[.modificationDate] as? Date, d < limit {
                try? FileManager.default.removeItem(atPath: p)
            }
        }
    }

    /// Removes a stored file; anything but a SHA-256 in hex names no file.
    public func remove(sha256: String) {
        guard sha256.count == 64, sha256.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return }
        try? FileManager.default.removeItem(atPath: path(for: sha256))
    }
}
