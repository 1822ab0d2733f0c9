import Foundation
import Artifacts
import Formats

public struct OutdatedSDKRule: Rule {
    public init() {}

    /// App Store Connect's SDK floors for iOS apps, newest last: (SDK major version, Xcode, since).
    static let requirements: [(sdk: Int, xcode: String, since: String)] = [
        (17, "Xcode 15", "29 April 2024"),
        (18, "Xcode 16", "24 April 2025"),
        (26, "Xcode 26", "April 2026"),
    ]

    public static let description = RuleDescription(
        identifier: "outdated_sdk",
        name: "Built with an SDK App Store Connect no longer accepts",
        summary: "A built iOS app was linked against an iOS SDK older than the one App Store Connect currently requires (iOS 26 SDK, Xcode 26, since April 2026).",
        rationale: """
        Each spring Apple raises the SDK uploads must be built with: the iOS 17 SDK (Xcode 15) \
        from 29 April 2024, the iOS 18 SDK (Xcode 16) from 24 April 2025, and the iOS 26 SDK \
        (Xcode 26) from April 2026. An older build is rejected with ITMS-90725 ("SDK version \
        issue"). The SDK is read from the app's `DTSDKName`/`DTPlatformVersion` (written by \
        Xcode), else from the `sdk` of its executable's `LC_BUILD_VERSION`. Rebuild the app with \
        the current Xcode. The deployment target is unaffected: a new SDK still builds apps for \
        older systems.

        Only the main app of a built product is checked; projects carry no SDK until they are \
        built.
        """,
        area: .bundle, severity: .error, tags: ["app-store", "versions"],
        references: ["https://developer.apple.com/ios/submit/", "https://developer.apple.com/news/upcoming-requirements/"],
        itms: ["ITMS-90725"],
        triggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>\n↓<key>DTSDKName</key><string>iphoneos17.5</string>\n<key>DTPlatformVersion</key><string>17.5</string>")],
                        kind: .app, note: "Built with Xcode 15's iOS 17.5 SDK."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>")],
                        binaryFixtures: ["Example↓": "App"], kind: .app, note: "No DT keys: the executable's LC_BUILD_VERSION says SDK 17.0."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>\n<key>DTSDKName</key><string>iphoneos26.0</string>\n<key>DTPlatformVersion</key><string>26.0</string>")],
                        binaryFixtures: ["Example": "App"], kind: .app, note: "The Info.plist's DTSDKName is what Xcode built with."),
            RuleExample(["App/Info.plist": plistXML("<key>DTSDKName</key><string>iphoneos17.0</string>")],
                        note: "A source folder is built before upload."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        guard Readiness.builtKinds.contains(context.product.kind),
              let app = context.product.bundles.first(where: { $0.kind == .app }), Readiness.hasReadableInfoPlist(app) else { return [] }
        let current = Self.requirements[Self.requirements.count - 1]
        var sdk: String?
        var location: FileLocation?
        if let name = app.infoValue("DTSDKName"), let s = name.node.string, s.hasPrefix("iphoneos") {
            sdk = String(s.dropFirst("iphoneos".count))
            location = name.location
        } else if let p = app.infoValue("DTPlatformVersion"), let s = p.node.string, app.infoValue("DTPlatformName")?.node.string ?? "iphoneos" == "iphoneos" {
            sdk = s
            location = p.location
        } else if let exe = app.binaries.first(where: { $0.path == app.executablePath }),
                  let slice = exe.macho?.slices.first(where: { $0.platform == "iOS" }), let s = slice.sdk {
            sdk = s
            location = FileLocation(path: exe.path)
        }
        guard let sdk, let major = Readiness.versionComponents(sdk)?.first, major > 0, major < current.sdk else { return [] }
        return [finding("\(app.name) was built with the iOS \(sdk) SDK; since \(current.since) App Store Connect accepts only apps built with the iOS \(current.sdk) SDK (\(current.xcode)) or later (ITMS-90725)",
                        bundle: app.name, at: location, key: "DTSDKName",
                        fix: "Archive the app again with \(current.xcode) or later.", fingerprint: ["sdk", sdk])]
    }
}
