import Foundation
import Evidence

// The input is a Swift or Objective-C source file read by the byte pass that runs over every
// file of a project before any parser: comments (nested), identifiers, `import`/`#import`/
// `@import`, `@_exported`, declarations, Swift string literals (raw, multi-line, nested
// interpolations) and C strings and character literals. Names are looked up by hash, so the set holds names
// that collide with keywords and with each other's prefixes.
let scanner = SourceFactsScanner(names: ["CLLocationManager", "import", "class", "Map", "M", "requestAccess", "_exported"])

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    for language in [SourceFactsScanner.Language.swift, .cFamily] {
        let facts = scanner.scan(UnsafeRawBufferPointer(start: data, count: size), language: language)
        precondition(facts.declared.isSubset(of: facts.mentioned), "a declared name is always a mentioned one")
        precondition(facts.referenced.isSubset(of: facts.mentioned), "a referenced name is always a mentioned one")
        precondition(facts.exportedImports.isSubset(of: facts.imports), "an exported import is an import")
    }
    return 0
}
