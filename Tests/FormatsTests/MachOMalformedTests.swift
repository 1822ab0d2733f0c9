import Foundation
import XCTest
@testable import Formats

/// Hostile inputs: each must fail with exactly this error, never crash or hang.
final class MachOMalformedTests: XCTestCase {
    private func read(_ w: MachOBytes, limits: ReaderLimits = .default) throws {
        _ = try MachOReader.read(w.data, limits: limits)
    }

    private func symtab(symoff: UInt32, nsyms: UInt32, stroff: UInt32, strsize: UInt32) -> [UInt8] {
        var c = MachOBytes()
        c.u32(0x2); c.u32(24); c.u32(symoff); c.u32(nsyms); c.u32(stroff); c.u32(strsize)
        return c.bytes
    }

    // MARK: Header and load commands

    func testTooShortForMagic() {
        assertMachOError("truncated Mach-O at offset 0x0: magic (4 bytes) extends past the end of the data (2 bytes)") {
            _ = try MachOReader.read(Data([0xcf, 0xfa]))
        }
    }

    func testEmptyFile() {
        assertMachOError("truncated Mach-O at offset 0x0: the file is empty (0 bytes), not a binary") {
            _ = try MachOReader.read(Data())
        }
    }

    func testNotMachO() {
        assertMachOError("malformed Mach-O at offset 0x0: not a Mach-O file (magic 0x7f454c46)") {
            _ = try MachOReader.read(Data([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]))
        }
    }

    func testTruncatedHeader() {
        var w = MachOBytes()
        w.u32(0xfeed_facf); w.u32(0x0100_000c); w.u32(0); w.u16(2)
        assertMachOError("truncated Mach-O at offset 0x0: mach header (32 bytes) extends past the end of the data (14 bytes)") {
            try read(w)
        }
    }

    func testHugeNcmds() {
        var w = MachOBytes.thin64(commands: [])
        w.put32(0xffff_ffff, at: 16)
        assertMachOError("Mach-O at offset 0x10 exceeds limit max-load-commands: ncmds 4294967295 is more than 65536") {
            try read(w)
        }
    }

    func testNcmdsThatCannotFitInSizeofcmds() {
        var w = MachOBytes.thin64(commands: [MachOBytes.dylib("/usr/lib/libz.1.dylib")])
        w.put32(1000, at: 16)
        assertMachOError("malformed Mach-O at offset 0x10: ncmds 1000 load commands cannot fit in sizeofcmds 48") {
            try read(w)
        }
    }

    func testSizeofcmdsPastEndOfFile() {
        var w = MachOBytes.thin64(commands: [MachOBytes.dylib("/usr/lib/libz.1.dylib")])
        w.put32(4096, at: 20)
        assertMachOError("truncated Mach-O at offset 0x20: load commands (sizeofcmds 4096) extend past the end of the file (80 bytes)") {
            try read(w)
        }
    }

    func testCmdsizeZero() {
        var w = MachOBytes.thin64(commands: [MachOBytes.dylib("/usr/lib/libz.1.dylib")])
        w.put32(0, at: 36)
        assertMachOError("malformed Mach-O at offset 0x20: load command 0 with size less than 8 bytes") { try read(w) }
    }

    func testCmdsizeNotMultipleOfEight() {
        var w = MachOBytes.thin64(commands: [MachOBytes.dylib("/usr/lib/libz.1.dylib")])
        w.put32(44, at: 36)
        assertMachOError("malformed Mach-O at offset 0x20: load command 0 cmdsize not a multiple of 8") { try read(w) }
    }

    func testCmdsizePastEndOfLoadCommands() {
        var w = MachOBytes.thin64(commands: [MachOBytes.dylib("/usr/lib/libz.1.dylib"), MachOBytes.dylib("/usr/lib/libc++.1.dylib")])
        w.put32(4096, at: 32 + 48 + 4)
        assertMachOError("malformed Mach-O at offset 0x50: load command 1 extends past the end of all load commands in the file") {
            try read(w)
        }
    }

    func testDuplicateUUID() {
        var c = MachOBytes()
        c.u32(0x1b); c.u32(24); c.u64(1); c.u64(2)
        assertMachOError("malformed Mach-O at offset 0x38: load command 1 more than one LC_UUID command") {
            try read(.thin64(commands: [c.bytes, c.bytes]))
        }
    }

    func testCommandTooSmallForItsKind() {
        var c = MachOBytes()
        c.u32(0x1b); c.u32(16); c.u64(0)  // LC_UUID needs 24 bytes
        assertMachOError("malformed Mach-O at offset 0x20: load command 0 LC_UUID cmdsize 16 too small (needs 24)") {
            try read(.thin64(commands: [c.bytes]))
        }
    }

    func testUnterminatedDylibName() {
        var cmd = MachOBytes.dylib("/usr/lib/libz.1.dylib")  // 48 bytes, name fills 24..<46
        for i in 24..<48 { cmd[i] = UInt8(ascii: "z") }
        assertMachOError("malformed Mach-O at offset 0x20: load command 0 LC_LOAD_DYLIB library name extends past the end of the load command") {
            try read(.thin64(commands: [cmd]))
        }
    }

    func testDylibNameOffsetOutsideCommand() {
        var w = MachOBytes.thin64(commands: [MachOBytes.dylib("/usr/lib/libz.1.dylib")])
        w.put32(200, at: 40)
        assertMachOError("malformed Mach-O at offset 0x20: load command 0 LC_LOAD_DYLIB library name offset 200 is outside the command") {
            try read(w)
        }
    }

    func testUnterminatedRpath() {
        var c = MachOBytes()
        c.u32(0x8000_001c); c.u32(16); c.u32(12); c.bytes += Array("abcd".utf8)
        assertMachOError("malformed Mach-O at offset 0x20: load command 0 LC_RPATH path extends past the end of the load command") {
            try read(.thin64(commands: [c.bytes]))
        }
    }

    func testSegmentPastEndOfFile() {
        let seg = MachOBytes.segment64("__TEXT", vmaddr: 0, vmsize: 0x4000, fileoff: 0, filesize: 0x4000)
        assertMachOError("malformed Mach-O at offset 0x20: load command 0 fileoff field plus filesize field in LC_SEGMENT_64 extends past the end of the file") {
            try read(.thin64(commands: [seg]))
        }
    }

    func testSegmentWithMoreSectionsThanItsCmdsize() {
        var seg = MachOBytes.segment64("__TEXT", vmaddr: 0, vmsize: 0, fileoff: 0, filesize: 0)
        seg.replaceSubrange(64..<68, with: [3, 0, 0, 0])
        assertMachOError("malformed Mach-O at offset 0x20: load command 0 inconsistent cmdsize in LC_SEGMENT_64 for the number of sections") {
            try read(.thin64(commands: [seg]))
        }
    }

    func testRelocationsPastEndOfFile() {
        let seg = MachOSynthetic.segment64("", vmaddr: 0, size: 8, fileoff: 0, prot: 7, sections: [
            MachOSynthetic.section64("__objc_selrefs", "__DATA", addr: 0, size: 8, offset: 0),
        ])
        var w = MachOBytes.thin64(fileType: 1, commands: [seg])
        w.put32(1000, at: 32 + 72 + 60)  // nreloc
        assertMachOError("malformed Mach-O at offset 0x20: load command 0 section 0 (__DATA,__objc_selrefs) relocation entries extend past the end of the file") {
            try read(w)
        }
    }

    func testSymtabPastEndOfFile() {
        assertMachOError("malformed Mach-O at offset 0x20: load command 0 LC_SYMTAB symoff field plus nsyms field times sizeof(struct nlist_64) extends past the end of the file") {
            try read(.thin64(commands: [symtab(symoff: 56, nsyms: 100, stroff: 56, strsize: 0)]))
        }
    }

    func testStringTablePastEndOfFile() {
        assertMachOError("malformed Mach-O at offset 0x20: load command 0 LC_SYMTAB stroff field plus strsize field extends past the end of the file") {
            try read(.thin64(commands: [symtab(symoff: 0, nsyms: 0, stroff: 0xffff_fff0, strsize: 0x100)]))
        }
    }

    func testSymbolCountOverLimit() {
        var limits = ReaderLimits()
        limits.maxSymbols = 10
        assertMachOError("Mach-O at offset 0x20 exceeds limit max-symbols: LC_SYMTAB nsyms 11 is more than 10") {
            try read(.thin64(commands: [symtab(symoff: 0, nsyms: 11, stroff: 0, strsize: 0)]), limits: limits)
        }
    }

    func testBadSymbolStringIndex() {
        var w = MachOBytes.thin64(commands: [symtab(symoff: 56, nsyms: 1, stroff: 72, strsize: 4)])
        w.u32(99); w.u8(0x01); w.u8(0); w.u16(0); w.u64(0)  // nlist_64 with n_strx 99
        w.cString("_a"); w.pad(to: 76)
        assertMachOError("malformed Mach-O at offset 0x38: bad string index 99 for symbol at index 0 (string table is 4 bytes)") {
            try read(w)
        }
    }

    func testFileOverSizeLimit() {
        var limits = ReaderLimits()
        limits.maxFileBytes = 16
        assertMachOError("Mach-O exceeds limit max-file-bytes: file of 32 bytes is larger than 16 bytes") {
            try read(.thin64(commands: []), limits: limits)
        }
    }

    // MARK: Fat files

    private func fat(_ entries: [(cpu: UInt32, sub: UInt32, offset: UInt32, size: UInt32)], nfat: UInt32? = nil, total: Int) -> MachOBytes {
        var w = MachOBytes()
        w.be32(0xcafe_babe); w.be32(nfat ?? UInt32(entries.count))
        for e in entries { w.be32(e.cpu); w.be32(e.sub); w.be32(e.offset); w.be32(e.size); w.be32(12) }
        w.pad(to: total)
        return w
    }

    func testFatWithAbsurdSliceCount() {
        assertMachOError("Mach-O at offset 0x4 exceeds limit max-fat-slices: nfat_arch 2147483647 is more than 64") {
            try read(fat([], nfat: 0x7fff_ffff, total: 64))
        }
    }

    func testFatArchTableTruncated() {
        assertMachOError("truncated Mach-O at offset 0x8: fat_arch table of 3 entries (60 bytes) extends past the end of the data (28 bytes)") {
            try read(fat([(0x0100_000c, 0, 0x1000, 0x100)], nfat: 3, total: 28))
        }
    }

    func testFatSlicePastEndOfFile() {
        assertMachOError("malformed Mach-O at offset 0x8: fat slice 0 (arm64) offset 4096 plus size 4294967295 extends past the end of the file (8192 bytes)") {
            try read(fat([(0x0100_000c, 0, 0x1000, 0xffff_ffff)], total: 0x2000))
        }
    }

    func testOverlappingFatSlices() {
        assertMachOError("malformed Mach-O at offset 0x1c: fat slice 1 (x86_64) overlaps fat slice 0 (arm64)") {
            try read(fat([(0x0100_000c, 0, 0x1000, 0x2000), (0x0100_0007, 3, 0x2000, 0x1000)], total: 0x4000))
        }
    }

    func testFatSliceOverlappingHeader() {
        var w = MachOBytes()
        w.be32(0xcafe_babe); w.be32(1); w.be32(0x0100_000c); w.be32(0); w.be32(0); w.be32(0x100); w.be32(0)
        w.pad(to: 0x100)
        assertMachOError("malformed Mach-O at offset 0x8: fat slice 0 (arm64) at offset 0 overlaps the fat header") { try read(w) }
    }

    func testFatDuplicateArchitecture() {
        assertMachOError("malformed Mach-O at offset 0x1c: fat slice 1 (arm64) duplicates the architecture of an earlier slice") {
            try read(fat([(0x0100_000c, 0, 0x1000, 0x1000), (0x0100_000c, 0, 0x2000, 0x1000)], total: 0x3000))
        }
    }

    func testFatSliceThatIsNotMachO() {
        assertMachOError("unsupported Mach-O at offset 0x1000: fat slice 0 (arm64) is not a thin Mach-O image (magic 0x213c6172)") {
            var w = fat([(0x0100_000c, 0, 0x1000, 0x100)], total: 0x1000)
            w.bytes += Array("!<arch>\n".utf8); w.pad(to: 0x1100)
            try read(w)
        }
    }

    func testErrorInsideFatSliceNamesSliceAndFileOffset() {
        var w = fat([(0x0100_000c, 0, 0x1000, 0x50)], total: 0x1000)
        var slice = MachOBytes.thin64(commands: [MachOBytes.dylib("/usr/lib/libz.1.dylib")])
        slice.put32(0, at: 36)
        w.bytes += slice.bytes
        assertMachOError("malformed Mach-O at offset 0x1020: fat slice 0 (arm64): load command 0 with size less than 8 bytes") {
            try read(w)
        }
    }

    // MARK: Fixups

    func testChainedFixupChainRunningPastItsPage() throws {
        var w = MachOSynthetic.chained()
        // Make the second pointer's next field jump 0xfff * 4 bytes: far past the 0x1000 page.
        w.put64(MachOSynthetic.rebase64(target: 0, next: 0xfff), at: 0x1008)
        assertMachOError("malformed Mach-O at offset 0x1008: chained fixups: segment 1 (__DATA) page 0 chain runs past the end of the page") {
            try read(w)
        }
    }

    func testChainedFixupBindOrdinalOutOfRange() throws {
        var w = MachOSynthetic.chained()
        w.put64(MachOSynthetic.bind64(ordinal: 7, next: 2), at: 0x1000)
        assertMachOError("malformed Mach-O at offset 0x1000: chained fixups: segment 1 (__DATA) page 0 bind ordinal 7 is not less than imports_count 1") {
            try read(w)
        }
    }

    func testChainedFixupMultiStartListWithoutLastEntry() throws {
        var w = MachOSynthetic.chained32()
        w.bytes[0x2000 + 40 + 27] = 0x00  // clear DYLD_CHAINED_PTR_START_LAST on the final start
        assertMachOError("malformed Mach-O at offset 0x2028: chained fixups: segment 1 (__DATA) page 0 multi-start list runs past the end of its starts") {
            try read(w)
        }
    }

    func testChainedFixupUnsupportedPointerFormat() throws {
        var w = MachOSynthetic.chained()
        w.bytes[0x2000 + 40 + 6] = 11  // DYLD_CHAINED_PTR_X86_64_KERNEL_CACHE
        assertMachOError("unsupported Mach-O at offset 0x202e: chained fixups: segment 1 (__DATA) pointer_format 11") {
            try read(w)
        }
    }

    func testChainedFixupAbsurdPageCount() throws {
        var w = MachOSynthetic.chained()
        w.bytes[0x2000 + 40 + 20] = 0xff; w.bytes[0x2000 + 40 + 21] = 0xff  // page_count 65535
        assertMachOError("malformed Mach-O at offset 0x2028: chained fixups: segment 1 (__DATA) starts size 24 does not hold 65535 page starts inside the fixups data") {
            try read(w)
        }
    }

    func testChainedFixupImportsPastEnd() throws {
        var w = MachOSynthetic.chained()
        w.put32(0x00ff_ffff, at: 0x2000 + 16)  // imports_count
        assertMachOError("malformed Mach-O at offset 0x2008: chained fixups: imports table (16777215 entries at offset 64) extends past the end of the fixups data") {
            try read(w)
        }
    }

    func testBindOpcodeRepeatCountOverLimit() throws {
        var limits = ReaderLimits()
        limits.maxSymbols = 1000
        // SET_SEGMENT_AND_OFFSET_ULEB(1, 0), SET_SYMBOL(_x), DO_BIND_ULEB_TIMES_SKIPPING_ULEB(2^62, 0)
        let opcodes: [UInt8] = [0x71, 0x00, 0x40] + Array("_x".utf8) + [0, 0xc0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40, 0x00, 0x00]
        assertMachOError("Mach-O at offset 0x2006 exceeds limit max-symbols: bind opcodes bind more than 1000 slots") {
            try read(MachOSynthetic.dyldInfo(bind: opcodes), limits: limits)
        }
    }

    func testBindOpcodeUnknownOpcode() throws {
        assertMachOError("malformed Mach-O at offset 0x2000: bind opcodes unknown opcode 0xe0") {
            try read(MachOSynthetic.dyldInfo(bind: [0xe0]))
        }
    }

    func testBindOpcodeSegmentOutOfRange() throws {
        assertMachOError("malformed Mach-O at offset 0x2000: bind opcodes segment index 9 out of range (2 segments)") {
            try read(MachOSynthetic.dyldInfo(bind: [0x79, 0x00, 0x90]))
        }
    }

    func testBindOpcodeOverlongULEB() throws {
        assertMachOError("malformed Mach-O at offset 0x2001: uleb128 too big for uint64") {
            try read(MachOSynthetic.dyldInfo(bind: [0x80] + [UInt8](repeating: 0xff, count: 10) + [0x01]))
        }
    }

    // MARK: Code signature

    /// A malformed signature does not stop the rest of the binary from being read: the slice
    /// keeps the error (a finding, ITMS-90035) and has no signature.
    func assertSignatureError(_ expected: String, _ w: MachOBytes, file: StaticString = #filePath, line: UInt = #line) throws {
        let slice = try XCTUnwrap(MachOReader.read(w.data).slices.first, file: file, line: line)
        XCTAssertNil(slice.codeSignature, file: file, line: line)
        XCTAssertEqual(slice.codeSignatureError?.description, expected, file: file, line: line)
    }

    func testCodeSignatureBadMagic() throws {
        var w = MachOSynthetic.signed(entitlements: "<plist/>")
        w.put32(0x1234_5678, at: 0x100)
        try assertSignatureError("malformed Mach-O at offset 0x100: code signature: SuperBlob magic 0x78563412 is not 0xfade0cc0", w)
    }

    func testCodeSignatureBlobPastEnd() throws {
        var w = MachOSynthetic.signed(entitlements: "<plist/>")
        let blobCountOffset = 0x100 + 8
        XCTAssertEqual(w.bytes[blobCountOffset + 3], 4)
        // The second index entry's blob (entitlements) gets a huge length.
        let second = 0x100 + Int(UInt32(w.bytes[0x100 + 24]) << 24 | UInt32(w.bytes[0x100 + 25]) << 16 | UInt32(w.bytes[0x100 + 26]) << 8 | UInt32(w.bytes[0x100 + 27]))
        w.bytes.replaceSubrange((second + 4)..<(second + 8), with: [0x7f, 0xff, 0xff, 0xff])
        try assertSignatureError("malformed Mach-O at offset 0x\(String(second + 4, radix: 16)): code signature: blob 1 (magic 0xfade7171) length 2147483647 extends past the end of the SuperBlob", w)
    }

    func testExtremeValuesDoNotOverflow() throws {
        // A segment with vmsize UInt64.max next to chained fixups, and limits at Int.max.
        var w = MachOSynthetic.chained()
        w.put64(UInt64.max, at: 32 + 152 + 32)
        var limits = ReaderLimits()
        limits.maxStringLength = Int.max
        limits.maxSymbols = Int.max
        let s = try XCTUnwrap(try MachOReader.read(w.data, limits: limits).slices.first)
        XCTAssertEqual(s.segments[1].vmSize, UInt64.max)
        XCTAssertEqual(s.objcSelectorRefs, ["hello:"])
        let app = try XCTUnwrap(try MachOReader.read(try MachOFixtures.data("App"), limits: limits).slices.first)
        XCTAssertEqual(app.cStrings(maxCount: Int.max).last, "preflight fixture %lu %d\n")
    }

    func testLongLoadCommandStringOverLimit() {
        var limits = ReaderLimits()
        limits.maxStringLength = 8
        assertMachOError("Mach-O at offset 0x38 exceeds limit max-string-length: load command 0 LC_LOAD_DYLIB library name is longer than 8 bytes") {
            try read(.thin64(commands: [MachOBytes.dylib("/usr/lib/libz.1.dylib")]), limits: limits)
        }
    }

    // MARK: Mutation robustness

    /// Seeded byte mutations of the real fixtures: every outcome is a value or a FormatError.
    func testRandomMutationsNeverCrash() throws {
        var rng = SplitMix64(seed: UInt64(ProcessInfo.processInfo.environment["PREFLIGHT_FUZZ_SEED"] ?? "") ?? 0x5eed)
        let iterations = Int(ProcessInfo.processInfo.environment["PREFLIGHT_FUZZ_ITERATIONS"] ?? "") ?? 300
        var inputs: [[UInt8]] = []
        for name in ["App", "AppChained", "Fat", "MyKit.framework/MyKit", "app.o"] {
            inputs.append([UInt8](try MachOFixtures.data(name)))
        }
        // Compact synthetic images: almost every byte is structure.
        inputs += [MachOSynthetic.chained().bytes, MachOSynthetic.chained32().bytes, MachOSynthetic.armv7().bytes,
                   MachOSynthetic.signed(entitlements: "<plist/>").bytes,
                   MachOSynthetic.dyldInfo(bind: [0x11, 0x71, 0x10, 0x40, 0x5f, 0x62, 0, 0x90, 0xc0, 3, 8, 0]).bytes,
                   MachOSynthetic.fat64([(12, 9, MachOSynthetic.armv7().bytes), (0x0100_000c, 0, MachOSynthetic.chained().bytes)]).bytes]
        for original in inputs {
            for _ in 0..<iterations {
                var bytes = original
                let flips = Int(rng.next() % 8) + 1
                for _ in 0..<flips {
                    // Bias towards the header and load commands (start) and __LINKEDIT (end:
                    // fixups, symbols, signature) where the structure is.
                    let region = rng.next() % 3
                    let window = UInt64(min(8192, bytes.count))
                    let at: Int
                    switch region {
                    case 0: at = Int(rng.next() % window)
                    case 1: at = bytes.count - 1 - Int(rng.next() % window)
                    default: at = Int(rng.next() % UInt64(bytes.count))
                    }
                    bytes[at] = UInt8(truncatingIfNeeded: rng.next())
                }
                do {
                    let file = try MachOReader.read(Data(bytes))
                    for s in file.slices { _ = s.cStrings(maxCount: 50) }
                } catch is FormatError {
                    // expected for many mutations
                }
            }
        }
    }
}

struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
