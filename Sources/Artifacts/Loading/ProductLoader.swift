import Foundation
import Formats

/// An input that cannot be opened as any kind Preflight knows, or that has no app in it.
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A loaded input: the model, plus the source it came from for detectors that read code.
public struct LoadedInput: Sendable {
    public var product: Product
    public var source: FileSource
    public var index: FileIndex
}

/// Detects what an input is by its content and loads it into the one model.
public enum ProductLoader {
    /// `manifestReader` reads Swift manifests (Tuist); without one they are reported unreadable.
    public static func load(path: String, limits: ReaderLimits = .default, buildConfiguration: String? = nil,
                            manifestReader: ManifestExpressionReader? = nil) throws -> LoadedInput {
        let url = URL(fileURLWithPath: path)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) else {
            throw InputError("\(path): no such file or folder")
        }
        if isDir.boolValue {
            let source = try DirectorySource(url, displayName: path, limits: limits)
            let kind = folderKind(url: url, source: source)
            return try load(source: source, kind: kind, limits: limits, buildConfiguration: buildConfiguration,
                            manifestReader: manifestReader)
        }
        // Only a regular file is read as an archive or binary: a FIFO or a device named as the
        // input would block or never end.
        guard (try? FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType) == .typeRegular else {
            throw InputError("\(path): not a regular file or folder")
        }
        let head = try readHead(url)
        if head.starts(with: [0x50, 0x4b, 0x03, 0x04]) || head.starts(with: [0x50, 0x4b, 0x05, 0x06]) {
            let source = try ZipSource(url, displayName: path, limits: limits)
            return try load(source: source, kind: .ipa, limits: limits)
        }
        if MachOReader.isMachO(head) {
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)??.intValue ?? 0
            guard size <= limits.maxFileBytes else {
                throw InputError("\(path): Mach-O file exceeds limit max-file-bytes: \(size) bytes, more than \(limits.maxFileBytes)")
            }
            let data = try Data(contentsOf: url)
            let source = MemorySource(name: path, files: [url.lastPathComponent: data])
            var product = Product(kind: .machO, input: path)
            product.looseBinaries = [ContentLoader.binary(url.lastPathComponent, source: source, limits: limits)]
            if let e = product.looseBinaries[0].error { throw InputError("\(path): \(e)") }
            return LoadedInput(product: product, source: source, index: FileIndex(source.entries))
        }
        throw InputError("\(path): not an .ipa (ZIP archive), .app, .xcarchive, .xcframework, Xcode project folder or Mach-O file")
    }

    static func readHead(_ url: URL) throws -> Data {
        guard let h = FileHandle(forReadingAtPath: url.path) else { throw InputError("\(url.path): cannot open file") }
        defer { try? h.close() }
        return try h.read(upToCount: 8) ?? Data()
    }

    static func folderKind(url: URL, source: FileSource) -> ProductKind {
        let ext = url.pathExtension.lowercased()
        if ext == "xcarchive" { return .xcarchive }
        if ext == "xcframework" { return .xcframework }
        if ext == "app" { return .app }
        if source.entries.contains(where: { $0.path.hasPrefix("Products/Applications/") && $0.path.hasSuffix(".app") }) { return .xcarchive }
        if source.entries.contains(where: { $0.path == "Info.plist" }) && !source.entries.contains(where: { $0.path.hasSuffix(".xcodeproj") }) {
            return .app
        }
        if appRoot(in: source.entries) != nil { return .ipa }
        return source.entries.contains(where: { $0.path.hasSuffix(".xcodeproj") && $0.kind == .directory }) ? .project : .folder
    }

    /// `Payload/*.app`, matched case-insensitively, at the top or one folder deeper.
    static func appRoot(in entries: [FileEntry]) -> String? {
        entries.first { e in
            guard e.kind == .directory, PathUtil.pathExtension(e.path) == "app" else { return false }
            let parts = e.path.split(separator: "/")
            return (parts.count == 2 && parts[0].lowercased() == "payload")
                || (parts.count == 3 && parts[1].lowercased() == "payload")
        }?.path
    }

    public static func load(source: FileSource, kind: ProductKind, limits: ReaderLimits = .default, buildConfiguration: String? = nil,
                            manifestReader: ManifestExpressionReader? = nil) throws -> LoadedInput {
        let index = FileIndex(source.entries)
        var problems: [LoadProblem] = (source as? ZipSource)?.problems ?? []
        for e in index.entries where e.kind == .symlink {
            if let t = e.linkTarget, escapes(link: e.path, target: t) {
                problems.append(LoadProblem(.symlinkOutsideTree(target: t), path: e.path))
            }
        }
        var product = Product(kind: kind, input: source.displayName)
        var bundles: [AppBundle]
        switch kind {
        case .ipa:
            guard let root = appRoot(in: index.entries) else {
                throw InputError("\(source.displayName): no app bundle in the archive (expected Payload/<Name>.app)")
            }
            let payload = PathUtil.parent(root)
            if payload != "Payload" { problems.append(LoadProblem(.payloadNotAtRoot, path: payload)) }
            bundles = BuiltAppLoader.bundles(appRoot: root, rootName: PathUtil.lastComponent(root), index: index)
        case .xcarchive:
            guard let root = index.entries.first(where: {
                $0.kind == .directory && PathUtil.parent($0.path) == "Products/Applications" && PathUtil.pathExtension($0.path) == "app"
            })?.path else {
                throw InputError("\(source.displayName): no app in Products/Applications of the archive")
            }
            bundles = BuiltAppLoader.bundles(appRoot: root, rootName: PathUtil.lastComponent(root), index: index)
        case .app:
            bundles = BuiltAppLoader.bundles(appRoot: "", rootName: PathUtil.lastComponent(source.displayName), index: index)
        case .xcframework:
            bundles = XCFrameworkLoader.bundles(index: index)
        case .project, .folder, .package:
            bundles = try ProjectFolderLoader.bundles(index: index, source: source, limits: limits, buildConfiguration: buildConfiguration,
                                                      manifestReader: manifestReader, product: &product, problems: &problems)
        case .machO:
            bundles = []
        }
        // Bundles load in parallel (reading and parsing dominate); problems keep bundle order.
        let isBuilt = ![ProductKind.project, .folder, .package].contains(product.kind)
        let cache = ParsedFiles()
        ContentLoader.parseLocalizations(of: bundles, source: source, limits: limits, into: cache)
        let results = ConcurrentMap.map(bundles) { bundle -> (AppBundle, [LoadProblem]) in
            var b = bundle, found: [LoadProblem] = []
            ContentLoader.load(&b, source: source, limits: limits, problems: &found, cache: cache)
            if isBuilt { BuiltAppChecks.check(&b, index: index, problems: &found) }
            ContentLoader.loadBinaries(&b, source: source, limits: limits, problems: &found)
            return (b, found)
        }
        bundles = results.map(\.0)
        // An entry refused when listed (encrypted) is refused again when read: report it once.
        let listed = Set(problems.compactMap { p -> String? in
            if case .inaccessible(let r) = p.kind { return p.path + "\u{0}" + r } else { return nil }
        })
        problems += results.flatMap(\.1).filter { p in
            if case .inaccessible(let r) = p.kind { return !listed.contains(p.path + "\u{0}" + r) } else { return true }
        }
        if bundles.isEmpty, kind != .machO {
            throw InputError("\(source.displayName): no app bundle, Info.plist or Xcode project found"
                             + GeneratedProjectLoader.unreadSummary(problems))
        }
        product.bundles = bundles
        if product.kind == .project {
            product.unreferencedEntitlementsFiles = UnreferencedEntitlements.find(index: index, source: source, bundles: bundles, limits: limits)
        }
        let sdks = SDKInventoryLoader.inventory(product: product, index: index, source: source, limits: limits)
        product.sdks = sdks.sdks
        product.problems += problems + sdks.problems
        product.resources = ResourceFiles(source: source, index: index, limits: limits)
        return LoadedInput(product: product, source: source, index: index)
    }

    /// True when a symlink's target, resolved from the link's folder, leaves the tree.
    static func escapes(link: String, target: String) -> Bool {
        if target.hasPrefix("/") { return true }
        var depth = PathUtil.parent(link).split(separator: "/").count
        for c in target.split(separator: "/") {
            if c == ".." { depth -= 1; if depth < 0 { return true } } else if c != "." { depth += 1 }
        }
        return false
    }
}

/// Structure checks of built bundles that the loader can only state as facts.
enum BuiltAppChecks {
    static func check(_ b: inout AppBundle, index: FileIndex, problems: inout [LoadProblem]) {
        let needsInfo: Set<BundleKind> = [.app, .appExtension, .watchApp, .appClip, .framework]
        if b.infoPlistPath == nil, needsInfo.contains(b.kind) {
            problems.append(LoadProblem(.missingInfoPlist, path: b.path, bundle: b.name))
            // A framework's binary is still read by its conventional name (`Kit.framework/Kit`):
            // its code ships and is judged like any other.
            let conventional = PathUtil.join(b.path, PathUtil.removingExtension(PathUtil.lastComponent(b.path)))
            if b.kind == .framework, index.entry(conventional)?.kind == .file, !b.binaryPaths.contains(conventional) {
                b.executablePath = conventional
                b.binaryPaths.insert(conventional, at: 0)
            }
            return
        }
        guard let exe = b.infoPlist?.root?["CFBundleExecutable"]?.string, !exe.isEmpty else { return }
        let exePath = PathUtil.join(b.path, exe)
        if case .exact = index.lookup(exePath) {
            b.executablePath = exePath
            b.binaryPaths.insert(exePath, at: 0)
        } else {
            problems.append(LoadProblem(.missingExecutable(name: exe), path: exePath, bundle: b.name,
                                        referencedFrom: b.infoPlist.map { FileLocation(path: $0.path, position: $0.root?.dictionary?.entry("CFBundleExecutable")?.keyPosition) }))
        }
    }
}

/// Project folders and plain folders. Xcode projects are read by `XcodeProjectLoader`, XcodeGen
/// and Tuist specs with no project beside them by `GeneratedProjectLoader`; a folder with
/// neither (or whose specs cannot be read) falls back to Info.plist discovery.
enum ProjectFolderLoader {
    static func bundles(index: FileIndex, source: FileSource, limits: ReaderLimits, buildConfiguration: String?,
                        manifestReader: ManifestExpressionReader? = nil,
                        product: inout Product, problems: inout [LoadProblem]) throws -> [AppBundle] {
        let projects = XcodeProjectLoader.discoverProjects(in: index)
        var bundles: [AppBundle] = []
        var remotePackages = false
        for project in projects {
            do {
                let result = try XcodeProjectLoader.load(project: project, source: source, index: index,
                                                         limits: limits, configuration: buildConfiguration)
                var loaded = result.bundles
                let taken = Set(bundles.map(\.name))
                for i in loaded.indices where taken.contains(loaded[i].name) {
                    loaded[i].name += " (" + PathUtil.lastComponent(project) + ")"
                }
                bundles += loaded
                problems += result.problems
                remotePackages = remotePackages || result.usesRemotePackages
                product.remotePackageReferences += result.remotePackages
            } catch let error as FormatError {
                problems.append(LoadProblem(.unreadable(error), path: PathUtil.join(project, "project.pbxproj")))
            } catch let error as XcodeProjectError {
                throw InputError("\(project): \(error)")
            }
        }
        let generated = try GeneratedProjectLoader.load(index: index, source: source, limits: limits, configuration: buildConfiguration,
                                                        projects: projects, manifestReader: manifestReader)
        let taken = Set(bundles.map(\.name))
        bundles += generated.bundles.map { b in
            var b = b
            if taken.contains(b.name) { b.name += " (" + (b.infoPlist?.path ?? b.path) + ")" }
            return b
        }
        problems += generated.problems
        product.remotePackageReferences += generated.remotePackages
        remotePackages = remotePackages || generated.usesExternalCode
        if !generated.bundles.isEmpty { product.kind = .project }
        product.projects = projects + generated.specs
        product.generatedProjects = generated.generatedBy
        product.usesExternalCode = index.entries.contains { e in
            let name = PathUtil.lastComponent(e.path)
            return name == "Podfile" || name == "Cartfile" || name == "Package.resolved"
                || PathUtil.pathExtension(e.path) == "xcframework" || (PathUtil.pathExtension(e.path) == "framework" && e.kind == .directory)
        } || remotePackages
        if bundles.isEmpty {
            if projects.isEmpty, index.entry("Package.swift") != nil, !index.entries.contains(where: { FolderLoader.isInfoPlistName(PathUtil.lastComponent($0.path)) }) {
                product.kind = .package
                return SwiftPackageLoader.bundles(index: index, source: source, limits: limits, manifestReader: manifestReader, problems: &problems)
            }
            if !projects.isEmpty { product.kind = .folder }
            return FolderLoader.bundles(index: index, source: source, limits: limits, problems: &problems)
        }
        UnshippedLocalizations.apply(index: index, source: source, limits: limits, to: &bundles)
        for i in bundles.indices where bundles[i].buildSettings["INFOPLIST_PREPROCESS"]?.value == "YES" {
            bundles[i].infoPlistPreprocessorDefinitions = preprocessorDefinitions(
                bundles[i].buildSettings["INFOPLIST_PREPROCESSOR_DEFINITIONS"]?.value ?? "")
        }
        return bundles
    }

    /// `NAME NAME=VALUE "NAME=VALUE WITH SPACES"` as Xcode passes them to the preprocessor.
    static func preprocessorDefinitions(_ setting: String) -> [String: String] {
        var out: [String: String] = [:]
        for word in BuildSettingWords.split(setting) where !word.isEmpty && word != "$(inherited)" {
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            out[parts[0]] = parts.count > 1 ? parts[1] : "1"
        }
        return out
    }
}

public enum BuildSettingWords {
    /// Splits a list-valued build setting on spaces, keeping quoted words together.
    public static func split(_ s: String) -> [String] {
        var words: [String] = [], current = "", quote: Character?
        for ch in s {
            if let q = quote {
                if ch == q { quote = nil } else { current.append(ch) }
            } else if ch == "\"" || ch == "'" {
                quote = ch
            } else if ch == " " || ch == "\t" {
                if !current.isEmpty { words.append(current); current = "" }
            } else {
                current.append(ch)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}
