import Foundation

/// A Mach-O file: one thin image, or the slices of a fat (universal) file.
public struct MachOFile: Sendable {
    public var isFat: Bool
    public var slices: [MachOSlice]

    public init(isFat: Bool, slices: [MachOSlice]) {
        self.isFat = isFat
        self.slices = slices
    }

    /// The slice for an architecture name as `llvm-nm --arch` spells it.
    public func slice(arch: String) -> MachOSlice? { slices.first { $0.arch == arch } }
}

/// One library from an `LC_LOAD_DYLIB`-style load command.
public struct LinkedLibrary: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        case load, weak, reexport, lazy, upward
    }
    public var path: String
    public var kind: Kind
    /// `x.y.z`, as `llvm-objdump --private-headers` prints it.
    public var currentVersion: String
    public var compatibilityVersion: String

    public init(path: String, kind: Kind, currentVersion: String, compatibilityVersion: String) {
        self.path = path
        self.kind = kind
        self.currentVersion = currentVersion
        self.compatibilityVersion = compatibilityVersion
    }

    /// `UIKit` for `/System/Library/Frameworks/UIKit.framework/UIKit`, `libz.1.dylib` for
    /// `/usr/lib/libz.1.dylib`: the last path component.
    public var name: String {
        path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
    }
}

/// `LC_ENCRYPTION_INFO(_64)`. `cryptID != 0` means the App Store encryption is still applied.
public struct EncryptionInfo: Sendable, Equatable {
    public var cryptID: UInt32
    public var offset: UInt32
    public var size: UInt32

    public init(cryptID: UInt32, offset: UInt32, size: UInt32) {
        self.cryptID = cryptID
        self.offset = offset
        self.size = size
    }
}

public struct Section: Sendable, Equatable {
    public var segment: String
    public var name: String
    public var address: UInt64
    public var size: UInt64
    /// File offset relative to the start of the slice.
    public var offset: UInt32
    public var flags: UInt32
    /// Relocation entries (`reloff`, `nreloc`); only object files have them.
    public var relocationOffset: UInt32
    public var relocationCount: UInt32

    public init(segment: String, name: String, address: UInt64, size: UInt64, offset: UInt32, flags: UInt32,
                relocationOffset: UInt32 = 0, relocationCount: UInt32 = 0) {
        self.segment = segment
        self.name = name
        self.address = address
        self.size = size
        self.offset = offset
        self.flags = flags
        self.relocationOffset = relocationOffset
        self.relocationCount = relocationCount
    }

    /// `flags & SECTION_TYPE`.
    public var type: UInt32 { flags & 0xff }
    /// Zero-fill sections occupy no bytes in the file.
    public var isZeroFill: Bool { type == 0x1 || type == 0xc || type == 0x12 }
}

public struct Segment: Sendable, Equatable {
    public var name: String
    public var vmAddress: UInt64
    public var vmSize: UInt64
    /// File offset relative to the start of the slice.
    public var fileOffset: UInt64
    public var fileSize: UInt64
    public var maxProtection: Int32
    public var initialProtection: Int32
    public var sections: [Section]

    public init(name: String, vmAddress: UInt64, vmSize: UInt64, fileOffset: UInt64, fileSize: UInt64,
                maxProtection: Int32, initialProtection: Int32, sections: [Section]) {
        self.name = name
        self.vmAddress = vmAddress
        self.vmSize = vmSize
        self.fileOffset = fileOffset
        self.fileSize = fileSize
        self.maxProtection = maxProtection
        self.initialProtection = initialProtection
        self.sections = sections
    }

    public var isWritable: Bool { initialProtection & 2 != 0 }
    public var isExecutable: Bool { initialProtection & 4 != 0 }
}

/// One `nlist`/`nlist_64` entry.
public struct Symbol: Sendable, Equatable {
    public var name: String
    public var type: UInt8
    public var sect: UInt8
    public var desc: UInt16
    public var value: UInt64

    public init(name: String, type: UInt8, sect: UInt8, desc: UInt16, value: UInt64) {
        self.name = name
        self.type = type
        self.sect = sect
        self.desc = desc
        self.value = value
    }

    /// A debugging (stab) entry: `n_type & N_STAB`.
    public var isStab: Bool { type & 0xe0 != 0 }
    /// `N_EXT`.
    public var isExternal: Bool { !isStab && type & 0x01 != 0 }
    /// Undefined as LLVM counts it: external, `N_UNDF`, value 0 (a non-zero value is a common symbol).
    public var isUndefined: Bool { isExternal && type & 0x0e == 0 && value == 0 }
    /// `N_WEAK_REF` on an undefined symbol: a weak import.
    public var isWeakReference: Bool { desc & 0x0040 != 0 }
    /// Two-level namespace library ordinal of an undefined symbol (`GET_LIBRARY_ORDINAL`).
    public var libraryOrdinal: Int { Int((desc >> 8) & 0xff) }
}

/// What `LC_CODE_SIGNATURE` tells about the signer.
public struct CodeSignature: Sendable, Equatable {
    /// From the first CodeDirectory.
    public var identifier: String?
    public var teamID: String?
    /// CodeDirectory flags (`CS_ADHOC` is 0x2).
    public var codeDirectoryFlags: UInt32
    /// Payload of the entitlements blob (magic 0xfade7171): an XML property list.
    public var entitlementsXML: Data?
    /// Payload of the DER entitlements blob (magic 0xfade7172).
    public var entitlementsDER: Data?
    /// True when the SuperBlob holds a non-empty CMS signature (slot 0x10000).
    public var hasCMSSignature: Bool
    /// DER certificates of the CMS signature, signer first as codesign writes them.
    public var cmsCertificates: [Data] = []
    /// Why the CMS blob could not be read as a SignedData (then `cmsCertificates` is empty).
    public var cmsError: FormatError?
    /// Slot types of every blob in the SuperBlob, in index order.
    public var slotTypes: [UInt32]
    /// The first CodeDirectory's `hashType` (1 SHA-1, 2 SHA-256), 0 when unknown.
    public var hashType: UInt8 = 0
    /// Hashes of the first CodeDirectory's special slots by number: 1 the Info.plist,
    /// 3 `_CodeSignature/CodeResources` (all zero bytes when the slot is empty).
    public var specialSlotHashes: [Int: [UInt8]] = [:]

    public init(identifier: String? = nil, teamID: String? = nil, codeDirectoryFlags: UInt32 = 0,
                entitlementsXML: Data? = nil, entitlementsDER: Data? = nil,
                hasCMSSignature: Bool = false, slotTypes: [UInt32] = []) {
        self.identifier = identifier
        self.teamID = teamID
        self.codeDirectoryFlags = codeDirectoryFlags
        self.entitlementsXML = entitlementsXML
        self.entitlementsDER = entitlementsDER
        self.hasCMSSignature = hasCMSSignature
        self.slotTypes = slotTypes
    }

    public var isAdHoc: Bool { codeDirectoryFlags & 0x2 != 0 }
}

/// One architecture of a Mach-O file.
public struct MachOSlice: Sendable {
    /// As `llvm-nm --arch` and llvm-objdump name it: arm64, arm64e, x86_64, armv7, armv7s, arm64_32, i386…
    public var arch: String
    public var cpuType: Int32
    public var cpuSubtype: Int32
    public var is64Bit: Bool
    public var isBigEndian: Bool
    public var fileType: UInt32
    /// "executable", "dylib", "bundle", "object", …
    public var fileTypeName: String
    public var flags: UInt32
    public var loadCommandCount: Int
    /// Offset of this slice in the file (0 for a thin file).
    public var fileOffset: Int

    /// "iOS", "iOS Simulator", "macOS", "Mac Catalyst", "tvOS", "watchOS", "visionOS", …
    public var platform: String?
    /// "15.0" or "15.0.1", as llvm-objdump prints minos.
    public var minOS: String?
    public var sdk: String?
    /// In load-command order.
    public var linkedLibraries: [LinkedLibrary]
    /// `LC_ID_DYLIB` of a dylib.
    public var installName: String?
    public var rpaths: [String]
    /// Uppercase 8-4-4-4-12.
    public var uuid: String?
    public var encryption: EncryptionInfo?
    public var segments: [Segment]
    public var symbols: [Symbol]
    /// Exactly what `llvm-nm -u --arch=<arch>` prints for this slice, in the same order.
    public var importedSymbols: [String]
    /// Names imported through chained-fixup imports or dyld bind/weak/lazy opcodes; unique, sorted.
    public var boundSymbols: [String]
    /// Imported class names referenced from `__objc_classrefs`/`__objc_superrefs`; unique, sorted.
    public var objcClassRefs: [String]
    /// Selector names referenced from `__objc_selrefs`; unique, sorted.
    public var objcSelectorRefs: [String]
    public var codeSignature: CodeSignature?
    /// Why `LC_CODE_SIGNATURE`'s data could not be read (a malformed SuperBlob, CodeDirectory
    /// or CMS blob): the rest of the slice is still read, and the signature is nil.
    public var codeSignatureError: FormatError?
    public var hasChainedFixups: Bool
    public var hasDyldInfo: Bool
    /// `LC_MAIN` entry offset.
    public var entryOffset: UInt64?

    /// The slice's own bytes, kept for on-demand reads such as `cStrings(maxCount:)` until a
    /// caller that keeps many slices releases them (`releasingBytes()`).
    private(set) var bytes: ByteReader
    /// `__TEXT,__cstring` kept by `releasingBytes()`, so evidence that reads a binary's strings
    /// never reads the file a second time.
    private(set) var keptCStrings: [UInt8] = []
    let maxStringLength: Int

    init(arch: String, cpuType: Int32, cpuSubtype: Int32, is64Bit: Bool, isBigEndian: Bool,
         fileType: UInt32, flags: UInt32, loadCommandCount: Int, fileOffset: Int,
         bytes: ByteReader, maxStringLength: Int) {
        self.arch = arch
        self.cpuType = cpuType
        self.cpuSubtype = cpuSubtype
        self.is64Bit = is64Bit
        self.isBigEndian = isBigEndian
        self.fileType = fileType
        self.fileTypeName = MachONames.fileType(fileType)
        self.flags = flags
        self.loadCommandCount = loadCommandCount
        self.fileOffset = fileOffset
        self.platform = nil
        self.minOS = nil
        self.sdk = nil
        self.linkedLibraries = []
        self.installName = nil
        self.rpaths = []
        self.uuid = nil
        self.encryption = nil
        self.segments = []
        self.symbols = []
        self.importedSymbols = []
        self.boundSymbols = []
        self.objcClassRefs = []
        self.objcSelectorRefs = []
        self.codeSignature = nil
        self.codeSignatureError = nil
        self.hasChainedFixups = false
        self.hasDyldInfo = false
        self.entryOffset = nil
        self.bytes = bytes
        self.maxStringLength = maxStringLength
    }

    /// This slice without its bytes: the parsed structure and the `__TEXT,__cstring` bytes
    /// (unless encrypted) stay, other on-demand reads return nothing. A loader that holds every
    /// binary of an app keeps memory bounded this way.
    public func releasingBytes() -> MachOSlice {
        var copy = self
        if let range = cStringRange() { copy.keptCStrings = Array(bytes.bytes[range]) }
        copy.bytes = ByteReader([UInt8](), format: bytes.format)
        return copy
    }

    // MARK: Header flags

    /// `MH_PIE`.
    public var isPIE: Bool { flags & 0x0020_0000 != 0 }
    /// `MH_ALLOW_STACK_EXECUTION`.
    public var allowsStackExecution: Bool { flags & 0x0002_0000 != 0 }
    /// A `__RESTRICT,__restrict` section (or a `__RESTRICT` segment).
    public var hasRestrictSegment: Bool { segments.contains { $0.name == "__RESTRICT" } }
    /// `LC_ENCRYPTION_INFO` with a non-zero cryptid.
    public var isEncrypted: Bool { (encryption?.cryptID ?? 0) != 0 }

    // MARK: Conveniences

    /// Last path components of the linked libraries ("UIKit", "libSystem.B.dylib"), in order.
    public var linkedLibraryNames: [String] { linkedLibraries.map(\.name) }

    /// Every imported Objective-C class name, from undefined symbols and bound imports.
    public var importedObjCClasses: [String] {
        let prefix = "_OBJC_CLASS_$_"
        var set = Set<String>()
        for name in importedSymbols where name.hasPrefix(prefix) { set.insert(String(name.dropFirst(prefix.count))) }
        for name in boundSymbols where name.hasPrefix(prefix) { set.insert(String(name.dropFirst(prefix.count))) }
        return set.sorted(by: MachONames.byteOrder)
    }

    public func section(segment: String? = nil, _ name: String) -> Section? {
        for seg in segments {
            for s in seg.sections where s.name == name && (segment == nil || s.segment == segment) { return s }
        }
        return nil
    }

    /// True when `offset ..< offset + size` of the slice overlaps bytes that are still
    /// App Store encrypted (`cryptid != 0`), so reading them would only give noise.
    public func isEncrypted(offset: Int, size: Int) -> Bool {
        guard let e = encryption, e.cryptID != 0, e.size > 0, size > 0 else { return false }
        let start = Int(e.offset), end = start + Int(e.size)
        return offset < end && start < offset + size
    }

    /// NUL-separated strings of `__TEXT,__cstring`, at most `maxCount`, each cut at the reader's
    /// string-length limit. Empty strings are skipped. Empty when the section is encrypted.
    public func cStrings(maxCount: Int) -> [String] {
        guard maxCount > 0 else { return [] }
        if let range = cStringRange() { return Self.strings(bytes.bytes[range], maxCount: maxCount, maxLength: maxStringLength) }
        return Self.strings(keptCStrings[...], maxCount: maxCount, maxLength: maxStringLength)
    }

    /// Where `__TEXT,__cstring` lies in `bytes`, when they are held and it is readable.
    private func cStringRange() -> Range<Int>? {
        guard let sect = section(segment: "__TEXT", "__cstring"), !sect.isZeroFill,
              let start = Int(exactly: sect.offset), let size = Int(exactly: sect.size),
              size <= bytes.count, start <= bytes.count - size,
              !isEncrypted(offset: start, size: size) else { return nil }
        return start..<(start + size)
    }

    private static func strings(_ bytes: ArraySlice<UInt8>, maxCount: Int, maxLength: Int) -> [String] {
        var out: [String] = []
        var i = bytes.startIndex
        let end = bytes.endIndex
        while i < end, out.count < maxCount {
            var j = i
            while j < end, bytes[j] != 0 { j += 1 }
            if j > i {
                let cut = j - i > maxLength ? i + max(maxLength, 0) : j
                out.append(String(decoding: bytes[i..<cut], as: UTF8.self))
            }
            i = j + 1
        }
        return out
    }
}
