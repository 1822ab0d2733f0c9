import Foundation
import Artifacts
import Formats

public struct MissingIconNameRule: Rule {
    public init() {}

    static let appInfo = "<key>CFBundleIdentifier</key><string>com.example.app</string>\n<key>UIDeviceFamily</key><array><integer>1</integer></array>"

    public static let description = RuleDescription(
        identifier: "missing_icon_name",
        name: "CFBundleIconName missing for catalog icons",
        summary: "A built app with an Assets.car, made with the iOS 11 SDK or later or holding an app icon set in it, has no CFBundleIconName.",
        rationale: """
        Apps built with the iOS 11 SDK or later must take their icons from an asset catalog and \
        name the icon set in the Info.plist: `CFBundleIcons` → `CFBundlePrimaryIcon` → \
        `CFBundleIconName` (and the top-level `CFBundleIconName`). Without it App Store \
        Connect rejects the upload with ITMS-90713 "Missing Info.plist value. A value for the \
        Info.plist key 'CFBundleIconName' is missing". Xcode writes the key from the partial \
        Info.plist actool produces when the target's `ASSETCATALOG_COMPILER_APPICON_NAME` names \
        an icon set it found; a missing key means the set was not found, the Info.plist was \
        written by another tool (Flutter, MAUI, fyne and Unity exports have all shipped this), \
        or a build script replaced it. Fix: put the icons in an `.appiconset` of the target's \
        asset catalog, set `ASSETCATALOG_COMPILER_APPICON_NAME` to its name, and check the \
        built Info.plist has `CFBundleIconName`.

        As the upload check is described (a missing `CFBundleIconName` while `Assets.car` is \
        present), only apps that ship an `Assets.car` are judged; apps built with an older SDK \
        (legacy `CFBundleIconFiles`) only when their `Assets.car` holds an app icon set.
        """,
        area: .bundle, severity: .error, tags: ["app-store", "icons"],
        references: ["https://developer.apple.com/documentation/bundleresources/information_property_list/cfbundleicons",
                     "https://developer.apple.com/documentation/xcode/configuring-your-app-icon"],
        itms: ["ITMS-90713"],
        triggering: [
            RuleExample(["Info.plist": plistXMLMarkingRoot(appInfo + "\n<key>DTSDKName</key><string>iphoneos17.0</string>\n<key>DTPlatformVersion</key><string>17.0</string>")],
                        binaryFixtures: ["Assets.car": "../AssetCatalog/AppIcon-complete.car"], kind: .app,
                        note: "Built with the iOS 17 SDK; the catalog has the icon set but the Info.plist does not name it."),
            RuleExample(["Info.plist": plistXML(appInfo + "\n↓<key>CFBundleIcons</key><dict><key>CFBundlePrimaryIcon</key><dict><key>CFBundleIconFiles</key><array><string>AppIcon60x60</string></array></dict></dict>")],
                        binaryFixtures: ["Assets.car": "../AssetCatalog/AppIcon-complete.car", "AppIcon60x60@2x.png": "../AssetCatalog/cgbi-120.png"],
                        kind: .app, note: "No SDK keys (a hand-made package): the app icon set in Assets.car shows catalog icons are meant."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML(appInfo + "\n<key>DTSDKName</key><string>iphoneos17.0</string>\n<key>CFBundleIcons</key><dict><key>CFBundlePrimaryIcon</key><dict><key>CFBundleIconName</key><string>AppIcon</string></dict></dict>")],
                        binaryFixtures: ["Assets.car": "../AssetCatalog/AppIcon-complete.car"], kind: .app),
            RuleExample(["Info.plist": plistXML(appInfo + "\n<key>DTSDKName</key><string>iphoneos10.0</string>\n<key>CFBundleIcons</key><dict><key>CFBundlePrimaryIcon</key><dict><key>CFBundleIconFiles</key><array><string>AppIcon60x60</string></array></dict></dict>")],
                        binaryFixtures: ["Assets.car": "../AssetCatalog/Images-only.car", "AppIcon60x60@2x.png": "../AssetCatalog/cgbi-120.png"],
                        kind: .app, note: "Built with the iOS 10 SDK, icons as files: CFBundleIconName was not required yet."),
            RuleExample(["App/Info.plist": plistXML(appInfo)], note: "Source folders: Xcode writes the key when it builds."),
            RuleExample(["Info.plist": plistXML(appInfo + "\n<key>DTSDKName</key><string>iphoneos17.0</string>")], kind: .app,
                        note: "No Assets.car: the upload check is described for apps that ship one; not judged."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        guard Readiness.builtKinds.contains(context.product.kind), let resources = context.product.resources else { return [] }
        var out: [Finding] = []
        for b in context.product.bundles where (b.kind == .app || b.kind == .appClip) && AppIcons.isIOS(b) && Readiness.hasReadableInfoPlist(b) {
            guard AppIcons.primaryIconName(b) == nil else { continue }
            let sdk = AppIcons.sdkVersion(b)
            let modernSDK = sdk.flatMap { Readiness.compareVersions($0, "11.0") }.map { $0 != .orderedAscending } ?? false
            guard let car = AppIcons.compiledCatalogPath(b, resources: resources) else { continue }
            // The catalog is read only when the SDK does not decide.
            if !modernSDK {
                guard case .success(let catalog) = resources.compiledAssetCatalog(car), catalog.facets.contains(where: \.isAppIcon) else { continue }
            }
            let why = modernSDK ? "built with the iOS \(sdk ?? "11") SDK" : "its Assets.car holds an app icon set"
            out.append(finding("\(b.name) has no CFBundleIconName, but it is \(why): App Store Connect rejects it (ITMS-90713)",
                               bundle: b.name, at: Readiness.location(of: "CFBundleIcons", in: b), key: "CFBundleIconName",
                               fix: "Set ASSETCATALOG_COMPILER_APPICON_NAME to the app icon set of the target's asset catalog so that Xcode writes CFBundleIcons → CFBundlePrimaryIcon → CFBundleIconName.",
                               fingerprint: ["missing"]))
        }
        return out
    }
}
