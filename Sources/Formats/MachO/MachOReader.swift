import Foundation

/// Reads thin and fat Mach-O files from untrusted bytes. Every offset and size is checked with
/// overflow-safe arithmetic before use, every count is bounded by the data and by
/// `ReaderLimits`, and every problem is a `FormatError` naming the offset (relative to the
/// start of the file) in the tone of LLVM's "truncated or malformed object".
public enum MachOReader {
    static let format = "Mach-O"

    static let thinMagics: Set<UInt32> = [0xfeed_face, 0xfeed_facf, 0xcefa_edfe, 0xcffa_edfe]

    /// True when the data starts with a thin (32/64, either endianness) or fat
    /// (FAT_MAGIC / FAT_MAGIC_64) Mach-O magic. A `0xcafebabe` whose next word is 43 or more
    /// is a Java class file, as LLVM's `identify_magic` decides, not a fat file.
    public static func isMachO(_ data: Data) -> Bool {
        guard data.count >= 4 else { return false }
        let b = data.prefix(8).map { $0 }
        let be = UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3])
        if thinMagics.contains(be) { return true }
        if be == 0xcafe_babf { return true }
        if be == 0xcafe_babe {
            guard b.count >= 8 else { return false }
            let n = UInt32(b[4]) << 24 | UInt32(b[5]) << 16 | UInt32(b[6]) << 8 | UInt32(b[7])
            return n < 43
        }
        return false
    }

    /// What `read` decodes beyond the header and load commands (which it always reads).
    public struct Parts: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// `symbols` and `importedSymbols`.
        public static let symbols = Parts(rawValue: 1)
        /// `boundSymbols` (dyld bind opcodes or chained fixups).
        public static let fixups = Parts(rawValue: 2)
        /// `objcClassRefs` and `objcSelectorRefs` (also reads symbols and fixups).
        public static let objc = Parts(rawValue: 4)
        /// `codeSignature`.
        public static let codeSignature = Parts(rawValue: 8)
        public static let all: Parts = [.symbols, .fixups, .objc, .codeSignature]
        /// Header and load commands only: libraries, platform, rpaths, UUID, segments, encryption.
        public static let loadCommands: Parts = []
    }

    public static func read(_ data: Data, limits: ReaderLimits = .default) throws -> MachOFile {
        try read(data, limits: limits, parts: .all)
    }

    /// Reads only `parts` beyond the load commands: cheaper when a caller needs, say, the
    /// linked libraries of many binaries. Checks of the parts not read are skipped too.
    public static func read(_ data: Data, limits: ReaderLimits = .default, parts: Parts) throws -> MachOFile {
        try read(bytes: [UInt8](data), limits: limits, parts: parts)
    }

    /// The same, over bytes the caller already holds (no copy: large binaries are read once).
    public static func read(bytes: [UInt8], limits: ReaderLimits = .default, parts: Parts = .all) throws -> MachOFile {
        guard bytes.count <= limits.maxFileBytes else {
            throw FormatError.limit(format, "max-file-bytes",
                                    "file of \(bytes.count) bytes is larger than \(limits.maxFileBytes) bytes")
        }
        // A zero-length file where a binary belongs (fastlane's `with_swift_twice.ipa` ships
        // empty Swift dylibs): said as such rather than as a short read.
        guard !bytes.isEmpty else { throw FormatError.truncated(format, "the file is empty (0 bytes), not a binary", offset: 0) }
        let reader = ByteReader(bytes, format: format)
        let magic = try reader.u32(0, bigEndian: true, "magic")
        if magic == 0xcafe_babe || magic == 0xcafe_babf {
            return MachOFile(isFat: true, slices: try readFat(reader, is64: magic == 0xcafe_babf, limits: limits, parts: parts))
        }
        guard thinMagics.contains(magic) else {
            throw FormatError.malformed(format, "not a Mach-O file (magic 0x\(String(magic, radix: 16)))", offset: 0)
        }
        return MachOFile(isFat: false, slices: [try SliceParser.parse(reader, fileOffset: 0, limits: limits, parts: parts)])
    }

    private static func readFat(_ reader: ByteReader, is64: Bool, limits: ReaderLimits, parts: Parts) throws -> [MachOSlice] {
        let count = Int(try reader.u32(4, bigEndian: true, "fat header"))
        guard count <= limits.maxFatSlices else {
            throw FormatError.limit(format, "max-fat-slices",
                                    "nfat_arch \(count) is more than \(limits.maxFatSlices)", offset: 4)
        }
        let entrySize = is64 ? 32 : 20
        let headerEnd = 8 + count * entrySize  // count is small: no overflow
        try reader.check(8, count * entrySize, "fat_arch table of \(count) entries")
        var ranges: [(Range<Int>, String)] = []
        var seenArchs = Set<String>()
        for i in 0..<count {
            let e = 8 + i * entrySize
            let cpuType = Int32(bitPattern: try reader.u32(e, bigEndian: true))
            let cpuSubtype = Int32(bitPattern: try reader.u32(e + 4, bigEndian: true))
            let offset: UInt64, size: UInt64, align: UInt32
            if is64 {
                offset = try reader.u64(e + 8, bigEndian: true)
                size = try reader.u64(e + 16, bigEndian: true)
                align = try reader.u32(e + 24, bigEndian: true)
            } else {
                offset = UInt64(try reader.u32(e + 8, bigEndian: true))
                size = UInt64(try reader.u32(e + 12, bigEndian: true))
                align = try reader.u32(e + 16, bigEndian: true)
            }
            let arch = MachONames.arch(cpuType: cpuType, cpuSubtype: cpuSubtype)
            let what = "fat slice \(i) (\(arch))"
            guard align <= 15 else {
                throw FormatError.malformed(format, "\(what) align (2^\(align)) too large", offset: e)
            }
            guard let start = Int(exactly: offset), let length = Int(exactly: size),
                  case (let end, let overflow) = start.addingReportingOverflow(length), !overflow,
                  end <= reader.count else {
                throw FormatError.malformed(format, "\(what) offset \(offset) plus size \(size) extends past the end of the file (\(reader.count) bytes)", offset: e)
            }
            guard start >= headerEnd else {
                throw FormatError.malformed(format, "\(what) at offset \(start) overlaps the fat header", offset: e)
            }
            if offset % (UInt64(1) << align) != 0 {
                throw FormatError.malformed(format, "\(what) offset \(offset) is not aligned to 2^\(align)", offset: e)
            }
            for (r, other) in ranges where r.overlaps(start..<end) {
                throw FormatError.malformed(format, "\(what) overlaps \(other)", offset: e)
            }
            guard seenArchs.insert(arch).inserted else {
                throw FormatError.malformed(format, "\(what) duplicates the architecture of an earlier slice", offset: e)
            }
            ranges.append((start..<end, what))
        }
        // Every entry is valid and no two overlap: now parse the slices.
        var slices: [MachOSlice] = []
        for (range, what) in ranges {
            let start = range.lowerBound
            let sliceReader = ByteReader(Array(reader.bytes[range]), format: format)
            let magic = range.count >= 4 ? try reader.u32(start, bigEndian: true) : 0
            guard thinMagics.contains(magic) else {
                throw FormatError(.unsupported, format: format,
                                  reason: "\(what) is not a thin Mach-O image (magic 0x\(String(magic, radix: 16)))",
                                  offset: start)
            }
            do {
                slices.append(try SliceParser.parse(sliceReader, fileOffset: start, limits: limits, parts: parts))
            } catch var error as FormatError {
                // Report offsets relative to the whole file.
                error.offset = error.offset.map { $0 &+ start }
                error.reason = "\(what): " + error.reason
                throw error
            }
        }
        return slices
    }
}
