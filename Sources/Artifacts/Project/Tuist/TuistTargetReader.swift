import Foundation
import Formats

/// Interprets `Target(…)` / `.target(…)` of a Tuist project.
struct TuistTargetReader {
    let dir: String
    let configs: [(name: String, type: String)]
    let packages: [String: String]
    var fileList: GeneratedSourceFiles
    var budget: GeneratedSettingsBudget
    var usesExternalCode = false

    static let productTypes: [String: String] = [
        "app": "application", "staticLibrary": "library.static", "dynamicLibrary": "library.dynamic",
        "framework": "framework", "staticFramework": "framework.static", "unitTests": "bundle.unit-test",
        "uiTests": "bundle.ui-testing", "bundle": "bundle", "appExtension": "app-extension",
        "watch2App": "application.watchapp2", "watch2Extension": "watchkit2-extension",
        "appClip": "application.on-demand-install-capable", "messagesExtension": "app-extension.messages",
        "stickerPackExtension": "app-extension.messages-sticker-pack", "commandLineTool": "tool",
        "tvTopShelfExtension": "tv-app-extension", "extensionKitExtension": "extensionkit-extension",
        "xpc": "xpc-service", "systemExtension": "system-extension", "macro": "tool",
    ]

    mutating func read(_ value: ManifestValue, scope: inout ManifestScope) -> GeneratedTarget? {
        guard let call = value.call, ["Target", ".target", "Target.target", ".init"].contains(call.name) else {
            scope.unreadable(value, "target")
            return nil
        }
        // An argument a helper sets to `nil` (`sources: includeSource ? […] : nil`) is left out.
        let args = call.arguments.filter { [scope] in scope.resolve($0.value).kind != .nil }
        let location = scope.location(value)
        guard let name = scope.string(args["name"], "target name") else { return nil }
        guard let productValue = args["product"].map(scope.resolve), let product = productValue.memberName,
              let type = Self.productTypes[product] else {
            if let p = args["product"] { scope.unreadable(scope.resolve(p), "product of target \(name)") }
            return nil
        }
        var target = GeneratedTarget(name: name, productType: "com.apple.product-type." + type,
                                     productName: args["productName"].flatMap { scope.string($0, "product name") },
                                     location: location)
        let platform = Self.platform(args["destinations"] ?? args["platform"], scope: &scope)
        target.sources = files(args["sources"], scope: &scope, sourcesOnly: true)
        target.resources = files(args["resources"], scope: &scope, sourcesOnly: false)
        // Tuist 4.5x `buildableFolders: ["Sources"]`: everything in the folders builds (code)
        // or is copied (the rest), as Xcode's synchronized folders.
        for folder in scope.array(args["buildableFolders"], "buildable folders") {
            guard let path = scope.string(folder, "buildable folder") else { continue }
            let all = glob(path.hasSuffix("/") ? path + "**" : path + "/**", excluding: [])
            target.sources += all.filter(ProjectFileRole.isSource)
            target.resources += all.filter { !ProjectFileRole.isSource($0) }
        }
        readInfoPlist(args["infoPlist"], target: &target, scope: &scope)
        readEntitlements(args["entitlements"], target: &target, scope: &scope)
        for dep in scope.array(args["dependencies"], "dependency list") { readDependency(dep, of: &target, scope: &scope) }
        var settingsReader = TuistSettings()
        let (_, own) = settingsReader.read(args["settings"], scope: &scope, dir: dir)
        target.settings.xcconfigs = own.xcconfigs
        var presets = GeneratedPresets.target(platform: platform)
        if let id = args["bundleId"], let s = scope.string(id, "bundle identifier") {
            presets.append(GeneratedSetting(key: "PRODUCT_BUNDLE_IDENTIFIER", value: s, location: scope.location(id)))
        }
        if let v = Self.deploymentTarget(args["deploymentTargets"] ?? args["deploymentTarget"], scope: &scope) {
            presets.append(GeneratedSetting(key: GeneratedPresets.deploymentSetting(forPlatform: platform), value: v))
        }
        for (config, _) in configs {
            let values = presets + target.pathSettings + (own.values[config] ?? own.values.values.first ?? [])
            guard budget.charge(values.count) else { return nil }
            target.settings.values[config] = values
        }
        return target
    }

    /// `.iOS`, `[.iPhone, .iPad]`, `.watchOS`, `Platform.iOS`… → the XcodeGen-style platform name.
    static func platform(_ value: ManifestValue?, scope: inout ManifestScope) -> String {
        guard let value else { return "iOS" }
        let v = scope.resolve(value)
        var names: [String] = []
        if case .array(let items) = v.kind { names = items.compactMap { scope.resolve($0).memberName } } else if let m = v.memberName { names = [m] }
        let lowered = Set(names.map { $0.lowercased() })
        if lowered.contains("ios") || lowered.contains("iphone") || lowered.contains("ipad") { return "iOS" }
        if lowered.contains("watchos") || lowered.contains("applewatch") { return "watchOS" }
        if lowered.contains("tvos") || lowered.contains("appletv") { return "tvOS" }
        if lowered.contains("visionos") || lowered.contains("applevision") { return "visionOS" }
        if lowered.contains("macos") || lowered.contains("mac") { return "macOS" }
        return "iOS"
    }

    /// `.iOS("17.0")` or `.iOS(targetVersion: "15.0", devices: …)`.
    static func deploymentTarget(_ value: ManifestValue?, scope: inout ManifestScope) -> String? {
        guard let value, let call = scope.resolve(value).call else { return nil }
        return (call.arguments["targetVersion"] ?? call.arguments.firstUnlabelled).flatMap { scope.string($0, "deployment target") }
    }

    // MARK: - Info.plist and entitlements

    /// `"path"` / `.file(path:)` name a file; `.default`, `.extendingDefault(with:)` and
    /// `.dictionary(…)` are generated by Tuist into `Derived/InfoPlists/<Target>-Info.plist`.
    mutating func readInfoPlist(_ value: ManifestValue?, target: inout GeneratedTarget, scope: inout ManifestScope) {
        let location = value.map(scope.location) ?? target.location
        let derived = PathUtil.join(dir, "Derived/InfoPlists/\(target.name)-Info.plist")
        guard let value else {
            generated(PlistNode(.dictionary(PlistDictionary())), path: derived, defaults: GeneratedPlist.infoDefaults, at: location, info: true, into: &target)
            return
        }
        let v = scope.resolve(value)
        switch v.kind {
        case .member(let m) where m.hasSuffix("default"):
            generated(PlistNode(.dictionary(PlistDictionary())), path: derived, defaults: GeneratedPlist.infoDefaults, at: location, info: true, into: &target)
        case .call(let n, _, let args) where n == ".extendingDefault" || n == ".dictionary":
            let before = scope.problems.count
            let root = TuistPlistValues.node(args["with"] ?? args.firstUnlabelled, scope: &scope)
            generated(root, path: derived, defaults: n == ".dictionary" ? [:] : GeneratedPlist.infoDefaults, at: location, info: true, into: &target)
            if root.dictionary == nil { target.info?.error = Self.computed(v, scope.problems.dropFirst(before).first) }
        case .call(let n, _, let args) where n == ".file":
            if let p = scope.string(args["path"] ?? args.firstUnlabelled, "Info.plist path") { pathSetting("INFOPLIST_FILE", p, at: location, into: &target) }
        default:
            let before = scope.problems.count
            if let p = scope.string(v, "Info.plist") {
                pathSetting("INFOPLIST_FILE", p, at: location, into: &target)
            } else {
                // Computed by code that is not run: the Info.plist is unknown, not empty.
                generated(PlistNode(.dictionary(PlistDictionary())), path: derived, defaults: [:], at: location, info: true, into: &target)
                target.info?.error = Self.computed(v, scope.problems.dropFirst(before).first)
            }
        }
    }

    /// The error of an Info.plist a manifest computes with code that is not run.
    static func computed(_ value: ManifestValue, _ problem: LoadProblem?) -> FormatError {
        var reason = "the Info.plist is computed by code that cannot be read statically"
        if let problem, case .unreadable(let e) = problem.kind { reason += " (\(e.reason))" }
        return FormatError(.unsupported, format: TuistManifestLoader.format, reason: reason,
                           line: value.position.line, column: value.position.column)
    }

    mutating func readEntitlements(_ value: ManifestValue?, target: inout GeneratedTarget, scope: inout ManifestScope) {
        guard let value else { return }
        let location = scope.location(value)
        let v = scope.resolve(value)
        switch v.kind {
        case .call(let n, _, let args) where n == ".dictionary":
            let root = TuistPlistValues.node(args.firstUnlabelled, scope: &scope)
            let path = PathUtil.join(dir, "Derived/Entitlements/\(target.name).entitlements")
            generated(root, path: path, defaults: [:], at: location, info: false, into: &target)
        case .call(let n, _, let args) where n == ".file":
            if let p = scope.string(args["path"] ?? args.firstUnlabelled, "entitlements path") {
                pathSetting("CODE_SIGN_ENTITLEMENTS", p, at: location, into: &target)
            }
        default:
            if let p = scope.string(v, "entitlements") { pathSetting("CODE_SIGN_ENTITLEMENTS", p, at: location, into: &target) }
        }
    }

    func pathSetting(_ key: String, _ relative: String, at location: FileLocation, into target: inout GeneratedTarget) {
        target.pathSettings.append(GeneratedSetting(key: key, value: relative, location: location))
    }

    func generated(_ root: PlistNode, path: String, defaults: [String: String], at location: FileLocation, info: Bool,
                   into target: inout GeneratedTarget) {
        var plist = GeneratedPlist(path: path, root: root, defaults: defaults, location: location)
        plist.inTargetFolder = false
        if info { target.info = plist } else { target.entitlements = plist }
        pathSetting(info ? "INFOPLIST_FILE" : "CODE_SIGN_ENTITLEMENTS", GeneratedProjectGraph.relative(path, from: dir), at: location, into: &target)
    }

    // MARK: - Dependencies

    /// `.target(name:)`, `.package(product:)`, `.external(name:)`, `.sdk(…)`, `.framework(path:)`…
    mutating func readDependency(_ value: ManifestValue, of target: inout GeneratedTarget, scope: inout ManifestScope) {
        guard let call = value.call else { scope.unreadable(value, "dependency"); return }
        let args = call.arguments
        switch call.name {
        case ".target", "TargetDependency.target":
            guard let name = scope.string(args["name"] ?? args.firstUnlabelled, "dependency") else { return }
            target.dependencies.append(GeneratedDependency(kind: .target, name: name, embed: target.isApplication))
        case ".package":
            guard let product = scope.string(args["product"] ?? args.firstUnlabelled, "package product") else { return }
            let local = packages[product] != nil ? product : (packages.count == 1 ? packages.keys.first : nil)
            if let local {
                target.dependencies.append(GeneratedDependency(kind: .package(product: product), name: local, embed: false))
            } else {
                usesExternalCode = true
            }
        case ".external", ".framework", ".xcframework", ".library", ".carthage", ".cocoapods":
            usesExternalCode = true
        case ".project":
            // A target of another manifest's project, linked once both are loaded.
            guard let name = scope.string(args["target"], "dependency"), let path = scope.string(args["path"], "project path"),
                  let folder = ProjectPaths.join(dir, path) else { return }
            target.dependencies.append(GeneratedDependency(kind: .project(folder: folder), name: name, embed: target.isApplication))
        default:
            break  // .sdk, .xctest and the like are system code.
        }
    }
}
