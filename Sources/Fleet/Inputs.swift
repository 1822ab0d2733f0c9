import Formats
import Foundation

/// One input of a batch: a path as the command line or list named it.
public struct BatchInput: Sendable, Hashable {
    public var path: String

    public init(path: String) { self.path = path }

    /// Which of `count` shards takes this input: FNV-1a of its path, so every shard computes the
    /// same split without reading any file (a shard reads only its own inputs). The same bytes
    /// under two paths may go to two shards; the store's claim lets only one of them scan.
    public func shard(of count: Int) -> Int {
        var h: UInt64 = 0xcbf29ce484222325
        for b in path.utf8 {
            h ^= UInt64(b)
            h = h &* 0x100000001b3
        }
        return Int(h % UInt64(max(count, 1)))
    }
}

public enum BatchInputs {
    /// Folders walked for inputs: `.ipa` files, and `.app` and `.xcarchive` folders (not
    /// entered). A path named directly is an input whatever its name. Sorted, without duplicates.
    public static func collect(paths: [String], listFiles: [String]) throws -> [BatchInput] {
        var named: [String] = paths
        for list in listFiles {
            guard let data = FileManager.default.contents(atPath: list) else { throw BatchError("cannot read list \(list)") }
            for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
                let p = line.trimmingCharacters(in: .whitespaces)
                if !p.isEmpty && !p.hasPrefix("#") { named.append(p) }
            }
        }
        var out: [String] = [], seen = Set<String>()
        func add(_ p: String) { if seen.insert(p).inserted { out.append(p) } }
        for p in named {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: p, isDirectory: &isDir) else {
                // Still an input: its scan fails with a clear reason and a row says so.
                add(p)
                continue
            }
            if !isDir.boolValue || isBundleFolder(p) { add(p); continue }
            var found: [String] = []
            let base = URL(fileURLWithPath: p)
            guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isDirectoryKey, .isRegularFileKey],
                                                              options: []) else { continue }
            while let url = walker.nextObject() as? URL {
                let values = try? url.resourceValues(forKeys: [.isDirectoryKey, .isRegularFileKey])
                if values?.isDirectory == true {
                    if isBundleFolder(url.path) {
                        found.append(url.path)
                        walker.skipDescendants()
                    }
                } else if values?.isRegularFile == true, url.pathExtension.lowercased() == "ipa" {
                    found.append(url.path)
                }
            }
            // Paths under the folder as the user named it (`apps/x.ipa`, not the resolved path).
            let prefix = base.path
            for f in found.sorted() {
                add(f.hasPrefix(prefix) ? (p.hasSuffix("/") ? String(p.dropLast()) : p) + f.dropFirst(prefix.count) : f)
            }
        }
        return out.map(BatchInput.init)
    }

    static func isBundleFolder(_ path: String) -> Bool {
        let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
        return ext == "app" || ext == "xcarchive"
    }
}

/// SHA-256 of an input's bytes, read in 1 MiB chunks. A folder (`.app`, `.xcarchive`) hashes as
/// the sorted list of its entries: each one's relative path, then its bytes (a file) or its
/// target (a symbolic link).
public enum InputDigest {
    public static func sha256(path: String) throws -> String {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { throw BatchError("no such file: \(path)") }
        var hasher = SHA256Digest()
        if isDir.boolValue {
            let base = URL(fileURLWithPath: path).standardizedFileURL
            var entries: [(String, URL)] = []
            if let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil, options: []) {
                while let url = walker.nextObject() as? URL {
                    let full = url.standardizedFileURL.path
                    let rel = full.hasPrefix(base.path + "/") ? String(full.dropFirst(base.path.count + 1)) : url.lastPathComponent
                    entries.append((rel, url))
                }
            }
            for (rel, url) in entries.sorted(by: { $0.0 < $1.0 }) {
                let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
                let type = attributes?[.type] as? FileAttributeType
                if type == .typeSymbolicLink {
                    let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) ?? ""
                    hasher.update(Data("L\(rel)\u{0}\(target)\u{0}".utf8))
                } else if type == .typeRegular {
                    hasher.update(Data("F\(rel)\u{0}".utf8))
                    try feed(url.path, into: &hasher)
                } else if type == .typeDirectory {
                    hasher.update(Data("D\(rel)\u{0}".utf8))
                }
            }
        } else {
            try feed(path, into: &hasher)
        }
        return hasher.finalize().hexString
    }

    static func feed(_ path: String, into hasher: inout SHA256Digest) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw BatchError("cannot read \(path)") }
        defer { try? handle.close() }
        while true {
            guard let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty else { break }
            hasher.update(chunk)
        }
    }

    public static func sha256(_ text: String) -> String {
        SHA256Digest.hex(Array(text.utf8))
    }
}

public struct BatchError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ d: String) { description = d }
}
