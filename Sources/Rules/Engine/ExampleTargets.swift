import Foundation

/// One target of `exampleProject(targets:)`.
public struct ExampleTarget: Sendable {
    public var name: String
    public var productType: String
    public var settings: [String: String]
    /// Source files, relative to the project folder, compiled by the target's Sources phase.
    public var sources: [String]
    /// Targets whose products this one links (Frameworks phase).
    public var links: [String]
    /// Targets whose products this one copies into itself (an "Embed" copy-files phase).
    public var embeds: [String]
    /// Files its Resources phase copies. A path built by several targets has one file
    /// reference, as in a real project; `↓` before a path marks that reference's `path` key.
    public var resources: [String]
    public var scripts: [ExampleScript]
    /// Synchronized folders (Xcode 16 `PBXFileSystemSynchronizedRootGroup`) the target lists.
    public var synchronizedFolders: [String]
    /// Folder → `membershipExceptions` of an exception set for this target in that folder's
    /// group: files left out when the target lists the folder, added when it does not.
    public var exceptions: [String: [String]]

    public init(_ name: String, type: String = "application", settings: [String: String] = [:], sources: [String] = [],
                links: [String] = [], embeds: [String] = [], resources: [String] = [], scripts: [ExampleScript] = [],
                synchronizedFolders: [String] = [], exceptions: [String: [String]] = [:]) {
        self.name = name
        self.productType = type.hasPrefix("com.apple.") ? type : "com.apple.product-type." + type
        self.settings = settings
        self.sources = sources
        self.links = links
        self.embeds = embeds
        self.resources = resources
        self.scripts = scripts
        self.synchronizedFolders = synchronizedFolders
        self.exceptions = exceptions
    }
}

/// A Run Script build phase of an example target.
public struct ExampleScript: Sendable {
    public var script: String
    public var outputPaths: [String]
    public var outputFileListPaths: [String]

    public init(_ script: String, outputPaths: [String] = [], outputFileListPaths: [String] = []) {
        self.script = script
        self.outputPaths = outputPaths
        self.outputFileListPaths = outputFileListPaths
    }
}

/// A complete `project.pbxproj` with several targets that link and embed each other, for
/// rule examples about a target's code closure. Object ids are derived from target order.
public func exampleProject(targets: [ExampleTarget]) -> String {
    func id(_ kind: Character, _ target: Int, _ item: Int = 0) -> String {
        String(kind) + String(format: "%011d%012d", target + 1, item)
    }
    func quoted(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
    }
    func list(_ items: [String]) -> String { "(" + items.joined(separator: ", ") + ")" }
    let index = Dictionary(targets.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
    var objects: [String] = []
    var targetIDs: [String] = []
    var groupChildren: [String] = []
    // One file reference per path, named after its first use.
    var fileRefs: [String: String] = [:]
    func fileRef(_ path: String, _ id: String) -> String {
        if let known = fileRefs[path] { return known }
        fileRefs[path] = id
        let marker = path.hasPrefix("↓") ? "↓" : ""
        objects.append("\(id) = {isa = PBXFileReference; \(marker)path = \(quoted(String(path.drop { $0 == "↓" }))); sourceTree = SOURCE_ROOT; };")
        groupChildren.append(id)
        return id
    }
    // One synchronized root group per folder; exception sets by folder.
    var folders: [String] = []
    for folder in targets.flatMap({ $0.synchronizedFolders + $0.exceptions.keys.sorted() }) where !folders.contains(folder) {
        folders.append(folder)
    }
    var exceptionSets: [String: [String]] = [:]
    for (t, target) in targets.enumerated() {
        let product = id("R", t)
        let ext = target.productType.contains("extension") ? "appex" : target.productType.contains("framework") ? "framework"
            : target.productType.contains("library") ? "a" : "app"
        objects.append("\(product) = {isa = PBXFileReference; explicitFileType = wrapper; path = \"\(target.name).\(ext)\"; sourceTree = BUILT_PRODUCTS_DIR; };")
        var phases: [String] = []
        // Sources and Resources phases: (files, file reference id kind, build file id kind, phase id kind, isa).
        for (paths, refKind, buildKind, phaseKind, isa): ([String], Character, Character, Character, String) in [
            (target.sources, "F", "B", "S", "PBXSourcesBuildPhase"), (target.resources, "A", "U", "Q", "PBXResourcesBuildPhase"),
        ] where !paths.isEmpty {
            var files: [String] = []
            for (i, path) in paths.enumerated() {
                let ref = fileRef(path, id(refKind, t, i + 1)), build = id(buildKind, t, i + 1)
                objects.append("\(build) = {isa = PBXBuildFile; fileRef = \(ref); };")
                files.append(build)
            }
            objects.append("\(id(phaseKind, t)) = {isa = \(isa); files = \(list(files)); };")
            phases.append(id(phaseKind, t))
        }
        for (i, script) in target.scripts.enumerated() {
            let phase = id("Z", t, i + 1)
            objects.append("\(phase) = {isa = PBXShellScriptBuildPhase; files = (); inputPaths = (); outputFileListPaths = \(list(script.outputFileListPaths.map(quoted))); outputPaths = \(list(script.outputPaths.map(quoted))); shellPath = /bin/sh; shellScript = \(quoted(script.script)); };")
            phases.append(phase)
        }
        for (i, (folder, members)) in target.exceptions.sorted(by: { $0.key < $1.key }).enumerated() {
            let set = id("Y", t, i + 1)
            exceptionSets[folder, default: []].append(set)
            objects.append("\(set) = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; membershipExceptions = \(list(members.map(quoted))); target = \(id("T", t)); };")
        }
        for (phase, names, isa) in [("K", target.links, "PBXFrameworksBuildPhase"), ("E", target.embeds, "PBXCopyFilesBuildPhase")]
        where !names.isEmpty {
            let files = names.enumerated().compactMap { i, name -> String? in
                guard let other = index[name] else { return nil }
                let build = id(Character(phase == "K" ? "L" : "M"), t, i + 1)
                objects.append("\(build) = {isa = PBXBuildFile; fileRef = \(id("R", other)); };")
                return build
            }
            let extra = isa == "PBXCopyFilesBuildPhase" ? " dstSubfolderSpec = 10;" : ""
            objects.append("\(id(Character(phase), t)) = {isa = \(isa);\(extra) files = (\(files.joined(separator: ", "))); };")
            phases.append(id(Character(phase), t))
        }
        let settings = target.settings.sorted { $0.key < $1.key }.map { "\($0.key) = \"\($0.value)\";" }.joined(separator: " ")
        objects.append("\(id("C", t)) = {isa = XCBuildConfiguration; buildSettings = {\(settings)}; name = Release; };")
        objects.append("\(id("X", t)) = {isa = XCConfigurationList; buildConfigurations = (\(id("C", t))); defaultConfigurationName = Release; };")
        let synchronized = target.synchronizedFolders.isEmpty ? ""
            : " fileSystemSynchronizedGroups = \(list(target.synchronizedFolders.map { id("W", folders.firstIndex(of: $0)!) }));"
        objects.append("\(id("T", t)) = {isa = PBXNativeTarget; buildConfigurationList = \(id("X", t)); buildPhases = (\(phases.joined(separator: ", ")));\(synchronized) name = \(target.name); productName = \(target.name); productReference = \(product); productType = \"\(target.productType)\"; };")
        targetIDs.append(id("T", t))
    }
    for (i, folder) in folders.enumerated() {
        let exceptions = exceptionSets[folder].map { " exceptions = \(list($0));" } ?? ""
        objects.append("\(id("W", i)) = {isa = PBXFileSystemSynchronizedRootGroup;\(exceptions) path = \(quoted(folder)); sourceTree = \"<group>\"; };")
        groupChildren.append(id("W", i))
    }
    return """
    // !$*UTF8*$!
    {
    \tarchiveVersion = 1;
    \tobjectVersion = 56;
    \tobjects = {
    \t\tP0000000000000000000001 = {isa = PBXProject; buildConfigurationList = L0000000000000000000001; mainGroup = G0000000000000000000001; targets = (\(targetIDs.joined(separator: ", "))); };
    \t\tG0000000000000000000001 = {isa = PBXGroup; children = (\(groupChildren.joined(separator: ", "))); sourceTree = "<group>"; };
    \t\tL0000000000000000000001 = {isa = XCConfigurationList; buildConfigurations = (C0000000000000000000001); defaultConfigurationName = Release; };
    \t\tC0000000000000000000001 = {isa = XCBuildConfiguration; buildSettings = {}; name = Release; };
    \(objects.map { "\t\t" + $0 }.joined(separator: "\n"))
    \t};
    \trootObject = P0000000000000000000001;
    }

    """
}
