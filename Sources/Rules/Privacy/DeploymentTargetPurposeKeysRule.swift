import Foundation
import Artifacts

public struct DeploymentTargetPurposeKeysRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "purpose_keys_for_deployment_target",
        name: "Purpose keys do not match the OS versions",
        summary: "A resource whose purpose key changed between iOS versions (calendars and reminders in iOS 17, Bluetooth in iOS 13) lacks the key one of the supported versions reads.",
        rationale: """
        iOS 17 reads NSCalendarsFullAccessUsageDescription / NSCalendarsWriteOnlyAccessUsageDescription \
        and NSRemindersFullAccessUsageDescription instead of NSCalendarsUsageDescription and \
        NSRemindersUsageDescription; iOS 13 reads NSBluetoothAlwaysUsageDescription instead of \
        NSBluetoothPeripheralUsageDescription. An app built with a current SDK needs the new key, \
        and as long as its deployment target is older it also needs the old one — otherwise the \
        request fails or the app is terminated on the versions that read the missing key.
        """,
        area: .privacy, severity: .warning, tags: ["privacy", "app-review"],
        references: ["https://developer.apple.com/documentation/eventkit/accessing-the-event-store",
                     "https://developer.apple.com/documentation/bundleresources/information_property_list/nsbluetoothalwaysusagedescription"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>MinimumOSVersion</key><string>16.0</string>\n↓<key>NSCalendarsFullAccessUsageDescription</key><string>Add your bookings to your calendar.</string>")],
                        note: "iOS 16 reads only NSCalendarsUsageDescription."),
            RuleExample(["App/Info.plist": plistXML("↓<key>NSCalendarsUsageDescription</key><string>Add your bookings to your calendar.</string>")],
                        note: "Apps built with the iOS 17 SDK need the full-access or write-only key."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>MinimumOSVersion</key><string>16.0</string>\n<key>NSCalendarsFullAccessUsageDescription</key><string>Add your bookings to your calendar.</string>\n<key>NSCalendarsUsageDescription</key><string>Add your bookings to your calendar.</string>")]),
            RuleExample(["App/Info.plist": plistXML("<key>MinimumOSVersion</key><string>17.0</string>\n<key>NSCalendarsWriteOnlyAccessUsageDescription</key><string>Add your bookings to your calendar.</string>")]),
        ])

    struct Pair {
        var legacy: String
        var modern: [String]
        var since: String
    }

    static let pairs = [
        Pair(legacy: "NSCalendarsUsageDescription", modern: ["NSCalendarsFullAccessUsageDescription", "NSCalendarsWriteOnlyAccessUsageDescription"], since: "17.0"),
        Pair(legacy: "NSRemindersUsageDescription", modern: ["NSRemindersFullAccessUsageDescription"], since: "17.0"),
        Pair(legacy: "NSBluetoothPeripheralUsageDescription", modern: ["NSBluetoothAlwaysUsageDescription"], since: "13.0"),
    ]

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for b in context.product.bundles where b.kind.ships && b.kind != .framework && b.kind != .resourceBundle {
            let minOS = b.minimumOSVersion.flatMap { $0.first?.isNumber == true ? $0 : nil }
            for p in Self.pairs {
                let legacy = b.infoValue(p.legacy)
                let modern = p.modern.compactMap { k in b.infoValue(k).map { (k, $0) } }
                if let legacy, modern.isEmpty {
                    out.append(finding("\(b.name) declares only the legacy \(p.legacy); iOS \(p.since) and later read \(p.modern.joined(separator: " or "))",
                                       bundle: b.name, at: legacy.location, key: p.modern[0]))
                } else if legacy == nil, let (key, value) = modern.first, let minOS,
                          VersionOrder.compare(minOS, p.since) == .orderedAscending {
                    out.append(finding("\(b.name) supports iOS \(minOS) but declares only \(key); iOS before \(p.since) reads \(p.legacy)",
                                       bundle: b.name, at: value.location, key: p.legacy))
                }
            }
        }
        return out
    }
}
