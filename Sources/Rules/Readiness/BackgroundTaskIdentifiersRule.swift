import Foundation
import Artifacts

public struct BackgroundTaskIdentifiersRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "background_processing_identifiers",
        name: "processing mode without task identifiers",
        summary: "UIBackgroundModes contains `processing` but BGTaskSchedulerPermittedIdentifiers is missing or empty.",
        rationale: """
        The `processing` background mode lets BGTaskScheduler run BGProcessingTask requests, \
        and only for the identifiers the app lists in `BGTaskSchedulerPermittedIdentifiers` \
        (registering any other throws at run time). App Store Connect rejects an upload whose \
        Info.plist has the mode but no identifiers (ITMS-90771 "The Info.plist key \
        'BGTaskSchedulerPermittedIdentifiers' must contain a list of identifiers used to submit \
        and handle tasks when 'UIBackgroundModes' has a value of 'processing'"). This often \
        comes from a plugin's install step that added the mode.

        Fix: add the identifiers the code registers (`BGTaskScheduler.shared.register(forTaskWithIdentifier:…)`), \
        or remove `processing` if no code schedules processing tasks. Built apps, projects and \
        Info.plist files alike.
        """,
        area: .bundle, severity: .error, tags: ["app-store", "background"],
        references: ["https://developer.apple.com/documentation/bundleresources/information-property-list/bgtaskschedulerpermittedidentifiers"],
        itms: ["ITMS-90771"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>UIBackgroundModes</key>\n↓<array><string>fetch</string><string>processing</string></array>")]),
            RuleExample(["Info.plist": plistXML("""
                         <key>BGTaskSchedulerPermittedIdentifiers</key><array/>
                         <key>UIBackgroundModes</key>
                         ↓<array><string>processing</string></array>
                         """)], kind: .app, note: "An empty list."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("""
                         <key>BGTaskSchedulerPermittedIdentifiers</key><array><string>com.example.app.cleanup</string></array>
                         <key>UIBackgroundModes</key><array><string>processing</string></array>
                         """)]),
            RuleExample(["App/Info.plist": plistXML("<key>UIBackgroundModes</key><array><string>fetch</string></array>")],
                        note: "Only processing needs the list for the upload."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        context.product.bundles.compactMap { b in
            guard b.kind.ships, let modes = b.infoValue("UIBackgroundModes"), AppTraits.strings(modes).contains("processing") else { return nil }
            let ids = b.infoValue("BGTaskSchedulerPermittedIdentifiers")
            if let ids, !AppTraits.strings(ids).isEmpty { return nil }
            return finding("\(b.name) declares the processing background mode but BGTaskSchedulerPermittedIdentifiers is \(ids == nil ? "missing" : "empty") (ITMS-90771)",
                           bundle: b.name, at: FileLocation(path: modes.location.path, position: modes.node.position ?? modes.location.position),
                           key: "UIBackgroundModes",
                           fix: "List the task identifiers the app registers in BGTaskSchedulerPermittedIdentifiers, or remove the processing mode.",
                           fingerprint: ["processing"])
        }
    }
}
