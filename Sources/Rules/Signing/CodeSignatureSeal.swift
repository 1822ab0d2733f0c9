import Foundation
import Artifacts
import Formats

/// What a bundle's code signature seals and how its files compare: the Info.plist and
/// `_CodeSignature/CodeResources` hashes in the executable's CodeDirectory, and each resource
/// hash of `CodeResources` (`files2`, else `files`). Files are read and hashed through
/// `Product.resources`, only when the seal rule runs.
struct CodeSignatureSeal {
    struct Mismatch {
        enum Kind: String { case infoPlist, codeResources, missingCodeResources, changed, removed, added }
        var kind: Kind
        var path: String
    }

    /// Bundles whose code is signed and whose resources a seal covers.
    static let sealedKinds: Set<BundleKind> = [.app, .appExtension, .appClip, .watchApp, .framework]
    /// Content hashes are compared for files up to `maxHashedFileBytes`, and for at most
    /// `maxHashedBytes` per bundle: what is edited after signing is settings, plists and scripts,
    /// not media, and hashing every byte of a large app would cost more than the rest of the
    /// scan. Presence (added and removed files) is checked for every file.
    static let maxHashedFileBytes: Int64 = 2 << 20
    static let maxHashedBytes: Int64 = 32 << 20

    /// Folders nested code bundles use: their files are sealed by their own signature.
    static let codeBundleExtensions: Set<String> = ["app", "appex", "framework", "xctest"]

    let bundle: AppBundle
    let signature: CodeSignature
    let resources: ResourceFiles

    /// The bundle's seal, when its executable is signed (unsigned code is
    /// `invalid_code_signature`'s) with a hash type Preflight knows.
    init?(_ bundle: AppBundle, resources: ResourceFiles) {
        guard Self.sealedKinds.contains(bundle.kind), let exe = bundle.executablePath,
              let binary = bundle.binaries.first(where: { $0.path == exe }),
              let signature = binary.macho?.slices.lazy.compactMap(\.codeSignature).first,
              DigestAlgorithm(codeDirectoryHashType: signature.hashType) != nil else { return nil }
        self.bundle = bundle
        self.signature = signature
        self.resources = resources
    }

    var codeResourcesPath: String { PathUtil.join(bundle.path, "_CodeSignature/CodeResources") }

    func mismatches() -> [Mismatch] {
        var out: [Mismatch] = []
        if let info = bundle.infoPlistPath, slotDiffers(1, info) { out.append(Mismatch(kind: .infoPlist, path: info)) }
        let sealed = slotIsSet(3)
        guard resources.index.entry(codeResourcesPath) != nil else {
            if sealed { out.append(Mismatch(kind: .missingCodeResources, path: codeResourcesPath)) }
            return out
        }
        if sealed, slotDiffers(3, codeResourcesPath) { out.append(Mismatch(kind: .codeResources, path: codeResourcesPath)) }
        guard case .success(let root) = resources.propertyList(codeResourcesPath), let seal = root.dictionary,
              let files = (seal.entry("files2") ?? seal.entry("files"))?.value.dictionary else { return out }
        let version2 = seal.entry("files2") != nil
        let omitted = omitRules(seal.entry(version2 ? "rules2" : "rules")?.value.dictionary)
        var sealedPaths = Set<String>()
        var nestedCode: [String] = []
        var hashedBytes: Int64 = 0
        for entry in files.entries {
            let path = PathUtil.join(bundle.path, entry.key)
            sealedPaths.insert(entry.key)
            let spec = Spec(entry.value)
            if spec.isNestedCode { nestedCode.append(entry.key + "/") }
            guard let present = resources.index.entry(path) else {
                if !spec.optional { out.append(Mismatch(kind: .removed, path: path)) }
                continue
            }
            guard !spec.isNestedCode, spec.symlink == nil, present.kind == .file, let expected = spec.hash,
                  present.size <= Self.maxHashedFileBytes, hashedBytes + present.size <= Self.maxHashedBytes else { continue }
            hashedBytes += present.size
            if case .success(let actual) = resources.digest(path, expected.algorithm), actual != expected.bytes {
                out.append(Mismatch(kind: .changed, path: path))
            }
        }
        for e in resources.index.files(under: bundle.path) where e.kind != .directory {
            let rel = bundle.path.isEmpty ? e.path : String(e.path.dropFirst(bundle.path.count + 1))
            guard !sealedPaths.contains(rel), !isUnsealedByDesign(rel, nestedCode: nestedCode),
                  !omitted.contains(where: { $0.firstMatch(in: rel, range: NSRange(rel.startIndex..., in: rel)) != nil }) else { continue }
            out.append(Mismatch(kind: .added, path: e.path))
        }
        return out
    }

    /// Files a seal never lists: the signature itself, the executable and Info.plist (sealed
    /// by the CodeDirectory), what the App Store adds (`SC_Info`), nested code bundles.
    func isUnsealedByDesign(_ rel: String, nestedCode: [String]) -> Bool {
        let parts = rel.split(separator: "/")
        if parts.contains(where: { $0 == "__MACOSX" || $0 == ".DS_Store" }) { return true }
        if let first = parts.first, first == "_CodeSignature" || first == "SC_Info" || first == "_MASReceipt" { return true }
        if rel == "Info.plist" || rel == "PkgInfo" || rel == "CodeResources" { return true }
        if let exe = bundle.executablePath, PathUtil.join(bundle.path, rel) == exe { return true }
        if nestedCode.contains(where: { rel.hasPrefix($0) }) { return true }
        // Files of a nested code bundle belong to its own seal.
        return parts.dropLast().contains { Self.codeBundleExtensions.contains(PathUtil.pathExtension(String($0))) }
    }

    /// `rules2` entries marked `omit`: paths codesign leaves out of the seal.
    func omitRules(_ rules: PlistDictionary?) -> [NSRegularExpression] {
        (rules?.entries ?? []).compactMap { entry in
            guard entry.value.dictionary?.entry("omit")?.value.bool == true else { return nil }
            return try? NSRegularExpression(pattern: entry.key)
        }
    }

    func slotIsSet(_ slot: Int) -> Bool {
        guard let expected = signature.specialSlotHashes[slot] else { return false }
        return expected.contains { $0 != 0 }
    }

    /// Whether a special slot is set and the file's hash differs from it (unreadable files are
    /// not judged).
    func slotDiffers(_ slot: Int, _ path: String) -> Bool {
        guard slotIsSet(slot), let expected = signature.specialSlotHashes[slot],
              let algorithm = DigestAlgorithm(codeDirectoryHashType: signature.hashType),
              case .success(let actual) = resources.digest(path, algorithm) else { return false }
        return Array(actual.prefix(expected.count)) != expected
    }

    /// One `files2`/`files` entry: a bare SHA-1 (`files`), or a dictionary with `hash2`
    /// (SHA-256) or `hash` (SHA-1), `optional`, `symlink`, or `cdhash` for nested code.
    struct Spec {
        var hash: (algorithm: DigestAlgorithm, bytes: [UInt8])?
        var optional = false
        var symlink: String?
        var isNestedCode = false

        init(_ node: PlistNode) {
            if case .data(let d) = node.value { hash = (.sha1, [UInt8](d)); return }
            guard let d = node.dictionary else { return }
            optional = d.entry("optional")?.value.bool ?? false
            symlink = d.entry("symlink")?.value.string
            isNestedCode = d.entry("cdhash") != nil || d.entry("requirement") != nil
            if case .data(let h2)? = d.entry("hash2")?.value.value, h2.count == 32 {
                hash = (.sha256, [UInt8](h2))
            } else if case .data(let h)? = d.entry("hash")?.value.value, h.count == 20 {
                hash = (.sha1, [UInt8](h))
            }
        }
    }
}
