import Foundation
import Artifacts
import Formats

public struct AppIconMissingSizeRule: Rule {
    public init() {}

    static func project(family: String) -> String {
        exampleProject(targets: [ExampleTarget("App", settings: [
            "INFOPLIST_FILE": "App/Info.plist", "SDKROOT": "iphoneos", "ASSETCATALOG_COMPILER_APPICON_NAME": "AppIcon",
            "TARGETED_DEVICE_FAMILY": family], resources: ["App/Assets.xcassets"])])
    }
    static func iconSet(_ images: [String]) -> String { #"{"images":["# + images.joined(separator: ",") + #"],"info":{"version":1,"author":"xcode"}}"# }
    static let phone = #"{"idiom":"iphone","size":"60x60","scale":"2x","filename":"icon-120.png"}"#
    static let phone3x = #"{"idiom":"iphone","size":"60x60","scale":"3x","filename":"icon-180.png"}"#
    static let pad = #"{"idiom":"ipad","size":"76x76","scale":"2x","filename":"icon-152.png"}"#
    static let padPro = #"{"idiom":"ipad","size":"83.5x83.5","scale":"2x","filename":"icon-167.png"}"#
    static let marketing = #"{"idiom":"ios-marketing","size":"1024x1024","scale":"1x","filename":"icon-1024.png"}"#
    static let set = "App/Assets.xcassets/AppIcon.appiconset/"
    static let images = [set + "icon-120.png": "../AssetCatalog/opaque-120.png", set + "icon-180.png": "../AssetCatalog/opaque-180.png",
                         set + "icon-152.png": "../AssetCatalog/opaque-152.png", set + "icon-167.png": "../AssetCatalog/opaque-167.png",
                         set + "icon-1024.png": "../AssetCatalog/opaque-1024.png"]
    static func builtInfo(family: String) -> String {
        "<key>CFBundleIdentifier</key><string>com.example.app</string>\n<key>DTPlatformName</key><string>iphoneos</string>\n<key>UIDeviceFamily</key><array>\(family)</array>\n<key>CFBundleIcons</key><dict><key>CFBundlePrimaryIcon</key><dict><key>CFBundleIconName</key><string>AppIcon</string></dict></dict>"
    }

    public static let description = RuleDescription(
        identifier: "app_icon_missing_size",
        name: "App icon size App Store Connect requires missing",
        summary: "The app icon set lacks the 1024×1024 App Store icon, the 120×120 iPhone icon, or, for an iPad app, the 152×152 and 167×167 iPad icons.",
        rationale: """
        App Store Connect rejects an iOS app whose asset catalog icon set lacks a size it \
        requires: the 1024×1024 App Store icon (ITMS-90704 "Missing App Icon… must include a \
        1024x1024px App Icon in PNG format"), the iPhone icon of exactly 120×120 pixels \
        (ITMS-90022, 60 pt @2x) and, when `UIDeviceFamily`/`TARGETED_DEVICE_FAMILY` includes \
        iPad, the 152×152 (76 pt @2x) and 167×167 (83.5 pt @2x, iPad Pro) icons (ITMS-90023). \
        Fix: fill those slots of the `.appiconset`, or switch the set to Xcode 14's single \
        size (one 1024×1024 "Any appearance" image from which Xcode makes every size).

        Projects are read from the icon set's `Contents.json` (a slot counts when its image \
        file is there). Built apps are read from `Assets.car`; a catalog thinned for one device \
        (by the App Store, for the simulator, or a Debug build for the run destination) holds \
        only that device's icons and is not judged.
        """,
        area: .bundle, severity: .error, tags: ["app-store", "icons"],
        references: ["https://developer.apple.com/design/human-interface-guidelines/app-icons",
                     "https://developer.apple.com/documentation/xcode/configuring-your-app-icon"],
        itms: ["ITMS-90704", "ITMS-90022", "ITMS-90023"],
        triggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": project(family: "1"), "App/Info.plist": plistXML(""),
                         set + "Contents.json↓": iconSet([phone, phone3x])],
                        binaryFixtures: images, note: "No ios-marketing 1024 slot (ITMS-90704)."),
            RuleExample(["App.xcodeproj/project.pbxproj": project(family: "1,2"), "App/Info.plist": plistXML(""),
                         set + "Contents.json↓": iconSet([phone, phone3x, marketing])],
                        binaryFixtures: images, note: "An iPad app without iPad icons (ITMS-90023)."),
            RuleExample(["Info.plist": plistXML(builtInfo(family: "<integer>1</integer>"))],
                        binaryFixtures: ["Assets.car↓": "../AssetCatalog/AppIcon-no-marketing.car"], kind: .app,
                        note: "A complete (not thinned) Assets.car without the marketing icon."),
            RuleExample(["Info.plist": plistXML(builtInfo(family: "<integer>1</integer><integer>2</integer>"))],
                        binaryFixtures: ["Assets.car↓": "../AssetCatalog/AppIcon-phone-only.car"], kind: .app,
                        note: "UIDeviceFamily includes iPad; the icon set has no iPad sizes."),
        ],
        nonTriggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": project(family: "1,2"), "App/Info.plist": plistXML(""),
                         set + "Contents.json": iconSet([phone, phone3x, pad, padPro, marketing])], binaryFixtures: images),
            RuleExample(["App.xcodeproj/project.pbxproj": project(family: "1,2"), "App/Info.plist": plistXML(""),
                         set + "Contents.json": iconSet([#"{"idiom":"universal","platform":"ios","size":"1024x1024","filename":"icon-1024.png"}"#,
                                                         #"{"idiom":"universal","platform":"ios","size":"1024x1024","appearances":[{"appearance":"luminosity","value":"dark"}]}"#])],
                        binaryFixtures: images, note: "Xcode 14 single size: every size is made from the 1024 image."),
            RuleExample(["Info.plist": plistXML(builtInfo(family: "<integer>1</integer><integer>2</integer>"))],
                        binaryFixtures: ["Assets.car": "../AssetCatalog/AppIcon-complete.car"], kind: .app),
            RuleExample(["Info.plist": plistXML(builtInfo(family: "<integer>1</integer>"))],
                        binaryFixtures: ["Assets.car": "../AssetCatalog/AppIcon-thinned.car"], kind: .app,
                        note: "Thinned by the App Store for one device: other sizes were removed on purpose."),
        ])

    /// A required size: its pixels, the idiom slot that holds it, and the upload error.
    struct Requirement {
        var pixels: Int
        var what: String
        var idiom: String
        var carIdiom: CompiledAssetCatalog.Idiom
        var itms: String
    }

    static func requirements(families: Set<Int>) -> [Requirement] {
        var out = [Requirement(pixels: AppIcons.marketingPixels, what: "1024×1024 App Store icon", idiom: "ios-marketing", carIdiom: .marketing, itms: "ITMS-90704")]
        if families.contains(1) {
            out.append(Requirement(pixels: AppIcons.iPhonePixels, what: "120×120 iPhone icon (60 pt @2x)", idiom: "iphone", carIdiom: .phone, itms: "ITMS-90022"))
        }
        if families.contains(2) {
            out.append(Requirement(pixels: 152, what: "152×152 iPad icon (76 pt @2x)", idiom: "ipad", carIdiom: .pad, itms: "ITMS-90023"))
            out.append(Requirement(pixels: 167, what: "167×167 iPad Pro icon (83.5 pt @2x)", idiom: "ipad", carIdiom: .pad, itms: "ITMS-90023"))
        }
        return out
    }

    public func check(_ context: RuleContext) -> [Finding] {
        guard let resources = context.product.resources else { return [] }
        return Readiness.builtKinds.contains(context.product.kind) ? checkBuilt(context, resources) : checkProject(context, resources)
    }

    func checkProject(_ context: RuleContext, _ resources: ResourceFiles) -> [Finding] {
        var out: [Finding] = []
        for b in context.product.bundles where b.kind == .app && AppIcons.isIOS(b) {
            guard let name = AppIcons.projectIconName(b), let folder = AppIcons.iconSetFolders(of: b, in: resources)[name.value],
                  let set = AppIcons.iconSet(named: name.value, folder: folder, resources: resources) else { continue }
            let present = set.filled.filter { AppIcons.exists($0, in: set, resources: resources) }
            // A set with no image at all is a template never filled: a preview or test app
            // target, not the one uploaded (isowords has nine).
            if present.isEmpty || present.contains(where: \.isSingleSizeIOS) { continue }
            for r in Self.requirements(families: AppIcons.deviceFamilies(b))
            where !present.contains(where: { $0.idiom == r.idiom && $0.pixels == r.pixels }) {
                out.append(finding("App icon set \(name.value) of \(b.name) has no \(r.what): App Store Connect rejects the upload (\(r.itms))",
                                   bundle: b.name, at: FileLocation(path: set.contentsPath), key: "images",
                                   fix: "Add a \(r.pixels)×\(r.pixels) PNG to the \(r.idiom) slot of \(name.value), or make the set a single size (one 1024×1024 image).",
                                   fingerprint: ["project", name.value, String(r.pixels)]))
            }
        }
        return out
    }

    func checkBuilt(_ context: RuleContext, _ resources: ResourceFiles) -> [Finding] {
        var out: [Finding] = []
        for b in context.product.bundles where b.kind == .app && AppIcons.isIOS(b) {
            guard let name = AppIcons.primaryIconName(b)?.name, let car = AppIcons.compiledCatalogPath(b, resources: resources),
                  case .success(let catalog) = resources.compiledAssetCatalog(car),
                  let facet = catalog.facet(named: name), facet.isAppIcon,
                  AppIcons.isComplete(catalog, iconSet: facet, bundle: b) else { continue }
            let renditions = catalog.renditions(of: facet)
            for r in Self.requirements(families: AppIcons.deviceFamilies(b))
            where !AppIcons.hasRendition(renditions, pixels: r.pixels, idioms: [r.carIdiom]) {
                out.append(finding("App icon set \(name) in \(car) of \(b.name) has no \(r.what): App Store Connect rejects the upload (\(r.itms))",
                                   bundle: b.name, at: FileLocation(path: car), key: "CFBundleIconName",
                                   fix: "Add a \(r.pixels)×\(r.pixels) PNG to the \(r.idiom) slot of \(name) (or make the set a single 1024×1024 size) and rebuild.",
                                   fingerprint: ["built", name, String(r.pixels)]))
            }
        }
        return out
    }
}
