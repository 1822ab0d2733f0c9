import Foundation
import Artifacts
import Evidence

public struct RequiredReasonAPIUndeclaredRule: Rule {
    public init() {}
    typealias API = ProtectedResourceCatalog.RequiredReasonAPI

    public static let description = RuleDescription(
        identifier: "required_reason_api_undeclared",
        name: "Required-reason API not declared",
        summary: "A bundle's code uses an API of a required-reason category (file timestamps, system boot time, disk space, active keyboards, user defaults) that no privacy manifest of that bundle declares.",
        rationale: """
        Since 2024-05-01 App Store Connect rejects an upload whose binaries reference a \
        required-reason API without a matching `NSPrivacyAccessedAPITypes` entry (ITMS-91053). \
        Apple names the file whose code references the API (the app's executable, an \
        extension's, an embedded framework's) and judges each app, extension, App Clip and watch \
        app on its own: an extension needs the declaration in a manifest of its own target even \
        when the app declares it. Within one of them, every manifest it ships counts — its own \
        `PrivacyInfo.xcprivacy`, its resource bundles' (how static SDKs ship theirs) and its \
        embedded frameworks' — and a framework's code is judged with its host's manifests: \
        developers report the check works per target, not per binary.

        The APIs are Apple's lists: `stat`, `fstat`, `lstat`, `getattrlist…`, \
        `NSFileCreationDate`/`FileAttributeKey.creationDate`, `URLResourceKey.creationDateKey`, … \
        (file timestamps); `mach_absolute_time`, `ProcessInfo.systemUptime` (boot time); \
        `statfs`, `statvfs`, `volumeAvailableCapacity…Key`, `systemFreeSize` (disk space); \
        `UITextInputMode.activeInputModes`; `UserDefaults`/`NSUserDefaults`. `getattrlist` \
        belongs to two categories: a binary cannot tell which attributes it asks for, so both \
        are named.

        Severity: an **error** for a use in a binary, or in a target's own sources in its folder \
        (or linked code its own code names); a **warning** where the only evidence is indicative \
        (`@AppStorage`, a member whose receiver type is unknown); a **note** for code of a \
        package or pod compiled into the bundle, which may ship its own manifest in a resource \
        bundle, and for shared code the bundle's own code never names. A framework target of a \
        project that does not say which app embeds it is a **warning** at most: that app's \
        manifests decide. Code compiled out of release builds and test bundles never counts.
        """,
        area: .privacyManifest, severity: .error, tags: ["privacy", "app-review", "privacy-manifest"],
        references: ["ITMS-91053", PrivacyManifestCatalog.requiredReasonSource],
        itms: ["ITMS-91053"],
        triggering: [
            RuleExample(["App/Info.plist": plistXMLMarkingRoot("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Settings.swift": "import Foundation\n\nfunc saveTheme(_ name: String) {\n    UserDefaults.standard.set(name, forKey: \"theme\")\n}\n"],
                        note: "UserDefaults in the app's own code and no privacy manifest at all."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/PrivacyInfo.xcprivacy": plistXMLMarkingRoot("<key>NSPrivacyAccessedAPITypes</key>\n<array>\n"
                             + PrivacyManifestDocument.accessedAPI("NSPrivacyAccessedAPICategoryUserDefaults", ["<string>CA92.1</string>"])
                             + "\n</array>"),
                         "App/Cache.swift": "import Foundation\n\nfunc cacheAge(_ url: URL) throws -> Date? {\n    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)\n    return attributes[.modificationDate] as? Date\n}\n\nfunc freeSpace(_ url: URL) throws -> Int64? {\n    try url.resourceValues(forKeys: [.volumeAvailableCapacityForImportantUsageKey]).volumeAvailableCapacityForImportantUsage\n}\n"],
                        note: "The manifest declares user defaults only; the code reads file timestamps and disk space (two findings at the manifest)."),
            RuleExample(["Info.plist": plistXMLMarkingRoot("<key>CFBundleExecutable</key><string>App</string>"),
                         "Frameworks/Clock.framework/Info.plist": plistXMLMarkingRoot("<key>CFBundleExecutable</key><string>Clock</string>")],
                        binaryFixtures: ["App": "RequiredReasons/defaults", "Frameworks/Clock.framework/Clock": "RequiredReasons/boottime"],
                        kind: .app,
                        note: "A built app: NSUserDefaults in the executable, mach_absolute_time and systemUptime in an embedded framework, and no manifest anywhere."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/App.swift"]),
                ExampleTarget("Store", type: "framework", settings: ["INFOPLIST_FILE": "Store/Info.plist"], sources: ["Store/Store.swift"]),
            ]),
                         "App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.swift": "import UIKit\n",
                         "Store/Info.plist": plistXMLMarkingRoot("<key>CFBundleIdentifier</key><string>com.example.store</string>"),
                         "Store/Store.swift": "import Foundation\n\npublic func lastSync() -> Date? {\n    UserDefaults.standard.object(forKey: \"lastSync\") as? Date\n}\n"],
                        kind: .project,
                        note: "A framework target no target of the project embeds: a warning, since the manifests of the app that ships it decide."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/PrivacyInfo.xcprivacy": plistXML("<key>NSPrivacyAccessedAPITypes</key>\n<array>\n"
                             + PrivacyManifestDocument.accessedAPI("NSPrivacyAccessedAPICategoryUserDefaults", ["<string>CA92.1</string>"])
                             + "\n</array>"),
                         "App/Settings.swift": "import SwiftUI\n\nstruct SettingsView: View {\n    @AppStorage(\"theme\") var theme = \"light\"\n    var body: some View { Text(theme) }\n}\n\nfunc reset() { UserDefaults.standard.removeObject(forKey: \"theme\") }\n"],
                        note: "Declared in the bundle's manifest."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Model.swift": "import Foundation\n\nstruct Note {\n    var creationDate: Date\n    var modificationDate: Date\n}\n\nfunc sorted(_ notes: [Note]) -> [Note] { notes.sorted { $0.creationDate < $1.creationDate } }\n\nfunc blank() -> stat { stat() }\n\n#if DEBUG\nlet launched = mach_absolute_time()\n#endif\n"],
                        note: "A model's own creationDate property, a `stat()` that creates the struct and calls nothing, and a debug-only call are not uses."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>App</string>"),
                         "PrivacyInfo.xcprivacy": plistXML("<key>NSPrivacyAccessedAPITypes</key>\n<array>\n"
                             + PrivacyManifestDocument.accessedAPI("NSPrivacyAccessedAPICategoryUserDefaults", ["<string>CA92.1</string>"])
                             + "\n</array>"),
                         "Frameworks/Clock.framework/Info.plist": plistXML("<key>CFBundleExecutable</key><string>Clock</string>"),
                         "Frameworks/Clock.framework/PrivacyInfo.xcprivacy": plistXML("<key>NSPrivacyAccessedAPITypes</key>\n<array>\n"
                             + PrivacyManifestDocument.accessedAPI("NSPrivacyAccessedAPICategorySystemBootTime", ["<string>35F9.1</string>"])
                             + "\n</array>")],
                        binaryFixtures: ["App": "RequiredReasons/defaults", "Frameworks/Clock.framework/Clock": "RequiredReasons/boottime"],
                        kind: .app,
                        note: "Each binary's category declared by the manifest of its bundle."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        let product = context.product
        let shipping = Set(product.bundles.filter { $0.kind.ships }.map(\.name))
        let tests = Set(product.bundles.filter { !$0.kind.ships }.map(\.name)).subtracting(shipping)
        let frameworkNames = Set(product.bundles.filter { $0.kind == .framework }.map(\.name))
        var byBundle: [String: [Usage]] = [:]
        for u in context.evidence.requiredReasonUsages where u.ships && !tests.contains(u.bundle) {
            // An embedded framework's code is judged in the framework's own bundle.
            if case .linked(.target, let name, let embedded) = u.origin, embedded || frameworkNames.contains(name) { continue }
            byBundle[u.bundle, default: []].append(u)
        }
        var out: [Finding] = []
        let chains = EmbeddingChains(product)
        for b in product.bundles where Self.codeKinds.contains(b.kind) && b.kind.ships {
            guard let uses = byBundle[b.name], !uses.isEmpty else { continue }
            let declared = Self.declaredCategories(of: b, in: product, chains: chains)
            let byCategory = Dictionary(grouping: uses, by: \.key)
            for (category, categoryUses) in byCategory.sorted(by: { $0.key < $1.key }) where !declared.contains(category) {
                let hostKnown = b.kind != .framework || chains.host(of: b.name) != nil || ![ProductKind.folder, .project].contains(product.kind)
                out.append(finding(for: b, category: category, uses: categoryUses, hostKnown: hostKnown))
            }
        }
        return out
    }

    static let codeKinds: Set<BundleKind> = [.app, .appExtension, .appClip, .watchApp, .framework]

    private func finding(for b: AppBundle, category: String, uses: [Usage], hostKnown: Bool) -> Finding {
        let sorted = uses.sorted { UsageReading.describe($0) < UsageReading.describe($1) }
        let direct = sorted.filter { UsageReading.isDirect($0, host: b) && !Self.isPackagedCode($0) }
        let strongest = direct.filter { $0.strength == .definite }
        let shown = (strongest + direct + sorted).first!
        let summary = ProtectedResourceCatalog.requiredReason.resource(forKey: category)?.resource ?? category
        let manifest = Self.standardManifest(of: b)
        let location = manifest.map { FileLocation(path: $0.path, position: $0.root?.position) }
            ?? b.infoPlist.map { FileLocation(path: $0.path, position: $0.root?.position) } ?? FileLocation(path: b.path)
        let lacking = manifest == nil ? "has no privacy manifest" : "its privacy manifest does not declare \(category)"
        var f = finding("\(b.name) uses an API of \(summary) (\(UsageReading.describe(shown))) but \(lacking); App Store Connect rejects the upload (ITMS-91053)",
                        bundle: b.name, at: location, key: category,
                        evidence: Self.distinctEvidence(sorted),
                        fix: Self.fix(for: b, category: category, hasManifest: manifest != nil))
        if strongest.isEmpty {
            f.severity = direct.isEmpty ? .note : .warning
            let why = direct.isEmpty
                ? (Self.isPackagedCode(shown) ? "which may declare it in a manifest of its own" : "shared code the bundle's own code never names")
                : "indicative evidence only"
            f.message = "\(b.name) may use an API of \(summary) (\(UsageReading.describe(shown)), \(why)) and \(lacking); if its binary references the API, App Store Connect rejects the upload (ITMS-91053)"
        } else if !hostKnown {
            f.severity = .warning
            f.message = "\(b.name) uses an API of \(summary) (\(UsageReading.describe(shown))) and no manifest the project shows declares \(category); the project does not say which app embeds this framework, and that app's manifests decide: if none declares it, App Store Connect rejects the upload (ITMS-91053)"
        }
        return f
    }

    /// Up to five places, each once (a C function named twice on a line is one place).
    static func distinctEvidence(_ uses: [Usage]) -> [EvidenceRef] {
        var seen = Set<String>()
        return Array(uses.map(UsageReading.evidenceRef).filter { seen.insert("\($0)").inserted }.prefix(5))
    }

    /// Code of a package or pod compiled into the bundle: it may ship its own manifest in a
    /// resource bundle, which covers it.
    static func isPackagedCode(_ u: Usage) -> Bool {
        if case .linked(let kind, _, _) = u.origin { return kind == .package || kind == .pod }
        return false
    }

    /// The manifest at the bundle's root (a project target's own), if any.
    static func standardManifest(of b: AppBundle) -> PlistFile? {
        b.privacyManifests.first { PathUtil.parent($0.path) == b.path } ?? b.privacyManifests.first
    }

    /// Categories declared for the bundle's code: App Store Connect judges each app, extension,
    /// App Clip and watch app with every manifest inside it — its own, its resource bundles' and
    /// its embedded frameworks' (not its nested extensions'); a framework's code is judged with
    /// its host's. For a framework whose host is not known (a project that does not say which
    /// bundle embeds it), any manifest outside the extensions counts: it may be its host's.
    static func declaredCategories(of b: AppBundle, in product: Product, chains: EmbeddingChains) -> Set<String> {
        let host = EmbeddingChains.hostKinds.contains(b.kind) ? b : chains.host(of: b.name)
        var manifests: [PlistFile] = []
        for x in product.bundles {
            let inside: Bool
            if product.kind == .xcframework {
                inside = x.id == b.id || x.parentID == b.id  // each slice ships on its own
            } else if let host {
                inside = x.id == host.id || (!EmbeddingChains.hostKinds.contains(x.kind) && chains.host(of: x.name)?.id == host.id)
            } else {
                inside = x.kind.ships && x.kind != .appExtension
            }
            if inside { manifests += x.privacyManifests }
        }
        var out = Set<String>()
        for file in manifests {
            for item in file.root?.dictionary?[PrivacyManifestCatalog.accessedAPITypes]?.array ?? [] {
                if let name = item.dictionary?[PrivacyManifestCatalog.accessedAPIType]?.string { out.insert(name) }
            }
        }
        return out
    }

    static func fix(for b: AppBundle, category: String, hasManifest: Bool) -> String {
        let reasons = PrivacyManifestCatalog.category(category)?.reasons.filter { b.kind == .framework || !$0.sdkOnly } ?? []
        let listed = reasons.map { "\($0.code) (\($0.meaning))" }.joined(separator: "; ")
        let start = hasManifest
            ? "Add to NSPrivacyAccessedAPITypes of \(b.name)'s PrivacyInfo.xcprivacy"
            : "Add a PrivacyInfo.xcprivacy to \(b.name) with NSPrivacyAccessedAPITypes holding"
        return "\(start) an entry with NSPrivacyAccessedAPIType \(category) and the reasons that fit: \(listed)."
    }
}
