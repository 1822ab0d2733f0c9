import Foundation
import Artifacts
import Evidence

/// How the data-flow rules (`FlowResolver` facts) become findings: one per fact in shipping
/// code, the path from source to sink in the message, lowered for code the host may not run.
enum FlowFacts {
    static func findings<R: Rule>(_ rule: R, _ context: RuleContext, _ capability: String, severity: Severity? = nil,
                                  lowered: Severity, fix: String, message: (AppBundle, Usage) -> String) -> [Finding] {
        SecurityFacts(context).all(capability).map { host, fact in
            let u = fact.usage
            let place = SecurityFacts.location(u)
            var f = rule.finding(message(host, u), bundle: host.name, at: place, key: u.key, evidence: [UsageReading.evidenceRef(u)],
                                 fix: fix, fingerprint: [u.key, place.path])
            if let severity { f.severity = severity }
            return fact.lowered(f, to: lowered)
        }
    }

    /// A fact's API text without the line numbers of its data-flow path, for fingerprints that
    /// survive edits elsewhere in the file.
    /// A step in another file (`(Log.swift:12)`, from the project-wide join) keeps its file, not its line.
    static func stable(_ api: String) -> String {
        api.replacingOccurrences(of: #" \(line [0-9]+\)"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #":[0-9]+\)"#, with: ")", options: .regularExpression)
    }

    /// The example app every flow rule's examples share.
    static let infoPlist = plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>")
}
