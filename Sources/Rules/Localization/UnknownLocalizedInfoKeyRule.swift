import Foundation
import Artifacts

public struct UnknownLocalizedInfoKeyRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "unknown_localized_info_key",
        name: "Unknown purpose key in InfoPlist.strings",
        summary: "InfoPlist.strings translates a key that looks like a purpose string but is not one iOS knows (a typo such as NSCameraUsageUsageDescription).",
        rationale: """
        A misspelled key is never read: the prompt shows the untranslated text, or, when the \
        Info.plist has the same typo, the app has no purpose string at all. Use the exact key.
        """,
        area: .localization, severity: .error, tags: ["privacy", "localization"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>"),
                         "App/de.lproj/InfoPlist.strings": "↓\"NSCameraUsageUsageDescription\" = \"Belege scannen.\";\n"]),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>NSCameraUsageDescription</key><string>Scan receipts to add them to your expenses.</string>"),
                         "App/de.lproj/InfoPlist.strings": "\"NSCameraUsageDescription\" = \"Belege scannen.\";\n"]),
        ])

    /// Purpose keys that exist but are not in the catalog (macOS-only, low-confidence, legacy).
    static let otherKnownKeys: Set<String> = [
        "NSDesktopFolderUsageDescription", "NSDocumentsFolderUsageDescription", "NSDownloadsFolderUsageDescription",
        "NSNetworkVolumesUsageDescription", "NSRemovableVolumesUsageDescription", "NSFileProviderDomainUsageDescription",
        "NSFileProviderPresenceUsageDescription", "NSAppDataUsageDescription", "NSSystemAdministrationUsageDescription",
        "NSAppleEventsUsageDescription", "NSSystemExtensionUsageDescription", "NSVoIPUsageDescription",
        "NSLocationUsageDescription", "NSLocationAlwaysUsageDescription", "NSCalendarsUsageDescription",
        "NSRemindersUsageDescription", "NSHealthClinicalHealthRecordsShareUsageDescription", "NSVideoSubscriberAccountUsageDescription",
        "NSGKFriendListUsageDescription", "NSIdentityUsageDescription", "NSWorldSensingUsageDescription",
        "NSHandsTrackingUsageDescription", "NSMainCameraUsageDescription", "NSEnterpriseMCAMUsageDescription",
        "NSSensorKitUsageDescription", "NSFallDetectionUsageDescription", "NSFinancialDataUsageDescription",
        "NSAudioCaptureUsageDescription", "NSContactlessPaymentUsageDescription", "NSBluetoothPeripheralUsageDescription",
        "NSUserTrackingUsageDescription", "NSNearbyInteractionAllowOnceUsageDescription", "NSNearbyInteractionUsageDescription",
        "NSFocusStatusUsageDescription", "NSLocalNetworkUsageDescription", "NSMicrophoneUsageDescription",
        "NSCrossWebsiteTrackingUsageDescription", "NSPhotoLibraryAddUsageDescription", "NSCalendarsWriteOnlyAccessUsageDescription",
    ]

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for b in context.product.bundles where b.kind.ships {
            let loc = InfoPlistLocalizations(b)
            var reported = Set<String>()
            for lang in loc.languages {
                for (key, at) in (loc.byLanguage[lang] ?? [:]).sorted(by: { $0.key < $1.key }) where key.hasSuffix("UsageDescription") {
                    guard !PurposeStrings.catalogKeys.contains(key), !Self.otherKnownKeys.contains(key), reported.insert(key).inserted else { continue }
                    out.append(finding("\(key) in \(lang) InfoPlist.strings of \(b.name) is not a purpose-string key iOS knows; check the spelling",
                                       bundle: b.name, at: at, key: key))
                }
            }
        }
        return out
    }
}
