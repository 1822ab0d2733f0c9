import Foundation
import Formats

/// Builds a product's SDK inventory from what the input holds: in a built app its embedded
/// frameworks and SDK resource bundles; in a project its lock files (`Podfile.lock`,
/// `Package.resolved`, `Cartfile.resolved`), the `Pods/` folder, package checkouts and
/// `.xcframework`s. A reader: it states what it finds and judges nothing.
enum SDKInventoryLoader {
    static let manifestName = "PrivacyInfo.xcprivacy"

    static func inventory(product: Product, index: FileIndex, source: FileSource, limits: ReaderLimits)
        -> (sdks: [SDKComponent], problems: [LoadProblem]) {
        switch product.kind {
        case .ipa, .app, .xcarchive: return (built(product, index: index), [])
        case .project, .folder, .package: return ProjectSDKs(index: index, source: source, limits: limits).all(references: product.remotePackageReferences)
        case .xcframework:
            let name = PathUtil.removingExtension(PathUtil.lastComponent(product.input))
            return ([ProjectSDKs(index: index, source: source, limits: limits).inputXCFramework(name: name)], [])
        case .machO: return ([], [])
        }
    }

    /// Privacy manifests in a folder and its subfolders.
    static func manifests(under folder: String, index: FileIndex) -> [String] {
        index.files(under: folder).filter { $0.kind == .file && PathUtil.lastComponent($0.path) == manifestName }.map(\.path).sorted()
    }

    // MARK: Built apps

    /// Embedded frameworks (`Frameworks/X.framework`) and resource bundles that hold a privacy
    /// manifest outside a framework (the resources of an SDK linked statically).
    static func built(_ product: Product, index: FileIndex) -> [SDKComponent] {
        var out: [SDKComponent] = []
        let frameworks = product.bundles.filter { $0.kind == .framework && PathUtil.pathExtension($0.path) == "framework" }
        for b in frameworks {
            let info = b.infoPlist?.root
            var c = SDKComponent(name: PathUtil.removingExtension(PathUtil.lastComponent(b.path)),
                                 version: info?["CFBundleShortVersionString"]?.string.flatMap(nonEmpty),
                                 kind: .framework, recognisedBy: "embedded framework",
                                 location: FileLocation(path: b.path), identifier: info?["CFBundleIdentifier"]?.string.flatMap(nonEmpty),
                                 filesPath: b.path)
            c.privacyManifests = manifests(under: b.path, index: index)
            c.bundleID = b.parentID
            out.append(c)
        }
        let frameworkPaths = frameworks.map { $0.path + "/" }
        var seen = Set<String>()
        for e in index.entries where e.kind == .file && PathUtil.lastComponent(e.path) == manifestName {
            let folder = PathUtil.parent(e.path)
            guard PathUtil.pathExtension(folder) == "bundle", !frameworkPaths.contains(where: { e.path.hasPrefix($0) }),
                  seen.insert(folder).inserted else { continue }
            var c = SDKComponent(name: PathUtil.removingExtension(PathUtil.lastComponent(folder)), kind: .resourceBundle,
                                 recognisedBy: "resource bundle with a privacy manifest", location: FileLocation(path: folder),
                                 filesPath: folder)
            c.privacyManifests = [e.path]
            c.bundleID = product.bundles.filter { folder.hasPrefix($0.path + "/") || $0.path.isEmpty }
                .max { $0.path.count < $1.path.count }?.id
            out.append(c)
        }
        return out
    }

    static func nonEmpty(_ s: String) -> String? {
        let t = s.trimmingCharacters(in: .whitespacesAndNewlines)
        return t.isEmpty ? nil : t
    }
}

/// The SDKs of a project folder.
struct ProjectSDKs {
    let index: FileIndex
    let source: FileSource
    let limits: ReaderLimits
    /// Every folder of the input, listed or implied by a file's path.
    let folders: Set<String>
    var problems: [LoadProblem] = []

    init(index: FileIndex, source: FileSource, limits: ReaderLimits) {
        self.index = index
        self.source = source
        self.limits = limits
        var folders = Set<String>()
        for e in index.entries {
            if e.kind == .directory { folders.insert(e.path) }
            var p = PathUtil.parent(e.path)
            while !p.isEmpty, folders.insert(p).inserted { p = PathUtil.parent(p) }
        }
        self.folders = folders
    }

    consuming func all(references: [RemotePackageReference] = []) -> (sdks: [SDKComponent], problems: [LoadProblem]) {
        var out = pods() + packages(references: references) + carthage()
        out += xcframeworks(owners: out.compactMap(\.filesPath))
        return (out, problems)
    }

    /// The files of a name, outside the dependencies' own folders (a package checkout's or a
    /// pod's lock files pin that dependency's development tools, not the app's SDKs).
    func files(named name: String) -> [String] {
        index.entries.filter { e in
            e.kind == .file && PathUtil.lastComponent(e.path) == name && !Self.inDependency(PathUtil.parent(e.path))
        }.map(\.path).sorted()
    }

    /// A path inside a dependency's own folder: a package or Carthage checkout (sources, whose
    /// lock files and prebuilt binaries are the dependency's, not the app's) or a pod.
    static func inDependency(_ path: String) -> Bool {
        path.split(separator: "/").contains { $0 == "checkouts" || $0 == "Checkouts" || $0 == "Pods" }
    }

    /// A file's text, or nil with a problem recorded.
    mutating func text(_ path: String, format: String) -> String? {
        do {
            let data = try source.read(path)
            guard data.count <= limits.maxFileBytes else {
                throw FormatError.limit(format, "max-file-bytes", "input of \(data.count) bytes is larger than \(limits.maxFileBytes) bytes")
            }
            guard let s = String(data: data, encoding: .utf8) else {
                problems.append(LoadProblem(.unreadable(.malformed(format, "not UTF-8 text")), path: path))
                return nil
            }
            return s
        } catch {
            problems.append(LoadProblem(unreadable: error, path: path, bundle: nil))
            return nil
        }
    }

    /// A folder holding at least one file.
    func hasFiles(_ folder: String) -> Bool {
        folders.contains(folder) && index.files(under: folder).contains { $0.kind == .file }
    }

    func withManifests(_ c: SDKComponent, also extra: [String] = []) -> SDKComponent {
        var c = c
        if let p = c.filesPath { c.privacyManifests = SDKInventoryLoader.manifests(under: p, index: index) }
        for folder in extra where hasFiles(folder) { c.privacyManifests += SDKInventoryLoader.manifests(under: folder, index: index) }
        return c
    }

    // MARK: CocoaPods

    /// Pods pinned by each `Podfile.lock` (else by `Pods/Manifest.lock`), with their folders.
    mutating func pods() -> [SDKComponent] {
        var locks = files(named: "Podfile.lock")
        let lockDirs = Set(locks.map { PathUtil.parent($0) })
        let manifestLocks = index.entries.filter { $0.kind == .file && PathUtil.lastComponent($0.path) == "Manifest.lock" }.map(\.path).sorted()
        for m in manifestLocks where PathUtil.lastComponent(PathUtil.parent(m)) == "Pods" && !Self.inDependency(PathUtil.parent(PathUtil.parent(m)))
            && !lockDirs.contains(PathUtil.parent(PathUtil.parent(m))) {
            locks.append(m)
        }
        var out: [SDKComponent] = []
        for lock in locks {
            guard let text = text(lock, format: PodfileLockReader.format) else { continue }
            let inPods = PathUtil.lastComponent(lock) == "Manifest.lock"
            let podsDir = inPods ? PathUtil.parent(lock) : PathUtil.join(PathUtil.parent(lock), "Pods")
            let podfileDir = PathUtil.parent(podsDir)
            do {
                for pod in try PodfileLockReader.read(text, path: lock, limits: limits) {
                    var folder: String?
                    if let local = pod.localPath {
                        folder = ProjectPaths.join(podfileDir, local)
                    } else {
                        folder = PathUtil.join(podsDir, pod.name)
                    }
                    if let f = folder, !hasFiles(f) { folder = nil }
                    let c = SDKComponent(name: pod.name, version: pod.version, kind: .pod,
                                         recognisedBy: "\(PathUtil.lastComponent(lock)) PODS entry", location: pod.location,
                                         origin: pod.externalSource, filesPath: folder)
                    out.append(withManifests(c))
                }
            } catch {
                problems.append(LoadProblem(unreadable: error, path: lock, bundle: nil))
            }
        }
        return out
    }

    // MARK: Swift packages

    /// Packages pinned by each `Package.resolved`, then those the projects reference that no
    /// `Package.resolved` pins (with the requirement as their version), with their checkouts.
    mutating func packages(references: [RemotePackageReference]) -> [SDKComponent] {
        let checkouts = folders.filter { PathUtil.lastComponent(PathUtil.parent($0)) == "checkouts" }.sorted()
        let artifacts = folders.filter { PathUtil.lastComponent(PathUtil.parent($0)) == "artifacts" }.sorted()
        var out: [SDKComponent] = []
        var seen = Set<String>()
        for file in files(named: "Package.resolved") {
            let data: Data
            do {
                data = try source.read(file)
            } catch {
                problems.append(LoadProblem(unreadable: error, path: file, bundle: nil))
                continue
            }
            do {
                for pin in try PackageResolvedReader.read(data, path: file, limits: limits) where seen.insert(pin.identity).inserted {
                    let repo = pin.repositoryName
                    let checkout = checkouts.first {
                        let n = PathUtil.lastComponent($0).lowercased()
                        return n == pin.identity || n == repo?.lowercased()
                    }
                    let binaries = artifacts.filter {
                        let n = PathUtil.lastComponent($0).lowercased()
                        return n == pin.identity || n == repo?.lowercased()
                    }
                    let c = SDKComponent(name: pin.name, version: pin.version ?? pin.branch ?? pin.revision.map { String($0.prefix(12)) },
                                         kind: .swiftPackage, recognisedBy: "Package.resolved pin", location: pin.location,
                                         origin: pin.url, filesPath: checkout.flatMap { hasFiles($0) ? $0 : nil })
                    out.append(withManifests(c, also: binaries))
                }
            } catch {
                problems.append(LoadProblem(unreadable: error, path: file, bundle: nil))
            }
        }
        func repository(_ url: String?) -> String? {
            PackagePin(identity: "", name: "", url: url, location: FileLocation(path: "")).repositoryName?.lowercased()
        }
        var pinned = Set(out.compactMap { repository($0.origin) })
        // A generator spec may name a package without saying where it comes from: not an inventory entry.
        for ref in references where ref.repositoryURL.contains("/") {
            guard let repo = repository(ref.repositoryURL), pinned.insert(repo).inserted, !seen.contains(repo) else { continue }
            let checkout = checkouts.first { PathUtil.lastComponent($0).lowercased() == repo.lowercased() }
            let name = PackagePin(identity: "", name: "", url: ref.repositoryURL, location: ref.location).repositoryName ?? repo
            let c = SDKComponent(name: name, version: ref.requirement, kind: .swiftPackage, recognisedBy: "XCRemoteSwiftPackageReference",
                                 location: ref.location, origin: ref.repositoryURL, filesPath: checkout.flatMap { hasFiles($0) ? $0 : nil })
            out.append(withManifests(c, also: artifacts.filter { PathUtil.lastComponent($0).lowercased() == repo.lowercased() }))
        }
        return out
    }

    // MARK: Carthage

    /// Dependencies of each `Cartfile.resolved`, with their built `.xcframework` when present.
    mutating func carthage() -> [SDKComponent] {
        var out: [SDKComponent] = []
        for file in files(named: "Cartfile.resolved") {
            guard let text = text(file, format: CartfileResolvedReader.format) else { continue }
            let build = PathUtil.join(PathUtil.join(PathUtil.parent(file), "Carthage"), "Build")
            do {
                for dep in try CartfileResolvedReader.read(text, path: file, limits: limits) {
                    let candidates = [dep.name + ".xcframework", "iOS/" + dep.name + ".framework"].map { PathUtil.join(build, $0) }
                    let built = candidates.first { f in folders.contains(f) && hasFiles(f) }
                    let c = SDKComponent(name: dep.name, version: dep.version, kind: .carthage, recognisedBy: "Cartfile.resolved entry",
                                         location: dep.location, origin: dep.origin, filesPath: built)
                    out.append(withManifests(c))
                }
            } catch {
                problems.append(LoadProblem(unreadable: error, path: file, bundle: nil))
            }
        }
        return out
    }

    // MARK: XCFrameworks

    /// Every `.xcframework` folder not inside another, with its signature and manifests; not
    /// those in package or Carthage checkouts (a dependency's sources: what Carthage ships is
    /// copied to `Carthage/Build`, a package's binary target to `SourcePackages/artifacts`).
    func xcframeworks(owners: [String]) -> [SDKComponent] {
        let all = folders.filter { PathUtil.pathExtension($0).lowercased() == "xcframework" }.sorted()
        var out: [SDKComponent] = []
        let checkouts = all.filter { p in p.split(separator: "/").contains { $0 == "checkouts" || $0 == "Checkouts" } }
        for path in all where !all.contains(where: { path.hasPrefix($0 + "/") }) && !checkouts.contains(path) {
            var c = SDKComponent(name: PathUtil.removingExtension(PathUtil.lastComponent(path)), kind: .xcframework,
                                 recognisedBy: owners.contains(where: { path.hasPrefix($0 + "/") || path == $0 })
                                     ? "prebuilt .xcframework of a dependency" : "prebuilt .xcframework",
                                 location: FileLocation(path: path), filesPath: path)
            c = withManifests(c)
            c.version = plistVersion(path)
            let signature = ["_CodeSignature", "Signatures"].map { PathUtil.join(path, $0) }.first { folders.contains($0) }
            c.signature = signature == nil ? .unsigned : .signed
            c.signaturePath = signature
            out.append(c)
        }
        return out
    }

    /// The `.xcframework` that is the input itself (an SDK vendor checking what it ships).
    func inputXCFramework(name: String) -> SDKComponent {
        var c = SDKComponent(name: name, kind: .xcframework, recognisedBy: "the input .xcframework", location: FileLocation(path: ""), filesPath: "")
        c = withManifests(c)
        c.version = plistVersion("")
        let signature = ["_CodeSignature", "Signatures"].first { folders.contains($0) }
        c.signature = signature == nil ? .unsigned : .signed
        c.signaturePath = signature
        return c
    }

    /// `CFBundleShortVersionString` of the first framework slice that has an Info.plist with one.
    func plistVersion(_ xcframework: String) -> String? {
        for e in index.files(under: xcframework) where e.kind == .file && PathUtil.lastComponent(e.path) == "Info.plist"
            && PathUtil.pathExtension(PathUtil.parent(e.path)) == "framework" && e.size < 1 << 20 {
            if let data = try? source.read(e.path), let root = try? PropertyListReader.read(data, limits: limits).root,
               let v = root["CFBundleShortVersionString"]?.string, let t = SDKInventoryLoader.nonEmpty(v) {
                return t
            }
        }
        return nil
    }
}
