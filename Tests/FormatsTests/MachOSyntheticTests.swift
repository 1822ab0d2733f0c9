import Foundation
import XCTest
import TestSupport
@testable import Formats

/// Builders for small Mach-O images the linkers here cannot produce (32-bit, entitlements,
/// FAT_MAGIC_64, hand-made chained fixups), written byte by byte.
enum MachOSynthetic {
    static func section64(_ sect: String, _ seg: String, addr: UInt64, size: UInt64, offset: UInt32, flags: UInt32 = 0) -> [UInt8] {
        var c = MachOBytes()
        c.name16(sect); c.name16(seg); c.u64(addr); c.u64(size); c.u32(offset)
        c.u32(3); c.u32(0); c.u32(0); c.u32(flags); c.u32(0); c.u32(0); c.u32(0)
        return c.bytes
    }

    static func segment64(_ name: String, vmaddr: UInt64, size: UInt64, fileoff: UInt64, prot: UInt32, sections: [[UInt8]]) -> [UInt8] {
        var c = MachOBytes()
        c.u32(0x19); c.u32(UInt32(72 + 80 * sections.count)); c.name16(name)
        c.u64(vmaddr); c.u64(size); c.u64(fileoff); c.u64(size)
        c.u32(prot); c.u32(prot); c.u32(UInt32(sections.count)); c.u32(0)
        for s in sections { c.bytes += s }
        return c.bytes
    }

    /// DYLD_CHAINED_PTR_64_OFFSET bind.
    static func bind64(ordinal: UInt64, next: UInt64) -> UInt64 { 1 << 63 | next << 51 | ordinal }
    /// DYLD_CHAINED_PTR_64_OFFSET rebase to an offset from the image base.
    static func rebase64(target: UInt64, next: UInt64) -> UInt64 { next << 51 | target }

    static let textBase: UInt64 = 0x1_0000_0000

    /// arm64 executable with `__TEXT` (0x0-0x1000, `__objc_methname` at 0xf00) and `__DATA`
    /// (0x1000-0x2000: `__objc_classrefs` slot bound to `_OBJC_CLASS_$_Foo`, `__objc_selrefs`
    /// slot rebased to "hello:"), and chained fixups (pointer format 6) at 0x2000.
    static func chained(encryptedText: Bool = false) -> MachOBytes {
        let text = segment64("__TEXT", vmaddr: textBase, size: 0x1000, fileoff: 0, prot: 5, sections: [
            section64("__objc_methname", "__TEXT", addr: textBase + 0xf00, size: 7, offset: 0xf00, flags: 2),
        ])
        let data = segment64("__DATA", vmaddr: textBase + 0x1000, size: 0x1000, fileoff: 0x1000, prot: 3, sections: [
            section64("__objc_classrefs", "__DATA", addr: textBase + 0x1000, size: 8, offset: 0x1000),
            section64("__objc_selrefs", "__DATA", addr: textBase + 0x1008, size: 8, offset: 0x1008),
        ])
        var commands = [text, data, MachOBytes.linkedit(0x8000_0034, dataoff: 0x2000, datasize: 96),
                        MachOBytes.dylib("/usr/lib/libFoo.dylib")]
        if encryptedText {
            var c = MachOBytes()
            c.u32(0x2c); c.u32(24); c.u32(0x400); c.u32(0xc00); c.u32(1); c.u32(0)  // cryptid 1 over 0x400..<0x1000
            commands.append(c.bytes)
        }
        var w = MachOBytes.thin64(commands: commands)
        w.pad(to: 0xf00)
        w.cString("hello:")
        w.pad(to: 0x1000)
        w.u64(bind64(ordinal: 0, next: 2))
        w.u64(rebase64(target: 0xf00, next: 0))
        w.pad(to: 0x2000)
        // dyld_chained_fixups_header
        w.u32(0); w.u32(28); w.u32(64); w.u32(68); w.u32(1); w.u32(1); w.u32(0)
        // dyld_chained_starts_in_image: 2 segments, only __DATA has fixups
        w.u32(2); w.u32(0); w.u32(12)
        // dyld_chained_starts_in_segment
        w.u32(24); w.u16(0x1000); w.u16(6); w.u64(0x1000); w.u32(0); w.u16(1); w.u16(0)
        // imports: lib ordinal 1, name offset 0
        w.u32(1)
        w.cString("_OBJC_CLASS_$_Foo")
        w.pad(to: 0x2000 + 96)
        return w
    }

    /// Two segments and `LC_DYLD_INFO_ONLY` whose bind opcodes are `bind`, at 0x2000.
    static func dyldInfo(bind: [UInt8]) -> MachOBytes {
        let text = segment64("__TEXT", vmaddr: textBase, size: 0x1000, fileoff: 0, prot: 5, sections: [])
        let data = segment64("__DATA", vmaddr: textBase + 0x1000, size: 0x1000, fileoff: 0x1000, prot: 3, sections: [])
        var info = MachOBytes()
        info.u32(0x8000_0022); info.u32(48)
        info.u32(0); info.u32(0)  // rebase
        info.u32(0x2000); info.u32(UInt32(bind.count))
        info.u32(0); info.u32(0); info.u32(0); info.u32(0); info.u32(0); info.u32(0)
        var w = MachOBytes.thin64(commands: [text, data, info.bytes])
        w.pad(to: 0x2000)
        w.bytes += bind
        return w
    }

    static let teamID = "ABCDE12345"
    static let identifier = "com.example.preflight"

    /// Header, `LC_CODE_SIGNATURE` at 0x100: CodeDirectory (identifier, team), entitlements,
    /// DER entitlements and a CMS blob.
    static func signed(entitlements: String, der: [UInt8] = [0x70, 0x03, 0x02, 0x01, 0x01]) -> MachOBytes {
        var cd = MachOBytes()
        let identOffset = 52, teamOffset = 52 + identifier.utf8.count + 1
        let cdLength = teamOffset + teamID.utf8.count + 1
        cd.be32(0xfade_0c02); cd.be32(UInt32(cdLength)); cd.be32(0x20200); cd.be32(0)  // flags: not ad hoc
        cd.be32(UInt32(cdLength)); cd.be32(UInt32(identOffset)); cd.be32(0); cd.be32(0); cd.be32(0)
        cd.u8(32); cd.u8(2); cd.u8(0); cd.u8(12); cd.be32(0)
        cd.be32(0); cd.be32(UInt32(teamOffset))
        cd.cString(identifier); cd.cString(teamID)
        var ent = MachOBytes()
        ent.be32(0xfade_7171); ent.be32(UInt32(8 + entitlements.utf8.count)); ent.bytes += Array(entitlements.utf8)
        var derBlob = MachOBytes()
        derBlob.be32(0xfade_7172); derBlob.be32(UInt32(8 + der.count)); derBlob.bytes += der
        var cms = MachOBytes()
        cms.be32(0xfade_0b01); cms.be32(12); cms.be32(0x3080_0000)
        let blobs: [(UInt32, [UInt8])] = [(0, cd.bytes), (5, ent.bytes), (7, derBlob.bytes), (0x10000, cms.bytes)]
        var superBlob = MachOBytes()
        var offset = 12 + 8 * blobs.count
        let total = offset + blobs.reduce(0) { $0 + $1.1.count }
        superBlob.be32(0xfade_0cc0); superBlob.be32(UInt32(total)); superBlob.be32(UInt32(blobs.count))
        for (type, bytes) in blobs {
            superBlob.be32(type); superBlob.be32(UInt32(offset))
            offset += bytes.count
        }
        for (_, bytes) in blobs { superBlob.bytes += bytes }
        var w = MachOBytes.thin64(commands: [MachOBytes.linkedit(0x1d, dataoff: 0x100, datasize: UInt32(total))])
        w.pad(to: 0x100)
        w.bytes += superBlob.bytes
        return w
    }

    /// A 32-bit armv7 iOS executable: `LC_SEGMENT`, `LC_VERSION_MIN_IPHONEOS` 9.0, a dylib and
    /// a symbol table with an undefined, a defined, a common and a stab symbol.
    static func armv7() -> MachOBytes {
        var seg = MachOBytes()
        seg.u32(0x1); seg.u32(56); seg.name16("__TEXT")
        seg.u32(0x4000); seg.u32(0x1000); seg.u32(0); seg.u32(0x1000); seg.u32(5); seg.u32(5); seg.u32(0); seg.u32(0)
        var vmin = MachOBytes()
        vmin.u32(0x25); vmin.u32(16); vmin.u32(0x0009_0000); vmin.u32(0)
        var lib = MachOBytes()
        lib.u32(0xc); lib.u32(52); lib.u32(24); lib.u32(2); lib.u32(0x0527_0000); lib.u32(0x0001_0000)
        lib.cString("/usr/lib/libSystem.B.dylib"); lib.pad(to: 52)
        var sym = MachOBytes()
        sym.u32(0x2); sym.u32(24); sym.u32(0x800); sym.u32(4); sym.u32(0x900); sym.u32(40)
        let commands = [seg.bytes, vmin.bytes, lib.bytes, sym.bytes]
        var w = MachOBytes()
        w.u32(0xfeed_face); w.u32(12); w.u32(9); w.u32(2)
        w.u32(UInt32(commands.count)); w.u32(UInt32(commands.reduce(0) { $0 + $1.count })); w.u32(0x0020_0085)
        for c in commands { w.bytes += c }
        w.pad(to: 0x800)
        // nlist: strx, type, sect, desc, value (string table: "\0_printf\0_main\0_zcommon\0x.c\0")
        func nlist(_ strx: UInt32, _ type: UInt8, _ sect: UInt8, _ desc: UInt16, _ value: UInt32) {
            w.u32(strx); w.u8(type); w.u8(sect); w.u16(desc); w.u32(value)
        }
        nlist(1, 0x01, 0, 0x0100, 0)  // _printf: N_UNDF | N_EXT
        nlist(9, 0x0f, 1, 0, 0x4000)  // _main: N_SECT | N_EXT
        nlist(15, 0x01, 0, 0, 4)  // _zcommon: common (undefined with a size)
        nlist(24, 0x64, 0, 0, 0)  // N_SO stab
        w.pad(to: 0x900)
        w.bytes += [0] + Array("_printf".utf8) + [0] + Array("_main".utf8) + [0] + Array("_zcommon".utf8) + [0] + Array("x.c".utf8) + [0]
        w.pad(to: 0x1000)
        return w
    }

    /// A 32-bit armv7 image with DYLD_CHAINED_PTR_32 fixups whose only page uses a
    /// DYLD_CHAINED_PTR_START_MULTI list of two chains, each binding one `__objc_classrefs` slot.
    static func chained32() -> MachOBytes {
        func segment(_ name: String, vmaddr: UInt32, fileoff: UInt32, prot: UInt32, sections: [(String, UInt32, UInt32)]) -> [UInt8] {
            var c = MachOBytes()
            c.u32(0x1); c.u32(UInt32(56 + 68 * sections.count)); c.name16(name)
            c.u32(vmaddr); c.u32(0x1000); c.u32(fileoff); c.u32(0x1000); c.u32(prot); c.u32(prot)
            c.u32(UInt32(sections.count)); c.u32(0)
            for (sect, addr, size) in sections {
                c.name16(sect); c.name16(name); c.u32(addr); c.u32(size); c.u32(fileoff + (addr - vmaddr))
                c.u32(2); c.u32(0); c.u32(0); c.u32(0); c.u32(0); c.u32(0)
            }
            return c.bytes
        }
        let commands = [
            segment("__TEXT", vmaddr: 0x4000, fileoff: 0, prot: 5, sections: []),
            segment("__DATA", vmaddr: 0x5000, fileoff: 0x1000, prot: 3, sections: [("__objc_classrefs", 0x5000, 8)]),
            MachOBytes.linkedit(0x8000_0034, dataoff: 0x2000, datasize: 112),
        ]
        var w = MachOBytes()
        w.u32(0xfeed_face); w.u32(12); w.u32(9); w.u32(2)
        w.u32(UInt32(commands.count)); w.u32(UInt32(commands.reduce(0) { $0 + $1.count })); w.u32(0x0020_0085)
        for c in commands { w.bytes += c }
        w.pad(to: 0x1000)
        w.u32(1 << 31 | 0)  // bind ordinal 0, next 0
        w.u32(1 << 31 | 1)  // bind ordinal 1, next 0
        w.pad(to: 0x2000)
        w.u32(0); w.u32(28); w.u32(68); w.u32(76); w.u32(2); w.u32(1); w.u32(0)
        w.u32(2); w.u32(0); w.u32(12)
        // starts_in_segment: page_start[0] = MULTI | 1; overflow list: 0, LAST | 4
        w.u32(28); w.u16(0x1000); w.u16(3); w.u64(0x1000); w.u32(0x10_0000); w.u16(1)
        w.u16(0x8001); w.u16(0); w.u16(0x8004)
        w.u32(1); w.u32(1 | 18 << 9)
        w.cString("_OBJC_CLASS_$_Foo"); w.cString("_OBJC_CLASS_$_Bar")
        w.pad(to: 0x2000 + 112)
        return w
    }

    /// FAT_MAGIC_64 around the given slices, each at a 0x1000 boundary.
    static func fat64(_ slices: [(cpu: UInt32, sub: UInt32, bytes: [UInt8])]) -> MachOBytes {
        var w = MachOBytes()
        w.be32(0xcafe_babf); w.be32(UInt32(slices.count))
        var offset: UInt64 = 0x1000
        for s in slices {
            w.be32(s.cpu); w.be32(s.sub); w.be64(offset); w.be64(UInt64(s.bytes.count)); w.be32(12); w.be32(0)
            offset += (UInt64(s.bytes.count) + 0xfff) / 0x1000 * 0x1000
        }
        for s in slices {
            w.align(0x1000)
            w.bytes += s.bytes
        }
        return w
    }
}

final class MachOSyntheticTests: XCTestCase {
    private func writeTemp(_ w: MachOBytes) throws -> URL {
        let url = try Scratch.file("macho")
        try w.data.write(to: url)
        return url
    }

    func testIsMachO() {
        XCTAssertTrue(MachOReader.isMachO(Data([0xcf, 0xfa, 0xed, 0xfe])))
        XCTAssertTrue(MachOReader.isMachO(Data([0xce, 0xfa, 0xed, 0xfe])))
        XCTAssertTrue(MachOReader.isMachO(Data([0xfe, 0xed, 0xfa, 0xce])))
        XCTAssertTrue(MachOReader.isMachO(Data([0xfe, 0xed, 0xfa, 0xcf])))
        XCTAssertTrue(MachOReader.isMachO(Data([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 2])))
        XCTAssertTrue(MachOReader.isMachO(Data([0xca, 0xfe, 0xba, 0xbf, 0, 0, 0, 2])))
        // A Java class file (major version 52) shares 0xcafebabe.
        XCTAssertFalse(MachOReader.isMachO(Data([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52])))
        XCTAssertFalse(MachOReader.isMachO(Data([0xca, 0xfe, 0xba, 0xbe])))
        XCTAssertFalse(MachOReader.isMachO(Data([0x7f, 0x45, 0x4c, 0x46])))
        XCTAssertFalse(MachOReader.isMachO(Data([0xcf, 0xfa])))
        XCTAssertFalse(MachOReader.isMachO(Data()))
    }

    func testArmv7ThirtyTwoBit() throws {
        let w = MachOSynthetic.armv7()
        let file = try MachOReader.read(w.data)
        let s = try XCTUnwrap(file.slices.first)
        XCTAssertEqual(s.arch, "armv7")
        XCTAssertFalse(s.is64Bit)
        XCTAssertEqual(s.platform, "iOS")
        XCTAssertEqual(s.minOS, "9.0")
        XCTAssertNil(s.sdk)
        XCTAssertEqual(s.linkedLibraries, [LinkedLibrary(path: "/usr/lib/libSystem.B.dylib", kind: .load,
                                                         currentVersion: "1319.0.0", compatibilityVersion: "1.0.0")])
        XCTAssertEqual(s.segments.map(\.name), ["__TEXT"])
        XCTAssertEqual(s.segments.first?.vmAddress, 0x4000)
        XCTAssertEqual(s.symbols.map(\.name), ["_printf", "_main", "_zcommon", "x.c"])
        XCTAssertEqual(s.symbols.map(\.isStab), [false, false, false, true])
        XCTAssertEqual(s.symbols[0].libraryOrdinal, 1)
        XCTAssertEqual(s.importedSymbols, ["_printf"])
        XCTAssertEqual(s.objcClassRefs, [])
        let url = try writeTemp(w)
        defer { try? FileManager.default.removeItem(at: url) }
        MachOOracle.assertAgrees(s, at: url, context: "synthetic armv7")
    }

    func testFatMagic64() throws {
        let armv7 = MachOSynthetic.armv7().bytes
        let arm64 = MachOSynthetic.chained().bytes
        let w = MachOSynthetic.fat64([(12, 9, armv7), (0x0100_000c, 0, arm64)])
        XCTAssertTrue(MachOReader.isMachO(w.data))
        let file = try MachOReader.read(w.data)
        XCTAssertTrue(file.isFat)
        XCTAssertEqual(file.slices.map(\.arch), ["armv7", "arm64"])
        XCTAssertEqual(file.slices.map(\.fileOffset), [0x1000, 0x2000])
        XCTAssertEqual(file.slice(arch: "arm64")?.objcClassRefs, ["Foo"])
        let url = try writeTemp(w)
        defer { try? FileManager.default.removeItem(at: url) }
        for s in file.slices { MachOOracle.assertAgrees(s, at: url, context: "synthetic fat64") }
    }

    func testHandMadeChainedFixups() throws {
        let s = try XCTUnwrap(try MachOReader.read(MachOSynthetic.chained().data).slices.first)
        XCTAssertTrue(s.hasChainedFixups)
        XCTAssertEqual(s.boundSymbols, ["_OBJC_CLASS_$_Foo"])
        XCTAssertEqual(s.objcClassRefs, ["Foo"])
        XCTAssertEqual(s.objcSelectorRefs, ["hello:"])
        XCTAssertEqual(s.linkedLibraryNames, ["libFoo.dylib"])
        XCTAssertEqual(s.importedSymbols, [])  // no symbol table: a stripped binary
    }

    func testEncryptedTextHidesSelectorsButNotClassRefs() throws {
        let s = try XCTUnwrap(try MachOReader.read(MachOSynthetic.chained(encryptedText: true).data).slices.first)
        XCTAssertEqual(s.encryption, EncryptionInfo(cryptID: 1, offset: 0x400, size: 0xc00))
        XCTAssertTrue(s.isEncrypted)
        XCTAssertEqual(s.objcClassRefs, ["Foo"])  // bound in __DATA: readable
        XCTAssertEqual(s.objcSelectorRefs, [])  // "hello:" sits in encrypted __TEXT
    }

    func testClassRefsFallBackToSymbolsOnlyWhenBindsCannotBeDecoded() throws {
        // __objc_classrefs present, no LC_DYLD_INFO and no chained fixups: use the undefined
        // _OBJC_CLASS_$_ symbols. With no ref section at all, nothing is referenced.
        func image(withRefs: Bool) -> MachOBytes {
            let data = MachOSynthetic.segment64("__DATA", vmaddr: 0x1000, size: 0x1000, fileoff: 0x1000, prot: 3,
                                                sections: withRefs ? [MachOSynthetic.section64("__objc_classrefs", "__DATA", addr: 0x1000, size: 8, offset: 0x1000)] : [])
            var symtab = MachOBytes()
            symtab.u32(0x2); symtab.u32(24); symtab.u32(0x2000); symtab.u32(1); symtab.u32(0x2010); symtab.u32(24)
            var w = MachOBytes.thin64(commands: [data, symtab.bytes])
            w.pad(to: 0x2000)
            w.u32(1); w.u8(0x01); w.u8(0); w.u16(0x0100); w.u64(0)
            w.bytes += [0] + Array("_OBJC_CLASS_$_UIView".utf8) + [0]
            w.pad(to: 0x2010 + 24)
            return w
        }
        let with = try XCTUnwrap(try MachOReader.read(image(withRefs: true).data).slices.first)
        XCTAssertEqual(with.importedSymbols, ["_OBJC_CLASS_$_UIView"])
        XCTAssertEqual(with.objcClassRefs, ["UIView"])
        let without = try XCTUnwrap(try MachOReader.read(image(withRefs: false).data).slices.first)
        XCTAssertEqual(without.objcClassRefs, [])
        XCTAssertEqual(without.importedObjCClasses, ["UIView"])
    }

    func testChainedFixups32BitWithMultipleStarts() throws {
        let s = try XCTUnwrap(try MachOReader.read(MachOSynthetic.chained32().data).slices.first)
        XCTAssertEqual(s.arch, "armv7")
        XCTAssertEqual(s.boundSymbols, ["_OBJC_CLASS_$_Bar", "_OBJC_CLASS_$_Foo"])
        XCTAssertEqual(s.objcClassRefs, ["Bar", "Foo"])
    }

    /// Bit layouts of the chained pointer formats found in iOS apps (dyld's fixup-chains.h).
    func testChainedPointerDecoding() {
        typealias P = SliceParser
        // DYLD_CHAINED_PTR_ARM64E: bind (bit 62), ordinal 16 bits, next 11 bits at 51.
        var d = P.decodeChained(1 << 62 | 3 << 51 | 0x1_0005, format: 1)
        XCTAssertEqual(d.next, 3); XCTAssertEqual(d.bindOrdinal, 5)
        // ARM64E_USERLAND24 keeps 24 ordinal bits.
        d = P.decodeChained(1 << 62 | 0x12_3456, format: 12)
        XCTAssertEqual(d.bindOrdinal, 0x12_3456)
        // Authenticated rebase: 32-bit offset from the image base.
        d = P.decodeChained(1 << 63 | 7 << 51 | 0xdead_beef, format: 1)
        XCTAssertEqual(d.next, 7); XCTAssertNil(d.bindOrdinal)
        XCTAssertEqual(d.target, 0xdead_beef); XCTAssertTrue(d.targetIsOffset)
        // Plain ARM64E rebase: 43-bit vmaddr plus high8; USERLAND makes it an offset.
        d = P.decodeChained(0xab << 43 | 0x1_0000_4000, format: 1)
        XCTAssertEqual(d.target, 0xab00_0001_0000_4000); XCTAssertFalse(d.targetIsOffset)
        XCTAssertTrue(P.decodeChained(0x4000, format: 9).targetIsOffset)
        // DYLD_CHAINED_PTR_64: bind bit 63, 24-bit ordinal, 12-bit next.
        d = P.decodeChained(1 << 63 | 0xfff << 51 | 0xff_ffff, format: 2)
        XCTAssertEqual(d.next, 0xfff); XCTAssertEqual(d.bindOrdinal, 0xff_ffff)
        d = P.decodeChained(0x1_0000_4000, format: 2)
        XCTAssertEqual(d.target, 0x1_0000_4000); XCTAssertFalse(d.targetIsOffset)
        // DYLD_CHAINED_PTR_32: bind bit 31, 20-bit ordinal, 5-bit next at 26.
        d = P.decodeChained(1 << 31 | 31 << 26 | 0xf_ffff, format: 3)
        XCTAssertEqual(d.next, 31); XCTAssertEqual(d.bindOrdinal, 0xf_ffff)
    }

    func testBindOpcodes() throws {
        // SET_DYLIB_ORDINAL_IMM(1), SET_SEGMENT_AND_OFFSET_ULEB(1, 0x10), SET_SYMBOL(_b), DO_BIND,
        // SET_SYMBOL(_a), DO_BIND_ULEB_TIMES_SKIPPING_ULEB(3, 8), DONE
        let ops: [UInt8] = [0x11, 0x71, 0x10, 0x40] + Array("_b".utf8) + [0, 0x90, 0x40] + Array("_a".utf8) + [0, 0xc0, 3, 8, 0x00]
        let s = try XCTUnwrap(try MachOReader.read(MachOSynthetic.dyldInfo(bind: ops).data).slices.first)
        XCTAssertTrue(s.hasDyldInfo)
        XCTAssertEqual(s.boundSymbols, ["_a", "_b"])
    }

    func testEntitlementsAndTeamFromCodeSignature() throws {
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict><key>application-identifier</key><string>ABCDE12345.com.example.preflight</string>
        <key>get-task-allow</key><true/><key>aps-environment</key><string>development</string></dict></plist>
        """
        let s = try XCTUnwrap(try MachOReader.read(MachOSynthetic.signed(entitlements: xml).data).slices.first)
        let sig = try XCTUnwrap(s.codeSignature)
        XCTAssertEqual(sig.identifier, "com.example.preflight")
        XCTAssertEqual(sig.teamID, "ABCDE12345")
        XCTAssertFalse(sig.isAdHoc)
        XCTAssertTrue(sig.hasCMSSignature)
        XCTAssertEqual(sig.slotTypes, [0, 5, 7, 0x10000])
        XCTAssertEqual(sig.entitlementsDER, Data([0x70, 0x03, 0x02, 0x01, 0x01]))
        let data = try XCTUnwrap(sig.entitlementsXML)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), xml)
        let plist = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        XCTAssertEqual(plist?["get-task-allow"] as? Bool, true)
        XCTAssertEqual(plist?["aps-environment"] as? String, "development")
    }

    func testDSYMSectionsWithoutBytesAreAccepted() throws {
        // A dSYM keeps __TEXT section headers whose bytes are not in the file (LLVM accepts it).
        let text = MachOSynthetic.segment64("__TEXT", vmaddr: 0x1_0000_0000, size: 0x4000, fileoff: 0, prot: 5, sections: [
            MachOSynthetic.section64("__cstring", "__TEXT", addr: 0x1_0000_1000, size: 0x2000, offset: 0x1000, flags: 2),
        ])
        var w = MachOBytes.thin64(fileType: 0xa, commands: [text])
        w.put64(0, at: 32 + 48)  // filesize 0: nothing of __TEXT is in the file
        let s = try XCTUnwrap(try MachOReader.read(w.data).slices.first)
        XCTAssertEqual(s.fileTypeName, "dsym")
        XCTAssertEqual(s.cStrings(maxCount: 10), [])
        // The same headers in an executable are an error.
        w.put32(2, at: 12)
        assertMachOError("malformed Mach-O at offset 0x20: load command 0 section 0 (__TEXT,__cstring) offset field plus size field extends past the end of the file") {
            _ = try MachOReader.read(w.data)
        }
    }

    func testBigEndianHeader() throws {
        var w = MachOBytes()
        w.be32(0xfeed_face); w.be32(18); w.be32(0); w.be32(6); w.be32(0); w.be32(0); w.be32(0)
        let s = try XCTUnwrap(try MachOReader.read(w.data).slices.first)
        XCTAssertEqual(s.arch, "ppc")
        XCTAssertTrue(s.isBigEndian)
        XCTAssertEqual(s.fileTypeName, "dylib")
        XCTAssertEqual(s.loadCommandCount, 0)
    }

    func testNames() {
        XCTAssertEqual(MachONames.arch(cpuType: 0x0100_000c, cpuSubtype: Int32(bitPattern: 0x8000_0002)), "arm64e")
        XCTAssertEqual(MachONames.arch(cpuType: 0x0200_000c, cpuSubtype: 1), "arm64_32")
        XCTAssertEqual(MachONames.arch(cpuType: 12, cpuSubtype: 11), "armv7s")
        XCTAssertEqual(MachONames.arch(cpuType: 7, cpuSubtype: 3), "i386")
        XCTAssertEqual(MachONames.arch(cpuType: 99, cpuSubtype: 1), "cputype(99) cpusubtype(1)")
        XCTAssertEqual(MachONames.platform(6), "Mac Catalyst")
        XCTAssertEqual(MachONames.platform(11), "visionOS")
        XCTAssertEqual(MachONames.version(0x000f_0000), "15.0")
        XCTAssertEqual(MachONames.version(0x000e_0506), "14.5.6")
        XCTAssertEqual(MachONames.dylibVersion(0x0001_0000), "1.0.0")
        XCTAssertEqual(MachONames.fileType(8), "bundle")
    }
}
