import Foundation
import Artifacts
import Formats

public struct AppIconNotFoundRule: Rule {
    public init() {}

    static let project = exampleProject(targets: [ExampleTarget("App", settings: [
        "INFOPLIST_FILE": "App/Info.plist", "SDKROOT": "iphoneos", "↓ASSETCATALOG_COMPILER_APPICON_NAME": "AppIcon"],
        resources: ["App/Assets.xcassets"])])
    static let builtInfo = "<key>CFBundleIdentifier</key><string>com.example.app</string>\n<key>DTSDKName</key><string>iphoneos17.0</string>\n"
    static func icons(_ name: String, alternate: String = "") -> String {
        "<key>CFBundleIcons</key><dict><key>CFBundlePrimaryIcon</key><dict><key>CFBundleIconName</key>↓<string>\(name)</string></dict>\(alternate)</dict>"
    }

    public static let description = RuleDescription(
        identifier: "app_icon_not_found",
        name: "Named app icon set not shipped",
        summary: "The app icon set a target or Info.plist names is not in the asset catalog: ASSETCATALOG_COMPILER_APPICON_NAME with no such .appiconset, or CFBundleIconName / an alternate icon with no such set in Assets.car.",
        rationale: """
        Xcode's actool compiles the icon set `ASSETCATALOG_COMPILER_APPICON_NAME` names into \
        `Assets.car` and writes `CFBundleIconName` for it. When no asset catalog of the target \
        has an `.appiconset` of that name, actool only warns ("None of the input catalogs \
        contained a matching app icon set"), the app builds without an icon, and App Store \
        Connect rejects the upload (ITMS-90713 missing CFBundleIconName, ITMS-90022/90704 \
        missing icons). In a built app, a `CFBundleIconName` (primary or in \
        `CFBundleAlternateIcons`) that names no app icon set of the `Assets.car` — or an app \
        with no `Assets.car` at all — shows a blank icon, and `setAlternateIconName` fails \
        for an alternate. The usual causes: a renamed set, a catalog left out of the target, \
        an Info.plist copied from another app. Fix: rename the set or the setting so they \
        agree, and add the catalog to the target's Copy Bundle Resources.

        Built apps are read from their `Assets.car` (only its index of assets, not images).
        """,
        area: .bundle, severity: .error, tags: ["app-store", "icons"],
        references: ["https://developer.apple.com/documentation/xcode/configuring-your-app-icon",
                     "https://developer.apple.com/documentation/bundleresources/information_property_list/cfbundleicons"],
        itms: [],
        triggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": project, "App/Info.plist": plistXML(""),
                         "App/Assets.xcassets/Contents.json": "{}",
                         "App/Assets.xcassets/Icon.appiconset/Contents.json": #"{"images":[{"idiom":"universal","platform":"ios","size":"1024x1024"}]}"#],
                        note: "The set was renamed to Icon; the build setting still says AppIcon."),
            RuleExample(["Info.plist": plistXML(builtInfo + icons("AppIcon"))],
                        binaryFixtures: ["Assets.car": "../AssetCatalog/Images-only.car"], kind: .app,
                        note: "The Info.plist names AppIcon; the Assets.car has no app icon set."),
            RuleExample(["Info.plist": plistXML(builtInfo + icons("AppIcon"))], kind: .app,
                        note: "No Assets.car at all."),
            RuleExample(["Info.plist": plistXML(builtInfo + "<key>CFBundleIcons</key><dict><key>CFBundlePrimaryIcon</key><dict><key>CFBundleIconName</key><string>AppIcon</string></dict><key>CFBundleAlternateIcons</key><dict><key>Dark</key><dict><key>CFBundleIconName</key>↓<string>Midnight</string></dict></dict></dict>")],
                        binaryFixtures: ["Assets.car": "../AssetCatalog/AppIcon-alternates.car"], kind: .app,
                        note: "An alternate icon names a set the catalog does not have."),
        ],
        nonTriggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": project.replacingOccurrences(of: "↓", with: ""), "App/Info.plist": plistXML(""),
                         "App/Assets.xcassets/Contents.json": "{}",
                         "App/Assets.xcassets/Icons/AppIcon.appiconset/Contents.json": #"{"images":[{"idiom":"universal","platform":"ios","size":"1024x1024"}]}"#],
                        note: "The set may sit in a group folder of the catalog."),
            RuleExample(["Info.plist": plistXML(builtInfo + "<key>CFBundleIcons</key><dict><key>CFBundlePrimaryIcon</key><dict><key>CFBundleIconName</key><string>AppIcon</string></dict><key>CFBundleAlternateIcons</key><dict><key>Dark</key><dict><key>CFBundleIconName</key><string>Dark</string></dict></dict></dict>")],
                        binaryFixtures: ["Assets.car": "../AssetCatalog/AppIcon-alternates.car"], kind: .app),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [ExampleTarget("App", settings: [
                "INFOPLIST_FILE": "App/Info.plist", "SDKROOT": "iphoneos", "ASSETCATALOG_COMPILER_APPICON_NAME": "AppIcon"],
                resources: ["App/Assets.xcassets", "App/AppIcon.icon"])]), "App/Info.plist": plistXML(""),
                         "App/Assets.xcassets/Contents.json": "{}", "App/Assets.xcassets/Logo.imageset/Contents.json": "{}",
                         "App/AppIcon.icon/icon.json": #"{"groups":[]}"#],
                        note: "An Icon Composer document (Xcode 26) is the icon, outside the asset catalog."),
            RuleExample(["App.xcodeproj/project.pbxproj": project.replacingOccurrences(of: "↓", with: ""), "App/Info.plist": plistXML(""),
                         "App/Assets.xcassets/Contents.json": "{}"],
                        note: "A catalog with nothing but its Contents.json is filled by a build script: its sets are not known."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>")],
                        binaryFixtures: ["Assets.car": "../AssetCatalog/Images-only.car"], kind: .app,
                        note: "No CFBundleIconName: `missing_icon_name` judges that."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        guard let resources = context.product.resources else { return [] }
        if Readiness.builtKinds.contains(context.product.kind) { return checkBuilt(context, resources) }
        var out: [Finding] = []
        for b in context.product.bundles {
            guard let name = AppIcons.projectIconName(b) else { continue }
            let known = AppIcons.knownIconNames(of: b, in: resources)
            guard !known.contains(name.value), !AppIcons.hasCatalogFilledAtBuildTime(b, in: resources) else { continue }
            let others = known.sorted()
            let catalogs = b.assetCatalogPaths.map(PathUtil.lastComponent).joined(separator: ", ")
            out.append(finding("\(b.name) names app icon set \"\(name.value)\" (ASSETCATALOG_COMPILER_APPICON_NAME), but no asset catalog of the target has one (\(catalogs)"
                               + (others.isEmpty ? ": no app icon set at all)" : ": has \(others.joined(separator: ", ")))"),
                               bundle: b.name, at: name.location ?? FileLocation(path: b.path), key: "ASSETCATALOG_COMPILER_APPICON_NAME",
                               fix: others.count == 1 ? "Set ASSETCATALOG_COMPILER_APPICON_NAME to \(others[0]), or rename that set to \(name.value)."
                                   : "Add an app icon set named \(name.value) to the target's asset catalog, or set ASSETCATALOG_COMPILER_APPICON_NAME to the set it has.",
                               fingerprint: ["project", name.value]))
        }
        return out
    }

    func checkBuilt(_ context: RuleContext, _ resources: ResourceFiles) -> [Finding] {
        var out: [Finding] = []
        for b in context.product.bundles where AppIcons.iconBundleKinds.contains(b.kind) && Readiness.hasReadableInfoPlist(b) {
            var named: [(name: String, location: FileLocation, what: String)] = []
            if let primary = AppIcons.primaryIconName(b) { named.append((primary.name, primary.location, "CFBundleIconName")) }
            for dictionary in ["CFBundleIcons", "CFBundleIcons~ipad"] {
                for alt in AppIcons.alternateIcons(b, in: dictionary) {
                    if let n = alt.iconName { named.append((n, alt.iconNameLocation, "alternate icon \(alt.key) of \(dictionary)")) }
                }
            }
            guard !named.isEmpty else { continue }
            guard let car = AppIcons.compiledCatalogPath(b, resources: resources) else {
                let first = named[0]
                out.append(finding("\(b.name) names app icon set \"\(first.name)\" (\(first.what)) but ships no Assets.car: the app has no icon",
                                   bundle: b.name, at: first.location, key: "CFBundleIconName",
                                   fix: "Build the app with its asset catalog in Copy Bundle Resources so that Assets.car holds the icon set.",
                                   fingerprint: ["no-catalog", first.name]))
                continue
            }
            let catalog: CompiledAssetCatalog
            switch resources.compiledAssetCatalog(car) {
            case .success(let c): catalog = c
            case .failure(let error):
                out.append(finding("\(car) cannot be read (\(error)): the icon set \(named[0].name) cannot be found in it",
                                   bundle: b.name, at: FileLocation(path: car), evidence: [],
                                   fix: "Rebuild the app; a damaged Assets.car shows no icons or images.", fingerprint: ["unreadable", car]))
                continue
            }
            let iconSets = Set(catalog.facets.filter(\.isAppIcon).map(\.name))
            var reported = Set<String>()
            for n in named where !iconSets.contains(n.name) && reported.insert(n.name + n.what).inserted {
                out.append(finding("\(b.name) names app icon set \"\(n.name)\" (\(n.what)), but \(car) has no app icon set of that name"
                                   + (iconSets.isEmpty ? "" : " (it has \(iconSets.sorted().joined(separator: ", ")))"),
                                   bundle: b.name, at: n.location, key: "CFBundleIconName",
                                   fix: "Name an app icon set of the asset catalog, or add \(n.name).appiconset to the catalog the target compiles.",
                                   fingerprint: ["built", n.what, n.name]))
            }
        }
        return out
    }
}
