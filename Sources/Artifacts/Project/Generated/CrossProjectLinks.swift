import Foundation
import Formats

/// Targets of one generated project that link targets of another (Tuist's
/// `.project(target:path:)`): each project is loaded on its own, so the other project's
/// target, with its own code closure, is added to the linking bundle's code afterwards, and
/// the bundle embeds it when the dependency embeds.
enum CrossProjectLinks {
    struct Loaded {
        var project: GeneratedProject
        var targets: [ProjectTarget]
        /// Names of the project's bundles as added to the result, in the result's order.
        var bundleNames: [String]
    }

    static func apply(_ loaded: [Loaded], to bundles: inout [AppBundle]) {
        let byFolder = Dictionary(loaded.map { ($0.project.directory, $0) }, uniquingKeysWith: { a, _ in a })
        let bundleIndex = Dictionary(bundles.indices.map { (bundles[$0].name, $0) }, uniquingKeysWith: { a, _ in a })
        let embeddable: Set<BundleKind> = [.appExtension, .watchApp, .appClip, .framework]
        for l in loaded {
            for target in l.project.targets {
                guard let mine = l.bundleNames.first(where: { $0 == target.name || $0.hasPrefix(target.name + " (") }),
                      let b = bundleIndex[mine] else { continue }
                for dep in target.dependencies {
                    guard case .project(let folder) = dep.kind, let other = byFolder[folder],
                          let linked = other.targets.first(where: { $0.name == dep.name }) else { continue }
                    if CodeClosure.isLinkable(linked) {
                        var links = [CodeLink(kind: .target, name: linked.name, embedded: dep.embed, files: linked.sourceFiles)]
                        // As in `CodeClosure`: what an embedded framework links travels inside it.
                        links += linked.linkedCode.map { var c = $0; c.embedded = dep.embed; return c }
                        let present = Set(bundles[b].linkedCode.map { "\($0.kind.rawValue)\u{1}\($0.name)" })
                        bundles[b].linkedCode += links.filter { !present.contains("\($0.kind.rawValue)\u{1}\($0.name)") }
                    }
                    if dep.embed, let kind = linked.bundleKind, embeddable.contains(kind),
                       let otherName = other.bundleNames.first(where: { $0 == linked.name || $0.hasPrefix(linked.name + " (") }),
                       let o = bundleIndex[otherName], bundles[o].parentID == nil {
                        bundles[o].parentID = bundles[b].id
                    }
                }
            }
        }
    }
}
