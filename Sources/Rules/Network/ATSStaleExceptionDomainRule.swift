import Foundation
import Artifacts
import Evidence
import Formats

public struct ATSStaleExceptionDomainRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "ats_stale_exception_domain",
        name: "ATS exception for a domain nothing mentions",
        summary: "An NSExceptionDomains entry names a domain that no source, binary, Info.plist value or text resource of the input mentions.",
        rationale: """
        Each `NSExceptionDomains` entry is a question App Review may ask — why does this \
        domain need weaker transport security? — and an exception nobody remembers outlives the \
        server it was for. Preflight looks for the domain (or, as the end of a longer host, a \
        subdomain of it) in the string literals of every source the input compiles (comments do \
        not count), in the C strings of every Mach-O file, in the string values of the \
        Info.plists (outside `NSAppTransportSecurity`) and in text resources (JSON, plists, \
        xcconfig, entitlements, JavaScript bundles, HTML, XML, YAML, text). When none mentions \
        it, the entry is reported as a note on its key.

        Only where the code is really visible: the bundle's sources were read (projects), or its \
        binary was, unencrypted (built apps); never for an input with no code. In built apps, \
        names of 15 bytes or fewer are not reported: Swift keeps strings that short inside the \
        instructions, not among the C strings. Entries `ats_exception_domain` reports for their \
        name (a URL, a wildcard, upper case, a trailing dot, an IP address) and `.local` or \
        unqualified names are left to it.

        A note, not a warning: a domain can come from a server response, a remote \
        configuration or a web page the app shows. Fix: remove the entry if the domain is gone; \
        if it is reached that way, keep it and suppress the finding with a comment saying how.
        """,
        area: .network, severity: .note, tags: ["security", "app-review", "masvs-network-1"],
        references: [
            "https://developer.apple.com/documentation/bundleresources/information-property-list/nsapptransportsecurity/nsexceptiondomains",
        ],
        triggering: [
            RuleExample(["App/Info.plist": ATSRuleSupport.plist("""
                         \t<key>NSExceptionDomains</key>
                         \t<dict>
                         \t\t↓<key>legacy-cdn.acme.com</key>
                         \t\t<dict>
                         \t\t\t<key>NSExceptionAllowsInsecureHTTPLoads</key>
                         \t\t\t<true/>
                         \t\t</dict>
                         \t\t<key>api.acme.com</key>
                         \t\t<dict>
                         \t\t\t<key>NSExceptionMinimumTLSVersion</key>
                         \t\t\t<string>TLSv1.1</string>
                         \t\t</dict>
                         \t</dict>
                         """),
                         "App/API.swift": "// The images moved off legacy-cdn.acme.com in 2021.\nlet base = URL(string: \"https://api.acme.com/v2\")!\n"],
                        note: "The code uses api.acme.com; legacy-cdn.acme.com only appears in a comment."),
            RuleExample(["App/Info.plist": ATSRuleSupport.plist("""
                         \t<key>NSExceptionDomains</key>
                         \t<dict>
                         \t\t↓<key>acme.org</key>
                         \t\t<dict>
                         \t\t\t<key>NSIncludesSubdomains</key>
                         \t\t\t<true/>
                         \t\t\t<key>NSExceptionAllowsInsecureHTTPLoads</key>
                         \t\t\t<true/>
                         \t\t</dict>
                         \t</dict>
                         """),
                         "App/Links.m": "NSString *const kHome = @\"https://acme.org.example.net/\";\nNSString *const kShop = @\"https://shopacme.org/\";\n"],
                        note: "Neither literal names a host of acme.org: one only starts with it, the other ends in a longer label."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": ATSRuleSupport.plist(ATSRuleSupport.domains([
                ("acme.org", "<key>NSIncludesSubdomains</key><true/><key>NSExceptionAllowsInsecureHTTPLoads</key><true/>"),
                ("media.acme.com", "<key>NSExceptionAllowsInsecureHTTPLoads</key><true/>"),
            ])),
                         "App/Net.swift": "let images = \"http://img.acme.org/thumbs\"\nvar components = URLComponents()\ncomponents.host = \"media.acme.com\"\n"],
                        note: "A subdomain in a URL and a bare host name both mention their entries."),
            RuleExample(["App/Info.plist": ATSRuleSupport.plist(ATSRuleSupport.domains([
                ("feeds.acme.com", "<key>NSExceptionAllowsInsecureHTTPLoads</key><true/>"),
            ]), before: "<key>FeedBaseURL</key>\n<string>http://feeds.acme.com/rss</string>\n"),
                         "App/Feed.swift": "let base = Bundle.main.object(forInfoDictionaryKey: \"FeedBaseURL\") as? String\n"],
                        note: "The domain comes from an Info.plist value the code reads."),
            RuleExample(["App/Info.plist": ATSRuleSupport.plist(ATSRuleSupport.domains([
                ("legacy-cdn.acme.com", "<key>NSExceptionAllowsInsecureHTTPLoads</key><true/>"),
            ]))],
                        note: "No code in the input: nothing to compare with."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        let mentioned = context.evidence.mentionedDomains
        for (b, c, _) in ATSRuleSupport.configured(context) where context.evidence.urlScannedBundles.contains(b.name) {
            let builtOnly = b.sourceFiles.isEmpty && b.linkedCode.isEmpty
            for d in c.exceptionDomains {
                let name = d.name.lowercased()
                // An address or range names no host a literal could mention reliably.
                guard ATSExceptionDomainRule.problem(d.name) == nil, !ATSPolicy.isLocal(name), ATSAddressRange(name) == nil,
                      !mentioned.contains(name), !(builtOnly && name.utf8.count <= 15) else { continue }
                let scope = d.includesSubdomains?.value == true ? "\(d.name) nor any subdomain of it" : d.name
                out.append(ATSRuleSupport.note(self, "no source, binary, Info.plist value or resource of the input mentions \(scope), yet NSExceptionDomains keeps an exception for it; App Review may ask why",
                                               bundle: b, c, d,
                                               fix: "Remove the entry if \(d.name) is no longer used; if the app reaches it through a server response, remote configuration or web content, keep it and suppress this note saying so."))
            }
        }
        return out
    }
}
