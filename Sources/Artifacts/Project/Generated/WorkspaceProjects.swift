import Foundation
import Formats

/// The projects committed workspaces name (`*.xcworkspace/contents.xcworkspacedata`):
/// `<FileRef location = "container:mail.xcodeproj">`, also inside `<Group>`s, whose own
/// location is the folder `group:` references start from. A workspace names generated
/// projects that are not committed; the spec that writes one is then known to be the source
/// of a project the developers build.
///
/// The file is scanned, not parsed: only `location` attributes of `FileRef` and `Group`
/// elements are read, within the reader limits, so malformed XML yields fewer references,
/// never an error. `absolute:`, `self:` and `developer:` references are not in the input.
enum WorkspaceProjects {
    struct Reference: Equatable {
        var workspace: String
        /// The project named, relative to the input root.
        var project: String
        var line: Int
    }

    static let maxGroupDepth = 64

    static func read(index: FileIndex, source: FileSource, limits: ReaderLimits) -> [Reference] {
        var out: [Reference] = []
        for e in index.entries where e.kind == .file && PathUtil.lastComponent(e.path) == "contents.xcworkspacedata" {
            let workspace = PathUtil.parent(e.path)
            // A project's own workspace (`App.xcodeproj/project.xcworkspace`) names only itself.
            guard PathUtil.pathExtension(workspace) == "xcworkspace", !PathUtil.parent(workspace).hasSuffix(".xcodeproj"),
                  !XcodeProjectLoader.skippedFolders.contains(where: { workspace.split(separator: "/").contains(Substring($0)) }),
                  let text = try? ProjectFiles.readText(e.path, source: source, index: index, limits: limits, format: "workspace")
            else { continue }
            out += references(in: text, workspace: workspace)
        }
        return out
    }

    static func references(in text: String, workspace: String) -> [Reference] {
        let container = PathUtil.parent(workspace)
        var groups: [String] = [container]
        var unstacked = 0  // groups past `maxGroupDepth`, opened but not stacked
        var out: [Reference] = []
        var line = 1
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            line += rest[..<open].reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            let tag = rest[rest.index(after: open)..<close]
            line += tag.reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
            rest = rest[rest.index(after: close)...]
            let name = tag.prefix { !$0.isWhitespace && $0 != "/" }
            if tag.hasPrefix("/") {
                if tag.dropFirst().hasPrefix("Group") {
                    if unstacked > 0 { unstacked -= 1 } else if groups.count > 1 { groups.removeLast() }
                }
                continue
            }
            guard name == "FileRef" || name == "Group" else { continue }
            let path = location(in: tag).flatMap { resolve($0, container: container, group: groups.last ?? container) }
            if name == "Group", !tag.hasSuffix("/") {
                guard groups.count < maxGroupDepth else { unstacked += 1; continue }
                groups.append(path ?? groups.last ?? container)
            } else if name == "FileRef", let path, PathUtil.pathExtension(path) == "xcodeproj" {
                out.append(Reference(workspace: workspace, project: path, line: line))
            }
        }
        return out
    }

    /// The value of `location = "…"` in a tag's text, with XML's predefined entities decoded.
    static func location(in tag: Substring) -> String? {
        guard let key = tag.range(of: "location") else { return nil }
        var rest = tag[key.upperBound...].drop { $0.isWhitespace }
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst().drop { $0.isWhitespace }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        let value = rest.dropFirst().prefix { $0 != quote }
        return value.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// `container:` is relative to the workspace's folder, `group:` to the enclosing group's.
    static func resolve(_ location: String, container: String, group: String) -> String? {
        let parts = location.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        switch parts[0] {
        case "container": return ProjectPaths.join(container, parts[1])
        case "group": return ProjectPaths.join(group, parts[1])
        default: return nil
        }
    }
}
