import Foundation
import Formats

/// The Swift packages a Tuist project depends on through its package manifest: Tuist 4's
/// `Tuist/Package.swift` (or a root `Package.swift` with `#if TUIST` `PackageSettings`), and
/// Tuist 3's `Tuist/Dependencies.swift` (`SwiftPackageManagerDependencies([.remote(…)])`).
/// Targets reach them as `.external(name:)`; they become the same package references as a
/// `project.pbxproj`'s `XCRemoteSwiftPackageReference`s, for the SDK inventory.
enum TuistPackages {
    /// The package manifest of the Tuist root `root` ("" for the input's root), if any.
    static func manifests(root: String, index: FileIndex, source: FileSource, limits: ReaderLimits) -> [String] {
        var out: [String] = []
        for name in ["Tuist/Package.swift", "Tuist/Dependencies.swift"] {
            let p = root.isEmpty ? name : PathUtil.join(root, name)
            if index.entry(p) != nil { out.append(p) }
        }
        // A root `Package.swift` is Tuist's only when it configures Tuist (a plain package's
        // manifest beside a Project.swift is a package of its own).
        let rootPackage = root.isEmpty ? "Package.swift" : PathUtil.join(root, "Package.swift")
        if out.isEmpty, let e = index.entry(rootPackage), e.size <= Int64(limits.maxSourceFileBytes),
           let text = try? ProjectFiles.readText(rootPackage, source: source, index: index, limits: limits, format: TuistManifestLoader.format),
           text.contains("#if TUIST") || text.contains("PackageSettings(") {
            out.append(rootPackage)
        }
        return out
    }

    /// `Package(dependencies: [.package(url:…), .package(path:)])` or
    /// `Dependencies(swiftPackageManager: .init([.remote(url:requirement:), .local(path:)]))`.
    static func references(in scope: inout ManifestScope) -> [RemotePackageReference] {
        var lists: [ManifestValue] = []
        for binding in scope.ordered {
            guard let call = scope.resolve(binding.value).call else { continue }
            switch call.name {
            case "Package":
                if let d = call.arguments["dependencies"] { lists.append(d) }
            case "Dependencies":
                guard let spm = call.arguments["swiftPackageManager"].map(scope.resolve) else { continue }
                if let inner = spm.call, let d = inner.arguments["packages"] ?? inner.arguments.firstUnlabelled {
                    lists.append(d)
                } else if case .array = spm.kind {
                    lists.append(spm)
                }
            default:
                continue
            }
        }
        var out: [RemotePackageReference] = []
        for list in lists {
            for item in scope.array(list, "the package list") {
                guard let call = item.call else { scope.unreadable(item, "package"); continue }
                guard let urlValue = call.arguments["url"] else { continue }  // `.package(path:)`, `.local(path:)`: in the input
                guard let url = scope.string(urlValue, "package url") else { continue }
                out.append(RemotePackageReference(repositoryURL: url, requirement: requirement(call.arguments, scope: &scope),
                                                  location: FileLocation(path: scope.path, position: urlValue.position)))
            }
        }
        return out
    }

    /// A package's version requirement in words (`from 5.0.0`, `exactly 1.2.3`, `branch main`),
    /// from `from:`/`exact:`/`branch:`/`revision:` or a requirement value
    /// (`.upToNextMajor(from:)`, `.exact(…)`, `.branch(…)`, `.revision(…)`, `.range(from:to:)`).
    static func requirement(_ args: [ManifestArgument], scope: inout ManifestScope) -> String? {
        func text(_ v: ManifestValue?) -> String? {
            guard let v else { return nil }
            var probe = scope
            probe.problems = []
            return probe.string(v, "version")
        }
        if let v = text(args["from"]) { return "from " + v }
        if let v = text(args["exact"]) { return "exactly " + v }
        if let v = text(args["branch"]) { return "branch " + v }
        if let v = text(args["revision"]) { return "revision " + String(v.prefix(12)) }
        let labelled = args["requirement"] ?? args.first { $0.label == nil || $0.label == "_" }?.value
        guard let value = labelled.map(scope.resolve), let call = value.call else { return nil }
        let first = call.arguments["from"] ?? call.arguments.firstUnlabelled
        switch call.name {
        case ".upToNextMajor", ".upToNextMinor", ".upToNextMajorVersion", ".upToNextMinorVersion":
            return text(first).map { "from " + $0 }
        case ".exact", ".exactVersion":
            return text(first).map { "exactly " + $0 }
        case ".branch":
            return text(first).map { "branch " + $0 }
        case ".revision":
            return text(first).map { "revision " + String($0.prefix(12)) }
        case ".range":
            return text(first).map { "from " + $0 + (text(call.arguments["to"]).map { " to " + $0 } ?? "") }
        default:
            return nil
        }
    }
}
