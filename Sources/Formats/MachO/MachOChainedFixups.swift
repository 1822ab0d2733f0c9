import Foundation

/// `LC_DYLD_CHAINED_FIXUPS`: the imports table and the per-page chains of rebases and binds.
extension SliceParser {
    static let supportedPointerFormats: Set<UInt16> = [1, 2, 3, 6, 9, 12]

    /// Bytes between two fixups for each unit of a chain's `next` field.
    static func stride(_ format: UInt16) -> Int {
        switch format {
        case 1, 9, 12: return 8
        default: return 4
        }
    }

    func readChainedFixups(_ range: Range<Int>, into fixups: inout Fixups) throws {
        let h = range.lowerBound, size = range.count
        func bad(_ reason: String, _ offset: Int) -> FormatError {
            malformed("chained fixups: " + reason, offset)
        }
        guard size >= 28 else { throw bad("header (28 bytes) does not fit in datasize \(size)", h) }
        let version = try u32(h)
        let startsOffset = Int(try u32(h + 4)), importsOffset = Int(try u32(h + 8))
        let symbolsOffset = Int(try u32(h + 12)), importsCount = Int(try u32(h + 16))
        let importsFormat = try u32(h + 20), symbolsFormat = try u32(h + 24)
        guard version == 0 else { throw bad("unknown fixups_version \(version)", h) }
        guard symbolsFormat == 0 else {
            throw FormatError(.unsupported, format: format, reason: "chained fixups: compressed symbols_format \(symbolsFormat)", offset: h + 24)
        }
        let importSize: Int
        switch importsFormat {
        case 1: importSize = 4
        case 2: importSize = 8
        case 3: importSize = 16
        default: throw bad("unknown imports_format \(importsFormat)", h + 20)
        }
        guard importsOffset <= size, importsCount <= (size - importsOffset) / importSize else {
            throw bad("imports table (\(importsCount) entries at offset \(importsOffset)) extends past the end of the fixups data", h + 8)
        }
        guard symbolsOffset <= size else {
            throw bad("symbols_offset \(symbolsOffset) is past the end of the fixups data", h + 12)
        }
        // Imports.
        var imports: [String] = []
        imports.reserveCapacity(importsCount)
        for k in 0..<importsCount {
            let e = h + importsOffset + k * importSize
            let nameOffset: Int
            if importsFormat == 3 {
                nameOffset = Int(try u64(e) >> 32)
            } else {
                nameOffset = Int(try u32(e) >> 9)
            }
            let start = h + symbolsOffset + nameOffset
            guard nameOffset < size - symbolsOffset else {
                throw bad("import \(k) name offset \(nameOffset) is past the end of the symbol strings", e)
            }
            var i = start
            while i < range.upperBound, r.bytes[i] != 0 {
                i += 1
            }
            guard i < range.upperBound else { throw bad("import \(k) name is not NUL-terminated", start) }
            guard i - start <= limits.maxStringLength else {
                throw FormatError.limit(format, "max-string-length", "chained fixups: import \(k) name is longer than \(limits.maxStringLength) bytes", offset: start)
            }
            let name = String(decoding: r.bytes[start..<i], as: UTF8.self)
            imports.append(name)
            fixups.names.insert(name)
        }
        fixups.decoded = true

        // Starts in image.
        guard startsOffset <= size - 4 else {
            throw bad("starts_offset \(startsOffset) is past the end of the fixups data", h + 4)
        }
        let sImage = h + startsOffset
        let segCount = Int(try u32(sImage))
        guard segCount <= (size - startsOffset - 4) / 4 else {
            throw bad("seg_count \(segCount) does not fit in the fixups data", sImage)
        }
        guard segCount <= slice.segments.count else {
            throw bad("seg_count \(segCount) is more than the \(slice.segments.count) segments", sImage)
        }
        for segIndex in 0..<segCount {
            let infoOffset = Int(try u32(sImage + 4 + segIndex * 4))
            if infoOffset == 0 { continue }
            guard infoOffset <= size - startsOffset - 22 else {
                throw bad("segment \(segIndex) starts offset \(infoOffset) is past the end of the fixups data", sImage + 4 + segIndex * 4)
            }
            let sSeg = sImage + infoOffset
            try walkSegment(segIndex, startsAt: sSeg, fixupsEnd: range.upperBound, imports: imports, into: &fixups, bad: bad)
        }
    }

    private func walkSegment(_ segIndex: Int, startsAt sSeg: Int, fixupsEnd: Int, imports: [String],
                             into fixups: inout Fixups, bad: (String, Int) -> FormatError) throws {
        let seg = slice.segments[segIndex]
        let structSize = Int(try u32(sSeg))
        let pageSize = Int(try r.u16(sSeg + 4, bigEndian: be))
        let pointerFormat = try r.u16(sSeg + 6, bigEndian: be)
        let pageCount = Int(try r.u16(sSeg + 20, bigEndian: be))
        let what = "segment \(segIndex) (\(seg.name))"
        guard structSize >= 22 + 2 * pageCount, structSize <= fixupsEnd - sSeg else {
            throw bad("\(what) starts size \(structSize) does not hold \(pageCount) page starts inside the fixups data", sSeg)
        }
        guard pageSize == 0x1000 || pageSize == 0x4000 else {
            throw bad("\(what) page_size 0x\(String(pageSize, radix: 16)) is not 0x1000 or 0x4000", sSeg + 4)
        }
        guard Self.supportedPointerFormats.contains(pointerFormat) else {
            throw FormatError(.unsupported, format: format,
                              reason: "chained fixups: \(what) pointer_format \(pointerFormat)", offset: sSeg + 6)
        }
        let (vmLimit, vmOverflow) = seg.vmSize.addingReportingOverflow(UInt64(pageSize))
        guard vmOverflow || UInt64(pageCount) * UInt64(pageSize) <= vmLimit else {
            throw bad("\(what) page_count \(pageCount) covers more than the segment", sSeg + 20)
        }
        fixups.pointerFormats[segIndex] = pointerFormat
        let stride = Self.stride(pointerFormat)
        let width = pointerFormat == 3 ? 4 : 8
        let segFileStart = Int(seg.fileOffset), segFileEnd = Int(seg.fileOffset + seg.fileSize)  // checked in readSegment
        let startsEnd = sSeg + structSize
        for page in 0..<pageCount {
            var start = Int(try r.u16(sSeg + 22 + page * 2, bigEndian: be))
            if start == 0xFFFF { continue }  // DYLD_CHAINED_PTR_START_NONE
            var starts: [Int] = []
            if pointerFormat == 3, start & 0x8000 != 0 {  // DYLD_CHAINED_PTR_START_MULTI
                var idx = start & 0x7FFF
                while true {
                    let at = sSeg + 22 + idx * 2
                    guard at + 2 <= startsEnd else {
                        throw bad("\(what) page \(page) multi-start list runs past the end of its starts", sSeg)
                    }
                    let v = Int(try r.u16(at, bigEndian: be))
                    starts.append(v & 0x7FFF)
                    if v & 0x8000 != 0 { break }  // DYLD_CHAINED_PTR_START_LAST
                    idx += 1
                }
            } else {
                start &= 0x7FFF
                starts.append(start)
            }
            let pageFileStart = segFileStart + page * pageSize
            let pageEnd = min(pageFileStart + pageSize, segFileEnd)
            for first in starts {
                var loc = pageFileStart + first
                var previous = sSeg + 22 + page * 2  // where the chain came from, for errors
                var steps = 0
                while true {
                    steps += 1
                    guard loc >= segFileStart, loc + width <= pageEnd, steps <= pageSize / stride + 1 else {
                        throw bad("\(what) page \(page) chain runs past the end of the page", previous)
                    }
                    previous = loc
                    let raw = width == 8 ? try u64(loc) : UInt64(try u32(loc))
                    let decoded = Self.decodeChained(raw, format: pointerFormat)
                    if let ordinal = decoded.bindOrdinal {
                        guard ordinal < imports.count else {
                            throw bad("\(what) page \(page) bind ordinal \(ordinal) is not less than imports_count \(imports.count)", loc)
                        }
                        fixups.record(seg.vmAddress &+ UInt64(loc - segFileStart), imports[ordinal])
                    }
                    if decoded.next == 0 { break }
                    loc += decoded.next * stride
                }
            }
        }
    }

    /// Decodes one chained pointer: its `next` field, and either a bind ordinal or a rebase
    /// target with whether that target is an offset from the image base.
    static func decodeChained(_ v: UInt64, format: UInt16) -> (next: Int, bindOrdinal: Int?, target: UInt64, targetIsOffset: Bool) {
        switch format {
        case 2, 6:  // DYLD_CHAINED_PTR_64, DYLD_CHAINED_PTR_64_OFFSET
            let next = Int((v >> 51) & 0xFFF)
            if v >> 63 != 0 { return (next, Int(v & 0xFF_FFFF), 0, false) }
            let target = (v & 0xF_FFFF_FFFF) | ((v >> 36) & 0xFF) << 56
            return (next, nil, target, format == 6)
        case 1, 9, 12:  // DYLD_CHAINED_PTR_ARM64E(_USERLAND(24))
            let next = Int((v >> 51) & 0x7FF)
            let auth = v >> 63 != 0, bind = (v >> 62) & 1 != 0
            if bind { return (next, Int(format == 12 ? v & 0xFF_FFFF : v & 0xFFFF), 0, false) }
            if auth { return (next, nil, v & 0xFFFF_FFFF, true) }
            let target = (v & 0x7FF_FFFF_FFFF) | ((v >> 43) & 0xFF) << 56
            return (next, nil, target, format != 1)
        case 3:  // DYLD_CHAINED_PTR_32
            let next = Int((v >> 26) & 0x1F)
            if (v >> 31) & 1 != 0 { return (next, Int(v & 0xF_FFFF), 0, false) }
            return (next, nil, v & 0x3FF_FFFF, false)
        default:
            return (0, nil, 0, false)
        }
    }
}
