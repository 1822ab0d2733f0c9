import Foundation
import Formats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    _ = try? ZipDirectory.read(fileSize: bytes.count) { offset, count in
        guard offset >= 0, count >= 0, offset <= bytes.count else { return Data() }
        return bytes.subdata(in: offset..<min(bytes.count, offset + min(count, bytes.count - offset)))
    }
    return 0
}
