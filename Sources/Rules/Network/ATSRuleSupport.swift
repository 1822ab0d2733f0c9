import Foundation
import Artifacts
import Formats

/// What the ATS rules share: which bundles ATS reads, and where a finding points.
enum ATSRuleSupport {
    /// Bundles whose own Info.plist ATS reads: the process's main bundle — the app, each
    /// extension, App Clip and watch app. A framework's `NSAppTransportSecurity` is ignored.
    static let kinds: Set<BundleKind> = [.app, .appExtension, .appClip, .watchApp]

    /// Each such bundle that configures ATS, with its effective policy.
    static func configured(_ context: RuleContext) -> [(bundle: AppBundle, configuration: ATSConfiguration, policy: ATSPolicy)] {
        context.product.bundles.compactMap { b in
            guard kinds.contains(b.kind) else { return nil }
            let policy = ATSPolicy(bundle: b)
            guard let c = policy.configuration else { return nil }
            return (b, c, policy)
        }
    }

    /// A place in the file the configuration comes from (its own place when `position` is nil).
    static func location(_ c: ATSConfiguration, _ position: SourcePosition?) -> FileLocation {
        FileLocation(path: c.location.path, position: position ?? c.location.position)
    }

    /// The deployment target as people write it, for messages.
    static func target(_ bundle: AppBundle) -> String {
        bundle.minimumOSVersion.map { "iOS \($0)" } ?? "an unknown deployment target"
    }

    /// An Info.plist whose `NSAppTransportSecurity` holds `body` (XML entries), for examples.
    static func plist(_ body: String, before: String = "") -> String {
        plistXML(before + "<key>NSAppTransportSecurity</key>\n<dict>\n" + body + "\n</dict>")
    }

    /// `NSExceptionDomains` with one dictionary per domain (XML entries), for examples.
    static func domains(_ entries: [(String, String)]) -> String {
        "\t<key>NSExceptionDomains</key>\n\t<dict>\n"
            + entries.map { "\t\t<key>\($0.0)</key>\n\t\t<dict>\($0.1)</dict>\n" }.joined() + "\t</dict>"
    }
}
