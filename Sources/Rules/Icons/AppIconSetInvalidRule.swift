import Foundation
import Artifacts
import Formats

public struct AppIconSetInvalidRule: Rule {
    public init() {}

    static let project = exampleProject(targets: [ExampleTarget("App", settings: [
        "INFOPLIST_FILE": "App/Info.plist", "SDKROOT": "iphoneos", "ASSETCATALOG_COMPILER_APPICON_NAME": "AppIcon"],
        resources: ["App/Assets.xcassets"])])
    static let set = "App/Assets.xcassets/AppIcon.appiconset/"
    static func files(_ contents: String) -> [String: String] {
        ["App.xcodeproj/project.pbxproj": project, "App/Info.plist": plistXML(""), set + "Contents.json": contents]
    }

    public static let description = RuleDescription(
        identifier: "app_icon_set_invalid",
        name: "App icon set with a broken Contents.json or image",
        summary: "The app icon set a target compiles has a Contents.json that cannot be read, or names an image that is missing, is not a PNG, or has other pixel dimensions than its slot.",
        rationale: """
        actool reads an `.appiconset` from its `Contents.json`: each slot gives an idiom, a \
        size in points, a scale and a file name. A `Contents.json` that is not valid JSON \
        fails the build; a slot whose file is missing or is not a PNG is left empty; an image \
        of the wrong pixel size ("… is 100x100 but should be 120x120") is dropped with a \
        warning — the built app then lacks that icon, and App Store Connect rejects it when \
        the size is a required one (ITMS-90022/90023/90704, see `app_icon_missing_size`). \
        Fix: export each image at exactly points × scale pixels (60 pt @2x = 120×120) and \
        keep file names and `Contents.json` in step (let Xcode write the file).

        Only the sets a target compiles (its primary and alternate icons) are read, and of each \
        PNG only its header.
        """,
        area: .bundle, severity: .error, tags: ["app-store", "icons"],
        references: ["https://developer.apple.com/library/archive/documentation/Xcode/Reference/xcode_ref-Asset_Catalog_Format/AppIconType.html",
                     "https://developer.apple.com/documentation/xcode/configuring-your-app-icon"],
        itms: [],
        triggering: [
            RuleExample(files(#"{"images":[{"idiom":"iphone","size":"60x60","scale":"2x","filename":↓"icon-120.png"}]}"#),
                        binaryFixtures: [set + "icon-120.png": "../AssetCatalog/opaque-100.png"],
                        note: "A 100×100 image in the 60 pt @2x (120×120) slot."),
            RuleExample(files(#"{"images":[{"idiom":"ios-marketing","size":"1024x1024","scale":"1x","filename":↓"store.png"}]}"#),
                        note: "The file is not in the set's folder."),
            RuleExample(files(#"{"images":[{"idiom":"iphone",↓}]}"#), note: "Not valid JSON."),
        ],
        nonTriggering: [
            RuleExample(files(#"{"images":[{"idiom":"iphone","size":"60x60","scale":"2x","filename":"icon-120.png"},{"idiom":"iphone","size":"60x60","scale":"3x"}]}"#),
                        binaryFixtures: [set + "icon-120.png": "../AssetCatalog/opaque-120.png"],
                        note: "An empty slot is not an error here (`app_icon_missing_size` judges required sizes)."),
            RuleExample(files(#"{"images":[{"idiom":"universal","platform":"ios","size":"1024x1024","filename":"icon.png"}]}"#),
                        binaryFixtures: [set + "icon.png": "../AssetCatalog/opaque-1024.png", set + "unused.png": "../AssetCatalog/opaque-100.png"]),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        guard let resources = context.product.resources, !Readiness.builtKinds.contains(context.product.kind) else { return [] }
        var out: [Finding] = []
        var seen = Set<String>()
        for b in context.product.bundles {
            guard let primary = AppIcons.projectIconName(b) else { continue }
            let sets = AppIcons.iconSetFolders(of: b, in: resources)
            var names = [primary.value]
            names += AppIcons.setting("ASSETCATALOG_COMPILER_ALTERNATE_APPICON_NAMES", of: b)?.value.split(separator: " ").map(String.init) ?? []
            for name in names {
                guard let folder = sets[name], seen.insert(folder).inserted else { continue }
                out += check(name: name, folder: folder, bundle: b, resources: resources)
            }
        }
        return out
    }

    func check(name: String, folder: String, bundle b: AppBundle, resources: ResourceFiles) -> [Finding] {
        let contents = PathUtil.join(folder, "Contents.json")
        guard resources.index.entry(contents)?.kind == .file else {
            return [finding("App icon set \(name) of \(b.name) has no Contents.json: actool finds no image in it",
                            bundle: b.name, at: FileLocation(path: folder), fix: "Recreate the set in Xcode's asset catalog editor.",
                            fingerprint: [folder, "no-contents"])]
        }
        if case .failure(let error) = resources.json(contents) {
            let position = error.line.map { SourcePosition(line: $0, column: error.column ?? 1) }
            return [finding("Contents.json of app icon set \(name) (\(b.name)) cannot be read: \(error)",
                            bundle: b.name, at: FileLocation(path: contents, position: position),
                            fix: "Fix the JSON, or recreate the set in Xcode's asset catalog editor.", fingerprint: [folder, "json"])]
        }
        guard let set = AppIcons.iconSet(named: name, folder: folder, resources: resources) else { return [] }
        var out: [Finding] = []
        for slot in set.slots where slot.filename != nil {
            guard let file = slot.filename, let path = set.path(of: slot) else { continue }
            guard resources.index.entry(path)?.kind == .file else {
                out.append(finding("App icon set \(name) of \(b.name) names \(file), which is not in \(PathUtil.lastComponent(folder))",
                                   bundle: b.name, at: slot.location, key: "filename",
                                   fix: "Add \(file) to the set's folder, or clear the slot in Xcode's asset catalog editor.",
                                   fingerprint: [folder, file, "missing"]))
                continue
            }
            switch resources.pngHeader(path) {
            case .failure where resources.isGitLFSPointer(path):
                continue  // a checkout without its Git LFS files: the image is not known
            case .failure(let error):
                out.append(finding("\(file) of app icon set \(name) (\(b.name)) is not a readable PNG: \(error)",
                                   bundle: b.name, at: slot.location, key: "filename",
                                   fix: "Export \(file) as a PNG.", fingerprint: [folder, file, "png"]))
            case .success(let png):
                guard let px = slot.pixels, png.width != px || png.height != px else { continue }
                out.append(finding("\(file) of app icon set \(name) (\(b.name)) is \(png.width)×\(png.height) pixels, but its slot (\(slot.idiom) \(slot.size ?? "") @\(slot.scale)x) needs \(px)×\(px): actool leaves the slot empty",
                                   bundle: b.name, at: slot.location, key: "filename",
                                   fix: "Export \(file) at \(px)×\(px) pixels.", fingerprint: [folder, file, "size"]))
            }
        }
        return out
    }
}
