import Foundation
import Artifacts
import Evidence
import Formats

public struct ListedSDKWithoutSignatureRule: Rule {
    public init() {}
    typealias Examples = ListedSDKExamples

    public static let description = RuleDescription(
        identifier: "listed_sdk_without_signature",
        name: "Listed binary SDK without a signature",
        summary: "A prebuilt `.xcframework` of an SDK on Apple's list of commonly used third-party SDKs has no code signature.",
        rationale: """
        When an app adds an SDK of Apple's list of commonly used third-party SDKs as a binary \
        dependency (a prebuilt `.xcframework`), the SDK must be signed by its vendor; App Store \
        Connect rejects the upload with ITMS-91065 ("Missing signature"). The requirement \
        applies to new apps and to updates that add the SDK. A signed `.xcframework` has a \
        `_CodeSignature` folder (or Xcode's `Signatures`) at its root.

        This can only be seen in a project, where the `.xcframework` is: committed in the \
        project, vendored by a pod in `Pods/`, a package's binary target in \
        `SourcePackages/artifacts` or built by Carthage in `Carthage/Build`. In a built or \
        re-signed app the vendor's signature is gone (the app's signing replaces it), so a \
        built app is not checked. An `.xcframework` Carthage builds from source is the \
        developer's own build, not a vendor's binary: under `Carthage/Build` the finding is a \
        warning.

        Fix: update the SDK to a signed release (its vendor's distribution), or use its \
        source distribution (a Swift package or pod built from source).
        """,
        area: .privacyManifest, severity: .error, tags: ["app-review", "sdk", "signing"],
        references: [ThirdPartySDKCatalog.source, "https://developer.apple.com/documentation/xcode/verifying-the-origin-of-your-xcframeworks",
                     "ITMS-91065"],
        itms: ["ITMS-91065"],
        triggering: [
            RuleExample(Examples.projectApp.merging([
                "Vendor/GoogleSignIn.xcframework↓/Info.plist": plistXML(""),
                "Vendor/GoogleSignIn.xcframework/ios-arm64/GoogleSignIn.framework/PrivacyInfo.xcprivacy": Examples.manifest,
                "Vendor/Acme.xcframework/Info.plist": plistXML(""),
            ]) { a, _ in a }, note: "A committed GoogleSignIn.xcframework without _CodeSignature; Acme is not on the list."),
            RuleExample(Examples.projectApp.merging([
                "Podfile.lock": Examples.podfileLock(["OneSignalXCFramework (5.0.0)"]),
                "Pods/OneSignalXCFramework/iOS_SDK/OneSignalCore.xcframework↓/Info.plist": plistXML(""),
                "Pods/OneSignalXCFramework/iOS_SDK/OneSignalCore.xcframework/ios-arm64/OneSignalCore.framework/PrivacyInfo.xcprivacy": Examples.manifest,
            ]) { a, _ in a }, note: "An .xcframework a pod vendors."),
        ],
        nonTriggering: [
            RuleExample(Examples.projectApp.merging([
                "Vendor/GoogleSignIn.xcframework/Info.plist": plistXML(""),
                "Vendor/GoogleSignIn.xcframework/_CodeSignature/CodeSignature": "",
            ]) { a, _ in a }, note: "Signed."),
            RuleExample(["Info.plist": Examples.appInfo, "Example": "binary",
                         "Frameworks/GoogleSignIn.framework/Info.plist": Examples.frameworkInfo("GoogleSignIn", version: "7.0.0")],
                        kind: .app, note: "A built app: the vendor's signature cannot be seen there."),
            RuleExample(Examples.projectApp.merging([
                "Carthage/Checkouts/OneSignal-iOS-SDK/iOS_SDK/OneSignal.xcframework/Info.plist": plistXML(""),
            ]) { a, _ in a }, note: "An .xcframework in the sources of a Carthage checkout: what ships is what Carthage copies to Carthage/Build."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for sdk in context.product.sdks where sdk.kind == .xcframework && sdk.signature == .unsigned {
            guard let listed = ThirdPartySDKCatalog.listedName(of: sdk), let path = sdk.filesPath else { continue }
            let named = sdk.name == listed ? sdk.name : "\(sdk.name) (listed as \(listed))"
            let carthage = path.hasPrefix("Carthage/Build/") || path.contains("/Carthage/Build/")
            let shown = path.isEmpty ? PathUtil.lastComponent(context.product.input) : path
            var f = finding("\(shown): \(named)\(sdk.version.map { " \($0)" } ?? "") is on Apple's list of commonly used third-party SDKs and this binary dependency has no signature (no _CodeSignature); App Store Connect rejects a new app, or an update that adds it, with ITMS-91065"
                                + (carthage ? " — unless Carthage built it here from source" : ""),
                            bundle: nil, at: FileLocation(path: path), key: sdk.name, evidence: [.file(path: path, line: nil)],
                            fix: "Use a release of \(sdk.name) signed by its vendor, or its source distribution.",
                            fingerprint: [listed, path])
            if carthage { f.severity = .warning }
            out.append(f)
        }
        return out
    }
}
