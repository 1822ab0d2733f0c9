import Foundation
import Formats
import Artifacts

// The input is an .ipa. ZipSource reads archives in place through file handles, so the input
// is written to a file (in /dev/shm when there is one) and then listed and read entry by entry:
// the central directory and local headers (ZipDirectory), entry names, symlink targets, and
// the data of every file entry, stored or inflated through zlib, with its size and CRC checks.
// Limits are tight so that one input cannot run for long.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    let path = folder + "/preflight-fuzz-zip-entries-\(getpid()).ipa"
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size)) else { return 0 }
    var limits = ReaderLimits()
    limits.maxFileBytes = 1 << 20
    limits.maxTotalBytes = 4 << 20
    limits.maxArchiveEntries = 10_000
    guard let archive = try? ZipSource(URL(fileURLWithPath: path), limits: limits) else { return 0 }
    for entry in archive.entries where entry.kind == .file {
        _ = try? archive.read(entry.path)
    }
    return 0
}
