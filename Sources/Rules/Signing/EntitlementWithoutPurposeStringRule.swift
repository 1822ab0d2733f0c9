import Foundation
import Artifacts
import Formats

public struct EntitlementWithoutPurposeStringRule: Rule {
    public init() {}

    /// Capabilities that cannot be used without asking, so whose entitlement needs an Info.plist
    /// purpose string: the entitlement, the keys (any one of them), the capability.
    /// apple-rules.md §1.2 (Apple's HealthKit, HomeKit and Core NFC setup pages). Siri is not
    /// here: intents, shortcuts and donations work without `NSSiriUsageDescription`, which only
    /// `INPreferences.requestSiriAuthorization` needs (missing_purpose_string checks that call);
    /// 7 of the 36 real apps have the Siri entitlement and rightly no key.
    static let pairs: [(entitlement: String, keys: [String], capability: String)] = [
        ("com.apple.developer.healthkit", ["NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription"], "HealthKit"),
        ("com.apple.developer.homekit", ["NSHomeKitUsageDescription"], "HomeKit"),
        ("com.apple.developer.nfc.readersession.formats", ["NFCReaderUsageDescription"], "Core NFC"),
    ]

    static let info = plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>")

    public static let description = RuleDescription(
        identifier: "entitlement_without_purpose_string",
        name: "Entitlement without purpose string",
        summary: "A bundle has the HealthKit, HomeKit or NFC entitlement but not the Info.plist purpose string the capability needs.",
        rationale: """
        These capabilities are two halves: the entitlement lets the app use the service, and \
        the purpose string is what iOS shows when the app asks the person for access — and \
        none of them does anything without asking. With the entitlement and no purpose string, \
        the app is terminated the moment it asks (`HKHealthStore.requestAuthorization`, \
        creating an `HMHomeManager`, starting an `NFCReaderSession`), and App Store Connect \
        rejects builds whose code uses the API (ITMS-90683).

        | entitlement | Info.plist key |
        |---|---|
        | `com.apple.developer.healthkit` | `NSHealthShareUsageDescription` and/or `NSHealthUpdateUsageDescription` |
        | `com.apple.developer.homekit` | `NSHomeKitUsageDescription` |
        | `com.apple.developer.nfc.readersession.formats` | `NFCReaderUsageDescription` |

        A key in the bundle's own Info.plist, in Xcode's generated keys (`INFOPLIST_KEY_…`) or, \
        for an extension, in its containing app's Info.plist counts. An entitlement set to \
        `false` or an empty list is not a capability. The Siri entitlement is not paired: \
        intents and shortcuts work without `NSSiriUsageDescription`, which only \
        `INPreferences.requestSiriAuthorization` needs (`missing_purpose_string` checks that call).

        Fix: add the purpose string, saying what the app does with the access; or remove the \
        capability if the app no longer uses it.
        """,
        area: .entitlements, severity: .warning, tags: ["privacy", "app-review"],
        references: [
            "https://developer.apple.com/documentation/healthkit/setting-up-healthkit",
            "https://developer.apple.com/documentation/bundleresources/information-property-list/nshomekitusagedescription",
            "https://developer.apple.com/documentation/sirikit/requesting-authorization-to-use-siri",
            "https://developer.apple.com/documentation/corenfc/building-an-nfc-tag-reader-app",
        ],
        triggering: [
            RuleExample(["App/Info.plist": info,
                         "App/App.entitlements": plistXML("↓<key>com.apple.developer.healthkit</key>\n<true/>\n<key>com.apple.developer.healthkit.access</key>\n<array/>")],
                        note: "HealthKit with neither health purpose string."),
            RuleExample(["App/Info.plist": info,
                         "App/App.entitlements": plistXML("""
                         ↓<key>com.apple.developer.nfc.readersession.formats</key>
                         <array>
                         \t<string>TAG</string>
                         </array>
                         ↓<key>com.apple.developer.homekit</key>
                         <true/>
                         """)],
                        note: "NFC tag reading and HomeKit, with no purpose string for either."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("""
                         <key>CFBundleIdentifier</key><string>com.example.app</string>
                         <key>NSHealthShareUsageDescription</key><string>Your step count shows on the activity screen.</string>
                         <key>NFCReaderUsageDescription</key><string>Reads the tag on your membership card.</string>
                         """),
                         "App/App.entitlements": plistXML("<key>com.apple.developer.healthkit</key>\n<true/>\n<key>com.apple.developer.nfc.readersession.formats</key>\n<array>\n\t<string>NDEF</string>\n</array>")],
                        note: "Reading health data only needs the share key."),
            RuleExample(["App/Info.plist": info,
                         "App/App.entitlements": plistXML("<key>com.apple.developer.homekit</key>\n<false/>\n<key>com.apple.developer.nfc.readersession.formats</key>\n<array/>\n<key>com.apple.developer.siri</key>\n<true/>")],
                        note: "A capability turned off is not a capability; Siri intents and shortcuts need no purpose string."),
        ])

    static func isEnabled(_ value: PlistNode) -> Bool {
        switch value.value {
        case .bool(let b): return b
        case .array(let items): return !items.isEmpty
        case .string(let s): return !s.isEmpty
        default: return false
        }
    }

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for b in context.product.bundles where b.kind.ships && b.kind != .framework && b.kind != .resourceBundle {
            guard let file = b.entitlements, let entries = file.root?.dictionary else { continue }
            // Without a readable Info.plist (or generated keys) nothing can be said about its keys.
            guard Readiness.hasReadableInfoPlist(b) || (b.infoPlist == nil && !b.generatedInfoPlistKeys.isEmpty) else { continue }
            let app = b.kind == .appExtension ? Readiness.containingApp(of: b, in: context.product) : nil
            let fromSignature = b.entitlementsSource?.hasPrefix("code signature") == true
            for pair in Self.pairs {
                guard let entry = entries.entry(pair.entitlement), Self.isEnabled(entry.value) else { continue }
                let present = pair.keys.contains { b.infoValue($0) != nil || app?.infoValue($0) != nil }
                guard !present else { continue }
                let place = FileLocation(path: file.path, position: fromSignature ? nil : entry.keyPosition ?? entry.value.position)
                let keys = pair.keys.joined(separator: " or ")
                out.append(finding("\(b.name) has the \(pair.capability) entitlement (\(pair.entitlement)) but its Info.plist has no \(keys): iOS terminates the app when it asks for \(pair.capability) access",
                                   bundle: b.name, at: place, key: pair.entitlement,
                                   fix: "Add \(pair.keys[0]) to the Info.plist, saying what the app does with the access, or remove the \(pair.capability) capability.",
                                   fingerprint: [pair.entitlement]))
            }
        }
        return out
    }
}
