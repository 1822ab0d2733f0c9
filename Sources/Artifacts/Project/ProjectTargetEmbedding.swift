import Foundation
import Formats

/// Which targets a target depends on, and which target embeds each bundle.
extension ProjectLoading {
    func dependencyIDs(of targetID: String) -> [String] {
        graph.ids(targetID, "dependencies").compactMap { dep in
            if let t = graph.string(dep, "target") { return t }
            if let proxy = graph.string(dep, "targetProxy"), graph.string(proxy, "containerPortal") == graph.rootID {
                return graph.string(proxy, "remoteGlobalIDString")
            }
            return nil
        }
    }

    /// Target id → name of the target that embeds it: a copy-files phase ("Embed App
    /// Extensions", "Embed Watch Content", "Embed App Clips", "Embed Frameworks"…) or the
    /// resources phase (resource bundles) copying its product, else the first app-like target
    /// depending on it.
    func embeddingParents(_ targets: [ProjectTarget]) -> [String: String] {
        var productOwner: [String: String] = [:]
        for t in targets { if let ref = graph.string(t.id, "productReference") { productOwner[ref] = t.id } }
        var parents: [String: String] = [:]
        for t in targets {
            for phase in graph.ids(t.id, "buildPhases")
            where graph.isa(phase) == "PBXCopyFilesBuildPhase" || graph.isa(phase) == "PBXResourcesBuildPhase" {
                for bf in graph.ids(phase, "files") {
                    if let ref = graph.string(bf, "fileRef"), let owner = productOwner[ref], owner != t.id, parents[owner] == nil {
                        parents[owner] = t.id
                    }
                }
            }
        }
        let embeddable: Set<BundleKind> = [.appExtension, .watchApp, .appClip, .framework]
        let kinds = Dictionary(targets.map { ($0.id, $0.bundleKind) }, uniquingKeysWith: { a, _ in a })
        for t in targets where t.bundleKind == .app || t.bundleKind == .watchApp || t.bundleKind == .appClip {
            for dep in dependencyIDs(of: t.id) where parents[dep] == nil && dep != t.id {
                if let k = kinds[dep] ?? nil, embeddable.contains(k) { parents[dep] = t.id }
            }
        }
        return parents
    }
}
