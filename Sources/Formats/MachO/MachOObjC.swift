import Foundation

/// Objective-C references: classes bound at `__objc_classrefs`/`__objc_superrefs` and
/// selector names that `__objc_selrefs` points to in `__objc_methname` (not available while
/// `__TEXT` is still App Store encrypted).
extension SliceParser {
    mutating func readObjC(_ fixups: Fixups) throws {
        let prefix = "_OBJC_CLASS_$_"
        if slice.fileType == 1, !be {  // MH_OBJECT: relocations instead of binds and rebases
            let (classes, selectors) = try objectReferences(prefix: prefix)
            slice.objcClassRefs = classes.sorted(by: MachONames.byteOrder)
            slice.objcSelectorRefs = selectors.sorted(by: MachONames.byteOrder)
            return
        }
        var classes = Set<String>()
        var selectors = Set<String>()
        let ptr = UInt64(pointerSize)
        var sawRefSection = false
        for seg in slice.segments {
            for sect in seg.sections where !sect.isZeroFill {
                switch sect.name {
                case "__objc_classrefs", "__objc_superrefs":
                    sawRefSection = true
                    guard fixups.decoded else { continue }
                    var a = sect.address
                    let end = sect.address &+ sect.size
                    while a < end, end - a >= ptr {
                        if let name = fixups.bindings[a], name.hasPrefix(prefix) {
                            classes.insert(String(name.dropFirst(prefix.count)))
                        }
                        a += ptr
                    }
                case "__objc_selrefs":
                    let segIndex = slice.segments.firstIndex { $0.name == seg.name && $0.vmAddress == seg.vmAddress }
                    let format = segIndex.flatMap { fixups.pointerFormats[$0] }
                    let count = Int(sect.size / ptr)
                    for k in 0..<count {
                        let at = Int(sect.offset) + k * pointerSize  // the section range was checked
                        guard let raw = try? word(at) else { break }
                        var target = raw
                        if let format {
                            let d = Self.decodeChained(raw, format: format)
                            if d.bindOrdinal != nil { continue }
                            target = d.targetIsOffset ? imageBase &+ d.target : d.target
                        }
                        if let name = string(atAddress: target) { selectors.insert(name) }
                    }
                default:
                    break
                }
            }
        }
        // When the binds cannot be decoded (no dyld info and no chained fixups), fall back to
        // the imported class symbols; a decoded image without ref sections references none.
        if sawRefSection, !fixups.decoded {
            for name in slice.importedSymbols where name.hasPrefix(prefix) {
                classes.insert(String(name.dropFirst(prefix.count)))
            }
        }
        slice.objcClassRefs = classes.sorted(by: MachONames.byteOrder)
        slice.objcSelectorRefs = selectors.sorted(by: MachONames.byteOrder)
    }

    /// Class and selector references of a relocatable object, from the relocation entries of
    /// its ObjC reference sections: an extern relocation names its symbol (a class when it is
    /// an undefined `_OBJC_CLASS_$_`, a selector string label plus the slot's addend); a section
    /// relocation leaves the target address in the slot.
    private func objectReferences(prefix: String) throws -> (Set<String>, Set<String>) {
        var classes = Set<String>(), selectors = Set<String>()
        let refs: Set<String> = ["__objc_classrefs", "__objc_superrefs", "__objc_selrefs"]
        for seg in slice.segments {
            for sect in seg.sections where refs.contains(sect.name) && sect.relocationCount > 0 && !sect.isZeroFill {
                let isSelectors = sect.name == "__objc_selrefs"
                for k in 0..<Int(sect.relocationCount) {  // the table's range was checked
                    let e = Int(sect.relocationOffset) + k * 8
                    let address = try u32(e), info = try u32(e + 4)
                    if address & 0x8000_0000 != 0 { continue }  // scattered: not used by arm64/x86_64 ObjC
                    let symbolIndex = Int(info & 0xff_ffff), isExtern = info & (1 << 27) != 0
                    var target: UInt64?
                    if isSelectors {
                        guard UInt64(address) + UInt64(pointerSize) <= sect.size else {
                            throw malformed("section (\(sect.segment),\(sect.name)) relocation \(k) address 0x\(String(address, radix: 16)) is outside the section", e)
                        }
                        target = try word(Int(sect.offset) + Int(address))
                    }
                    if isExtern {
                        guard symbolIndex < slice.symbols.count else {
                            throw malformed("section (\(sect.segment),\(sect.name)) relocation \(k) symbol index \(symbolIndex) is not less than nsyms \(slice.symbols.count)", e)
                        }
                        let symbol = slice.symbols[symbolIndex]
                        if isSelectors {
                            target = symbol.isUndefined ? nil : target.map { $0 &+ symbol.value }
                        } else if symbol.isUndefined, symbol.name.hasPrefix(prefix) {
                            classes.insert(String(symbol.name.dropFirst(prefix.count)))
                        }
                    }
                    if let target, let name = string(atAddress: target) { selectors.insert(name) }
                }
            }
        }
        return (classes, selectors)
    }

    /// The NUL-terminated string at a virtual address, bounded by its segment's file bytes and
    /// the string-length limit; nil when the address is not file-backed, lies in encrypted
    /// bytes, or is not terminated.
    func string(atAddress addr: UInt64) -> String? {
        guard let (start, available) = fileOffset(ofAddress: addr),
              !slice.isEncrypted(offset: start, size: 1) else { return nil }
        let end = start + (available > limits.maxStringLength ? max(limits.maxStringLength, 0) + 1 : available)
        guard end <= r.count else { return nil }
        var i = start
        while i < end, r.bytes[i] != 0 {
            i += 1
        }
        guard i < end else { return nil }
        return String(decoding: r.bytes[start..<i], as: UTF8.self)
    }
}
