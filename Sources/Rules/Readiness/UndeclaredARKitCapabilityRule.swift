import Foundation
import Artifacts
import Evidence

public struct UndeclaredARKitCapabilityRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "arkit_capability_undeclared",
        name: "ARKit without the arkit capability or a support check",
        summary: "An app runs AR sessions but neither requires the arkit device capability nor checks ARConfiguration.isSupported.",
        rationale: """
        ARKit runs only on devices with an A9 chip or later. Apple asks apps whose main \
        feature is AR to require `arkit` in `UIRequiredDeviceCapabilities`, so the App Store \
        offers them only to devices that can run them, and apps where AR is one feature among \
        others to check `isSupported` on the configuration before offering it. An app that does \
        neither starts sessions that fail on older devices. This is a note: the check may be \
        done elsewhere (a web view, a server flag).

        Reported only where Preflight saw the app's code (a built app's binaries, not App Store \
        encrypted, with its frameworks; a project target's sources when the project uses no \
        pods, binary frameworks or remote packages).
        """,
        area: .bundle, severity: .note, tags: ["device-capabilities", "arkit"],
        references: ["https://developer.apple.com/documentation/arkit/verifying-device-support-and-user-permission"],
        triggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/AR.swift"]),
                         "App/Info.plist": plistXMLMarkingRoot("<key>NSCameraUsageDescription</key><string>Place furniture in your room.</string>"),
                         "App/AR.swift": "import ARKit\nfunc start(_ view: ARSCNView) { view.session.run(ARWorldTrackingConfiguration()) }\n"],
                        kind: .project),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/AR.swift"]),
                         "App/Info.plist": plistXML("<key>UIRequiredDeviceCapabilities</key>\n↓<array><string>arm64</string></array>"),
                         "App/AR.swift": "import ARKit\nfunc start(_ session: ARSession) { session.run(ARFaceTrackingConfiguration()) }\n"],
                        kind: .project, note: "Capabilities without arkit."),
        ],
        nonTriggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/AR.swift"]),
                         "App/Info.plist": plistXML("<key>UIRequiredDeviceCapabilities</key><array><string>arkit</string></array>"),
                         "App/AR.swift": "import ARKit\nfunc start(_ view: ARSCNView) { view.session.run(ARWorldTrackingConfiguration()) }\n"],
                        kind: .project),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/AR.swift"]),
                         "App/Info.plist": plistXML("<key>CFBundleName</key><string>Demo</string>"),
                         "App/AR.swift": "import ARKit\nfunc start(_ view: ARSCNView) {\n    guard ARWorldTrackingConfiguration.isSupported else { return }\n    view.session.run(ARWorldTrackingConfiguration())\n}\n"],
                        kind: .project, note: "AR is optional and checked."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        typealias F = ProtectedResourceCatalog.FeatureAPI
        let use = FeatureUse(context)
        var out: [Finding] = []
        for b in context.product.bundles where b.kind == .app || b.kind == .appClip {
            guard let ar = use.uses(F.arkit, in: b), ar.strength == .definite, UsageReading.isDirect(ar, host: b),
                  use.uses(F.arkitSupportCheck, in: b) == nil, use.sawAllCode(of: b) else { continue }
            let caps = DeviceCapabilities.entries(b)
            if caps?.entries.contains(where: { $0.name == "arkit" }) == true { continue }
            let at = caps.map { FileLocation(path: $0.value.location.path, position: $0.value.node.position ?? $0.value.location.position) } ?? AppTraits.infoLocation(b)
            out.append(finding("\(b.name) uses ARKit (\(UsageReading.describe(ar))) but neither requires the arkit capability nor checks isSupported; AR fails on devices without ARKit",
                               bundle: b.name, at: at, key: "UIRequiredDeviceCapabilities", evidence: [UsageReading.evidenceRef(ar)],
                               fix: "Require arkit in UIRequiredDeviceCapabilities if the app needs AR, else check ARWorldTrackingConfiguration.isSupported before offering it.",
                               fingerprint: ["arkit"]))
        }
        return out
    }
}
