import Foundation
import Artifacts
import Evidence
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

    /// The bundle whose ATS policy governs a URL of the evidence: its own bundle when ATS reads
    /// that bundle's Info.plist; for a built framework's binary, the nearest bundle that
    /// embeds it and has one. Nil for sources of other targets (they count through the code
    /// closures of the bundles that link them).
    static func process(of url: URLLiteral, in product: Product) -> AppBundle? {
        guard var b = product.bundles.first(where: { $0.name == url.bundle }) else { return nil }
        if kinds.contains(b.kind) { return b }
        guard case .binary = url.location else { return nil }
        var hops = 0
        while !kinds.contains(b.kind), let parent = b.parentID, hops < 16 {
            guard let next = product.bundles.first(where: { $0.id == parent }) else { return nil }
            b = next
            hops += 1
        }
        return kinds.contains(b.kind) ? b : nil
    }

    /// A note of `rule` on an exception domain's key, fingerprinted by the domain.
    static func note(_ rule: some Rule, _ message: String, bundle: AppBundle, _ c: ATSConfiguration, _ d: ATSExceptionDomain, fix: String) -> Finding {
        var f = rule.finding("\(bundle.name): \(message)", bundle: bundle.name, at: location(c, d.keyPosition), key: d.keyPath, fix: fix,
                             fingerprint: [d.name])
        f.severity = .note
        return f
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
