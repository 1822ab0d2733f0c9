import Foundation
import Evidence
import SwiftSourceScan

// The input is a Swift source file, read the way a scan reads a candidate file: swift-syntax's
// parser under Preflight's nesting limits, then one walk for every rule's facts (protected
// APIs, launch-time recording, storage, logging, crypto, the data-flow sinks with their origins
// and paths), for two build contexts (iOS, and macOS with DEBUG set) so that other `#if`
// branches are taken. Then the kept parse answers the project-wide join's question built from
// the file's own open ends (its parameter sinks as callees, its external names as names), as
// `SourceFlowJoin` asks a file that calls or declares them.
// swift-syntax itself is linked from the package's debug build, not instrumented: coverage
// guides the fuzzer through Preflight's own walk and data flow.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let source = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let contexts = [SourceScanContext(platform: "ios"), SourceScanContext(platform: "macos", swiftConditions: ["DEBUG"])]
    let (usages, parse) = SwiftSourceScanner.scanKeepingParse(source: source, path: "Fuzz.swift", catalog: .detection,
                                                              limits: .default, contexts: contexts)
    guard let parse else { return 0 }
    var query = FlowQuery()
    for link in usages.joined().compactMap(\.link) {
        switch link.role {
        case .parameterSink:
            if let callee = link.callee {
                query.callees[callee, default: []].insert(link.parameterIndex)
                if link.wants == .constant { query.constantCallees.insert(callee) }
            }
        case .externalSink: query.names.insert(link.name)
        }
    }
    for context in contexts { _ = parse.flowAnswers(context: context, query: query) }
    return 0
}

// ASan records a stack for every allocation; swift-syntax's debug build allocates for every
// node, so the default 30 frames cost a third of the time. Four frames still place a leak;
// ASAN_OPTIONS=malloc_context_size=30 overrides this when reproducing a finding.
@_cdecl("__asan_default_options")
public func asanDefaultOptions() -> UnsafePointer<CChar> {
    UnsafeRawPointer(("malloc_context_size=4" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
}
