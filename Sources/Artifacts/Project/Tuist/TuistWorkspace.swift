import Foundation
import Formats

/// `Workspace(name:, projects: ["App", "Modules/*"])`: the project folders it lists.
enum TuistWorkspace {
    static func projectFolders(in scope: inout ManifestScope, folder: String, index: FileIndex) -> [String] {
        let calls = scope.ordered.compactMap { binding -> [ManifestArgument]? in
            guard let c = binding.value.call, c.name == "Workspace" || c.name == ".init" else { return nil }
            return c.arguments
        }
        var out: [String] = []
        for args in calls {
            for item in scope.array(args["projects"], "workspace project") {
                guard let pattern = scope.string(item, "workspace project") else { continue }
                guard pattern.contains("*") else {
                    if let p = ProjectPaths.join(folder, pattern) { out.append(p) }
                    continue
                }
                // `Modules/*`: every folder matching that holds a Project.swift.
                let parts = (folder.isEmpty ? [] : folder.split(separator: "/").map(String.init))
                    + pattern.split(separator: "/").map(String.init)
                for e in index.entries where PathUtil.lastComponent(e.path) == "Project.swift" {
                    let dir = PathUtil.parent(e.path)
                    if GeneratedSourceFiles.match(parts[...], dir.split(separator: "/").map(String.init)[...]) { out.append(dir) }
                }
            }
        }
        return out
    }
}
