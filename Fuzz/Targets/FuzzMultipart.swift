// sources: ../Sources/Server/MultipartReader.swift ../Sources/Server/ServerHTTP.swift
import Foundation

// The input is a request body for the server's streaming multipart reader (boundary "B"),
// its first byte choosing a chunk size. Traps unless the body read in chunks gives exactly
// what it gives read whole (the same file bytes and fields, or an error in both), the file
// part is never larger than the body, and fields stay within their limit.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let chunk = Int(data[0] % 17) + 1
    let body = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    func read(_ step: Int) -> (file: [UInt8], fields: [String: String])? {
        var file: [UInt8] = []
        guard let reader = try? MultipartReader(contentType: "multipart/form-data; boundary=B", sink: { file += $0 }) else { return nil }
        do {
            var i = 0
            while i < body.count {
                try reader.feed(Array(body[i..<min(body.count, i + step)]))
                i += step
            }
            try reader.finish()
        } catch {
            precondition(error is ServerError, "only typed errors")
            return nil
        }
        precondition(reader.fields.values.allSatisfy { $0.utf8.count <= 4 * 1024 * 4 }, "fields are bounded")
        return (file, reader.fields)
    }
    let whole = read(max(1, body.count)), pieces = read(chunk)
    precondition((whole == nil) == (pieces == nil), "chunking changes whether the body is read")
    if let w = whole, let p = pieces {
        precondition(w.file == p.file && w.fields == p.fields, "chunking changes what is read")
        precondition(w.file.count <= body.count, "the file part is part of the body")
    }
    return 0
}
