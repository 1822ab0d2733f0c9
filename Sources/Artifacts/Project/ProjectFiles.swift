import Foundation
import Formats

/// Reading text files of a project with the reader limits applied.
enum ProjectFiles {
    static func readText(_ path: String, source: FileSource, index: FileIndex, limits: ReaderLimits, format: String) throws -> String {
        if let e = index.entry(path), e.size > Int64(limits.maxFileBytes) {
            throw FormatError(.limitExceeded("max-file-bytes"), format: format,
                              reason: "\(path) is \(e.size) bytes, more than \(limits.maxFileBytes)")
        }
        let data = try source.read(path)
        guard data.count <= limits.maxFileBytes else {
            throw FormatError(.limitExceeded("max-file-bytes"), format: format,
                              reason: "\(path) is \(data.count) bytes, more than \(limits.maxFileBytes)")
        }
        return try TextDecoding.decode(data, format: format).0
    }
}
