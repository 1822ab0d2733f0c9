import Foundation
import Artifacts
import Formats

public struct AppIconAlphaRule: Rule {
    public init() {}

    static func project(sdk: String = "iphoneos", type: String = "application") -> String {
        exampleProject(targets: [ExampleTarget("App", type: type, settings: [
            "INFOPLIST_FILE": "App/Info.plist", "SDKROOT": sdk, "ASSETCATALOG_COMPILER_APPICON_NAME": "AppIcon"],
            resources: ["App/Assets.xcassets"])])
    }
    static let set = "App/Assets.xcassets/AppIcon.appiconset/"
    static func marketing(_ mark: String = "") -> String {
        #"{"images":[{"idiom":"iphone","size":"60x60","scale":"2x","filename":"icon-120.png"},{"idiom":"ios-marketing","size":"1024x1024","scale":"1x","filename":"# + mark + #""icon-1024.png"}]}"#
    }

    public static let description = RuleDescription(
        identifier: "app_icon_alpha",
        name: "App Store or watch icon is transparent",
        summary: "The 1024×1024 App Store icon of an iOS app, or an icon of a watchOS app, is a PNG with transparent pixels (alpha below opaque, or the tRNS colour key).",
        rationale: """
        App Store Connect rejects an App Store icon that "can't be transparent nor contain an \
        alpha channel" (ITMS-90717), and a watch app icon with an alpha channel (ITMS-90396). \
        Rounded corners or a see-through background drawn into the icon are the usual cause. \
        Fix: flatten the icon onto an opaque background and export it without alpha (in \
        Preview: Export, untick Alpha). Dark and tinted variants (`appearances`) are not \
        judged: their background is meant to be transparent.

        Only transparent pixels are reported. Many apps on the App Store have RGBA icons whose \
        every pixel is opaque (Habitica, DuckDuckGo, Simplenote, Loop, VLC among the apps \
        Preflight is measured on), so an alpha channel alone is no evidence of a rejection. \
        The PNG header is read first; only an image whose colour type or `tRNS` chunk allows \
        transparency is decoded (inflated and unfiltered, interlaced ones pass by pass; never kept).
        """,
        area: .bundle, severity: .error, tags: ["app-store", "icons"],
        references: ["https://developer.apple.com/design/human-interface-guidelines/app-icons",
                     "https://developer.apple.com/documentation/xcode/configuring-your-app-icon"],
        itms: ["ITMS-90717", "ITMS-90396"],
        triggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": project(), "App/Info.plist": plistXML(""), set + "Contents.json": marketing("↓")],
                        binaryFixtures: [set + "icon-120.png": "../AssetCatalog/alpha-120.png", set + "icon-1024.png": "../AssetCatalog/alpha-1024.png"],
                        note: "A marketing icon with transparent rows (ITMS-90717); the 120 icon is not judged."),
            RuleExample(["App.xcodeproj/project.pbxproj": project(), "App/Info.plist": plistXML(""),
                         set + "Contents.json": #"{"images":[{"idiom":"universal","platform":"ios","size":"1024x1024","filename":↓"icon-1024.png"}]}"#],
                        binaryFixtures: [set + "icon-1024.png": "../AssetCatalog/trns-1024.png"],
                        note: "A single-size RGB icon whose pixels include the tRNS transparent colour."),
            RuleExample(["App.xcodeproj/project.pbxproj": project(sdk: "watchos"), "App/Info.plist": plistXML(""),
                         set + "Contents.json": #"{"images":[{"idiom":"universal","platform":"watchos","size":"1024x1024","filename":↓"watch.png"}]}"#],
                        binaryFixtures: [set + "watch.png": "../AssetCatalog/filters-last-pixel-64.png"],
                        note: "A watchOS app icon with one translucent pixel (ITMS-90396)."),
        ],
        nonTriggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": project(), "App/Info.plist": plistXML(""), set + "Contents.json": marketing()],
                        binaryFixtures: [set + "icon-120.png": "../AssetCatalog/alpha-120.png", set + "icon-1024.png": "../AssetCatalog/rgba-opaque-1024.png"],
                        note: "An RGBA marketing icon whose every pixel is opaque, as many shipped apps have."),
            RuleExample(["App.xcodeproj/project.pbxproj": project(sdk: "watchos"), "App/Info.plist": plistXML(""),
                         set + "Contents.json": #"{"images":[{"idiom":"universal","platform":"watchos","size":"1024x1024","filename":"watch.png"}]}"#],
                        binaryFixtures: [set + "watch.png": "../AssetCatalog/filters-opaque-64.png"]),
            RuleExample(["App.xcodeproj/project.pbxproj": project(), "App/Info.plist": plistXML(""),
                         set + "Contents.json": #"{"images":[{"idiom":"universal","platform":"ios","size":"1024x1024","filename":"icon-1024.png"}]}"#],
                        binaryFixtures: [set + "icon-1024.png": "../AssetCatalog/trns-unused-1024.png"],
                        note: "A tRNS colour key no pixel has."),
            RuleExample(["App.xcodeproj/project.pbxproj": project(), "App/Info.plist": plistXML(""),
                         set + "Contents.json": #"{"images":[{"idiom":"universal","platform":"ios","size":"1024x1024","filename":"icon-1024.png"},{"idiom":"universal","platform":"ios","size":"1024x1024","filename":"dark.png","appearances":[{"appearance":"luminosity","value":"dark"}]}]}"#],
                        binaryFixtures: [set + "icon-1024.png": "../AssetCatalog/opaque-1024.png", set + "dark.png": "../AssetCatalog/alpha-1024.png"],
                        note: "The dark variant is meant to be transparent."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        guard let resources = context.product.resources, !Readiness.builtKinds.contains(context.product.kind) else { return [] }
        var out: [Finding] = []
        for b in context.product.bundles {
            guard let name = AppIcons.projectIconName(b), let folder = AppIcons.iconSetFolders(of: b, in: resources)[name.value],
                  let set = AppIcons.iconSet(named: name.value, folder: folder, resources: resources) else { continue }
            let watch = AppIcons.isWatch(b)
            guard watch || AppIcons.isIOS(b) else { continue }
            let judged = set.filled.filter { watch ? true : ($0.isMarketing || $0.isSingleSizeIOS) }
            for slot in judged {
                // The header first: only an image that can be transparent is decoded.
                guard let path = set.path(of: slot), resources.index.entry(path)?.kind == .file,
                      case .success(let png) = resources.pngHeader(path), png.hasAlpha,
                      case .success(true) = resources.hasTransparentPixel(path) else { continue }
                let how = png.hasAlphaChannel ? "has transparent pixels (alpha channel, PNG colour type \(png.colorType))"
                    : "has pixels of its transparent colour (tRNS chunk)"
                let what = watch ? "Watch app icon \(slot.filename ?? "")" : "App Store icon \(slot.filename ?? "")"
                out.append(finding("\(what) of icon set \(name.value) (\(b.name)) \(how): App Store Connect rejects it (\(watch ? "ITMS-90396" : "ITMS-90717"))",
                                   bundle: b.name, at: slot.location, key: "filename",
                                   fix: "Export \(slot.filename ?? "the icon") as a PNG without alpha (flatten it onto an opaque background).",
                                   fingerprint: [name.value, slot.filename ?? ""]))
            }
        }
        return out
    }
}
