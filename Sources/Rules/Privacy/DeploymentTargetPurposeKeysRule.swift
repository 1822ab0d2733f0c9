import Foundation
import Artifacts
import Evidence

public struct DeploymentTargetPurposeKeysRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "purpose_keys_for_deployment_target",
        name: "Purpose keys do not match the OS versions",
        summary: "A resource whose purpose key changed between iOS versions (calendars and reminders in iOS 17, Bluetooth in iOS 13) lacks the key one of the supported versions reads, or keeps a legacy key none of them reads.",
        rationale: """
        iOS 17 reads NSCalendarsFullAccessUsageDescription / NSCalendarsWriteOnlyAccessUsageDescription \
        and NSRemindersFullAccessUsageDescription instead of NSCalendarsUsageDescription and \
        NSRemindersUsageDescription; iOS 13 reads NSBluetoothAlwaysUsageDescription instead of \
        NSBluetoothPeripheralUsageDescription. An app built with a current SDK needs the new key, \
        and as long as its deployment target is older it also needs the old one — otherwise the \
        request fails or the app is terminated on the versions that read the missing key.

        The rule only asks for keys iOS will read and the code needs:

        - **Deployment target at or above the version that replaced the legacy key** (iOS 17 for \
        calendars and reminders, iOS 13 for Bluetooth): no supported version reads the legacy \
        key. If the bundle's code uses the resource and the current key is missing, the finding \
        is a warning to declare the current key instead; in every other case it is a note to \
        remove the legacy key, never a request to add the current one.
        - **Only the legacy key, older or unknown deployment target**: the current key is \
        needed only if the code asks. A warning when the bundle's code (or a framework it \
        embeds) uses the resource; nothing when Preflight read all of the bundle's code and \
        none uses it (`unused_purpose_string` notes the key); a note when no code could be \
        seen (a folder of data files, an unreadable binary) or the app also uses code \
        Preflight cannot read (pods, binary frameworks, remote packages).
        - **Only the current key, older deployment target**: a warning to add the legacy key, \
        unless Preflight read all of the bundle's code and none uses the resource.

        Deployment targets count only for iOS bundles; watch apps and other platforms count \
        their versions differently and are treated as possibly old.
        """,
        area: .privacy, severity: .warning, tags: ["privacy", "app-review"],
        references: ["https://developer.apple.com/documentation/eventkit/accessing-the-event-store",
                     "https://developer.apple.com/documentation/bundleresources/information_property_list/nsbluetoothalwaysusagedescription"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>MinimumOSVersion</key><string>16.0</string>\n↓<key>NSCalendarsFullAccessUsageDescription</key><string>Add your bookings to your calendar.</string>")],
                        note: "iOS 16 reads only NSCalendarsUsageDescription."),
            RuleExample(["App/Info.plist": plistXML("↓<key>NSCalendarsUsageDescription</key><string>Add your bookings to your calendar.</string>")],
                        note: "No code to judge by: a note that apps built with the iOS 17 SDK need the full-access or write-only key if they use calendars."),
            RuleExample(["App/Info.plist": plistXML("<key>MinimumOSVersion</key><string>15.0</string>\n↓<key>NSBluetoothPeripheralUsageDescription</key><string>Connect to your card reader.</string>"),
                         "App/Reader.m": ExampleCode.bluetoothReader],
                        note: "The code uses Bluetooth, and iOS 15 reads only NSBluetoothAlwaysUsageDescription: a warning to declare it instead."),
            RuleExample(["App/Info.plist": plistXML("<key>MinimumOSVersion</key><string>17.0</string>\n↓<key>NSCalendarsUsageDescription</key><string>Add your bookings to your calendar.</string>\n<key>NSCalendarsFullAccessUsageDescription</key><string>Add your bookings to your calendar.</string>")],
                        note: "No supported version reads the legacy key: a note to remove it."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>MinimumOSVersion</key><string>16.0</string>\n<key>NSCalendarsFullAccessUsageDescription</key><string>Add your bookings to your calendar.</string>\n<key>NSCalendarsUsageDescription</key><string>Add your bookings to your calendar.</string>")]),
            RuleExample(["App/Info.plist": plistXML("<key>MinimumOSVersion</key><string>17.0</string>\n<key>NSCalendarsWriteOnlyAccessUsageDescription</key><string>Add your bookings to your calendar.</string>")]),
            RuleExample(["App/Info.plist": plistXML("<key>MinimumOSVersion</key><string>16.0</string>\n<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>\n<key>NSCalendarsUsageDescription</key><string>Add your bookings to your calendar.</string>"),
                         "App/Scanner.m": ExampleCode.cameraScanner],
                        note: "None of the code uses calendars: no request to add the iOS 17 key (unused_purpose_string notes the unused key)."),
            RuleExample(["App/Info.plist": plistXML("<key>MinimumOSVersion</key><string>12.0</string>\n<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>\n<key>NSBluetoothAlwaysUsageDescription</key><string>Connect to your card reader.</string>"),
                         "App/Scanner.m": ExampleCode.cameraScanner],
                        note: "iOS 12 reads only the legacy Bluetooth key, but none of the code uses Bluetooth."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        let use = PurposeKeyUse(context)
        var out: [Finding] = []
        for b in context.product.bundles where b.kind.ships && b.kind != .framework && b.kind != .resourceBundle {
            let target = PurposeKeyUse.iOSDeploymentTarget(b)
            for p in ProtectedResourceCatalog.keyReplacements {
                let legacy = b.infoValue(p.legacy)
                let current = p.current.compactMap { k in b.infoValue(k).map { (k, $0) } }
                let currentNames = p.current.joined(separator: " or ")
                let codeUse = use.codeUse(of: p.legacy, in: b)
                if let legacy, !PurposeKeyUse.isRead(p.legacy, by: b), let target {
                    // No supported version reads the legacy key: it is dead weight, and it asks
                    // for the current key only where the code uses the resource.
                    if current.isEmpty && codeUse == .used {
                        out.append(finding("\(b.name) uses \(p.resource) but declares only \(p.legacy), which iOS \(p.sinceIOS) and later never read (deployment target iOS \(target)); declare \(currentNames) instead",
                                           bundle: b.name, at: legacy.location, key: p.current[0],
                                           fix: "Replace \(p.legacy) by \(currentNames)."))
                        continue
                    }
                    let why: String
                    if let (key, _) = current.first {
                        why = " (\(key) is the key iOS reads)"
                    } else if codeUse == .notUsed {
                        why = " (none of its code that Preflight read uses \(p.resource))"
                    } else {
                        why = ", and if the bundle uses \(p.resource), declare \(currentNames) instead"
                    }
                    var f = finding("\(b.name) targets iOS \(target), and iOS \(p.sinceIOS) and later never read \(p.legacy): remove it\(why)",
                                    bundle: b.name, at: legacy.location, key: p.legacy,
                                    fix: "Remove \(p.legacy) from the Info.plist of \(b.name).")
                    f.severity = .note
                    out.append(f)
                } else if let legacy, current.isEmpty {
                    // Supported versions read the legacy key, and the newest ones the current
                    // key: it is missing only if the code asks.
                    switch codeUse {
                    case .used:
                        out.append(finding("\(b.name) uses \(p.resource) but declares only the legacy \(p.legacy); iOS \(p.sinceIOS) and later read \(currentNames)",
                                           bundle: b.name, at: legacy.location, key: p.current[0],
                                           fix: "Add \(currentNames) next to \(p.legacy)."))
                    case .notUsed:
                        continue  // An unused key: unused_purpose_string's note.
                    case .unknown:
                        var f = finding("\(b.name) declares only the legacy \(p.legacy); if its code uses \(p.resource), iOS \(p.sinceIOS) and later read \(currentNames), so add it",
                                        bundle: b.name, at: legacy.location, key: p.current[0],
                                        fix: "Add \(currentNames) next to \(p.legacy) if the bundle uses \(p.resource).")
                        f.severity = .note
                        out.append(f)
                    }
                } else if legacy == nil, let (key, value) = current.first, let target,
                          VersionOrder.compare(target, p.sinceIOS) == .orderedAscending, codeUse != .notUsed {
                    out.append(finding("\(b.name) supports iOS \(target) but declares only \(key); iOS before \(p.sinceIOS) reads \(p.legacy)",
                                       bundle: b.name, at: value.location, key: p.legacy,
                                       fix: "Add \(p.legacy) with the same text as \(key)."))
                }
            }
        }
        return out
    }
}
