import Foundation
import Artifacts
import Evidence

public struct AdvertisingIdentifierWithoutATTRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "advertising_identifier_without_att",
        name: "Advertising identifier read without an ATT request",
        summary: "Code in the app reads the advertising identifier (IDFA) but nothing in the app asks for App Tracking Transparency authorization.",
        rationale: """
        Since iOS 14.5 the advertising identifier is all zeros unless the user allowed tracking \
        through `ATTrackingManager.requestTrackingAuthorization`, and guideline 5.1.2 requires \
        that permission before tracking. An SDK that reads the IDFA in an app that never asks \
        either tracks nothing or tracks by other means App Review rejects. Ask for \
        authorization (with NSUserTrackingUsageDescription) or configure the SDK not to read it.
        """,
        area: .privacy, severity: .warning, tags: ["privacy", "app-review", "tracking"],
        references: ["https://developer.apple.com/app-store/review/guidelines/#5.1.2",
                     "https://developer.apple.com/documentation/apptrackingtransparency"],
        triggering: [
            RuleExample(["Info.plist": plistXMLMarkingRoot("<key>CFBundleExecutable</key><string>App</string>")],
                        binaryFixtures: ["App": "Ads"], kind: .app,
                        note: "The executable calls `[[ASIdentifierManager sharedManager] advertisingIdentifier]` and nothing of AppTrackingTransparency. The finding points at the app's Info.plist, where NSUserTrackingUsageDescription would go."),
            RuleExample(["Info.plist": plistXMLMarkingRoot("<key>CFBundleExecutable</key><string>App</string>"),
                         "Frameworks/AdKit.framework/Info.plist": plistXML("<key>CFBundleExecutable</key><string>AdKit</string>")],
                        binaryFixtures: ["App": "App", "Frameworks/AdKit.framework/AdKit": "Ads"], kind: .app,
                        note: "An ad SDK embedded as a framework reads it; the finding is the app's, which never asks."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>App</string>")],
                        binaryFixtures: ["App": "App"], kind: .app, note: "An app that never reads the identifier."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>App</string>"),
                         "PlugIns/AppTests.xctest/Info.plist": plistXML("<key>CFBundleExecutable</key><string>AppTests</string>")],
                        binaryFixtures: ["App": "App", "PlugIns/AppTests.xctest/AppTests": "Ads"], kind: .app,
                        note: "Only a unit-test bundle, which Xcode copies into an app built for testing, reads it: test bundles never ship."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        let usages = context.shippingUsages
        let reads = usages.filter { $0.capability == SignalEvidence.advertisingIdentifier }
        guard let first = reads.first,
              !usages.contains(where: { $0.capability == ProtectedResourceCatalog.Capability.tracking }) else { return [] }
        let app = context.product.bundles.first { $0.kind == .app }
        let location = app?.infoPlist.map { FileLocation(path: $0.path, position: $0.root?.position) }
        return [finding("\(first.bundle) reads the advertising identifier (\(first.api)) but no code in the app requests App Tracking Transparency; the identifier is all zeros without it",
                        bundle: app?.name ?? first.bundle, at: location, key: "NSUserTrackingUsageDescription",
                        evidence: reads.prefix(5).map { u in
                            if case .binary(let p, let s) = u.location { return .symbol(binary: p, symbol: s) }
                            return .file(path: "", line: nil)
                        })]
    }
}
