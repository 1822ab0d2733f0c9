import Foundation
import Formats

/// What one Mach-O slice shows of exploit mitigations and risky primitives, each fact with
/// the symbol or flag that proves it. Absence of an import is stated as such: it proves a
/// mitigation is off only where the binary leaves no other explanation.
public struct HardeningFacts: Sendable, Equatable {
    public enum StackProtector: Sendable, Equatable {
        /// `___stack_chk_fail`/`___stack_chk_guard` imported: some function has a canary.
        case present([String])
        /// Neither imported. The compiler only instruments functions with local arrays or
        /// address-taken locals, so this is either a build without `-fstack-protector` or code
        /// with no such function; imports cannot tell which.
        case notImported
    }

    public enum MemoryManagement: Sendable, Equatable {
        /// ARC runtime entry points imported (`_objc_release`, `_swift_release`, …).
        case arc([String])
        /// Objective-C code that sends `retain`/`release`/`autorelease` as messages, which ARC
        /// forbids: manual reference counting, proven by the selector references.
        case manual([String])
        /// No Objective-C or Swift runtime use: plain C or C++, where ARC does not apply.
        case notApplicable
        /// Objective-C runtime use, no ARC entry point and no retain/release message.
        case unknown
    }

    /// `MH_PIE` on an executable; nil for dylibs and bundles (always position-independent).
    public var pie: Bool?
    public var stackProtector: StackProtector
    public var memory: MemoryManagement
    /// `retain`/`release`/`autorelease` selector references: manual reference counting in some
    /// of the code (an ARC binary can hold files or static libraries built without ARC).
    public var manualRetainReleaseSelectors: [String]
    /// `LC_ENCRYPTION_INFO(_64)` cryptid; nil without the load command.
    public var cryptID: UInt32?
    /// A `__RESTRICT` segment (asks dyld to ignore `DYLD_*` environment variables).
    public var restricted: Bool
    /// `MH_ALLOW_STACK_EXECUTION`.
    public var executableStack: Bool
    /// Imported MD2/MD4/MD5/SHA-1 functions of CommonCrypto or OpenSSL.
    public var weakHashes: [String]
    /// Imported `CCCrypt`-family functions: the algorithm and mode are arguments (integer
    /// constants such as `kCCAlgorithmDES`, `kCCOptionECBMode`) that leave no symbol, so the
    /// cipher in use is not decidable from the binary.
    public var symmetricCrypto: [String]
    /// Imported `rand`/`random`/`srand`/`srandom`/`drand48`.
    public var insecureRandom: [String]
    /// Imported `SecRandomCopyBytes`/`arc4random*`/`CCRandomGenerateBytes`.
    public var secureRandom: [String]
    /// `get-task-allow` from the code signature's entitlements; nil when unsigned or absent.
    public var getTaskAllow: Bool?

    static let canary: Set<String> = ["___stack_chk_fail", "___stack_chk_guard"]
    static let arcEntryPoints: Set<String> = ["_objc_release", "_objc_retain", "_objc_storeStrong", "_objc_autoreleaseReturnValue",
                                              "_objc_retainAutoreleasedReturnValue", "_swift_release", "_swift_retain"]
    static let weakHashNames: Set<String> = ["_CC_MD2", "_CC_MD4", "_CC_MD5", "_CC_SHA1", "_CC_MD5_Init", "_CC_MD5_Update", "_CC_MD5_Final",
                                             "_CC_SHA1_Init", "_CC_SHA1_Update", "_CC_SHA1_Final", "_MD5", "_MD5_Init", "_MD5_Update",
                                             "_MD5_Final", "_SHA1", "_SHA1_Init", "_SHA1_Update", "_SHA1_Final"]
    static let cipherNames: Set<String> = ["_CCCrypt", "_CCCryptorCreate", "_CCCryptorCreateWithMode", "_CCCryptorCreateFromData"]
    static let insecureRandomNames: Set<String> = ["_rand", "_random", "_srand", "_srandom", "_drand48", "_lrand48"]
    static let secureRandomNames: Set<String> = ["_SecRandomCopyBytes", "_arc4random", "_arc4random_uniform", "_arc4random_buf",
                                                 "_CCRandomGenerateBytes"]

    public init(_ s: MachOSlice) {
        let imports = Set(s.importedSymbols).union(s.boundSymbols)
        func imported(_ names: Set<String>) -> [String] { names.intersection(imports).sorted() }
        pie = s.fileType == 2 ? s.isPIE : nil
        let chk = imported(Self.canary)
        stackProtector = chk.isEmpty ? .notImported : .present(chk)
        let arc = imported(Self.arcEntryPoints)
        let mrc = Set(s.objcSelectorRefs).intersection(["retain", "release", "autorelease"]).sorted()
        manualRetainReleaseSelectors = mrc
        let usesObjC = imports.contains("_objc_msgSend") || !s.objcSelectorRefs.isEmpty || !s.objcClassRefs.isEmpty
        let usesSwift = imports.contains { $0.hasPrefix("_swift_") } || s.linkedLibraries.contains { $0.name.hasPrefix("libswift") }
        if !arc.isEmpty {
            memory = .arc(arc)
        } else if !mrc.isEmpty {
            memory = .manual(mrc)
        } else if !usesObjC && !usesSwift {
            memory = .notApplicable
        } else {
            memory = .unknown
        }
        cryptID = s.encryption?.cryptID
        restricted = s.hasRestrictSegment
        executableStack = s.allowsStackExecution
        weakHashes = imported(Self.weakHashNames)
        symmetricCrypto = imported(Self.cipherNames)
        insecureRandom = imported(Self.insecureRandomNames)
        secureRandom = imported(Self.secureRandomNames)
        getTaskAllow = Self.getTaskAllow(s.codeSignature)
    }

    static func getTaskAllow(_ signature: CodeSignature?) -> Bool? {
        guard let xml = signature?.entitlementsXML, let (root, _) = try? PropertyListReader.read(xml) else { return nil }
        return root["get-task-allow"]?.bool
    }

    /// One line per fact, as `inspect` prints them.
    public var summary: [String] {
        var out: [String] = []
        if let pie { out.append(pie ? "PIE (MH_PIE)" : "not PIE: MH_PIE is not set") }
        switch stackProtector {
        case .present(let names): out.append("stack protector: \(names.joined(separator: ", ")) imported")
        case .notImported: out.append("stack protector: no ___stack_chk_* import (no canary in any function: built without -fstack-protector, or no function that needs one — undecidable from imports)")
        }
        switch memory {
        case .arc(let names):
            let manual = manualRetainReleaseSelectors.isEmpty ? "" : "; some code sends \(manualRetainReleaseSelectors.joined(separator: ", ")) messages (built without ARC)"
            out.append("ARC: \(names.prefix(2).joined(separator: ", ")) imported\(manual)")
        case .manual(let sels): out.append("manual retain/release: sends \(sels.joined(separator: ", ")) messages, no ARC entry point imported")
        case .notApplicable: out.append("ARC: not applicable (no Objective-C or Swift runtime use)")
        case .unknown: out.append("ARC: no ARC entry point imported and no retain/release message (undecidable)")
        }
        if let c = cryptID { out.append(c == 0 ? "LC_ENCRYPTION_INFO cryptid 0 (not encrypted)" : "LC_ENCRYPTION_INFO cryptid \(c) (App Store encrypted)") }
        if restricted { out.append("__RESTRICT segment") }
        if executableStack { out.append("MH_ALLOW_STACK_EXECUTION set") }
        if let g = getTaskAllow { out.append("get-task-allow \(g)") }
        if !weakHashes.isEmpty { out.append("weak hashes imported: \(weakHashes.joined(separator: ", "))") }
        if !symmetricCrypto.isEmpty { out.append("CommonCrypto ciphers imported: \(symmetricCrypto.joined(separator: ", ")) (algorithm and mode not visible)") }
        if !insecureRandom.isEmpty { out.append("C library random imported: \(insecureRandom.joined(separator: ", "))") }
        return out
    }
}
