import Foundation
// TEMPORARY until the Mach-O reader lands from the macho branch; deleted at merge.
public enum MachOReader {
    public static func isMachO(_ data: Data) -> Bool {
        let b = [UInt8](data.prefix(4))
        guard b.count == 4 else { return false }
        let m = UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3])
        return [0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe, 0xcafebabf].contains(m)
    }
}
// TEMPORARY contract mirror of the macho branch's API (deleted at merge).
public struct MachOFile: Sendable { public var isFat: Bool; public var slices: [MachOSlice] }
public struct LinkedLibrary: Sendable { public enum Kind: Sendable { case load, weak, reexport, lazy, upward }; public var path: String; public var kind: Kind }
public struct EncryptionInfo: Sendable { public var cryptID: UInt32 }
public struct CodeSignature: Sendable { public var entitlementsXML: Data? }
public struct MachOSlice: Sendable {
    public var arch: String; public var fileTypeName: String; public var platform: String?; public var minOS: String?; public var sdk: String?
    public var linkedLibraries: [LinkedLibrary]; public var rpaths: [String]; public var uuid: String?; public var encryption: EncryptionInfo?
    public var isPIE: Bool; public var importedSymbols: [String]; public var objcClassRefs: [String]; public var objcSelectorRefs: [String]
    public var codeSignature: CodeSignature?
}
extension MachOReader { public static func read(_ data: Data, limits: ReaderLimits = .default) throws -> MachOFile { throw FormatError.malformed("Mach-O", "reader not merged yet") } }
