import Foundation
import Artifacts
import Formats

public struct EntitlementsNotInProfileRule: Rule {
    public init() {}

    static let info = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>CFBundleIdentifier</key><string>com.example.demo</string>
        \t<key>CFBundleExecutable</key><string>Demo</string>
        </dict>
        </plist>
        """

    public static let description = RuleDescription(
        identifier: "entitlements_not_in_profile",
        name: "Entitlement not in profile",
        summary: "The code signature claims an entitlement, or a value, that the embedded provisioning profile does not grant.",
        rationale: """
        A signed binary's entitlements must be a subset of what its `embedded.mobileprovision` \
        grants. iOS refuses to install or launch an app that claims more ("The executable was \
        signed with invalid entitlements"), and App Store Connect rejects the upload with \
        ITMS-90164. The usual causes: a capability added in Xcode but not to the App ID (so not \
        to the profile), a debug build (`get-task-allow` true, `aps-environment` development) \
        signed with a distribution profile, or a profile generated before the capability was \
        enabled.

        Profiles grant with wildcards, and Preflight honours them: `*` alone grants any value \
        (associated domains, iCloud services), `TEAM.*` any value that starts with `TEAM.` \
        (`application-identifier`, `keychain-access-groups`), and an array grants each of its \
        values. A key claimed as `false` asks for nothing and is never reported. The rule also \
        checks that `application-identifier` is the team prefix followed by the bundle's \
        `CFBundleIdentifier`, which signing guarantees and a hand-made re-signing can break.

        Fix: enable the capability on the App ID in the developer portal, regenerate the profile \
        and sign again (Xcode's automatic signing does both); or remove the entitlement from the \
        target's `.entitlements` file. For a debug build, archive with the Release configuration \
        and export for App Store distribution.
        """,
        area: .entitlements, severity: .error, tags: ["signing", "app-review"],
        references: [
            "https://developer.apple.com/documentation/bundleresources/entitlements",
            "https://developer.apple.com/documentation/technotes/tn3125-inside-code-signing-provisioning-profiles",
        ],
        itms: ["ITMS-90164"],
        triggering: [
            RuleExample(["Info.plist": info], binaryFixtures: ["Demo↓": "signing/Debug", "embedded.mobileprovision": "signing/appstore.mobileprovision"],
                        kind: .app, note: "A debug build (get-task-allow true, aps-environment development) signed with an App Store profile."),
            RuleExample(["Info.plist": info], binaryFixtures: ["Demo↓": "signing/HealthKit", "embedded.mobileprovision": "signing/appstore.mobileprovision"],
                        kind: .app, note: "HealthKit claimed, but the App ID (and so the profile) does not have the capability."),
            RuleExample(["Info.plist": info], binaryFixtures: ["Demo↓": "signing/OtherAppID", "embedded.mobileprovision": "signing/appstore.mobileprovision"],
                        kind: .app, note: "The signature's application-identifier names another app than the profile and the Info.plist."),
            RuleExample(["Info.plist": info, "PlugIns/Share.appex/Info.plist": InvalidCodeSignatureRule.info("Share", "com.example.demo.share")],
                        binaryFixtures: ["Demo": "signing/Release", "embedded.mobileprovision": "signing/appstore.mobileprovision",
                                         "PlugIns/Share.appex/Share": "signing/Unsigned",
                                         "PlugIns/Share.appex/embedded.mobileprovision↓": "signing/appstore.mobileprovision"],
                        kind: .app, note: "The share extension embeds the app's profile (App ID ABCDE12345.com.example.demo): it is signed for another app ID."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": info], binaryFixtures: ["Demo": "signing/Release", "embedded.mobileprovision": "signing/appstore.mobileprovision"],
                        kind: .app, note: "Each claimed value is granted: keychain group by `ABCDE12345.*`, associated domains by `*`."),
            RuleExample(["Info.plist": info], binaryFixtures: ["Demo": "signing/Debug", "embedded.mobileprovision": "signing/development.mobileprovision"],
                        kind: .app, note: "A debug build with a development profile (application-identifier `ABCDE12345.*`)."),
        ])

    /// `false`, an empty array and dictionaries (not judged) ask the profile for nothing.
    static func claimsSomething(_ value: PlistNode) -> Bool {
        switch value.value {
        case .bool(let b): return b
        case .array(let items): return !items.isEmpty
        case .dictionary: return false
        default: return true
        }
    }

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for b in context.product.bundles where b.kind.ships {
            guard let profile = b.provisioningProfile, let granted = profile.entitlements?.dictionary else { continue }
            guard let signed = Signing.signedEntitlements(of: b) else {
                // No entitlements in the signature to compare: the profile itself must be this
                // bundle's (an extension embedding the app's profile is signed for another app ID).
                if let f = profileOfAnotherAppID(b, profile, granted) { out.append(f) }
                continue
            }
            let (file, claimed) = signed
            let place = FileLocation(path: file.path)
            let fix = "Enable the capability on the App ID, regenerate \(Signing.name(profile)) and sign again, or remove the entitlement from the target's .entitlements file."
            var seen = Set<String>()
            for key in claimed.keys where seen.insert(key).inserted {
                guard let value = claimed[key] else { continue }
                if let allowed = granted[key] {
                    guard !Signing.grants(allowed, value) else { continue }
                    var why = "\(b.name): the code signature claims \(key) = \(Signing.describe(value)), but \(Signing.name(profile)) grants \(Signing.describe(allowed))"
                    if key == "get-task-allow" || key == "aps-environment", profile.kind != .development {
                        why += " (a debug build signed for \(profile.kindName) distribution)"
                    }
                    out.append(finding(why + ": iOS refuses to install it and App Store Connect rejects the upload (ITMS-90164)",
                                       bundle: b.name, at: place, key: key, fix: fix, fingerprint: [key]))
                } else if Self.claimsSomething(value) {
                    out.append(finding("\(b.name): the code signature claims \(key) = \(Signing.describe(value)), which \(Signing.name(profile)) does not grant: iOS refuses to install it and App Store Connect rejects the upload (ITMS-90164)",
                                       bundle: b.name, at: place, key: key, fix: fix, fingerprint: [key]))
                }
            }
            if let appID = claimed["application-identifier"]?.string, let id = b.identifier, !Readiness.isUnresolved(id) {
                var prefixes = profile.applicationIdentifierPrefixes
                for t in profile.teamIdentifiers where !prefixes.contains(t) { prefixes.append(t) }
                if !prefixes.isEmpty, !prefixes.contains(where: { appID == "\($0).\(id)" }) {
                    out.append(finding("\(b.name): application-identifier '\(appID)' is not the team prefix and CFBundleIdentifier ('\(prefixes[0]).\(id)'): the signature belongs to another app ID, and iOS and App Store Connect reject it",
                                       bundle: b.name, at: place, key: "application-identifier",
                                       fix: "Sign the bundle with the profile of the App ID '\(prefixes[0]).\(id)', or set CFBundleIdentifier to the App ID's bundle identifier.",
                                       fingerprint: ["application-identifier-prefix"]))
                }
            }
        }
        return out
    }

    /// A finding when the profile's `application-identifier` (a pattern: `TEAM.*` grants any)
    /// does not cover the bundle's identifier.
    func profileOfAnotherAppID(_ b: AppBundle, _ profile: ProvisioningProfile, _ granted: PlistDictionary) -> Finding? {
        guard let allowed = granted["application-identifier"], let id = b.identifier, !Readiness.isUnresolved(id),
              let path = b.provisioningProfilePath else { return nil }
        var prefixes = profile.applicationIdentifierPrefixes
        for t in profile.teamIdentifiers where !prefixes.contains(t) { prefixes.append(t) }
        guard let first = prefixes.first,
              !prefixes.contains(where: { Signing.grants(allowed, PlistNode(.string("\($0).\(id)"))) }) else { return nil }
        return finding("\(b.name) embeds \(Signing.name(profile)), whose application-identifier '\(Signing.describe(allowed))' is not '\(first).\(id)': the bundle is signed for another app ID, and iOS and App Store Connect reject it (ITMS-90164)",
                       bundle: b.name, at: FileLocation(path: path), key: "application-identifier",
                       fix: "Create an App ID for \(id) (each extension needs its own) and sign \(b.name) with a profile made for it.",
                       fingerprint: ["profile-application-identifier"])
    }
}
