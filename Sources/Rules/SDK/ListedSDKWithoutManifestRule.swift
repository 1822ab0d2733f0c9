import Foundation
import Artifacts
import Evidence
import Formats

public struct ListedSDKWithoutManifestRule: Rule {
    public init() {}
    typealias Examples = ListedSDKExamples

    public static let description = RuleDescription(
        identifier: "listed_sdk_without_manifest",
        name: "Listed SDK without its privacy manifest",
        summary: "An SDK on Apple's list of commonly used third-party SDKs ships without its own `PrivacyInfo.xcprivacy`.",
        rationale: """
        Apple keeps a list of commonly used third-party SDKs (Alamofire, Firebase, Kingfisher, \
        SDWebImage, Flutter plugins…). An app that includes one of them must include the \
        SDK's own privacy manifest; App Store Connect rejects the upload with ITMS-91061 \
        ("Missing privacy manifest"), naming the binary it found \
        ("Frameworks/Charts.framework/Charts, which includes Charts"). The requirement applies \
        to new apps and to updates that add a listed SDK, whatever its version, and to SDKs \
        that repackage one; Preflight cannot know whether the SDK is new in this release, so \
        the finding is an error either way.

        What is checked is what the input holds. In a built app (`.ipa`, `.app`, `.xcarchive`): \
        each embedded `Frameworks/X.framework` on the list must hold a `PrivacyInfo.xcprivacy` \
        (at its root or in a resource bundle inside it), unless a resource bundle of the app \
        named for the same SDK has one. An SDK linked statically leaves no framework to \
        recognise and is not checked. In a project: each listed pod (`Podfile.lock` with the \
        pod's folder in `Pods/`), Swift package (`Package.resolved` with its checkout in \
        `SourcePackages/checkouts`) or Carthage dependency and each prebuilt `.xcframework` \
        must have a `PrivacyInfo.xcprivacy` somewhere among its files. When the SDK's files \
        are not in the input (pods not installed, packages not resolved into the folder), \
        nothing is said: `preflight inspect` lists the pinned version to check.

        Fix: update the SDK to a version that ships its privacy manifest (most listed SDKs \
        added one in 2024), or replace it.
        """,
        area: .privacyManifest, severity: .error, tags: ["privacy", "app-review", "sdk"],
        references: [ThirdPartySDKCatalog.source, "ITMS-91061"],
        itms: ["ITMS-91061"],
        triggering: [
            RuleExample(["Info.plist": Examples.appInfo, "Example": "binary",
                         "Frameworks/Charts.framework↓/Info.plist": Examples.frameworkInfo("Charts", version: "3.6.0"),
                         "Frameworks/Charts.framework/Charts": "binary",
                         "Frameworks/Kingfisher.framework/Info.plist": Examples.frameworkInfo("Kingfisher", version: "7.10.0"),
                         "Frameworks/Kingfisher.framework/PrivacyInfo.xcprivacy": Examples.manifest],
                        kind: .app, note: "A built app: Charts ships no manifest, Kingfisher does."),
            RuleExample(Examples.projectApp.merging([
                "Podfile.lock": Examples.podfileLock(["Alamofire (5.9.1)", "↓SDWebImage (5.12.0)"]),
                "Pods/Alamofire/Source/Alamofire.swift": "",
                "Pods/Alamofire/Source/PrivacyInfo.xcprivacy": Examples.manifest,
                "Pods/SDWebImage/SDWebImage/Core/SDWebImageManager.m": "",
            ]) { a, _ in a }, note: "Installed pods: SDWebImage 5.12.0 has no manifest in its folder, Alamofire has one."),
            RuleExample(Examples.projectApp.merging([
                "App.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved": Examples.packageResolved([
                    ("↓kingfisher", "https://github.com/onevcat/Kingfisher.git", "7.0.0")]),
                "SourcePackages/checkouts/Kingfisher/Sources/General/Kingfisher.swift": "",
                "Vendor/FBLPromises.xcframework↓/Info.plist": plistXML(""),
                "Vendor/FBLPromises.xcframework/_CodeSignature/CodeSignature": "",
            ]) { a, _ in a }, note: "A resolved package checkout without a manifest, and a prebuilt .xcframework without one."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": Examples.appInfo, "Example": "binary",
                         "Frameworks/Charts.framework/Info.plist": Examples.frameworkInfo("Charts", version: "5.1.0"),
                         "Frameworks/Charts.framework/Charts_Privacy.bundle/PrivacyInfo.xcprivacy": Examples.manifest,
                         "Frameworks/AcmeCharts.framework/Info.plist": Examples.frameworkInfo("AcmeCharts", version: "1.0")],
                        kind: .app, note: "The listed framework's manifest is in a resource bundle inside it; AcmeCharts is not on the list."),
            RuleExample(Examples.projectApp.merging([
                "Podfile.lock": Examples.podfileLock(["FirebaseCore (10.22.0)", "SDWebImage (5.12.0)"]),
                "Pods/FirebaseCore/FirebaseCore/Sources/Resources/PrivacyInfo.xcprivacy": Examples.manifest,
                "Pods/FirebaseCore/FirebaseCore/Sources/FIRApp.m": "",
                "App.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved": Examples.packageResolved([
                    ("snapkit", "https://github.com/SnapKit/SnapKit.git", "5.7.1")]),
            ]) { a, _ in a }, note: "SDWebImage is pinned but not installed, SnapKit is not checked out: their files cannot be seen, so nothing is said."),
            RuleExample(Examples.projectApp.merging([
                "Carthage/Checkouts/OHHTTPStubs/Examples/Pods/Manifest.lock": Examples.podfileLock(["AFNetworking (3.0.4)"]),
                "Carthage/Checkouts/OHHTTPStubs/Examples/Pods/AFNetworking/AFNetworking/AFURLSessionManager.m": "",
                "Carthage/Checkouts/Acme/Vendor/OneSignal.xcframework/Info.plist": plistXML(""),
            ]) { a, _ in a }, note: "A dependency's checkout: its own example's pods and the binaries in its sources are not the app's."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        let product = context.product
        let built = [ProductKind.ipa, .app, .xcarchive].contains(product.kind)
        // SDKs whose manifest a resource bundle of the app carries (static SDKs' resources).
        let coveredByBundles = Set(product.sdks.filter { $0.kind == .resourceBundle && !$0.privacyManifests.isEmpty }
            .compactMap(ThirdPartySDKCatalog.listedName(of:)))
        // An .xcframework inside the folder of a listed pod or package is judged once, as that dependency.
        let owners = product.sdks.filter { $0.kind != .xcframework && ThirdPartySDKCatalog.listedName(of: $0) != nil }.compactMap(\.filesPath)
        var out: [Finding] = []
        var seen = Set<String>()
        for sdk in product.sdks where sdk.kind != .resourceBundle && sdk.privacyManifests.isEmpty {
            guard let listed = ThirdPartySDKCatalog.listedName(of: sdk), let files = sdk.filesPath,
                  seen.insert(files).inserted else { continue }
            if sdk.kind == .xcframework, owners.contains(where: { files.hasPrefix($0 + "/") }) { continue }
            if built, coveredByBundles.contains(listed) { continue }
            let version = sdk.version.map { " \($0)" } ?? ""
            let named = sdk.name == listed ? sdk.name : "\(sdk.name) (listed as \(listed))"
            let bundle = sdk.bundleID.flatMap { product.bundle(id: $0)?.name }
            let location = sdk.location.position == nil ? FileLocation(path: files) : sdk.location
            let filesNote = sdk.location.path == files ? "" : " (files in \(files))"
            out.append(finding("\(named)\(version), \(describe(sdk.kind)), is on Apple's list of commonly used third-party SDKs and ships no privacy manifest\(filesNote); App Store Connect rejects a new app, or an update that adds it, with ITMS-91061",
                               bundle: bundle, at: location, key: sdk.name, evidence: [.file(path: files, line: nil)],
                               fix: "Update \(sdk.name) to a version that ships its PrivacyInfo.xcprivacy, or replace it.",
                               fingerprint: [listed, files]))
        }
        return out
    }

    func describe(_ kind: SDKKind) -> String {
        switch kind {
        case .framework: return "an embedded framework"
        case .resourceBundle: return "a resource bundle"
        case .pod: return "a pod"
        case .swiftPackage: return "a Swift package"
        case .carthage: return "a Carthage dependency"
        case .xcframework: return "a prebuilt .xcframework"
        }
    }
}
