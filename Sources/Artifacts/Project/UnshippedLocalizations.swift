import Foundation
import Formats

/// Translation files on disk that no bundle ships, beside the tables a bundle does ship: a
/// `fr.lproj/Localizable.strings` next to the shipped `en.lproj/Localizable.strings` that no
/// target copies (left out of the target's variant group). French users then see the
/// development language's text although the translation exists. Files identical to a shipped
/// file of their name are copies, not translations, and are left out.
enum UnshippedLocalizations {
    /// Files compared byte for byte with the shipped files of their name, at most.
    static let maxCompared = 2_000

    static func apply(index: FileIndex, source: FileSource, limits: ReaderLimits, to bundles: inout [AppBundle]) {
        let shipped = Set(bundles.flatMap { $0.localizations.map(\.path) })
        // Folder holding .lproj folders + file name → files of that name in its .lproj folders.
        var onDisk: [String: [String]] = [:]
        for e in index.entries where e.kind == .file {
            let lproj = PathUtil.parent(e.path)
            guard lproj.lowercased().hasSuffix(".lproj"), !shipped.contains(e.path), !FolderLoader.isSkipped(e.path) else { continue }
            let ext = PathUtil.pathExtension(e.path)
            guard ext == "strings" || ext == "stringsdict" else { continue }
            onDisk[PathUtil.parent(lproj) + "\u{0}" + PathUtil.lastComponent(e.path), default: []].append(e.path)
        }
        guard !onDisk.isEmpty else { return }
        var compared = 0
        var copies: [String: Bool] = [:]
        // A file that repeats a shipped file of its name byte for byte (a translation service's
        // untranslated copy of the development language) would change nothing if shipped.
        func isCopy(_ path: String, of shippedFiles: [String]) -> Bool {
            if let known = copies[path] { return known }
            var result = false
            if let size = index.entry(path)?.size, size <= Int64(limits.maxFileBytes) {
                for other in shippedFiles where index.entry(other)?.size == size && compared < maxCompared {
                    compared += 1
                    if let a = try? source.read(path), let b = try? source.read(other), a == b { result = true; break }
                }
            }
            copies[path] = result
            return result
        }
        for i in bundles.indices {
            var found = Set<String>()
            var shippedByKey: [String: [String]] = [:]
            for loc in bundles[i].localizations where loc.kind == .strings || loc.kind == .stringsdict {
                let lproj = PathUtil.parent(loc.path)
                guard lproj.lowercased().hasSuffix(".lproj") else { continue }
                shippedByKey[PathUtil.parent(lproj) + "\u{0}" + PathUtil.lastComponent(loc.path), default: []].append(loc.path)
            }
            for (key, shippedFiles) in shippedByKey {
                for path in onDisk[key] ?? [] where !isCopy(path, of: shippedFiles) { found.insert(path) }
            }
            bundles[i].unshippedLocalizations = found.sorted().compactMap(LocalizationScanner.localizedFile)
        }
    }
}
