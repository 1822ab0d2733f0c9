import Foundation
import Formats

/// A target's code closure: the framework and static-library targets it links or embeds,
/// transitively, plus the local packages and pods each of them links. Project readers say
/// which targets a target names directly; this computes the rest the same way for all.
enum CodeClosure {
    /// Product types whose code ends up in the bundles that link them.
    static func isLinkable(_ target: ProjectTarget) -> Bool {
        if target.bundleKind == .framework { return true }
        let t = target.productType
        return t.hasSuffix("library.static") || t.hasSuffix("library.dynamic") || t.hasSuffix("framework.static")
    }

    /// Fills `linkedCode` of every target. `direct` gives the ids of the targets a target links
    /// or embeds itself; `parents` maps a target id to the id of the target that embeds it.
    static func link(_ targets: inout [ProjectTarget], direct: (String) -> [String],
                     files: [String: TargetFiles], parents: [String: String]) {
        let byID = Dictionary(targets.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        func linkable(_ id: String) -> [String] {
            var seen = Set<String>()
            return direct(id).filter { $0 != id && byID[$0].map(isLinkable) == true && seen.insert($0).inserted }
        }
        for i in targets.indices {
            let me = targets[i]
            var links: [CodeLink] = []
            var seenTargets: Set<String> = [me.id]
            var seenLinks = Set<String>()
            func add(_ link: CodeLink) {
                if seenLinks.insert("\(link.kind.rawValue)\u{1}\(link.name)").inserted { links.append(link) }
            }
            (files[me.id]?.packages ?? []).forEach(add)
            (files[me.id]?.pods ?? []).forEach(add)
            // Breadth-first. A dynamic framework this bundle embeds carries its static
            // dependencies inside its own binary, so they count as embedded too.
            var queue: [(id: String, embedded: Bool)] = linkable(me.id).map { ($0, parents[$0] == me.id) }
            var cursor = 0
            while cursor < queue.count {
                let (id, embedded) = queue[cursor]
                cursor += 1
                guard seenTargets.insert(id).inserted, let t = byID[id] else { continue }
                add(CodeLink(kind: .target, name: t.name, embedded: embedded, files: files[id]?.sources.sorted() ?? []))
                (files[id]?.packages ?? []).forEach(add)
                (files[id]?.pods ?? []).forEach(add)
                queue += linkable(id).map { ($0, embedded) }
            }
            targets[i].linkedCode = links
        }
    }
}

extension ProjectLoading {
    /// Targets whose products a target links (Frameworks phase) or copies (copy-files
    /// phases), and the targets it depends on.
    func directLinks(of targetID: String, in targets: [ProjectTarget]) -> [String] {
        var productOwner: [String: String] = [:]
        for t in targets { if let ref = graph.string(t.id, "productReference") { productOwner[ref] = t.id } }
        var out: [String] = []
        for phase in graph.ids(targetID, "buildPhases") {
            let isa = graph.isa(phase)
            guard isa == "PBXFrameworksBuildPhase" || isa == "PBXCopyFilesBuildPhase" else { continue }
            for bf in graph.ids(phase, "files") {
                if let ref = graph.string(bf, "fileRef"), let owner = productOwner[ref] { out.append(owner) }
            }
        }
        let names = targets.first { $0.id == targetID }?.dependencies ?? []
        out += names.compactMap { name in targets.first { $0.name == name }?.id }
        return out
    }
}
