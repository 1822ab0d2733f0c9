import Foundation
import Formats

/// A Swift package folder (`Package.swift` at the root, no Xcode project), read statically
/// like a Tuist manifest: each regular or executable target is a bundle of code of its own
/// (`framework` kind: it ships inside whatever app links it), with the sources and privacy
/// manifests under its folder; test targets are test bundles. Targets are taken from
/// `Package(targets: [...])` where the manifest writes them literally, else from the
/// convention (each folder of `Sources/`).
enum SwiftPackageLoader {
    struct Target {
        var name: String
        var path: String
        var isTest: Bool
        var exclude: [String]
        /// `resources: [.process("…"), .copy("…")]`, relative to the target's folder.
        var resources: [String] = []
    }

    static func bundles(index: FileIndex, source: FileSource, limits: ReaderLimits, manifestReader: ManifestExpressionReader?,
                        problems: inout [LoadProblem]) -> [AppBundle] {
        var targets = conventionTargets(index)
        if let reader = manifestReader {
            do {
                let text = String(decoding: try source.read("Package.swift"), as: UTF8.self)
                let file = try reader.read(source: text, path: "Package.swift", limits: limits)
                if let declared = declaredTargets(file), !declared.isEmpty { targets = declared }
            } catch let error as FormatError {
                problems.append(LoadProblem(.unreadable(error), path: "Package.swift"))
            } catch {
                problems.append(LoadProblem(.unreadable(.malformed("Swift package manifest", "\(error)")), path: "Package.swift"))
            }
        }
        var bundles: [AppBundle] = []
        for t in targets where index.entry(t.path) != nil {
            var b = AppBundle(name: t.name, kind: t.isTest ? .unitTests : .framework, path: t.path, id: "Package.swift#" + t.name)
            let excluded = t.exclude.map { PathUtil.join(t.path, $0) }
            for e in index.files(under: t.path) where e.kind == .file {
                guard !excluded.contains(where: { e.path == $0 || e.path.hasPrefix($0 + "/") }) else { continue }
                let ext = PathUtil.pathExtension(e.path)
                if FolderLoader.sourceExtensions.contains(ext) { b.sourceFiles.append(e.path) }
                if ext == "xcprivacy" { b.privacyManifestPaths.append(e.path) }
                if let loc = LocalizationScanner.localizedFile(e.path) { b.localizations.append(loc) }
            }
            b.resourcePaths = t.resources.compactMap { ProjectPaths.join(t.path, $0) }.filter { index.entry($0) != nil }
            bundles.append(b)
        }
        return bundles
    }

    /// `Sources/<Name>` folders as library targets and `Tests/<Name>` as test targets.
    static func conventionTargets(_ index: FileIndex) -> [Target] {
        index.entries.compactMap { e in
            let parts = e.path.split(separator: "/")
            guard e.kind == .directory, parts.count == 2, parts[0] == "Sources" || parts[0] == "Tests" else { return nil }
            return Target(name: String(parts[1]), path: e.path, isTest: parts[0] == "Tests", exclude: [])
        }
    }

    /// The targets `Package(targets:)` lists literally; nil when the manifest builds them in code.
    static func declaredTargets(_ file: ManifestFile) -> [Target]? {
        guard let package = file.bindings.first(where: { if case .call(name: "Package", _, _) = $0.value.kind { true } else { false } }),
              case .call(_, _, let arguments) = package.value.kind,
              let list = arguments.first(where: { $0.label == "targets" }),
              case .array(let items) = list.value.kind else { return nil }
        var out: [Target] = []
        for item in items {
            guard case .call(let function, _, let args) = item.kind else { return nil }
            let kind = function.hasPrefix(".") ? String(function.dropFirst()) : function
            guard ["target", "executableTarget", "testTarget"].contains(kind) else { continue }  // binary, macro, plugin
            guard let nameArg = args.first(where: { $0.label == "name" }), case .string(let name) = nameArg.value.kind else { return nil }
            let isTest = kind == "testTarget"
            var path = (isTest ? "Tests/" : "Sources/") + name
            if let p = args.first(where: { $0.label == "path" }) {
                guard case .string(let written) = p.value.kind else { return nil }
                path = PathUtil.normalize(written)
            }
            var exclude: [String] = []
            if let ex = args.first(where: { $0.label == "exclude" }), case .array(let values) = ex.value.kind {
                exclude = values.compactMap { if case .string(let s) = $0.kind { PathUtil.normalize(s) } else { nil } }
            }
            var resources: [String] = []
            if let r = args.first(where: { $0.label == "resources" }), case .array(let values) = r.value.kind {
                for value in values {
                    guard case .call(let rule, _, let ruleArgs) = value.kind, [".process", ".copy", ".embedInCode"].contains(rule),
                          let first = ruleArgs.first, case .string(let resource) = first.value.kind else { continue }
                    resources.append(PathUtil.normalize(resource))
                }
            }
            out.append(Target(name: name, path: path, isTest: isTest, exclude: exclude, resources: resources))
        }
        return out
    }
}
