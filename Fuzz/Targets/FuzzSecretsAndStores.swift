import Foundation
import Evidence

// The input is any shipped resource: a text file read for secrets, a key or key-store file
// judged by its ASN.1 shape, or an SQLite database whose schema page is read. Traps unless
// every reported secret's line is inside the input and its mask is short and states the
// length, no value after a secret name shows whole, and no table is called populated with
// an empty root page.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let lines = bytes.reduce(1) { $0 + ($1 == 0x0a ? 1 : 0) }
    for skip in [false, true] {
        for s in SecretScanner.scan(bytes: bytes, skipGoogleAPIKeys: skip) {
            precondition((s.line ?? 1) >= 1 && (s.line ?? 1) <= lines, "the line is in the input")
            precondition(s.masked.utf8.count <= 200, "masks are short")
            precondition(s.masked.contains("characters"), "masks say the length")
        }
    }
    // NUL-separated pieces as a binary's C strings, read in pairs as compiled configuration.
    var previous = ""
    for piece in bytes.split(separator: 0) {
        let s = String(decoding: piece, as: UTF8.self)
        if let named = NamedSecretPairs.secret(name: previous, value: s) {
            precondition(!named.masked.contains(s), "a named secret's value is masked")
        }
        previous = s
    }
    let array = [UInt8](bytes)
    _ = KeyFileShape.of(array)
    if let schema = SQLiteSchema.read(array) {
        for t in schema.tables { precondition(!t.populated || t.rowsOnRootPage != 0, "an empty root page is not populated") }
    }
    return 0
}
