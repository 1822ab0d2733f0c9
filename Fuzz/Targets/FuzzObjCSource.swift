import Foundation
import Evidence

// The input is an Objective-C/C source file: the lexer (comments, strings, character
// literals, line splices, raw and Unicode identifiers), the preprocessor (#if/#elif/#ifdef
// nesting, the integer expression evaluator, macro definitions) and the message-send parser
// that finds protected APIs. Scanned twice: as shipped for iOS, and with macros defined and
// for macOS, so that other branches are taken.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let source = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = ObjCSourceScanner.scan(source: source, path: "Fuzz.m")
    _ = ObjCSourceScanner.scan(source: source, path: "Fuzz.m", definitions: ["DEBUG": "1", "FEATURE": "2", "EMPTY": ""],
                               platform: .macOS)
    return 0
}
