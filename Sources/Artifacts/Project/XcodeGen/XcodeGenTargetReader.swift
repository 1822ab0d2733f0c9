import Foundation
import Formats

/// Reads one XcodeGen target (templates already applied) into a `GeneratedTarget`.
struct XcodeGenTargetReader {
    let projectDir: String
    /// Configuration names and their types (`debug` / `release`).
    let configs: [(name: String, type: String)]
    let options: YAMLNode?
    let packages: [String: String]
    let index: FileIndex
    var files: GeneratedSourceFiles
    var settings: XcodeGenSettings
    var budget: GeneratedSettingsBudget
    var problems: [LoadProblem] = []
    var usesExternalCode = false
    var remotePackages = Set<String>()

    mutating func read(name: String, _ node: YAMLNode, keyPosition: SourcePosition) -> GeneratedTarget? {
        let location = FileLocation(path: node.file, position: keyPosition)
        guard let type = node["type"]?.string, !type.isEmpty else {
            problems.append(XcodeGenSpecFiles.malformed("target '\(name)' has no type", at: location))
            return nil
        }
        let productType = type.hasPrefix("com.apple.product-type.") ? type : "com.apple.product-type." + type
        var target = GeneratedTarget(name: name, productType: productType, productName: node["productName"]?.string,
                                     location: location)
        // `supportedDestinations` targets (platform `auto` or none) are read for iOS.
        let platform = node["platform"]?.string ?? "iOS"
        readSources(node, platform: platform, into: &target)
        target.info = plist(node["info"], setting: "info", target: &target, infoDefaults: true)
        target.entitlements = plist(node["entitlements"], setting: "entitlements", target: &target, infoDefaults: false)
        readDependencies(node["dependencies"], platform: platform, of: &target)
        target.settings.xcconfigs = XcodeGenSettings.configFiles(node["configFiles"], configs: configs.map(\.name))
        for (config, _) in configs {
            var values = GeneratedPresets.target(platform: platform)
            let deployment = node["deploymentTarget"] ?? options?["deploymentTarget"]?.mapping?
                .first { $0.key.lowercased() == platform.lowercased() }?.value
            if let v = deployment?.string {
                values.append(GeneratedSetting(key: GeneratedPresets.deploymentSetting(forPlatform: platform), value: v,
                                               location: deployment?.location))
            }
            if let options, let prefix = options.entry("bundleIdPrefix"), let value = prefix.value.string {
                values.append(GeneratedSetting(key: "PRODUCT_BUNDLE_IDENTIFIER", value: value + "." + name,
                                               location: FileLocation(path: options.file, position: prefix.keyPosition)))
            }
            values += target.pathSettings
            values += settings.assignments(node["settings"], config: config)
            guard budget.charge(values.count) else { return nil }
            target.settings.values[config] = values
        }
        problems += settings.problems
        settings.problems = []
        return target
    }

    /// A path written in the spec, relative to its file's folder, as a path of the input.
    func inputPath(_ node: YAMLNode) -> String? {
        node.string.flatMap { ProjectPaths.join(node.baseDir, $0) }
    }

    // MARK: - Sources

    /// False for an entry limited to other platforms (`destinationFilters`, `platformFilters`).
    static func applies(_ item: YAMLNode, to platform: String) -> Bool {
        for key in ["destinationFilters", "platformFilters"] {
            if let filters = item[key]?.strings, !filters.isEmpty,
               !filters.contains(where: { $0.lowercased() == platform.lowercased() }) { return false }
        }
        if let one = item["platformFilter"]?.string, one.lowercased() != platform.lowercased() { return false }
        return true
    }

    mutating func readSources(_ node: YAMLNode, platform: String, into target: inout GeneratedTarget) {
        guard let list = node["sources"] else { return }
        for item in list.sequence ?? [list] where Self.applies(item, to: platform) {
            let pathNode = item.string != nil ? item : item["path"]
            guard let pathNode, let path = inputPath(pathNode) else { continue }
            let phase = item["buildPhase"]?.string ?? item["buildPhase"]?.mapping?.first?.key
            if phase == "none" || item["optional"]?.bool == true && index.entry(path) == nil { continue }
            guard index.entry(path) != nil || !files.under(path).isEmpty else {
                problems.append(LoadProblem(.missingReference(setting: "sources"), path: path, bundle: target.name,
                                            referencedFrom: pathNode.location))
                continue
            }
            let found = files.files(at: path, excludes: item["excludes"]?.strings ?? [],
                                    includes: item["includes"]?.strings ?? [])
            if phase == "resources" || item["type"]?.string == "folder" {
                target.resources += found
            } else {
                GeneratedSourceFiles.classify(found, into: &target)
            }
        }
    }

    // MARK: - Info.plist and entitlements

    /// `info:` always generates its file (defaults plus properties); `entitlements:` does when
    /// it has properties, else names an existing file like CODE_SIGN_ENTITLEMENTS.
    mutating func plist(_ node: YAMLNode?, setting: String, target: inout GeneratedTarget, infoDefaults: Bool) -> GeneratedPlist? {
        guard let node, node.mapping != nil else { return nil }
        let path = node["path"].flatMap(inputPath)
        let key = setting == "info" ? "INFOPLIST_FILE" : "CODE_SIGN_ENTITLEMENTS"
        if let path, let pathNode = node["path"] {
            target.pathSettings.append(GeneratedSetting(key: key, value: GeneratedProjectGraph.relative(path, from: projectDir),
                                                                 location: pathNode.location))
        }
        let properties = node["properties"]
        guard infoDefaults || properties != nil else { return nil }
        var root = properties?.plistNode ?? PlistNode(.dictionary(PlistDictionary()), position: node.position)
        if root.dictionary == nil { root = PlistNode(.dictionary(PlistDictionary()), position: node.position) }
        return GeneratedPlist(path: path, root: root, defaults: infoDefaults ? GeneratedPlist.infoDefaults : [:],
                              location: node.location)
    }

    // MARK: - Dependencies

    mutating func readDependencies(_ node: YAMLNode?, platform: String, of target: inout GeneratedTarget) {
        for dep in node?.sequence ?? [] where Self.applies(dep, to: platform) {
            let embedDefault = target.isApplication
            let embed = dep["embed"]?.bool ?? embedDefault
            let link = dep["link"]?.bool ?? true
            if let name = dep["target"]?.string {
                // `Other/Target` names a target of another project.
                guard !name.contains("/") else { continue }
                target.dependencies.append(GeneratedDependency(kind: .target, name: name, embed: embed, link: link))
            } else if let name = dep["package"]?.string {
                if packages[name] == nil { remotePackages.insert(name); usesExternalCode = true }
                let products = dep["products"]?.strings ?? [dep["product"]?.string ?? name]
                for product in products {
                    target.dependencies.append(GeneratedDependency(kind: .package(product: product), name: name, embed: false))
                }
            } else if dep["framework"] != nil || dep["carthage"] != nil || dep["xcframework"] != nil {
                usesExternalCode = true
            }
        }
    }
}
