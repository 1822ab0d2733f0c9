import Foundation

/// What the dynamic loader will bind: names and the addresses of the slots it writes.
struct Fixups {
    /// Slot address → imported symbol name, kept only for slots inside `watched` ranges (the
    /// Objective-C class reference sections) so memory does not grow with every bind.
    var bindings: [UInt64: String] = [:]
    var watched: [Range<UInt64>] = []
    var names = Set<String>()
    /// Chained-fixup pointer format of each segment (by segment index) that has chains.
    var pointerFormats: [Int: UInt16] = [:]
    /// True when bindings are known (dyld info or chained fixups were decoded).
    var decoded = false

    mutating func record(_ address: UInt64, _ name: String) {
        for range in watched where range.contains(address) {
            bindings[address] = name
            return
        }
    }
}

/// A cursor over a dyld opcode stream with bounded LEB128 reads.
struct OpcodeStream {
    let bytes: [UInt8]
    var pos: Int
    let end: Int
    let format: String

    mutating func byte() throws -> UInt8 {
        guard pos < end else { throw FormatError.truncated(format, "opcode stream ends inside an opcode", offset: pos) }
        defer { pos += 1 }
        return bytes[pos]
    }

    mutating func uleb() throws -> UInt64 {
        let start = pos
        var result: UInt64 = 0, shift: UInt64 = 0
        while true {
            let b = try byte()
            let low = UInt64(b & 0x7f)
            if shift >= 64 || (shift == 63 && low > 1) {
                throw FormatError.malformed(format, "uleb128 too big for uint64", offset: start)
            }
            result |= low << shift
            if b & 0x80 == 0 { return result }
            shift += 7
        }
    }

    mutating func sleb() throws -> Int64 {
        let start = pos
        var result: Int64 = 0, shift: Int64 = 0
        var b: UInt8 = 0
        repeat {
            b = try byte()
            if shift >= 64 { throw FormatError.malformed(format, "sleb128 too big for int64", offset: start) }
            result |= Int64(b & 0x7f) << shift
            shift += 7
        } while b & 0x80 != 0
        if shift < 64, b & 0x40 != 0 { result |= -1 << shift }
        return result
    }

    mutating func cString(maxLength: Int) throws -> String {
        let start = pos
        while pos < end, bytes[pos] != 0 {
            pos += 1
            if pos - start > maxLength {
                throw FormatError.limit(format, "max-string-length", "symbol name in bind opcodes is longer than \(maxLength) bytes", offset: start)
            }
        }
        guard pos < end else {
            throw FormatError.malformed(format, "symbol name in bind opcodes extends past the end of the opcodes", offset: start)
        }
        defer { pos += 1 }
        return String(decoding: bytes[start..<pos], as: UTF8.self)
    }
}

extension SliceParser {
    /// Runs the bind, weak-bind and lazy-bind opcode streams of `LC_DYLD_INFO(_ONLY)`.
    /// The number of binds is bounded by `maxSymbols`, so a repeat count cannot make it spin.
    func readBindOpcodes(into fixups: inout Fixups) throws {
        var total = 0
        // Bounded by the limit and by the input: a real image never binds more slots than it has bytes.
        let cap = min(limits.maxSymbols, max(r.count, 1))
        for (range, lazy) in bindStreams {
            var s = OpcodeStream(bytes: r.bytes, pos: range.lowerBound, end: range.upperBound, format: format)
            var name = ""
            var segIndex = -1
            var address: UInt64 = 0
            func bind(_ at: Int) throws {
                guard segIndex >= 0 else {
                    throw malformed("bind opcodes bind before setting a segment", at)
                }
                total += 1
                guard total <= cap else {
                    throw FormatError.limit(format, "max-symbols", "bind opcodes bind more than \(cap) slots", offset: at)
                }
                fixups.record(address, name)
                fixups.names.insert(name)
            }
            streamLoop: while s.pos < s.end {
                let at = s.pos
                let b = try s.byte()
                let imm = b & 0x0f
                switch b & 0xf0 {
                case 0x00:  // DONE (separates entries in the lazy stream)
                    if !lazy { break streamLoop }
                case 0x10: break  // SET_DYLIB_ORDINAL_IMM
                case 0x20: _ = try s.uleb()  // SET_DYLIB_ORDINAL_ULEB
                case 0x30: break  // SET_DYLIB_SPECIAL_IMM
                case 0x40:  // SET_SYMBOL_TRAILING_FLAGS_IMM
                    name = try s.cString(maxLength: limits.maxStringLength)
                case 0x50: break  // SET_TYPE_IMM
                case 0x60: _ = try s.sleb()  // SET_ADDEND_SLEB
                case 0x70:  // SET_SEGMENT_AND_OFFSET_ULEB
                    segIndex = Int(imm)
                    guard segIndex < slice.segments.count else {
                        throw malformed("bind opcodes segment index \(segIndex) out of range (\(slice.segments.count) segments)", at)
                    }
                    address = slice.segments[segIndex].vmAddress &+ (try s.uleb())
                case 0x80:  // ADD_ADDR_ULEB
                    address = address &+ (try s.uleb())
                case 0x90:  // DO_BIND
                    try bind(at)
                    address = address &+ UInt64(pointerSize)
                case 0xa0:  // DO_BIND_ADD_ADDR_ULEB
                    try bind(at)
                    address = address &+ (try s.uleb()) &+ UInt64(pointerSize)
                case 0xb0:  // DO_BIND_ADD_ADDR_IMM_SCALED
                    try bind(at)
                    address = address &+ UInt64(imm) &* UInt64(pointerSize) &+ UInt64(pointerSize)
                case 0xc0:  // DO_BIND_ULEB_TIMES_SKIPPING_ULEB
                    let count = try s.uleb(), skip = try s.uleb()
                    guard count <= UInt64(cap - total) else {
                        throw FormatError.limit(format, "max-symbols", "bind opcodes bind more than \(cap) slots", offset: at)
                    }
                    for _ in 0..<count {
                        try bind(at)
                        address = address &+ skip &+ UInt64(pointerSize)
                    }
                case 0xd0:  // THREADED (arm64e before chained fixups): record names only
                    if imm == 0x00 { _ = try s.uleb() }  // SET_BIND_ORDINAL_TABLE_SIZE_ULEB
                    else if imm != 0x01 {  // APPLY needs no operand
                        throw malformed("bind opcodes unknown threaded sub-opcode 0x\(String(imm, radix: 16))", at)
                    }
                default:
                    throw malformed("bind opcodes unknown opcode 0x\(String(b, radix: 16))", at)
                }
            }
        }
        fixups.decoded = true
    }

    mutating func readFixups() throws -> Fixups {
        var fixups = Fixups()
        for seg in slice.segments {
            for sect in seg.sections where sect.name == "__objc_classrefs" || sect.name == "__objc_superrefs" {
                let (end, overflow) = sect.address.addingReportingOverflow(sect.size)
                fixups.watched.append(sect.address..<(overflow ? UInt64.max : end))
            }
        }
        if let range = chainedFixups {
            try readChainedFixups(range, into: &fixups)
        } else if !bindStreams.isEmpty || slice.hasDyldInfo {
            try readBindOpcodes(into: &fixups)
        }
        slice.boundSymbols = fixups.names.sorted(by: MachONames.byteOrder)
        return fixups
    }
}
