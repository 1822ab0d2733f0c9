import Foundation
import Artifacts
import Formats

public struct AlternateIconMissingIPadRule: Rule {
    public init() {}

    static func project(_ extra: [String: String]) -> String {
        exampleProject(targets: [ExampleTarget("App", settings: [
            "INFOPLIST_FILE": "App/Info.plist", "SDKROOT": "iphoneos", "ASSETCATALOG_COMPILER_APPICON_NAME": "AppIcon",
            "TARGETED_DEVICE_FAMILY": "1,2"].merging(extra) { $1 }, resources: ["App/Assets.xcassets"])])
    }
    static let universal = #"{"images":[{"idiom":"universal","platform":"ios","size":"1024x1024","filename":"icon.png"}]}"#
    static let phoneOnly = #"{"images":[{"idiom":"iphone","size":"60x60","scale":"2x","filename":"icon.png"},{"idiom":"iphone","size":"60x60","scale":"3x","filename":"icon.png"}]}"#
    static let withPad = #"{"images":[{"idiom":"iphone","size":"60x60","scale":"2x","filename":"icon.png"},{"idiom":"ipad","size":"76x76","scale":"2x","filename":"icon.png"},{"idiom":"ipad","size":"83.5x83.5","scale":"2x","filename":"icon.png"}]}"#
    static func files(_ dark: String) -> [String: String] {
        ["App.xcodeproj/project.pbxproj": project(["ASSETCATALOG_COMPILER_ALTERNATE_APPICON_NAMES": "Dark"]), "App/Info.plist": plistXML(""),
         "App/Assets.xcassets/AppIcon.appiconset/Contents.json": universal, "App/Assets.xcassets/Dark.appiconset/Contents.json" + dark: dark.isEmpty ? withPad : phoneOnly]
    }
    static let pngs = ["App/Assets.xcassets/AppIcon.appiconset/icon.png": "../AssetCatalog/opaque-1024.png",
                       "App/Assets.xcassets/Dark.appiconset/icon.png": "../AssetCatalog/opaque-1024.png"]
    static func builtInfo(_ alternates: String, ipad: String) -> String {
        "<key>CFBundleIdentifier</key><string>com.example.app</string>\n<key>DTPlatformName</key><string>iphoneos</string>\n<key>UIDeviceFamily</key><array><integer>1</integer><integer>2</integer></array>\n"
            + "<key>CFBundleIcons</key><dict><key>CFBundlePrimaryIcon</key><dict><key>CFBundleIconName</key><string>AppIcon</string></dict><key>CFBundleAlternateIcons</key><dict>\(alternates)</dict></dict>\n"
            + "<key>CFBundleIcons~ipad</key><dict><key>CFBundlePrimaryIcon</key><dict><key>CFBundleIconName</key><string>AppIcon</string></dict><key>CFBundleAlternateIcons</key><dict>\(ipad)</dict></dict>"
    }

    public static let description = RuleDescription(
        identifier: "alternate_icon_missing_ipad",
        name: "Alternate app icon without iPad sizes",
        summary: "An alternate app icon of an iPad-capable app has no iPad entry in CFBundleIcons~ipad, or its icon set lacks the 152×152 and 167×167 iPad sizes.",
        rationale: """
        Alternate icons (`setAlternateIconName`) are listed in `CFBundleIcons` → \
        `CFBundleAlternateIcons` for iPhone and in `CFBundleIcons~ipad` for iPad. When an \
        iPad-capable app's alternate icon has no iPad entry or no iPad sizes, App Store Connect \
        accepts the build with a warning, ITMS-90892 "Missing recommended icon… does not \
        contain an alternate app icon for iPad of exactly '167x167' pixels", and on iPad the \
        alternate shows the wrong image or none. Fix: give each alternate icon set the iPad \
        76 pt @2x and 83.5 pt @2x slots (or make it a single 1024×1024 size) and list it in \
        `ASSETCATALOG_COMPILER_ALTERNATE_APPICON_NAMES`, so that Xcode writes both dictionaries.

        Projects: the sets named by `ASSETCATALOG_COMPILER_ALTERNATE_APPICON_NAMES` (or every \
        other set with `ASSETCATALOG_COMPILER_INCLUDE_ALL_APPICON_ASSETS`). Built apps: the \
        Info.plist, and the sets in a complete (not thinned) `Assets.car`.
        """,
        area: .bundle, severity: .warning, tags: ["app-store", "icons"],
        references: ["https://developer.apple.com/documentation/uikit/uiapplication/setalternateiconname(_:completionhandler:)",
                     "https://developer.apple.com/documentation/bundleresources/information_property_list/cfbundleicons"],
        itms: ["ITMS-90892"],
        triggering: [
            RuleExample(files("↓"), binaryFixtures: pngs, note: "The Dark set has iPhone slots only."),
            RuleExample(["Info.plist": plistXML(builtInfo("↓<key>Dark</key><dict><key>CFBundleIconName</key><string>Dark</string></dict>", ipad: ""))],
                        binaryFixtures: ["Assets.car": "../AssetCatalog/AppIcon-alternates.car"], kind: .app,
                        note: "Dark is not in CFBundleIcons~ipad."),
            RuleExample(["Info.plist": plistXML(builtInfo("<key>Dark</key><dict><key>CFBundleIconName</key><string>Dark</string></dict>",
                                                          ipad: "↓<key>Dark</key><dict><key>CFBundleIconName</key><string>Dark</string></dict>"))],
                        binaryFixtures: ["Assets.car": "../AssetCatalog/AppIcon-alternates.car"], kind: .app,
                        note: "Listed for iPad, but the Dark set of Assets.car has no 152 or 167 image."),
        ],
        nonTriggering: [
            RuleExample(files(""), binaryFixtures: pngs),
            RuleExample(["Info.plist": plistXML(builtInfo("<key>Light</key><dict><key>CFBundleIconName</key><string>Light</string></dict>",
                                                          ipad: "<key>Light</key><dict><key>CFBundleIconName</key><string>Light</string></dict>"))],
                        binaryFixtures: ["Assets.car": "../AssetCatalog/AppIcon-alternates.car"], kind: .app),
            RuleExample(["Info.plist": plistXML(builtInfo("<key>Dark</key><dict><key>CFBundleIconName</key><string>Dark</string></dict>", ipad: "")
                                                .replacingOccurrences(of: "<integer>1</integer><integer>2</integer>", with: "<integer>1</integer>"))],
                        binaryFixtures: ["Assets.car": "../AssetCatalog/AppIcon-alternates.car"], kind: .app,
                        note: "An iPhone-only app needs no iPad icons."),
        ])

    static let iPadSizes = [(152, "76 pt @2x"), (167, "83.5 pt @2x")]

    public func check(_ context: RuleContext) -> [Finding] {
        guard let resources = context.product.resources else { return [] }
        return Readiness.builtKinds.contains(context.product.kind) ? checkBuilt(context, resources) : checkProject(context, resources)
    }

    func checkProject(_ context: RuleContext, _ resources: ResourceFiles) -> [Finding] {
        var out: [Finding] = []
        for b in context.product.bundles where b.kind == .app && AppIcons.isIOS(b) && AppIcons.deviceFamilies(b).contains(2) {
            guard let primary = AppIcons.projectIconName(b) else { continue }
            let sets = AppIcons.iconSetFolders(of: b, in: resources)
            var names = AppIcons.setting("ASSETCATALOG_COMPILER_ALTERNATE_APPICON_NAMES", of: b)?.value.split(separator: " ").map(String.init) ?? []
            if AppIcons.setting("ASSETCATALOG_COMPILER_INCLUDE_ALL_APPICON_ASSETS", of: b)?.value == "YES" {
                names += sets.keys.sorted().filter { $0 != primary.value && !names.contains($0) }
            }
            for name in names {
                guard let folder = sets[name], let set = AppIcons.iconSet(named: name, folder: folder, resources: resources) else { continue }
                let present = set.filled.filter { AppIcons.exists($0, in: set, resources: resources) }
                guard !present.isEmpty, !present.contains(where: \.isSingleSizeIOS) else { continue }
                let missing = Self.iPadSizes.filter { size in !present.contains { $0.idiom == "ipad" && $0.pixels == size.0 } }
                guard !missing.isEmpty else { continue }
                out.append(finding("Alternate app icon set \(name) of \(b.name), an iPad app, has no \(missing.map { "\($0.0)×\($0.0) (\($0.1))" }.joined(separator: " or ")) iPad icon (ITMS-90892)",
                                   bundle: b.name, at: FileLocation(path: set.contentsPath), key: "images",
                                   fix: "Fill the iPad 76 pt @2x and 83.5 pt @2x slots of \(name), or make it a single 1024×1024 size.",
                                   fingerprint: ["project", name]))
            }
        }
        return out
    }

    func checkBuilt(_ context: RuleContext, _ resources: ResourceFiles) -> [Finding] {
        var out: [Finding] = []
        for b in context.product.bundles where b.kind == .app && AppIcons.isIOS(b) && AppIcons.deviceFamilies(b).contains(2) {
            let phone = AppIcons.alternateIcons(b, in: "CFBundleIcons")
            let pad = AppIcons.alternateIcons(b, in: "CFBundleIcons~ipad")
            guard !phone.isEmpty || !pad.isEmpty else { continue }
            for alt in phone where !pad.contains(where: { $0.key == alt.key }) {
                out.append(finding("Alternate icon \(alt.key) of \(b.name), an iPad app, is not listed in CFBundleIcons~ipad: iPad has no image for it (ITMS-90892)",
                                   bundle: b.name, at: alt.location, key: "CFBundleIcons~ipad",
                                   fix: "List \(alt.key) in ASSETCATALOG_COMPILER_ALTERNATE_APPICON_NAMES so that Xcode writes CFBundleIcons~ipad, with iPad sizes in its set.",
                                   fingerprint: ["unlisted", alt.key]))
            }
            guard let car = AppIcons.compiledCatalogPath(b, resources: resources), case .success(let catalog) = resources.compiledAssetCatalog(car),
                  let primaryName = AppIcons.primaryIconName(b)?.name, let primary = catalog.facet(named: primaryName),
                  AppIcons.isComplete(catalog, iconSet: primary, bundle: b) else { continue }
            for alt in pad {
                guard let name = alt.iconName, let facet = catalog.facet(named: name), facet.isAppIcon else { continue }
                let renditions = catalog.renditions(of: facet)
                let missing = Self.iPadSizes.filter { !AppIcons.hasRendition(renditions, pixels: $0.0, idioms: [.pad]) }
                guard !missing.isEmpty else { continue }
                out.append(finding("Alternate icon \(alt.key) (set \(name) in \(car)) of \(b.name), an iPad app, has no \(missing.map { "\($0.0)×\($0.0)" }.joined(separator: " or ")) iPad image (ITMS-90892)",
                                   bundle: b.name, at: alt.location, key: "CFBundleIcons~ipad",
                                   fix: "Fill the iPad 76 pt @2x and 83.5 pt @2x slots of \(name) (or make it a single 1024×1024 size) and rebuild.",
                                   fingerprint: ["sizes", alt.key]))
            }
        }
        return out
    }
}
