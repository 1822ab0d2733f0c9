import Foundation

extension SliceParser {
    /// Reads `nlist`/`nlist_64` entries and derives `importedSymbols` the way `llvm-nm -u`
    /// selects and orders them: not a stab, `N_EXT`, `N_UNDF`, value 0; sorted by name bytes.
    mutating func readSymbolTable() throws {
        guard let t = symtab else { return }
        let entry = is64 ? 16 : 12
        let strEnd = t.stroff + t.strsize  // both checked inside the file
        var symbols: [Symbol] = []
        symbols.reserveCapacity(t.nsyms)
        for k in 0..<t.nsyms {
            let e = t.symoff + k * entry
            let strx = Int(try u32(e))
            let type = try r.u8(e + 4)
            let sect = try r.u8(e + 5)
            let desc = try r.u16(e + 6, bigEndian: be)
            let value = is64 ? try u64(e + 8) : UInt64(try u32(e + 8))
            guard strx < t.strsize || (strx == 0 && t.strsize == 0) else {
                throw malformed("bad string index \(strx) for symbol at index \(k) (string table is \(t.strsize) bytes)", e)
            }
            var name = ""
            if t.strsize > 0 {
                let start = t.stroff + strx
                var i = start
                while i < strEnd, r.bytes[i] != 0 {
                    i += 1
                }
                guard i - start <= limits.maxStringLength else {
                    throw FormatError.limit(format, "max-string-length",
                                            "name of symbol \(k) is longer than \(limits.maxStringLength) bytes", offset: start)
                }
                name = String(decoding: r.bytes[start..<i], as: UTF8.self)
            }
            symbols.append(Symbol(name: name, type: type, sect: sect, desc: desc, value: value))
        }
        slice.symbols = symbols
        slice.importedSymbols = symbols.filter(\.isUndefined).map(\.name).sorted(by: MachONames.byteOrder)
    }
}
