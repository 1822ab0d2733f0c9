import Foundation
import Formats

/// Where a file reference or group points, resolved through the group tree.
enum ReferencePath: Equatable {
    /// A path inside the input, relative to its root.
    case input(String)
    /// A path outside the input: `<absolute>`, `BUILT_PRODUCTS_DIR`, `SDKROOT`, `DEVELOPER_DIR`…
    case outside(String)
}

/// Resolves `PBXFileReference`, `PBXGroup`, `PBXVariantGroup`, `XCVersionGroup` and
/// `PBXFileSystemSynchronizedRootGroup` objects to paths: `sourceTree = "<group>"` is relative to
/// the parent group's folder (a group without `path` adds nothing), `SOURCE_ROOT` to the
/// project folder, anything else is outside the input. `name` is only a display name, except
/// for a file reference without `path`. Cycles in the tree are reported, never followed twice.
final class GroupTreePaths {
    private let graph: PBXObjectGraph
    private let projectDir: String
    private let mainGroup: String?
    private var parent: [String: String] = [:]
    private var cache: [String: ReferencePath] = [:]
    private var resolving = Set<String>()
    private(set) var problems: [LoadProblem] = []
    private var reportedCycles = Set<String>()
    private var depth = 0
    private var reportedDepth = false
    static let maxDepth = 256

    init(graph: PBXObjectGraph, projectDir: String) {
        self.graph = graph
        self.projectDir = projectDir
        self.mainGroup = graph.string(graph.rootID, "mainGroup")
        // Deterministic: the first group (by id) listing a child is its parent.
        for id in graph.objects.keys.sorted() {
            for child in graph.ids(id, "children") where parent[child] == nil && child != id {
                parent[child] = id
            }
        }
    }

    func path(of id: String) -> ReferencePath? {
        if let c = cache[id] { return c }
        guard graph.object(id) != nil else { return nil }
        if resolving.contains(id) {
            if reportedCycles.insert(id).inserted {
                problems.append(graph.malformed("group \(id) is its own ancestor (cyclic group references); its files are resolved from the project folder", at: id))
            }
            return .input(projectDir)
        }
        guard depth < Self.maxDepth else {
            if !reportedDepth {
                reportedDepth = true
                problems.append(graph.malformed("groups nested deeper than \(Self.maxDepth); deeper paths are resolved from the project folder", at: id))
            }
            return .input(projectDir)
        }
        resolving.insert(id)
        depth += 1
        defer { resolving.remove(id); depth -= 1 }
        let isa = graph.isa(id) ?? ""
        var own = graph.string(id, "path")
        if own == nil, isa == "PBXFileReference" { own = graph.string(id, "name") }
        let tree = graph.string(id, "sourceTree") ?? "<group>"
        let result: ReferencePath
        switch tree {
        case "<group>":
            let base: ReferencePath
            if id == mainGroup {
                base = .input(projectDir)
            } else if let p = parent[id], let pp = path(of: p) {
                base = pp
            } else {
                base = .input(projectDir)
            }
            result = append(base, own)
        case "SOURCE_ROOT", "SRCROOT", "PROJECT_DIR":
            result = append(.input(projectDir), own)
        case "<absolute>":
            result = .outside(own ?? "")
        default:
            result = .outside("$(\(tree))/" + (own ?? ""))
        }
        cache[id] = result
        return result
    }

    private func append(_ base: ReferencePath, _ component: String?) -> ReferencePath {
        guard let component, !component.isEmpty else { return base }
        switch base {
        case .input(let b):
            if component.hasPrefix("/") { return .outside(component) }
            // A relative path that climbs out of the input is outside it.
            let depth = b.split(separator: "/").count
            var level = depth
            for part in component.split(separator: "/") {
                if part == ".." { level -= 1 } else if part != "." { level += 1 }
                if level < 0 { return .outside(b + "/" + component) }
            }
            return .input(PathUtil.join(b, component))
        case .outside(let b):
            return .outside(b.hasSuffix("/") || b.isEmpty ? b + component : b + "/" + component)
        }
    }
}
