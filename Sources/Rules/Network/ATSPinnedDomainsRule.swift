import Foundation
import Artifacts
import Formats

public struct ATSPinnedDomainsRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "ats_pinned_domains",
        name: "ATS certificate pinning that cannot match or cannot rotate",
        summary: "An NSPinnedDomains entry pins no identity, a value that is not a SHA-256 digest, a single key with no backup, or a deployment target below iOS 14.",
        rationale: """
        `NSPinnedDomains` (iOS 14+) makes ATS require, for each named domain, a certificate \
        whose public key (SPKI) hashes to one of the `SPKI-SHA256-BASE64` values of \
        `NSPinnedCAIdentities` and/or `NSPinnedLeafIdentities`; when both are given, each must \
        match. Apple requires at least one identity per domain. Reported (OWASP MASVS-NETWORK-2):

        - a value that is not the base64 of 32 bytes (a SHA-1 digest, a certificate, a typo): no \
        key can match it. Fix: `openssl x509 -pubkey -noout | openssl pkey -pubin -outform der \
        | openssl dgst -sha256 -binary | base64`.
        - a domain with no identity, or a category with an element that names none.
        - a category with a single identity: when that key is replaced, every connection to the \
        domain fails until users install an update. Pin a backup key kept offline (or the \
        issuing CA's key as well).
        - a deployment target below iOS 14 (a note): older iOS ignores `NSPinnedDomains`, so \
        the app is not pinned there.
        """,
        area: .network, severity: .warning, tags: ["security", "masvs-network-2"],
        references: [
            "https://developer.apple.com/documentation/bundleresources/information-property-list/nsapptransportsecurity/nspinneddomains",
            "https://developer.apple.com/news/?id=g9ejcf8y",
        ],
        triggering: [
            RuleExample(["App/Info.plist": ATSRuleSupport.plist(pinned("""
                         \t\t\t<key>NSPinnedLeafIdentities</key>
                         \t\t\t<array>
                         \t\t\t\t<dict><key>SPKI-SHA256-BASE64</key>↓<string>EfatjsUqKYSrqv18O1FlA3hcIHI=</string></dict>
                         \t\t\t\t<dict><key>SPKI-SHA256-BASE64</key><string>VNANhndYzvgWvEaF9Y4ye5SXErB+vRfDSF8//J6fUTM=</string></dict>
                         \t\t\t</array>
                         """))],
                        note: "A SHA-1 digest where ATS expects SHA-256: no certificate matches it."),
            RuleExample(["Info.plist": ATSRuleSupport.plist(pinned("""
                         \t\t\t<key>NSPinnedLeafIdentities</key>
                         \t\t\t↓<array>
                         \t\t\t\t<dict><key>SPKI-SHA256-BASE64</key><string>n5EWH0NDPkmm3m22gNefYBWfLkrJFyYhoShGQoFYRAs=</string></dict>
                         \t\t\t</array>
                         """), before: "<key>CFBundleExecutable</key>\n<string>Example</string>\n<key>MinimumOSVersion</key>\n<string>13.0</string>\n"),
                          "Example": "binary"], kind: .app,
                        note: "A built app pinning one leaf key with no backup, for a deployment target (iOS 13) that ignores pinning."),
            RuleExample(["App/Info.plist": ATSRuleSupport.plist("""
                         \t<key>NSPinnedDomains</key>
                         \t<dict>
                         \t\t↓<key>api.example.com</key>
                         \t\t<dict>
                         \t\t\t<key>NSIncludesSubdomains</key>
                         \t\t\t<true/>
                         \t\t</dict>
                         \t</dict>
                         """)],
                        note: "A pinned domain with no identity at all."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": ATSRuleSupport.plist(pinned(identities(ATSKeys.pinnedLeafIdentities, [
                "n5EWH0NDPkmm3m22gNefYBWfLkrJFyYhoShGQoFYRAs=", "VNANhndYzvgWvEaF9Y4ye5SXErB+vRfDSF8//J6fUTM=",
            ])))],
                        note: "A leaf key and a backup."),
            RuleExample(["App/Info.plist": ATSRuleSupport.plist(pinned(identities(ATSKeys.pinnedCAIdentities, [
                "aVkJcAHRBQGsfVTAvbjbYUIPZY8pIswm5G1TYRmjESY=", "VNANhndYzvgWvEaF9Y4ye5SXErB+vRfDSF8//J6fUTM=",
            ])), before: "<key>MinimumOSVersion</key>\n<string>15.0</string>\n")],
                        note: "Two CA keys, iOS 15 and later."),
        ])

    /// An identity array of `digests`, for examples.
    static func identities(_ category: String, _ digests: [String]) -> String {
        "\t\t\t<key>\(category)</key>\n\t\t\t<array>\n"
            + digests.map { "\t\t\t\t<dict><key>SPKI-SHA256-BASE64</key><string>\($0)</string></dict>\n" }.joined() + "\t\t\t</array>"
    }

    /// `NSPinnedDomains` with one `api.example.com` entry holding `body`, for examples.
    static func pinned(_ body: String) -> String {
        "\t<key>NSPinnedDomains</key>\n\t<dict>\n\t\t<key>api.example.com</key>\n\t\t<dict>\n" + body + "\n\t\t</dict>\n\t</dict>"
    }

    /// Whether `value` is the base64 of a SHA-256 digest (32 bytes).
    static func isSHA256Base64(_ value: String) -> Bool {
        value.count == 44 && Data(base64Encoded: value)?.count == 32
    }

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for (b, c, policy) in ATSRuleSupport.configured(context) where !c.pinnedDomains.isEmpty {
            func report(_ message: String, at position: SourcePosition?, key: String, fix: String, severity: Severity = .warning) {
                var f = finding("\(b.name): \(message)", bundle: b.name, at: ATSRuleSupport.location(c, position), key: key, fix: fix)
                f.severity = severity
                out.append(f)
            }
            if let target = policy.deploymentTarget, target < 14, let first = c.pinnedDomains.first {
                report("NSPinnedDomains is read from iOS 14 on; on earlier versions, which the deployment target (\(ATSRuleSupport.target(b))) supports, connections are not pinned",
                       at: first.keyPosition, key: ATSKeys.root + "." + ATSKeys.pinnedDomains,
                       fix: "Raise the deployment target to iOS 14, or pin in code (URLSessionDelegate) for older versions.", severity: .note)
            }
            for d in c.pinnedDomains {
                if d.caIdentities == nil, d.leafIdentities == nil {
                    report("pinned domain '\(d.name)' names no NSPinnedCAIdentities or NSPinnedLeafIdentities; Apple requires at least one",
                           at: d.keyPosition, key: d.keyPath, fix: "Add the SPKI-SHA256-BASE64 digests of the keys to expect, or remove the entry.")
                }
                for (category, identities) in [(ATSKeys.pinnedCAIdentities, d.caIdentities), (ATSKeys.pinnedLeafIdentities, d.leafIdentities)] {
                    guard let identities else { continue }
                    for identity in identities {
                        guard let value = identity.value else {
                            report("\(identity.keyPath) is missing: this element pins nothing", at: identity.position, key: identity.keyPath,
                                   fix: "Give the element an SPKI-SHA256-BASE64 string.")
                            continue
                        }
                        if !Self.isSHA256Base64(value) {
                            report("\(identity.keyPath) is not the base64 of a SHA-256 digest (32 bytes), so no certificate can match it",
                                   at: identity.position, key: identity.keyPath,
                                   fix: "Use the base64 of the SHA-256 of the DER public key (SPKI): openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64")
                        }
                    }
                    if identities.count == 1 {
                        let path = d.keyPath + "." + category
                        report("\(path) pins a single key with no backup: when it is replaced, connections to \(d.name) fail until users update the app",
                               at: d.arrayPositions[category] ?? identities[0].position, key: path,
                               fix: "Add a backup key kept offline (or the issuing CA's key) to \(category).")
                    }
                }
            }
        }
        return out
    }
}
