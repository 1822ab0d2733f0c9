import Foundation
import Evidence
import SwiftSourceScan

// The input is a Swift source file, read the way a scan reads a candidate file: swift-syntax's
// parser under Preflight's nesting limits, then one walk for every rule's facts (protected
// APIs, launch-time recording, storage, logging, crypto, the data-flow sinks with their origins
// and paths), for two build contexts (iOS, and macOS with DEBUG set) so that other `#if`
// branches are taken.
// swift-syntax itself is linked from the package's debug build, not instrumented: coverage
// guides the fuzzer through Preflight's own walk and data flow.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let source = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let contexts = [SourceScanContext(platform: "ios"), SourceScanContext(platform: "macos", swiftConditions: ["DEBUG"])]
    _ = SwiftSourceScanner.scan(source: source, path: "Fuzz.swift", catalog: .detection, limits: .default, contexts: contexts)
    return 0
}
