import Foundation
import Artifacts
import Formats

public struct ATSMalformedKeyRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "ats_malformed_key",
        name: "Malformed App Transport Security key",
        summary: "An `NSAppTransportSecurity` key iOS does not read as written: unknown or misspelled, at the wrong level, of the wrong type, or an old spelling.",
        rationale: """
        iOS reads only the documented ATS keys, each at its level and with its type; anything \
        else is silently ignored, so the exception (or the protection) the developer meant is \
        not there. The finding names the key path and the fix: the closest documented key for a \
        misspelling, the dictionary a misplaced key belongs in (`NSIncludesSubdomains` only \
        works inside a domain's dictionary), `<true/>`/`<false/>` for a Boolean written as a \
        string, one of `TLSv1.0`–`TLSv1.3` for a TLS version. A key that is present with a \
        mistyped value still makes iOS 10+ ignore `NSAllowsArbitraryLoads` when it is one of \
        the narrower global keys (Apple: "if you include this key with any value").

        Old spellings are reported too: `NSTemporaryException…` (iOS 9 betas) and \
        `NSThirdPartyException…` (iOS 9) are absent from Apple's current reference — Preflight \
        assumes they still act like the `NSException…` key, as scanners and reviewers do, but \
        rename them so the effect is documented (a note). `NSAllowsArbitraryLoadsInMedia` is the \
        iOS 10 beta name of `NSAllowsArbitraryLoadsForMedia`; whether iOS still reads it is \
        undocumented, and it is not among the keys that make iOS ignore `NSAllowsArbitraryLoads`.

        `NSAppTransportSecurity` cannot be generated from an `INFOPLIST_KEY_` build setting (it \
        is a dictionary); a value generated as a string is reported as the wrong type.
        """,
        area: .network, severity: .warning, tags: ["security", "masvs-network-1"],
        references: [
            "https://developer.apple.com/documentation/bundleresources/information-property-list/nsapptransportsecurity",
            "https://developer.apple.com/documentation/bundleresources/information-property-list/nsapptransportsecurity/nsexceptiondomains",
        ],
        triggering: [
            RuleExample(["App/Info.plist": ATSRuleSupport.plist("\t↓<key>NSAllowArbitraryLoads</key>\n\t<true/>")],
                        note: "A misspelling: iOS ignores the key; the finding suggests NSAllowsArbitraryLoads."),
            RuleExample(["App/Info.plist": ATSRuleSupport.plist("""
                         \t<key>NSExceptionDomains</key>
                         \t<dict>
                         \t\t<key>media.example.com</key>
                         \t\t<dict>
                         \t\t\t<key>NSExceptionAllowsInsecureHTTPLoads</key>
                         \t\t\t↓<string>YES</string>
                         \t\t\t<key>NSExceptionMinimumTLSVersion</key>
                         \t\t\t↓<string>1.2</string>
                         \t\t</dict>
                         \t</dict>
                         \t↓<key>NSIncludesSubdomains</key>
                         \t<true/>
                         """)],
                        note: "A Boolean written as a string, a TLS version iOS does not know, and a domain key at the top level."),
            RuleExample(["Info.plist": ATSRuleSupport.plist("""
                         \t<key>NSExceptionDomains</key>
                         \t<dict>
                         \t\t<key>graph.facebook.com</key>
                         \t\t<dict>
                         \t\t\t↓<key>NSThirdPartyExceptionRequiresForwardSecrecy</key>
                         \t\t\t<false/>
                         \t\t</dict>
                         \t</dict>
                         \t↓<key>NSAllowsArbitraryLoadsInMedia</key>
                         \t<true/>
                         """, before: "<key>CFBundleExecutable</key>\n<string>Example</string>\n"), "Example": "binary"], kind: .app,
                        note: "A built app with an iOS 9 third-party spelling (a note) and the iOS 10 beta media key."),
            RuleExample(["Share/Info.plist": ATSRuleSupport.plist("\t↓<key>NSPinnedDomain</key>\n\t<dict/>",
                                                                  before: "<key>NSExtension</key>\n<dict/>\n")],
                        note: "An app extension reads its own Info.plist's ATS keys."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": ATSRuleSupport.plist("\t<key>NSAllowsLocalNetworking</key>\n\t<true/>\n" + ATSRuleSupport.domains([
                ("example.com", "<key>NSIncludesSubdomains</key><true/><key>NSRequiresCertificateTransparency</key><true/>"
                    + "<key>NSExceptionMinimumTLSVersion</key><string>TLSv1.3</string>"),
            ]))]),
            RuleExample(["App/Info.plist": plistXML("<key>NSAllowsArbitraryLoads</key><true/>")],
                        note: "Outside NSAppTransportSecurity the key means nothing to ATS; other rules look at Info.plist keys."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for (b, c, _) in ATSRuleSupport.configured(context) {
            for issue in c.issues {
                let (message, fix, severity) = Self.describe(issue)
                var f = finding("\(b.name): \(message)", bundle: b.name, at: ATSRuleSupport.location(c, issue.position),
                                key: issue.keyPath, fix: fix)
                f.severity = severity
                out.append(f)
            }
        }
        return out
    }

    static func describe(_ issue: ATSIssue) -> (message: String, fix: String, severity: Severity) {
        let path = issue.keyPath
        switch issue.kind {
        case .unknownKey(let suggestion?):
            return ("\(path) is not an App Transport Security key, so iOS ignores it; did you mean \(suggestion)?",
                    "Rename \(issue.key) to \(suggestion).", .warning)
        case .unknownKey(nil):
            return ("\(path) is not an App Transport Security key, so iOS ignores it",
                    "Remove \(issue.key), or replace it with the documented key you meant.", .warning)
        case .misplacedKey(let level):
            let home: String
            switch level {
            case .top: home = "directly in NSAppTransportSecurity"
            case .exceptionDomain: home = "in a domain's dictionary under NSExceptionDomains"
            case .pinnedDomain: home = "in a domain's dictionary under NSPinnedDomains"
            case .pinnedIdentity: home = "in an element of NSPinnedCAIdentities or NSPinnedLeafIdentities"
            }
            return ("\(path): \(issue.key) is read only \(home), so iOS ignores it here", "Move \(issue.key) \(home).", .warning)
        case .wrongType(let expected, let found):
            let example: String
            switch expected {
            case .boolean: example = "<true/> or <false/>"
            case .string: example = "a <string>"
            case .dictionary: example = "a <dict>"
            case .array: example = "an <array>"
            }
            return ("\(path) is a \(found) where iOS reads a \(expected.rawValue); don't count on the value being read",
                    "Write the value as \(example).", .warning)
        case .invalidValue(let expected):
            return ("\(path) is not one of the TLS versions iOS knows (\(expected.joined(separator: ", ")))",
                    "Write one of \(expected.joined(separator: ", ")); TLSv1.2 is the default, so you can also remove the key.", .warning)
        case .legacyKey(let current):
            return ("\(path) is an iOS 9-era spelling absent from Apple's current reference; Preflight treats it as \(current)",
                    "Rename \(issue.key) to \(current).", .note)
        case .deprecatedKey(let current):
            return ("\(path) is the iOS 10 beta name of \(current); whether iOS still reads it is undocumented, and it is not among the keys documented to make iOS 10+ ignore NSAllowsArbitraryLoads",
                    "Rename \(issue.key) to \(current).", .warning)
        }
    }
}
