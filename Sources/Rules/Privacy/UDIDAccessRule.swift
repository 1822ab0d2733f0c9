import Foundation
import Artifacts
import Evidence

public struct UDIDAccessRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "udid_access",
        name: "Device UDID requested",
        summary: "A binary references UIDevice together with the uniqueIdentifier selector, the device UDID removed from iOS.",
        rationale: """
        `-[UIDevice uniqueIdentifier]` was deprecated in iOS 5 and removed in iOS 7; App Store \
        processing rejects binaries that call it (guideline 5.1.2: no persistent device \
        identifiers), and on current iOS the call crashes. It usually comes from an old \
        analytics or ad SDK: update or remove it, and use `identifierForVendor` if an identifier \
        is needed. A class of the app's own with a `uniqueIdentifier` method can look the same \
        in a binary: check the evidence before dismissing it, App Store processing flags the \
        selector too.
        """,
        area: .privacy, severity: .error, tags: ["privacy", "app-review", "tracking"],
        references: ["https://developer.apple.com/app-store/review/guidelines/#5.1.2",
                     "https://developer.apple.com/documentation/uikit/uidevice/identifierforvendor"],
        triggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>App</string>")],
                        binaryFixtures: ["App↓": "Ads"], kind: .app,
                        note: "The executable sends `uniqueIdentifier` to `[UIDevice currentDevice]`; the finding names the binary."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>App</string>"),
                         "Frameworks/AdKit.framework/Info.plist": plistXML("<key>CFBundleExecutable</key><string>AdKit</string>")],
                        binaryFixtures: ["App": "App", "Frameworks/AdKit.framework/AdKit↓": "Ads"], kind: .app,
                        note: "An old ad SDK embedded as a framework asks for it; the app's own executable does not."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>App</string>")],
                        binaryFixtures: ["App": "App"], kind: .app, note: "UIDevice used for its system version only."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>App</string>"),
                         "PlugIns/AppTests.xctest/Info.plist": plistXML("<key>CFBundleExecutable</key><string>AppTests</string>")],
                        binaryFixtures: ["App": "App", "PlugIns/AppTests.xctest/AppTests": "Ads"], kind: .app,
                        note: "Only a unit-test bundle, which Xcode copies into an app built for testing, asks: test bundles never ship."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        context.shippingUsages.filter { $0.capability == SignalEvidence.udid }.compactMap { u in
            guard case .binary(let path, let symbol) = u.location else { return nil }
            return finding("\(path) sends uniqueIdentifier to UIDevice: the UDID was removed in iOS 7 and App Store processing rejects binaries that ask for it",
                           bundle: u.bundle, at: FileLocation(path: path), evidence: [.symbol(binary: path, symbol: symbol)],
                           fix: "Update or remove the SDK that asks for it; use identifierForVendor.", fingerprint: [path])
        }
    }
}
