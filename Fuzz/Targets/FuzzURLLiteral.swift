import Foundation
import Evidence

// The input is a Swift or Objective-C source file, or a binary's C string, read by the URL
// scanner that runs over every compiled file and Mach-O string: string literals of both
// languages (raw, multi-line, interpolated, escaped), comments, call context read backwards,
// `#if DEBUG` branches, and the mention search for exception-domain names. Traps unless every
// URL it reports has a network host, a position inside the file and a bounded length.
let names = ["acme.com", "a", "example.org"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let lines = bytes.reduce(1) { $0 + ($1 == 0x0a ? 1 : 0) }
    for language in [SourceFactsScanner.Language.swift, .cFamily] {
        for u in URLLiteralScanner.scan(bytes, language: language) {
            precondition(URLHosts.isNetworkHost(u.host), "a reported host is network traffic: \(u.host)")
            precondition(u.line >= 1 && u.line <= lines, "the line is in the file")
            precondition(u.url.utf8.count <= 4_096, "URLs are cut to a bounded length")
        }
        _ = URLLiteralScanner.mentions(bytes, language: language, names: names)
    }
    _ = URLLiteralScanner.mentions(inText: bytes, names: names)
    _ = URLLiteralScanner.urls(in: String(decoding: bytes, as: UTF8.self))
    return 0
}
