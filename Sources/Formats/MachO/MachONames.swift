import Foundation

/// Names for Mach-O constants, spelled the way LLVM's tools print them.
public enum MachONames {
    /// The `-arch` name LLVM uses (`MachOObjectFile::getArchTriple`); unknown pairs read
    /// `cputype(N) cpusubtype(M)`.
    public static func arch(cpuType: Int32, cpuSubtype: Int32) -> String {
        let sub = UInt32(bitPattern: cpuSubtype) & 0x00ff_ffff  // drop CPU_SUBTYPE_MASK capability bits
        switch UInt32(bitPattern: cpuType) {
        case 7:
            if sub == 3 { return "i386" }
        case 0x0100_0007:
            if sub == 3 { return "x86_64" }
            if sub == 8 { return "x86_64h" }
        case 12:
            switch sub {
            case 5: return "armv4t"
            case 6: return "armv6"
            case 7: return "armv5e"
            case 8: return "xscale"
            case 9: return "armv7"
            case 11: return "armv7s"
            case 12: return "armv7k"
            case 14: return "armv6m"
            case 15: return "armv7m"
            case 16: return "armv7em"
            default: break
            }
        case 0x0100_000c:
            if sub == 0 { return "arm64" }
            if sub == 2 { return "arm64e" }
        case 0x0200_000c:
            if sub == 1 { return "arm64_32" }
        case 18:
            return "ppc"
        case 0x0100_0012:
            return "ppc64"
        default:
            break
        }
        return "cputype(\(cpuType)) cpusubtype(\(cpuSubtype))"
    }

    public static func fileType(_ t: UInt32) -> String {
        switch t {
        case 0x1: return "object"
        case 0x2: return "executable"
        case 0x3: return "fvmlib"
        case 0x4: return "core"
        case 0x5: return "preload"
        case 0x6: return "dylib"
        case 0x7: return "dylinker"
        case 0x8: return "bundle"
        case 0x9: return "dylib_stub"
        case 0xa: return "dsym"
        case 0xb: return "kext_bundle"
        case 0xc: return "fileset"
        default: return "filetype(\(t))"
        }
    }

    /// `LC_BUILD_VERSION` platform numbers.
    public static func platform(_ p: UInt32) -> String {
        switch p {
        case 1: return "macOS"
        case 2: return "iOS"
        case 3: return "tvOS"
        case 4: return "watchOS"
        case 5: return "bridgeOS"
        case 6: return "Mac Catalyst"
        case 7: return "iOS Simulator"
        case 8: return "tvOS Simulator"
        case 9: return "watchOS Simulator"
        case 10: return "DriverKit"
        case 11: return "visionOS"
        case 12: return "visionOS Simulator"
        case 13: return "Firmware"
        case 14: return "sepOS"
        default: return "platform(\(p))"
        }
    }

    /// The `platform` word llvm-objdump prints in an `LC_BUILD_VERSION` (for oracles).
    public static func objdumpPlatform(_ name: String) -> String? {
        switch name {
        case "macOS": return "macos"
        case "iOS": return "ios"
        case "tvOS": return "tvos"
        case "watchOS": return "watchos"
        case "bridgeOS": return "bridgeos"
        case "Mac Catalyst": return "macCatalyst"
        case "iOS Simulator": return "iossimulator"
        case "tvOS Simulator": return "tvossimulator"
        case "watchOS Simulator": return "watchossimulator"
        case "DriverKit": return "driverkit"
        case "visionOS": return "xros"
        case "visionOS Simulator": return "xrsimulator"
        default: return nil
        }
    }

    /// `x.y` or `x.y.z` from a packed `xxxx.yy.zz` version, as llvm-objdump prints minos and sdk.
    public static func version(_ v: UInt32) -> String {
        let major = v >> 16, minor = (v >> 8) & 0xff, patch = v & 0xff
        return patch == 0 ? "\(major).\(minor)" : "\(major).\(minor).\(patch)"
    }

    /// Always `x.y.z`, as llvm-objdump prints dylib current and compatibility versions.
    public static func dylibVersion(_ v: UInt32) -> String {
        "\(v >> 16).\((v >> 8) & 0xff).\(v & 0xff)"
    }

    /// Byte-wise (UTF-8) ordering, the order llvm-nm sorts names in.
    public static func byteOrder(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    static func loadCommand(_ cmd: UInt32) -> String {
        switch cmd {
        case 0x1: return "LC_SEGMENT"
        case 0x2: return "LC_SYMTAB"
        case 0xb: return "LC_DYSYMTAB"
        case 0xc: return "LC_LOAD_DYLIB"
        case 0xd: return "LC_ID_DYLIB"
        case 0xe: return "LC_LOAD_DYLINKER"
        case 0x19: return "LC_SEGMENT_64"
        case 0x1b: return "LC_UUID"
        case 0x1d: return "LC_CODE_SIGNATURE"
        case 0x20: return "LC_LAZY_LOAD_DYLIB"
        case 0x21: return "LC_ENCRYPTION_INFO"
        case 0x22: return "LC_DYLD_INFO"
        case 0x24: return "LC_VERSION_MIN_MACOSX"
        case 0x25: return "LC_VERSION_MIN_IPHONEOS"
        case 0x2c: return "LC_ENCRYPTION_INFO_64"
        case 0x2f: return "LC_VERSION_MIN_TVOS"
        case 0x30: return "LC_VERSION_MIN_WATCHOS"
        case 0x32: return "LC_BUILD_VERSION"
        case 0x8000_0018: return "LC_LOAD_WEAK_DYLIB"
        case 0x8000_001c: return "LC_RPATH"
        case 0x8000_001f: return "LC_REEXPORT_DYLIB"
        case 0x8000_0022: return "LC_DYLD_INFO_ONLY"
        case 0x8000_0023: return "LC_LOAD_UPWARD_DYLIB"
        case 0x8000_0028: return "LC_MAIN"
        case 0x8000_0033: return "LC_DYLD_EXPORTS_TRIE"
        case 0x8000_0034: return "LC_DYLD_CHAINED_FIXUPS"
        default: return "cmd 0x" + String(cmd, radix: 16)
        }
    }
}
