import Foundation
import Artifacts
import Evidence
import Formats

public struct PrivacyManifestDataTypesIncompleteRule: Rule {
    public init() {}
    typealias Document = PrivacyManifestDocument
    typealias Catalog = PrivacyManifestCatalog

    public static let description = RuleDescription(
        identifier: "privacy_manifest_data_types_incomplete",
        name: "Collected data types may miss what the code reads",
        summary: "A manifest lists the data the bundle collects, but not the kind of personal data its code asks permission for (location, contacts, health, audio, photos).",
        rationale: """
        The collected data types of the privacy manifests feed the App Store privacy label \
        (Xcode's privacy report aggregates them). When a bundle's manifest lists collected data \
        — the team keeps that list — but none of the types matching a protected resource its \
        code certainly reads (`CLLocationManager` location updates → precise or coarse \
        location; contacts; HealthKit reads → health or fitness; microphone → audio data; the \
        photo library → photos or videos), the label is probably incomplete.

        A note, not a warning: Apple counts data as collected only when it leaves the device \
        and is kept longer than needed to serve a request in real time, and code alone cannot \
        show that. Declare the type if the data is sent off the device and kept; otherwise \
        nothing is needed. A bundle whose manifest lists no collected data is not judged.
        """,
        area: .privacyManifest, severity: .note, tags: ["privacy", "app-review", "privacy-manifest"],
        references: [PrivacyManifestCatalog.dataUseSource, "https://developer.apple.com/app-store/app-privacy-details/"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSLocationWhenInUseUsageDescription</key><string>Show stores near you.</string>"),
                         "App/PrivacyInfo.xcprivacy": plistXML(
                             "↓<key>NSPrivacyCollectedDataTypes</key>\n<array>\n"
                             + "\t<dict>\n\t\t<key>NSPrivacyCollectedDataType</key>\n\t\t<string>NSPrivacyCollectedDataTypeEmailAddress</string>\n"
                             + "\t\t<key>NSPrivacyCollectedDataTypeLinked</key>\n\t\t<true/>\n\t\t<key>NSPrivacyCollectedDataTypeTracking</key>\n\t\t<false/>\n"
                             + "\t\t<key>NSPrivacyCollectedDataTypePurposes</key>\n\t\t<array><string>NSPrivacyCollectedDataTypePurposeAppFunctionality</string></array>\n\t</dict>\n</array>"),
                         "App/Stores.swift": "import CoreLocation\n\nfinal class Stores {\n    let manager = CLLocationManager()\n    func start() { manager.requestWhenInUseAuthorization() }\n}\n"],
                        note: "Location read, email declared as collected, no location type."),
            RuleExample(["App/Info.plist": plistXML("<key>NSContactsUsageDescription</key><string>Invite your friends.</string>"),
                         "App/PrivacyInfo.xcprivacy": plistXML(
                             "↓<key>NSPrivacyCollectedDataTypes</key>\n<array>\n"
                             + "\t<dict>\n\t\t<key>NSPrivacyCollectedDataType</key>\n\t\t<string>NSPrivacyCollectedDataTypeCrashData</string>\n"
                             + "\t\t<key>NSPrivacyCollectedDataTypeLinked</key>\n\t\t<false/>\n\t\t<key>NSPrivacyCollectedDataTypeTracking</key>\n\t\t<false/>\n"
                             + "\t\t<key>NSPrivacyCollectedDataTypePurposes</key>\n\t\t<array><string>NSPrivacyCollectedDataTypePurposeAnalytics</string></array>\n\t</dict>\n</array>"),
                         "App/Invite.m": "#import <Contacts/Contacts.h>\n\nvoid invite(void) {\n    [[[CNContactStore alloc] init] requestAccessForEntityType:CNEntityTypeContacts completionHandler:^(BOOL ok, NSError *e) {}];\n}\n"],
                        note: "Contacts read, only crash data declared."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSLocationWhenInUseUsageDescription</key><string>Show stores near you.</string>"),
                         "App/PrivacyInfo.xcprivacy": plistXML(
                             "<key>NSPrivacyCollectedDataTypes</key>\n<array>\n"
                             + "\t<dict>\n\t\t<key>NSPrivacyCollectedDataType</key>\n\t\t<string>NSPrivacyCollectedDataTypeCoarseLocation</string>\n"
                             + "\t\t<key>NSPrivacyCollectedDataTypeLinked</key>\n\t\t<false/>\n\t\t<key>NSPrivacyCollectedDataTypeTracking</key>\n\t\t<false/>\n"
                             + "\t\t<key>NSPrivacyCollectedDataTypePurposes</key>\n\t\t<array><string>NSPrivacyCollectedDataTypePurposeAppFunctionality</string></array>\n\t</dict>\n</array>"),
                         "App/Stores.swift": "import CoreLocation\n\nfinal class Stores {\n    let manager = CLLocationManager()\n    func start() { manager.requestWhenInUseAuthorization() }\n}\n"],
                        note: "Coarse location declared."),
            RuleExample(["App/Info.plist": plistXML("<key>NSLocationWhenInUseUsageDescription</key><string>Show stores near you.</string>"),
                         "App/PrivacyInfo.xcprivacy": plistXML("<key>NSPrivacyTracking</key>\n<false/>"),
                         "App/Stores.swift": "import CoreLocation\n\nfinal class Stores {\n    let manager = CLLocationManager()\n    func start() { manager.requestWhenInUseAuthorization() }\n}\n"],
                        note: "The manifest lists no collected data: the app may keep everything on the device."),
        ])

    /// Capability prefixes and the data types that would describe them.
    static let expected: [(capability: String, label: String, types: [String])] = [
        ("location.", "location", ["PreciseLocation", "CoarseLocation"]),
        ("contacts", "contacts", ["Contacts"]),
        ("health.", "health data", ["Health", "Fitness"]),
        ("microphone", "audio", ["AudioData"]),
        ("photos.read", "the photo library", ["PhotosorVideos"]),
    ]

    public func check(_ context: RuleContext) -> [Finding] {
        let uses = context.shippingUsages.filter { $0.strength == .definite }
        var out: [Finding] = []
        for doc in Document.all(context) where doc.standardLocation {
            let declared = Set(doc.entries(Catalog.collectedDataTypes).compactMap { $0.string(Catalog.collectedDataType)?.value })
            guard !declared.isEmpty else { continue }
            let bundleUses = uses.filter { $0.bundle == doc.bundle.name }
            for e in Self.expected {
                guard let use = bundleUses.first(where: { $0.capability.hasPrefix(e.capability) || $0.capability == e.capability }) else { continue }
                let types = e.types.map { "NSPrivacyCollectedDataType" + $0 }
                guard declared.isDisjoint(with: types) else { continue }
                out.append(finding("\(doc.name) lists collected data but no \(e.types.joined(separator: " or ")) type, while \(doc.bundle.name)'s code reads \(e.label) (\(use.api)); if that data leaves the device and is kept, the App Store privacy label is incomplete",
                                   bundle: doc.bundle.name, at: doc.location(doc.root.entry(Catalog.collectedDataTypes)?.keyPosition),
                                   key: types[0],
                                   fix: "If \(e.label) is sent off the device and kept, add an NSPrivacyCollectedDataTypes entry for \(types.joined(separator: " or ")) with its purposes; if it stays on the device, nothing is needed.",
                                   fingerprint: [doc.path, e.capability]))
            }
        }
        return out
    }
}
