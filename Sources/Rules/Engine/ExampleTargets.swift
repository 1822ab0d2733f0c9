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

    public init(_ name: String, type: String = "application", settings: [String: String] = [:], sources: [String] = [],
                links: [String] = [], embeds: [String] = []) {
        self.name = name
        self.productType = type.hasPrefix("com.apple.") ? type : "com.apple.product-type." + type
        self.settings = settings
        self.sources = sources
        self.links = links
        self.embeds = embeds
    }
}

/// A complete `project.pbxproj` with several targets that link and embed each other, for
/// rule examples about a target's code closure. Object ids are derived from target order.
public func exampleProject(targets: [ExampleTarget]) -> String {
    func id(_ kind: Character, _ target: Int, _ item: Int = 0) -> String {
        String(kind) + String(format: "%011d%012d", target + 1, item)
    }
    let index = Dictionary(targets.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
    var objects: [String] = []
    var targetIDs: [String] = []
    var groupChildren: [String] = []
    for (t, target) in targets.enumerated() {
        let product = id("R", t)
        let ext = target.productType.contains("extension") ? "appex" : target.productType.contains("framework") ? "framework"
            : target.productType.contains("library") ? "a" : "app"
        objects.append("\(product) = {isa = PBXFileReference; explicitFileType = wrapper; path = \"\(target.name).\(ext)\"; sourceTree = BUILT_PRODUCTS_DIR; };")
        var phases: [String] = []
        var sourceFiles: [String] = []
        for (i, path) in target.sources.enumerated() {
            let ref = id("F", t, i + 1), build = id("B", t, i + 1)
            objects.append("\(ref) = {isa = PBXFileReference; path = \"\(path)\"; sourceTree = SOURCE_ROOT; };")
            objects.append("\(build) = {isa = PBXBuildFile; fileRef = \(ref); };")
            groupChildren.append(ref)
            sourceFiles.append(build)
        }
        if !sourceFiles.isEmpty {
            objects.append("\(id("S", t)) = {isa = PBXSourcesBuildPhase; files = (\(sourceFiles.joined(separator: ", "))); };")
            phases.append(id("S", t))
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
        objects.append("\(id("T", t)) = {isa = PBXNativeTarget; buildConfigurationList = \(id("X", t)); buildPhases = (\(phases.joined(separator: ", "))); name = \(target.name); productName = \(target.name); productReference = \(product); productType = \"\(target.productType)\"; };")
        targetIDs.append(id("T", t))
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
