import Foundation
import Artifacts
import Evidence

public struct KeychainAccessGroupRule: Rule {
    public init() {}
    typealias Security = ProtectedResourceCatalog.Security

    public static let description = RuleDescription(
        identifier: "keychain_access_group_not_entitled",
        name: "Keychain access group not entitled",
        summary: "Code names a keychain access group (kSecAttrAccessGroup) that the bundle's entitlements do not grant: every keychain call with it fails with errSecMissingEntitlement.",
        rationale: """
        A process can read and write only the keychain access groups its entitlements grant: its \
        `keychain-access-groups`, its `com.apple.security.application-groups` and its own \
        application identifier (`TEAMID.bundle.id`). An item added or queried with another \
        `kSecAttrAccessGroup` fails with `errSecMissingEntitlement` (-34018) — typically in the \
        extension that was meant to share the app's token, whose entitlements were never given \
        the group. Keychain groups carry the team prefix: `$(AppIdentifierPrefix)com.example.shared` \
        in the entitlements file is `ABCDE12345.com.example.shared` in code.

        Add the group to the Keychain Sharing capability of every target whose code uses it \
        (each app and extension has its own entitlements), or use the group the entitlements name.

        Reported for string literals only, in bundles whose entitlements are known (a signature, \
        a `CODE_SIGN_ENTITLEMENTS` file): an **error** in the bundle's own code, a **warning** in \
        shared or packaged code it may not run.
        """,
        area: .entitlements, severity: .error, tags: ["security", "keychain", "entitlements"],
        references: ["https://developer.apple.com/documentation/security/sharing-access-to-keychain-items-among-a-collection-of-apps",
                     "https://developer.apple.com/documentation/bundleresources/entitlements/keychain-access-groups"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>keychain-access-groups</key><array><string>$(AppIdentifierPrefix)com.example.app</string></array>"),
                         "App/Shared.swift": """
                         import Security

                         func saveShared(_ data: Data) -> OSStatus {
                             SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccessGroup: ↓"ABCDE12345.com.example.shared",
                                         kSecValueData: data] as CFDictionary, nil)
                         }
                         """],
                        note: "The group is not among the app's keychain groups."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>keychain-access-groups</key><array><string>$(AppIdentifierPrefix)com.example.shared</string></array>"),
                         "App/Token.m": """
                         #import <Security/Security.h>

                         OSStatus SaveToken(NSData *data) {
                             NSDictionary *query = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
                                                     (__bridge id)kSecAttrAccessGroup: ↓@"com.example.shared",
                                                     (__bridge id)kSecValueData: data};
                             return SecItemAdd((__bridge CFDictionaryRef)query, NULL);
                         }
                         """],
                        note: "Objective-C: the group without its team prefix."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>keychain-access-groups</key><array><string>$(AppIdentifierPrefix)com.example.app</string></array>"),
                         "App/Store.swift": """
                         import KeychainAccess

                         let shared = Keychain(service: "com.example.app", accessGroup: ↓"ABCDE12345.com.example.widgets")
                         """],
                        note: "The group given to a keychain wrapper (KeychainAccess)."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>keychain-access-groups</key><array><string>$(AppIdentifierPrefix)com.example.shared</string></array>\n<key>com.apple.security.application-groups</key><array><string>group.com.example</string></array>"),
                         "App/Shared.swift": """
                         import Security

                         func saveShared(_ data: Data) -> OSStatus {
                             SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccessGroup: "ABCDE12345.com.example.shared",
                                         kSecValueData: data] as CFDictionary, nil)
                         }

                         func saveGroup(_ data: Data) -> OSStatus {
                             SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccessGroup: "group.com.example",
                                         kSecValueData: data] as CFDictionary, nil)
                         }

                         func saveOwn(_ data: Data) -> OSStatus {
                             SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccessGroup: "ABCDE12345.com.example.app",
                                         kSecValueData: data] as CFDictionary, nil)
                         }
                         """],
                        note: "A keychain group, an app group and the app's own identifier."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Shared.swift": """
                         import Security

                         let team = Bundle.main.object(forInfoDictionaryKey: "TeamPrefix") as? String ?? ""

                         func saveShared(_ data: Data) -> OSStatus {
                             SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccessGroup: "\\(team)com.example.shared",
                                         kSecValueData: data] as CFDictionary, nil)
                         }

                         func saveElsewhere(_ data: Data) -> OSStatus {
                             SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccessGroup: "ABCDE12345.com.example.other",
                                         kSecValueData: data] as CFDictionary, nil)
                         }
                         """],
                        note: "A group built at run time says nothing; without a known entitlements file the bundle is not judged."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for (host, facts) in SecurityFacts(context).byHost(Security.keychainAccessGroup) {
            guard let entitlements = BundleEntitlements(host) else { continue }
            let identifier = host.identifier.flatMap { $0.contains("$") ? nil : $0 }
            var granted = entitlements.strings("keychain-access-groups") + entitlements.strings("com.apple.security.application-groups")
                + entitlements.strings("application-identifier")
            if let identifier { granted.append(TeamPrefixed.placeholder + identifier) }
            let normalizedGranted = granted.map { TeamPrefixed.normalized($0, bundleIdentifier: identifier, team: Signing.team(of: host)) }
            var reported = Set<String>()
            for fact in facts {
                let u = fact.usage
                let group = TeamPrefixed.normalized(u.key, bundleIdentifier: identifier, team: Signing.team(of: host))
                if normalizedGranted.contains(where: { TeamPrefixed.matches($0, group) }) { continue }
                // The app's own identifier is always granted: unknown, it may be this one.
                if identifier == nil, group.hasPrefix(TeamPrefixed.placeholder) { continue }
                let place = SecurityFacts.location(u)
                guard reported.insert("\(u.key)|\(place.path)|\(place.position?.line ?? 0)").inserted else { continue }
                let prefixed = normalizedGranted.first { TeamPrefixed.matches($0, TeamPrefixed.placeholder + group) }
                let why = prefixed != nil
                    ? "the entitlements grant \(prefixed!.replacingOccurrences(of: TeamPrefixed.placeholder, with: "TEAMID.")), with the team prefix the code leaves out"
                    : "\(entitlements.file.path) grants \(granted.isEmpty ? "no group" : granted.sorted().joined(separator: ", "))"
                var f = finding("\(host.name) uses the keychain access group '\(u.key)' (\(UsageReading.describe(u))) that its entitlements do not grant: \(why); the keychain call fails with errSecMissingEntitlement",
                                bundle: host.name, at: place, key: u.key, evidence: [UsageReading.evidenceRef(u)],
                                fix: prefixed != nil ? "Write the group with the team prefix (TEAMID.\(u.key)), read from the app identifier at run time."
                                    : "Add $(AppIdentifierPrefix)\(group.replacingOccurrences(of: TeamPrefixed.placeholder, with: "")) to keychain-access-groups of \(host.name) (Keychain Sharing capability), or use a group it has.",
                                fingerprint: [u.key])
                if !fact.direct || SecurityFacts.isPackaged(u) { f.severity = .warning }
                out.append(f)
            }
        }
        return out
    }
}
