import Foundation
import Artifacts
import Formats

public struct UnknownBackgroundModeRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "unknown_background_mode",
        name: "Unknown or retired background mode",
        summary: "UIBackgroundModes holds a value iOS does not know (a typo, a watchOS mode, a value that is not a string) or the retired newsstand-content.",
        rationale: """
        iOS reads only the documented values of `UIBackgroundModes`: audio, location, voip, \
        external-accessory, bluetooth-central, bluetooth-peripheral, fetch, remote-notification, \
        processing, nearby-interaction, network-authentication and push-to-talk. Anything else \
        is ignored, so the feature it was meant for does not run in the background: \
        `remote-notifications`, `background-fetch`, `Audio`, a watchOS `WKBackgroundModes` value \
        such as `workout-processing`. `newsstand-content` belonged to Newsstand, which iOS no \
        longer has. Fix the spelling or remove the value. Built apps, projects and Info.plist files.
        """,
        area: .bundle, severity: .warning, tags: ["background"],
        references: ["https://developer.apple.com/documentation/bundleresources/information-property-list/uibackgroundmodes"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>UIBackgroundModes</key>\n<array>\n\t<string>audio</string>\n\t↓<string>remote-notifications</string>\n</array>")],
                        note: "A typo: the value is remote-notification."),
            RuleExample(["App/Info.plist": plistXML("<key>UIBackgroundModes</key>\n<array>↓<string>newsstand-content</string></array>")]),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>UIBackgroundModes</key>\n<array><string>audio</string><string>remote-notification</string><string>processing</string></array>")]),
            RuleExample(["Watch/Info.plist": plistXML("<key>WKBackgroundModes</key>\n<array><string>workout-processing</string></array>")],
                        note: "watchOS modes under their own key."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for b in context.product.bundles where b.kind.ships {
            guard let modes = b.infoValue("UIBackgroundModes") else { continue }
            let items: [(value: String?, position: SourcePosition?)] = modes.node.array.map { $0.map { ($0.string, $0.position) } }
                ?? AppTraits.strings(modes).map { ($0, nil) }
            for item in items {
                let reason: String
                switch item.value {
                case nil: reason = "a value that is not a string"
                case "newsstand-content": reason = "newsstand-content, retired with Newsstand"
                case let v? where !BackgroundModes.valid.contains(v):
                    reason = "\"\(v)\", which iOS does not know" + (Self.suggestion(v).map { " (did you mean \($0)?)" } ?? "")
                default: continue
                }
                out.append(finding("UIBackgroundModes of \(b.name) holds \(reason); iOS ignores it",
                                   bundle: b.name, at: FileLocation(path: modes.location.path, position: item.position ?? modes.node.position ?? modes.location.position),
                                   key: "UIBackgroundModes", fix: "Correct or remove the value.", fingerprint: [item.value ?? "non-string"]))
            }
        }
        return out
    }

    /// The valid mode a value most likely meant: the same letters but for case, a trailing
    /// `s`, or spaces and underscores for hyphens.
    static func suggestion(_ value: String) -> String? {
        let normalized = value.lowercased().replacingOccurrences(of: "_", with: "-").replacingOccurrences(of: " ", with: "-")
        for candidate in [normalized, normalized.hasSuffix("s") ? String(normalized.dropLast()) : normalized]
        where BackgroundModes.valid.contains(candidate) && candidate != "newsstand-content" {
            return candidate
        }
        return nil
    }
}
