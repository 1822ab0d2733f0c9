import Foundation

/// Objective-C references: classes bound at `__objc_classrefs`/`__objc_superrefs` and
/// selector names that `__objc_selrefs` points to in `__objc_methname` (not available while
/// `__TEXT` is still App Store encrypted).
extension SliceParser {
    mutating func readObjC(_ fixups: Fixups) {
        let prefix = "_OBJC_CLASS_$_"
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
        // Without decodable sections (objects, stripped fixups), fall back to imported symbols.
        if !sawRefSection || !fixups.decoded {
            for name in slice.importedSymbols where name.hasPrefix(prefix) {
                classes.insert(String(name.dropFirst(prefix.count)))
            }
        }
        slice.objcClassRefs = classes.sorted(by: MachONames.byteOrder)
        slice.objcSelectorRefs = selectors.sorted(by: MachONames.byteOrder)
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
