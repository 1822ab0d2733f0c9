import Foundation
import Formats

/// Translation files on disk that no bundle ships, beside the tables a bundle does ship: a
/// `fr.lproj/Localizable.strings` next to the shipped `en.lproj/Localizable.strings` that no
/// target copies (left out of the target's variant group). French users then see the
/// development language's text although the translation exists.
enum UnshippedLocalizations {
    static func apply(index: FileIndex, to bundles: inout [AppBundle]) {
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
        for i in bundles.indices {
            var found = Set<String>()
            for loc in bundles[i].localizations where loc.kind == .strings || loc.kind == .stringsdict {
                let lproj = PathUtil.parent(loc.path)
                guard lproj.lowercased().hasSuffix(".lproj") else { continue }
                found.formUnion(onDisk[PathUtil.parent(lproj) + "\u{0}" + PathUtil.lastComponent(loc.path)] ?? [])
            }
            bundles[i].unshippedLocalizations = found.sorted().compactMap(LocalizationScanner.localizedFile)
        }
    }
}
