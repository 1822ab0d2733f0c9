import Foundation
import Artifacts
import Formats

public struct AppIconFilesMissingRule: Rule {
    public init() {}

    static let info = "<key>CFBundleIdentifier</key><string>com.example.app</string>\n<key>DTSDKName</key><string>iphoneos10.3</string>\n"
    static let iconFiles = "<key>CFBundleIcons</key><dict><key>CFBundlePrimaryIcon</key><dict><key>CFBundleIconFiles</key><array>↓<string>Icon-60</string></array></dict></dict>"

    public static let description = RuleDescription(
        identifier: "app_icon_files_missing",
        name: "App icon files missing",
        summary: "A built app names icon files (`CFBundleIconFiles`, `CFBundleIcons` → `CFBundlePrimaryIcon` → `CFBundleIconFiles`, `CFBundleIconFile`) it does not ship, or has no icon at all: no icon set, no icon file.",
        rationale: """
        Before asset catalogs, an app listed its icons by file name: `CFBundleIconFiles` (in \
        `CFBundleIcons` → `CFBundlePrimaryIcon`, or at the top level), or `CFBundleIconFile`; iOS \
        adds `@2x`, `@3x`, `~ipad` and `.png` to each name to find the image. A name with no such \
        file at the root of the bundle (an icon renamed, or left out of Copy Bundle Resources) \
        is rejected by App Store Connect (ITMS-90032 "Invalid Image Path - No image found at the \
        path referenced under key 'CFBundleIconFiles'"), and the Home Screen shows a blank icon. \
        An app with no icon in any form — no `CFBundleIconName`, no icon file names, no \
        `Assets.car`, no `Icon*.png` — is rejected as missing its required icon (ITMS-90022).

        Apps whose Info.plist names a catalog icon set (`CFBundleIconName`) take their icons \
        from `Assets.car`; their file names are not judged here (`app_icon_not_found`, \
        `missing_icon_name` and `app_icon_missing_size` judge catalog icons).

        Fix: move the icons into an app icon set of an asset catalog (Xcode writes the keys), or \
        add the named PNG files to the target's Copy Bundle Resources.
        """,
        area: .bundle, severity: .error, tags: ["app-store", "icons"],
        references: ["https://developer.apple.com/documentation/bundleresources/information-property-list/cfbundleicons",
                     "https://developer.apple.com/documentation/xcode/configuring-your-app-icon"],
        itms: ["ITMS-90032", "ITMS-90022"],
        triggering: [
            RuleExample(["Info.plist": plistXML(info + iconFiles), "Icon-72.png": "png"], kind: .app,
                        note: "Icon-60 is named, but only Icon-72.png ships."),
            RuleExample(["Info.plist": plistXML(info + "<key>CFBundleIconFiles</key><array><string>Icon.png</string>↓<string>Icon-Small</string></array>"),
                         "Icon.png": "png", "Icon@2x.png": "png"], kind: .app,
                        note: "The top-level legacy key: Icon-Small has no file."),
            RuleExample(["Info.plist↓": plistXML(info)], kind: .app, note: "No icon in any form."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML(info + iconFiles.replacingOccurrences(of: "↓", with: "")),
                         "Icon-60@2x.png": "png", "Icon-60@3x.png": "png"], kind: .app,
                        note: "iOS finds Icon-60@2x.png and Icon-60@3x.png for the name Icon-60."),
            RuleExample(["Info.plist": plistXML(info + "<key>CFBundleIconFile</key><string>Icon</string>"), "Icon~ipad.png": "png"], kind: .app),
            RuleExample(["Info.plist": plistXML(info + "<key>CFBundleIcons</key><dict><key>CFBundlePrimaryIcon</key><dict><key>CFBundleIconName</key><string>AppIcon</string><key>CFBundleIconFiles</key><array><string>AppIcon60x60</string></array></dict></dict>")],
                        binaryFixtures: ["Assets.car": "../AssetCatalog/AppIcon-complete.car"], kind: .app,
                        note: "A catalog icon set: the icons come from Assets.car."),
            RuleExample(["Info.plist": plistXML(info), "Icon.png": "png"], kind: .app, note: "Icon.png is the name iOS looks for without a key."),
        ])

    /// Name, where it is written, and the key that names it.
    struct Named { var name: String; var location: FileLocation; var key: String }

    static func namedIconFiles(_ b: AppBundle) -> [Named] {
        guard let info = b.infoPlist, let root = info.root?.dictionary else { return [] }
        func at(_ node: PlistNode, _ entry: PlistEntry) -> FileLocation {
            FileLocation(path: info.path, position: node.position ?? entry.keyPosition)
        }
        var out: [Named] = []
        func add(_ entry: PlistEntry?, _ key: String) {
            guard let entry else { return }
            if let s = entry.value.string, !s.isEmpty { out.append(Named(name: s, location: at(entry.value, entry), key: key)) }
            for item in entry.value.array ?? [] {
                if let s = item.string, !s.isEmpty { out.append(Named(name: s, location: at(item, entry), key: key)) }
            }
        }
        add(root.entry("CFBundleIconFiles"), "CFBundleIconFiles")
        add(root.entry("CFBundleIconFile"), "CFBundleIconFile")
        for key in ["CFBundleIcons", "CFBundleIcons~ipad"] {
            add(root.entry(key)?.value.dictionary?.entry("CFBundlePrimaryIcon")?.value.dictionary?.entry("CFBundleIconFiles"), "\(key) → CFBundlePrimaryIcon → CFBundleIconFiles")
        }
        return out
    }

    /// A file name as iOS matches an icon name: without `.png`, `@2x`/`@3x` and `~ipad`/`~iphone`.
    static func iconBase(_ name: String) -> String {
        var base = name
        if base.lowercased().hasSuffix(".png") { base = String(base.dropLast(4)) }
        for suffix in ["~ipad", "~iphone", "~car"] where base.hasSuffix(suffix) { base = String(base.dropLast(suffix.count)) }
        for suffix in ["@2x", "@3x"] where base.hasSuffix(suffix) { base = String(base.dropLast(suffix.count)) }
        for suffix in ["~ipad", "~iphone", "~car"] where base.hasSuffix(suffix) { base = String(base.dropLast(suffix.count)) }
        return base
    }

    public func check(_ context: RuleContext) -> [Finding] {
        guard Readiness.builtKinds.contains(context.product.kind), let resources = context.product.resources else { return [] }
        var out: [Finding] = []
        for b in context.product.bundles where (b.kind == .app || b.kind == .appClip) && AppIcons.isIOS(b) && Readiness.hasReadableInfoPlist(b) {
            // Catalog icons are the other icon rules'.
            if AppIcons.primaryIconName(b) != nil { continue }
            let pngs = resources.index.files(under: b.path).filter {
                $0.kind != .directory && $0.path.lowercased().hasSuffix(".png")
            }.map { b.path.isEmpty ? $0.path : String($0.path.dropFirst(b.path.count + 1)) }
            let bases = Set(pngs.map(Self.iconBase))
            let named = Self.namedIconFiles(b)
            // One finding per bundle: the names it lists and does not ship, where the first is written.
            var seen = Set<String>()
            let missing = named.filter { !bases.contains(Self.iconBase($0.name)) && seen.insert($0.name).inserted }
            if let first = missing.first {
                let names = missing.prefix(6).map { "\"\($0.name)\"" }.joined(separator: ", ") + (missing.count > 6 ? " and \(missing.count - 6) more" : "")
                let keys = Array(Set(missing.map(\.key))).sorted().joined(separator: ", ")
                out.append(finding("\(b.name) names \(missing.count == 1 ? "icon file" : "\(missing.count) icon files") \(names) in \(keys), but ships no such PNG (name[@2x|@3x][~ipad].png): App Store Connect rejects it (ITMS-90032) and the icon is blank",
                                   bundle: b.name, at: first.location, key: "CFBundleIconFiles",
                                   fix: "Add \(Self.iconBase(first.name))@2x.png (and the other sizes) to the target's Copy Bundle Resources, or move the icons into an app icon set of an asset catalog.",
                                   fingerprint: ["named"] + missing.map(\.name).sorted()))
            }
            guard named.isEmpty, AppIcons.compiledCatalogPath(b, resources: resources) == nil else { continue }
            // Without a key iOS still looks for Icon.png, Icon@2x.png, Icon-72.png…
            if pngs.contains(where: { !$0.contains("/") && $0.lowercased().hasPrefix("icon") }) { continue }
            out.append(finding("\(b.name) has no app icon: no CFBundleIconName, no CFBundleIconFiles, no Assets.car and no Icon*.png; App Store Connect rejects it (ITMS-90022)",
                               bundle: b.name, at: FileLocation(path: b.infoPlistPath ?? b.path),
                               key: "CFBundleIcons",
                               fix: "Add an app icon set to the target's asset catalog and set ASSETCATALOG_COMPILER_APPICON_NAME to it (Xcode writes CFBundleIcons).",
                               fingerprint: ["none"]))
        }
        return out
    }
}
