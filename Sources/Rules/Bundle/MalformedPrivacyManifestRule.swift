import Foundation
import Artifacts
import Formats

public struct MalformedPrivacyManifestRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "malformed_privacy_manifest",
        name: "Malformed privacy manifest",
        summary: "A PrivacyInfo.xcprivacy file cannot be read as a property list.",
        rationale: """
        App Store Connect reads privacy manifests to build the app's privacy report and to check \
        required-reason API declarations (ITMS-91053). A manifest that does not parse counts as \
        missing. Fix the syntax at the reported position.
        """,
        area: .privacyManifest, severity: .error, tags: ["privacy", "app-review"],
        references: ["https://developer.apple.com/documentation/bundleresources/privacy_manifest_files", "ITMS-91053"],
        itms: ["ITMS-91056", "ITMS-91108"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/PrivacyInfo.xcprivacy": "<plist>↓<dict><key>NSPrivacyTracking</key><false/>"],
                        note: "A manifest cut short: the dictionary is never closed."),
            RuleExample(appWithSDKManifest(reasons: "<array><string>CA92.1</string>", marked: true), kind: .app,
                        note: "An SDK's manifest inside a built app: App Store Connect cannot read the SDK's required-reason declarations."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/PrivacyInfo.xcprivacy": plistXML("<key>NSPrivacyTracking</key><false/>")]),
            RuleExample(appWithSDKManifest(reasons: "<array><string>CA92.1</string></array>"), kind: .app,
                        note: "The same SDK manifest, complete."),
        ])

    /// A built app that embeds an SDK framework whose manifest declares its UserDefaults use with
    /// `reasons` (NSPrivacyAccessedAPITypeReasons' value as written); `marked` puts the example
    /// marker where that declaration's dictionary ends.
    static func appWithSDKManifest(reasons: String, marked: Bool = false) -> [String: String] {
        ["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
         "Example": "binary",
         "Frameworks/AdKit.framework/Info.plist": plistXML("<key>CFBundleExecutable</key><string>AdKit</string>"),
         "Frameworks/AdKit.framework/AdKit": "binary",
         "Frameworks/AdKit.framework/PrivacyInfo.xcprivacy": plistXML("""
         <key>NSPrivacyAccessedAPITypes</key>
         <array>
         \t<dict>
         \t\t<key>NSPrivacyAccessedAPIType</key>
         \t\t<string>NSPrivacyAccessedAPICategoryUserDefaults</string>
         \t\t<key>NSPrivacyAccessedAPITypeReasons</key>
         \t\t\(reasons)
         \t\(marked ? "↓" : "")</dict>
         </array>
         """)]
    }

    public func check(_ context: RuleContext) -> [Finding] {
        context.product.bundles.flatMap { b in
            b.privacyManifests.compactMap { file -> Finding? in
                guard let error = file.error else { return nil }
                return finding("privacy manifest of \(b.name) cannot be read: \(error)", bundle: b.name,
                               at: FileLocation(path: file.path, position: error.position), fingerprint: [file.path])
            }
        }
    }
}
