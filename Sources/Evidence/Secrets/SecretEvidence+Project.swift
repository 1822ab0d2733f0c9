import Foundation
import Artifacts
import Formats

extension SecretEvidence {
    /// Folders a target copies that are compiled, not copied as they are (asset catalogs,
    /// Icon Composer documents, Core Data models), and settings files Xcode never copies.
    static let notCopiedAsIs: Set<String> = ["xcassets", "icon", "xcdatamodeld", "xcdatamodel", "xcmappingmodel", "xcconfig"]

    /// The files the shipping targets of a project copy into their bundles (Resources phase,
    /// synchronized folders, folder references copied whole), read as a built app's resources
    /// are. Files no shipping target copies — tests, scripts, docs, samples — are never read.
    /// A file several bundles copy is reported once, for the app when the app copies it.
    static func scanProject(_ input: LoadedInput) -> Result {
        let bundles = input.product.bundles.filter(\.kind.ships).sorted { ($0.kind == .app ? 0 : 1) < ($1.kind == .app ? 0 : 1) }
        var owner: [String: AppBundle] = [:]
        var work: [FileEntry] = []
        for bundle in bundles {
            for path in bundle.resourcePaths where !notCopiedAsIs.contains(PathUtil.pathExtension(path).lowercased()) {
                guard let entry = input.index.entry(path) else { continue }
                let files = entry.kind == .directory ? input.index.files(under: path) : [entry]
                for f in files where f.kind == .file && owner[f.path] == nil && isRead(f.path) && !isInsideCompiledFolder(f.path) {
                    owner[f.path] = bundle
                    work.append(f)
                }
            }
        }
        let results = ConcurrentMap.map(work) { read($0, source: input.source) }
        var out = Result()
        for (e, (found, store)) in zip(work, results) {
            let bundle = owner[e.path]
            var seen = Set<String>()
            for f in found where seen.insert(f.kind.rawValue + f.masked).inserted {
                out.secrets.append(ShippedSecret(secret: f, path: e.path, bundle: bundle?.name, inBinary: false, origin: .app))
            }
            if var s = store {
                s.bundle = bundle?.name
                out.stores.append(s)
            }
        }
        return out
    }

    static func isRead(_ path: String) -> Bool {
        let ext = PathUtil.pathExtension(path).lowercased()
        return textExtensions.contains(ext) || storeKinds[ext] != nil
    }

    /// A file inside an asset catalog or a data model (compiled, not copied as it is).
    static func isInsideCompiledFolder(_ path: String) -> Bool {
        path.split(separator: "/").dropLast().contains { notCopiedAsIs.contains(PathUtil.pathExtension(String($0))) }
    }
}
