import Foundation
import Artifacts
import Formats

public struct ATSArbitraryLoadsRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "ats_arbitrary_loads",
        name: "App Transport Security turned off globally",
        summary: "A global ATS key lets the bundle load any domain not in NSExceptionDomains over plain HTTP, or NSAllowsArbitraryLoads is silently overridden by a narrower key.",
        rationale: """
        `NSAllowsArbitraryLoads` turns ATS off for every domain not listed in \
        `NSExceptionDomains`: plain HTTP is allowed and HTTPS loses the TLS 1.2 and forward \
        secrecy requirements, for URLSession, web views and media alike. \
        `NSAllowsArbitraryLoadsInWebContent` does the same for web views only, \
        `NSAllowsArbitraryLoadsForMedia` for AVFoundation media only (Apple means it for \
        encrypted media such as FairPlay or secure HLS without personal information). App \
        Review asks for a justification for each of them when YES (OWASP MASVS-NETWORK-1).

        Fix: serve your content over HTTPS and remove the key; list a host you cannot move \
        under `NSExceptionDomains` with `NSExceptionAllowsInsecureHTTPLoads`; a browser-like \
        app that shows arbitrary user URLs uses `NSAllowsArbitraryLoadsInWebContent` rather than \
        the global key. If the key stays, give App Review the reason in App Store Connect.

        On iOS 10 and later, `NSAllowsArbitraryLoads` is ignored — treated as NO — as soon as \
        `NSAllowsArbitraryLoadsForMedia`, `NSAllowsArbitraryLoadsInWebContent` or \
        `NSAllowsLocalNetworking` is present, whatever its value; iOS 9 ignores those keys and \
        obeys `NSAllowsArbitraryLoads`. A YES that is overridden is reported too: on iOS 10+ it \
        does nothing, so URLSession loads the developer thought open still fail; where the \
        deployment target reaches iOS 9, it still turns ATS off entirely there. \
        `NSAllowsLocalNetworking` alone is correct and never reported: iOS 10+ allows \
        unqualified names, `.local` names and IP addresses anyway.
        """,
        area: .network, severity: .warning, tags: ["security", "app-review", "masvs-network-1"],
        references: [
            "https://developer.apple.com/documentation/bundleresources/information-property-list/nsapptransportsecurity/nsallowsarbitraryloads",
            "https://developer.apple.com/documentation/security/preventing-insecure-network-connections",
        ],
        triggering: [
            RuleExample(["App/Info.plist": ATSRuleSupport.plist("\t<key>NSAllowsArbitraryLoads</key>\n\t↓<true/>")]),
            RuleExample(["Info.plist": ATSRuleSupport.plist("\t<key>NSAllowsArbitraryLoadsInWebContent</key>\n\t↓<true/>\n\t<key>NSAllowsArbitraryLoadsForMedia</key>\n\t↓<true/>",
                                                            before: "<key>CFBundleExecutable</key>\n<string>Example</string>\n<key>MinimumOSVersion</key>\n<string>15.0</string>\n"),
                          "Example": "binary"], kind: .app,
                        note: "A built app: web views and AVFoundation media may load any domain over HTTP."),
            RuleExample(["App/Info.plist": ATSRuleSupport.plist("\t<key>NSAllowsArbitraryLoads</key>\n\t↓<true/>\n\t<key>NSAllowsLocalNetworking</key>\n\t<false/>")],
                        note: "Overridden: on iOS 10+ the presence of NSAllowsLocalNetworking, even NO, makes iOS ignore NSAllowsArbitraryLoads."),
            RuleExample(["Share/Info.plist": ATSRuleSupport.plist("\t<key>NSAllowsArbitraryLoads</key>\n\t↓<true/>\n\t<key>NSAllowsArbitraryLoadsInWebContent</key>\n\t↓<true/>",
                                                                  before: "<key>NSExtension</key>\n<dict/>\n<key>MinimumOSVersion</key>\n<string>9.0</string>\n")],
                        note: "An extension that still supports iOS 9: wide open there, web views only on iOS 10+."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(settings: ["INFOPLIST_FILE": "App/Info.plist", "IPHONEOS_DEPLOYMENT_TARGET": "9.0"]),
                         "App/Info.plist": ATSRuleSupport.plist("\t<key>NSAllowsArbitraryLoads</key>\n\t↓<true/>\n\t<key>NSAllowsLocalNetworking</key>\n\t<true/>")],
                        kind: .project,
                        note: "A project whose deployment target is iOS 9: Apple's compatibility pattern, still wide open on iOS 9."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": ATSRuleSupport.plist("\t<key>NSAllowsLocalNetworking</key>\n\t<true/>")],
                        note: "Local networking only: correct, nothing to justify."),
            RuleExample(["App/Info.plist": ATSRuleSupport.plist("\t<key>NSAllowsArbitraryLoads</key>\n\t<false/>\n\t<key>NSAllowsArbitraryLoadsInWebContent</key>\n\t<false/>")]),
            RuleExample(["Kit/Info.plist": ATSRuleSupport.plist("\t<key>NSAllowsArbitraryLoads</key>\n\t<true/>",
                                                                before: "<key>CFBundlePackageType</key>\n<string>FMWK</string>\n")],
                        note: "A framework's ATS keys are never read: the app's Info.plist decides."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for (b, c, policy) in ATSRuleSupport.configured(context) {
            let modern = Dictionary(policy.globallyOpen(on: .iOS10AndLater).map { ($0.key, [$0.kind]) }, uniquingKeysWith: +)
            for (key, setting) in [(ATSKeys.allowsArbitraryLoads, c.allowsArbitraryLoads),
                                   (ATSKeys.allowsArbitraryLoadsInWebContent, c.allowsArbitraryLoadsInWebContent),
                                   (ATSKeys.allowsArbitraryLoadsForMedia, c.allowsArbitraryLoadsForMedia),
                                   (ATSKeys.allowsArbitraryLoadsInMedia, c.allowsArbitraryLoadsInMedia)] {
                guard let setting, setting.value == true else { continue }
                let at = ATSRuleSupport.location(c, setting.valuePosition ?? setting.keyPosition)
                if let kinds = modern[key] {
                    out.append(finding(Self.openMessage(b.name, key: key, kinds: kinds), bundle: b.name, at: at, key: setting.keyPath,
                                       fix: Self.fix(key)))
                } else if key == ATSKeys.allowsArbitraryLoads {
                    out.append(finding(Self.overriddenMessage(b, policy), bundle: b.name, at: at, key: setting.keyPath,
                                       fix: Self.openOnIOS9(policy)
                                           ? "If iOS 9 support is intended this is Apple's compatibility pattern, but be ready to justify it; otherwise raise the deployment target and remove NSAllowsArbitraryLoads."
                                           : "Remove NSAllowsArbitraryLoads: it has no effect. List hosts that need plain HTTP under NSExceptionDomains with NSExceptionAllowsInsecureHTTPLoads."))
                }
            }
        }
        return out
    }

    static func openMessage(_ bundle: String, key: String, kinds: [ATSConnectionKind]) -> String {
        let what = kinds.count == ATSConnectionKind.allCases.count ? "every connection" : kinds.map(\.rawValue).joined(separator: " and ") + " connections"
        let hedge = key == ATSKeys.allowsArbitraryLoadsInMedia ? " (if iOS still reads this iOS 10 beta spelling)" : ""
        return "\(key) turns App Transport Security off in \(bundle)\(hedge) for \(what) to any domain not in NSExceptionDomains: plain HTTP and any TLS version are allowed; App Review asks for a justification"
    }

    static func overriddenMessage(_ bundle: AppBundle, _ policy: ATSPolicy) -> String {
        let keys = policy.narrowerGlobalKeys.joined(separator: " and ")
        let base = "NSAllowsArbitraryLoads is ignored in \(bundle.name) on iOS 10 and later because \(keys) is present (whatever its value), so URLSession still requires HTTPS with TLS 1.2"
        guard openOnIOS9(policy) else { return base }
        return base + "; on iOS 9, which the deployment target (\(ATSRuleSupport.target(bundle))) still supports, it turns ATS off for every connection"
    }

    /// Whether the bundle runs on iOS 9 and NSAllowsArbitraryLoads turns ATS off there.
    static func openOnIOS9(_ policy: ATSPolicy) -> Bool {
        policy.generations.contains(.iOS9) && policy.arbitraryLoadsInForce(on: .iOS9)
    }

    static func fix(_ key: String) -> String {
        switch key {
        case ATSKeys.allowsArbitraryLoadsInWebContent:
            return "Remove \(key) unless the app shows arbitrary user-chosen web pages (then justify it to App Review); list the HTTP hosts your web views need under NSExceptionDomains instead."
        case ATSKeys.allowsArbitraryLoadsForMedia, ATSKeys.allowsArbitraryLoadsInMedia:
            return "Serve media over HTTPS and remove \(key); keep it only for encrypted media (FairPlay, secure HLS) without personal information, and justify it to App Review."
        default:
            return "Serve content over HTTPS and remove \(key); list hosts you cannot move under NSExceptionDomains with NSExceptionAllowsInsecureHTTPLoads, or justify the key to App Review."
        }
    }
}
