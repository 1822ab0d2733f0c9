import Foundation

/// Parses one thin Mach-O image: header, load commands, then the tables they point to.
struct SliceParser {
    let r: ByteReader
    let be: Bool
    let is64: Bool
    let limits: ReaderLimits
    var slice: MachOSlice

    // Tables found by load commands, read after the load-command pass.
    var symtab: (symoff: Int, nsyms: Int, stroff: Int, strsize: Int, index: Int)?
    var bindStreams: [(range: Range<Int>, lazy: Bool)] = []
    var chainedFixups: Range<Int>?
    var codeSignature: Range<Int>?

    var format: String { MachOReader.format }
    var pointerSize: Int { is64 ? 8 : 4 }

    static func parse(_ r: ByteReader, fileOffset: Int, limits: ReaderLimits, parts: MachOReader.Parts) throws -> MachOSlice {
        let magic = try r.u32(0, bigEndian: true, "magic")
        let be = magic == 0xfeed_face || magic == 0xfeed_facf
        let is64 = magic == 0xfeed_facf || magic == 0xcffa_edfe
        let headerSize = is64 ? 32 : 28
        try r.check(0, headerSize, "mach header")
        let cpuType = Int32(bitPattern: try r.u32(4, bigEndian: be))
        let cpuSubtype = Int32(bitPattern: try r.u32(8, bigEndian: be))
        let fileType = try r.u32(12, bigEndian: be)
        let ncmds = try r.u32(16, bigEndian: be)
        let flags = try r.u32(24, bigEndian: be)
        guard ncmds <= limits.maxLoadCommands else {
            throw FormatError.limit(MachOReader.format, "max-load-commands",
                                    "ncmds \(ncmds) is more than \(limits.maxLoadCommands)", offset: 16)
        }
        let slice = MachOSlice(arch: MachONames.arch(cpuType: cpuType, cpuSubtype: cpuSubtype),
                               cpuType: cpuType, cpuSubtype: cpuSubtype, is64Bit: is64, isBigEndian: be,
                               fileType: fileType, flags: flags, loadCommandCount: Int(ncmds),
                               fileOffset: fileOffset, bytes: r, maxStringLength: limits.maxStringLength)
        var p = SliceParser(r: r, be: be, is64: is64, limits: limits, slice: slice)
        try p.readLoadCommands(headerSize: headerSize, ncmds: Int(ncmds))
        if parts.contains(.symbols) || parts.contains(.objc) { try p.readSymbolTable() }
        if parts.contains(.fixups) || parts.contains(.objc) {
            let fixups = try p.readFixups()
            if parts.contains(.objc) { try p.readObjC(fixups) }
        }
        if parts.contains(.codeSignature) { try p.readCodeSignature() }
        return p.slice
    }

    // MARK: Helpers

    func u32(_ offset: Int) throws -> UInt32 { try r.u32(offset, bigEndian: be) }
    func u64(_ offset: Int) throws -> UInt64 { try r.u64(offset, bigEndian: be) }
    func word(_ offset: Int) throws -> UInt64 { is64 ? try u64(offset) : UInt64(try u32(offset)) }

    func malformed(_ reason: String, _ offset: Int) -> FormatError {
        FormatError.malformed(format, reason, offset: offset)
    }

    /// `offset ..< offset + size` when it lies inside the slice, else `error`.
    func fileRange(_ offset: UInt64, _ size: UInt64, _ error: @autoclosure () -> FormatError) throws -> Range<Int> {
        guard let o = Int(exactly: offset), let s = Int(exactly: size) else { throw error() }
        let (end, overflow) = o.addingReportingOverflow(s)
        guard !overflow, end <= r.count else { throw error() }
        return o..<end
    }

    /// A fixed 16-byte name field (segment and section names), not necessarily NUL-terminated.
    func fixedName(_ offset: Int) throws -> String {
        let raw = try r.slice(offset, 16, "name")
        let end = raw.firstIndex(of: 0) ?? raw.endIndex
        return String(decoding: raw[raw.startIndex..<end], as: UTF8.self)
    }

    /// A `lc_str` of load command `index`: its offset field is at `fieldOffset`; the string must
    /// start after the fixed part (`minOffset`) and be NUL-terminated inside the command.
    func lcString(_ cmdStart: Int, _ cmdSize: Int, fieldOffset: Int, minOffset: Int,
                  index: Int, cmdName: String, what: String) throws -> String {
        let strOffset = try u32(cmdStart + fieldOffset)
        guard strOffset >= minOffset, Int(strOffset) < cmdSize else {
            throw malformed("load command \(index) \(cmdName) \(what) offset \(strOffset) is outside the command", cmdStart)
        }
        let start = cmdStart + Int(strOffset), end = cmdStart + cmdSize
        var i = start
        while i < end, r.bytes[i] != 0 {
            i += 1
        }
        guard i < end else {
            throw malformed("load command \(index) \(cmdName) \(what) extends past the end of the load command", cmdStart)
        }
        guard i - start <= limits.maxStringLength else {
            throw FormatError.limit(format, "max-string-length",
                                    "load command \(index) \(cmdName) \(what) is longer than \(limits.maxStringLength) bytes",
                                    offset: start)
        }
        return String(decoding: r.bytes[start..<i], as: UTF8.self)
    }

    // MARK: Load commands

    mutating func readLoadCommands(headerSize: Int, ncmds: Int) throws {
        let sizeofcmds = Int(try u32(20))
        let (cmdsEnd, overflow) = headerSize.addingReportingOverflow(sizeofcmds)
        guard !overflow, cmdsEnd <= r.count else {
            throw FormatError.truncated(format, "load commands (sizeofcmds \(sizeofcmds)) extend past the end of the file (\(r.count) bytes)", offset: headerSize)
        }
        guard ncmds <= sizeofcmds / 8 else {
            throw malformed("ncmds \(ncmds) load commands cannot fit in sizeofcmds \(sizeofcmds)", 16)
        }
        let alignment = is64 ? 8 : 4
        var off = headerSize
        var sawPlatform = false
        for i in 0..<ncmds {
            guard off + 8 <= cmdsEnd else {
                throw malformed("load command \(i) extends past the end of all load commands in the file", off)
            }
            let cmd = try u32(off)
            let cmdSize = Int(try u32(off + 4))
            guard cmdSize >= 8 else {
                throw malformed("load command \(i) with size less than 8 bytes", off)
            }
            guard cmdSize % alignment == 0 else {
                throw malformed("load command \(i) cmdsize not a multiple of \(alignment)", off)
            }
            guard cmdSize <= cmdsEnd - off else {
                throw malformed("load command \(i) extends past the end of all load commands in the file", off)
            }
            let name = MachONames.loadCommand(cmd)
            func need(_ size: Int) throws {
                guard cmdSize >= size else {
                    throw malformed("load command \(i) \(name) cmdsize \(cmdSize) too small (needs \(size))", off)
                }
            }
            switch cmd {
            case 0x1, 0x19:  // LC_SEGMENT, LC_SEGMENT_64
                guard (cmd == 0x19) == is64 else {
                    throw malformed("load command \(i) \(name) in a \(is64 ? 64 : 32)-bit file", off)
                }
                try need(is64 ? 72 : 56)
                slice.segments.append(try readSegment(off, cmdSize, index: i, name: name))
            case 0x2:  // LC_SYMTAB
                try need(24)
                guard symtab == nil else { throw malformed("load command \(i) more than one LC_SYMTAB command", off) }
                try readSymtabCommand(off, index: i)
            case 0xc, 0xd, 0x20, 0x8000_0018, 0x8000_001f, 0x8000_0023:
                try need(24)
                let path = try lcString(off, cmdSize, fieldOffset: 8, minOffset: 24, index: i, cmdName: name, what: "library name")
                let current = MachONames.dylibVersion(try u32(off + 16))
                let compat = MachONames.dylibVersion(try u32(off + 20))
                let kind: LinkedLibrary.Kind
                switch cmd {
                case 0xd:
                    slice.installName = path
                    off += cmdSize
                    continue
                case 0x8000_0018: kind = .weak
                case 0x8000_001f: kind = .reexport
                case 0x20: kind = .lazy
                case 0x8000_0023: kind = .upward
                default: kind = .load
                }
                slice.linkedLibraries.append(LinkedLibrary(path: path, kind: kind, currentVersion: current, compatibilityVersion: compat))
            case 0x8000_001c:  // LC_RPATH
                try need(12)
                slice.rpaths.append(try lcString(off, cmdSize, fieldOffset: 8, minOffset: 12, index: i, cmdName: name, what: "path"))
            case 0x1b:  // LC_UUID
                try need(24)
                guard slice.uuid == nil else { throw malformed("load command \(i) more than one LC_UUID command", off) }
                slice.uuid = formatUUID(Array(try r.slice(off + 8, 16)))
            case 0x21, 0x2c:  // LC_ENCRYPTION_INFO(_64)
                try need(cmd == 0x2c ? 24 : 20)
                let cryptOff = try u32(off + 8), cryptSize = try u32(off + 12), cryptID = try u32(off + 16)
                _ = try fileRange(UInt64(cryptOff), UInt64(cryptSize),
                                  malformed("load command \(i) \(name) cryptoff field plus cryptsize field extends past the end of the file", off))
                slice.encryption = EncryptionInfo(cryptID: cryptID, offset: cryptOff, size: cryptSize)
            case 0x32:  // LC_BUILD_VERSION
                try need(24)
                let ntools = Int(try u32(off + 20))
                guard ntools <= (cmdSize - 24) / 8 else {
                    throw malformed("load command \(i) LC_BUILD_VERSION ntools \(ntools) does not fit in cmdsize \(cmdSize)", off)
                }
                if !sawPlatform {
                    sawPlatform = true
                    slice.platform = MachONames.platform(try u32(off + 8))
                    slice.minOS = MachONames.version(try u32(off + 12))
                    let sdk = try u32(off + 16)
                    slice.sdk = sdk == 0 ? nil : MachONames.version(sdk)
                }
            case 0x24, 0x25, 0x2f, 0x30:  // LC_VERSION_MIN_*
                try need(16)
                if !sawPlatform {
                    sawPlatform = true
                    slice.platform = versionMinPlatform(cmd)
                    slice.minOS = MachONames.version(try u32(off + 8))
                    let sdk = try u32(off + 12)
                    slice.sdk = sdk == 0 ? nil : MachONames.version(sdk)
                }
            case 0x22, 0x8000_0022:  // LC_DYLD_INFO(_ONLY)
                try need(48)
                guard !slice.hasDyldInfo else {
                    throw malformed("load command \(i) more than one LC_DYLD_INFO and or LC_DYLD_INFO_ONLY command", off)
                }
                slice.hasDyldInfo = true
                let streams: [(Int, String, Bool)] = [(16, "bind", false), (24, "weak_bind", false), (32, "lazy_bind", true)]
                for (field, what, lazy) in streams {
                    let o = try u32(off + field), s = try u32(off + field + 4)
                    let range = try fileRange(UInt64(o), UInt64(s),
                                              malformed("load command \(i) \(name) \(what)_off field plus \(what)_size field extends past the end of the file", off))
                    if !range.isEmpty { bindStreams.append((range, lazy)) }
                }
                for (field, what) in [(8, "rebase"), (40, "export")] {
                    _ = try fileRange(UInt64(try u32(off + field)), UInt64(try u32(off + field + 4)),
                                      malformed("load command \(i) \(name) \(what)_off field plus \(what)_size field extends past the end of the file", off))
                }
            case 0x8000_0034, 0x1d, 0x8000_0033:  // LC_DYLD_CHAINED_FIXUPS, LC_CODE_SIGNATURE, LC_DYLD_EXPORTS_TRIE
                try need(16)
                let range = try fileRange(UInt64(try u32(off + 8)), UInt64(try u32(off + 12)),
                                          malformed("load command \(i) \(name) dataoff field plus datasize field extends past the end of the file", off))
                if cmd == 0x8000_0034 {
                    guard chainedFixups == nil else { throw malformed("load command \(i) more than one LC_DYLD_CHAINED_FIXUPS command", off) }
                    slice.hasChainedFixups = true
                    chainedFixups = range
                } else if cmd == 0x1d {
                    guard codeSignature == nil else { throw malformed("load command \(i) more than one LC_CODE_SIGNATURE command", off) }
                    codeSignature = range
                }
            case 0x8000_0028:  // LC_MAIN
                try need(24)
                slice.entryOffset = try u64(off + 8)
            default:
                break
            }
            off += cmdSize
        }
    }

    private func versionMinPlatform(_ cmd: UInt32) -> String {
        switch cmd {
        case 0x24: return "macOS"
        case 0x25: return "iOS"
        case 0x2f: return "tvOS"
        default: return "watchOS"
        }
    }

    private func formatUUID(_ b: [UInt8]) -> String {
        let hex = b.map { String(format: "%02X", $0) }.joined()
        let c = Array(hex)
        return [String(c[0..<8]), String(c[8..<12]), String(c[12..<16]), String(c[16..<20]), String(c[20..<32])]
            .joined(separator: "-")
    }

    private func readSegment(_ off: Int, _ cmdSize: Int, index: Int, name cmdName: String) throws -> Segment {
        let segName = try fixedName(off + 8)
        let vmaddr = try word(off + 24)
        let vmsize = try word(off + (is64 ? 32 : 28))
        let fileoff = try word(off + (is64 ? 40 : 32))
        let filesize = try word(off + (is64 ? 48 : 36))
        let maxprot = Int32(bitPattern: try u32(off + (is64 ? 56 : 40)))
        let initprot = Int32(bitPattern: try u32(off + (is64 ? 60 : 44)))
        let nsects = Int(try u32(off + (is64 ? 64 : 48)))
        let base = is64 ? 72 : 56, sectSize = is64 ? 80 : 68
        guard nsects <= (cmdSize - base) / sectSize else {
            throw malformed("load command \(index) inconsistent cmdsize in \(cmdName) for the number of sections", off)
        }
        _ = try fileRange(fileoff, filesize,
                          malformed("load command \(index) fileoff field plus filesize field in \(cmdName) extends past the end of the file", off))
        var sections: [Section] = []
        sections.reserveCapacity(nsects)
        for j in 0..<nsects {
            let s = off + base + j * sectSize
            let sectName = try fixedName(s)
            let sectSeg = try fixedName(s + 16)
            let addr = try word(s + 32)
            let size = try word(s + (is64 ? 40 : 36))
            let offset = try u32(s + (is64 ? 48 : 40))
            let reloff = try u32(s + (is64 ? 56 : 48))
            let nreloc = try u32(s + (is64 ? 60 : 52))
            let flags = try u32(s + (is64 ? 64 : 56))
            let section = Section(segment: sectSeg, name: sectName, address: addr, size: size, offset: offset, flags: flags,
                                  relocationOffset: reloff, relocationCount: nreloc)
            // As in LLVM, dSYM companions and dylib stubs keep section headers without the bytes.
            if !section.isZeroFill, size > 0, slice.fileType != 0x9, slice.fileType != 0xa {
                _ = try fileRange(UInt64(offset), size,
                                  malformed("load command \(index) section \(j) (\(sectSeg),\(sectName)) offset field plus size field extends past the end of the file", off))
            }
            if nreloc > 0 {
                _ = try fileRange(UInt64(reloff), UInt64(nreloc) * 8,
                                  malformed("load command \(index) section \(j) (\(sectSeg),\(sectName)) relocation entries extend past the end of the file", off))
            }
            sections.append(section)
        }
        return Segment(name: segName, vmAddress: vmaddr, vmSize: vmsize, fileOffset: fileoff, fileSize: filesize,
                       maxProtection: maxprot, initialProtection: initprot, sections: sections)
    }

    private mutating func readSymtabCommand(_ off: Int, index: Int) throws {
        let symoff = try u32(off + 8), nsyms = try u32(off + 12)
        let stroff = try u32(off + 16), strsize = try u32(off + 20)
        guard nsyms <= limits.maxSymbols else {
            throw FormatError.limit(format, "max-symbols", "LC_SYMTAB nsyms \(nsyms) is more than \(limits.maxSymbols)", offset: off)
        }
        let entry = is64 ? 16 : 12
        let structName = is64 ? "struct nlist_64" : "struct nlist"
        _ = try fileRange(UInt64(symoff), UInt64(nsyms) * UInt64(entry),
                          malformed("load command \(index) LC_SYMTAB symoff field plus nsyms field times sizeof(\(structName)) extends past the end of the file", off))
        _ = try fileRange(UInt64(stroff), UInt64(strsize),
                          malformed("load command \(index) LC_SYMTAB stroff field plus strsize field extends past the end of the file", off))
        symtab = (Int(symoff), Int(nsyms), Int(stroff), Int(strsize), index)
    }

    // MARK: Addresses

    /// The slice file offset of a virtual address, and how many bytes of its segment follow it
    /// in the file.
    func fileOffset(ofAddress addr: UInt64) -> (offset: Int, available: Int)? {
        for seg in slice.segments where seg.fileSize > 0 {
            guard addr >= seg.vmAddress else { continue }
            let delta = addr - seg.vmAddress
            guard delta < seg.fileSize, delta < seg.vmSize else { continue }
            guard let o = Int(exactly: seg.fileOffset + delta), let left = Int(exactly: seg.fileSize - delta) else { return nil }
            return (o, left)
        }
        return nil
    }

    /// Preferred load address: the vmaddr of the segment mapping file offset 0 (`__TEXT`).
    var imageBase: UInt64 {
        slice.segments.first { $0.fileOffset == 0 && $0.fileSize > 0 }?.vmAddress ?? 0
    }
}
