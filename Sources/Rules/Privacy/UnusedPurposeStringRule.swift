import Foundation
import Artifacts
import Evidence

public struct UnusedPurposeStringRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "unused_purpose_string",
        name: "Purpose string without a use",
        summary: "A bundle declares a purpose string but none of its code that Preflight can see uses the resource.",
        rationale: """
        Apple asks apps to request only the data they need (guideline 5.1.1), and a purpose \
        string for a feature that was removed invites reviewer questions. This is a note, not a \
        verdict: SDKs Preflight cannot read, web content and system pickers can also ask. It is \
        only reported where Preflight saw the bundle's code (binaries of built apps, sources of \
        Xcode projects) and the project uses no binary SDKs or dependency managers. A key counts \
        as used when the code uses any key of the same resource (the when-in-use location text \
        is shown for an always request). A legacy key iOS no longer reads at the bundle's \
        deployment target is left to `purpose_keys_for_deployment_target`, which says to remove \
        it whether or not the code uses the resource.
        """,
        area: .privacy, severity: .note, tags: ["privacy"],
        references: ["https://developer.apple.com/app-store/review/guidelines/#5.1.1"],
        triggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/Scanner.m"]),
                         "App/Info.plist": plistXML("<key>NSCameraUsageDescription</key>\n<string>Scan receipts to add them to your expenses.</string>\n<key>NSMicrophoneUsageDescription</key>\n↓<string>Record voice notes.</string>"),
                         "App/Scanner.m": "#import <AVFoundation/AVFoundation.h>\nvoid scan(void) { [AVCaptureDevice requestAccessForMediaType:AVMediaTypeVideo completionHandler:nil]; }\n"],
                        kind: .project),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist", "IPHONEOS_DEPLOYMENT_TARGET": "16.0"], sources: ["App/Scanner.m"]),
                         "App/Info.plist": plistXML("<key>NSCameraUsageDescription</key>\n<string>Scan receipts to add them to your expenses.</string>\n<key>NSCalendarsUsageDescription</key>\n↓<string>Add your bookings to your calendar.</string>"),
                         "App/Scanner.m": "#import <AVFoundation/AVFoundation.h>\nvoid scan(void) { [AVCaptureDevice requestAccessForMediaType:AVMediaTypeVideo completionHandler:nil]; }\n"],
                        kind: .project, note: "iOS 16 still reads the legacy calendar key, but no code uses calendars."),
        ],
        nonTriggering: [
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist"], sources: ["App/Scanner.m"]),
                         "App/Info.plist": plistXML("<key>NSCameraUsageDescription</key>\n<string>Scan receipts to add them to your expenses.</string>"),
                         "App/Scanner.m": "#import <AVFoundation/AVFoundation.h>\nvoid scan(void) { [AVCaptureDevice requestAccessForMediaType:AVMediaTypeVideo completionHandler:nil]; }\n"],
                        kind: .project),
            RuleExample(["App/Info.plist": plistXML("<key>NSMicrophoneUsageDescription</key><string>Record voice notes.</string>")],
                        note: "A folder without a project or binaries shows no code to judge by."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist", "IPHONEOS_DEPLOYMENT_TARGET": "17.0"], sources: ["App/Scanner.m"]),
                         "App/Info.plist": plistXML("<key>NSCameraUsageDescription</key>\n<string>Scan receipts to add them to your expenses.</string>\n<key>NSCalendarsUsageDescription</key>\n<string>Add your bookings to your calendar.</string>"),
                         "App/Scanner.m": "#import <AVFoundation/AVFoundation.h>\nvoid scan(void) { [AVCaptureDevice requestAccessForMediaType:AVMediaTypeVideo completionHandler:nil]; }\n"],
                        kind: .project, note: "iOS 17 and later never read NSCalendarsUsageDescription: purpose_keys_for_deployment_target says to remove it."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        let product = context.product
        // A folder's code may live outside the bundle folders; only projects and built apps
        // show a bundle's code whole enough for this note.
        guard product.kind != .folder else { return [] }
        let use = PurposeKeyUse(context)
        var out: [Finding] = []
        for (b, views) in context.bundles where EmbeddingChains.hostKinds.contains(b.kind) {
            for d in views.declaredPurposeStrings where d.value != nil && ProtectedResourceCatalog.standard.resource(forKey: d.key) != nil {
                // Keys iOS never reads are purpose_keys_for_deployment_target's "remove it".
                guard PurposeKeyUse.isRead(d.key, by: b), use.codeUse(of: d.key, in: b) == .notUsed else { continue }
                out.append(finding("\(b.name) declares \(d.key) but none of its code that Preflight read uses it; remove it if the feature is gone (SDKs and web content can also ask)",
                                   bundle: b.name, at: d.location, key: d.key))
            }
        }
        return out
    }
}
