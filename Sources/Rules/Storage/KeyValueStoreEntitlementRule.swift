import Foundation
import Artifacts
import Evidence

public struct KeyValueStoreEntitlementRule: Rule {
    public init() {}
    typealias Security = ProtectedResourceCatalog.Security
    static let key = "com.apple.developer.ubiquity-kvstore-identifier"

    public static let description = RuleDescription(
        identifier: "ubiquity_kvstore_entitlement",
        name: "iCloud key-value store entitlement",
        summary: "A bundle's code uses NSUbiquitousKeyValueStore without the com.apple.developer.ubiquity-kvstore-identifier entitlement (nothing syncs), or the entitlement's identifier lacks the team prefix.",
        rationale: """
        `NSUbiquitousKeyValueStore` syncs small preferences through iCloud only for a process \
        entitled to a key-value store: Apple's documentation asks for the \
        `com.apple.developer.ubiquity-kvstore-identifier` entitlement (the iCloud capability's \
        \"Key-value storage\" service), and `synchronize()` returns false for an app built without \
        it — the values stay on the device and the user's other devices never see them. Each app \
        and extension is signed with its own entitlements, so an extension that reads the store \
        needs the entitlement too (with the app's identifier to share its store).

        The identifier is `$(TeamIdentifierPrefix)$(CFBundleIdentifier)` by default, or another \
        identifier of the same team to share a store; written without the team prefix it names \
        no store the team owns, and a signed app's value must start with its team identifier.

        Severity: an **error** for the bundle's own code (its executable, its sources); a \
        **warning** for an embedded framework's binary, a package or a linked target whose code \
        the bundle's own code names (either may reference the class without using it), and for a \
        project target with no entitlements file at all; a **note** for linked or shared code the \
        bundle's own code never names (an App Clip linking some products of a package whose other \
        products use the store).
        """,
        area: .entitlements, severity: .error, tags: ["icloud", "entitlements"],
        references: ["https://developer.apple.com/documentation/foundation/nsubiquitouskeyvaluestore",
                     "https://developer.apple.com/documentation/bundleresources/entitlements/com.apple.developer.ubiquity-kvstore-identifier"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>com.apple.developer.icloud-services</key><array><string>CloudKit</string></array>"),
                         "App/Settings.swift": """
                         import Foundation

                         func saveTheme(_ name: String) {
                             ↓NSUbiquitousKeyValueStore.default.set(name, forKey: "theme")
                         }
                         """],
                        note: "iCloud is on for CloudKit only: the key-value store is not entitled."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>com.apple.developer.ubiquity-kvstore-identifier</key>↓<string>com.example.app</string>"),
                         "App/Notes.m": """
                         #import <Foundation/Foundation.h>

                         NSArray *LoadNotes(void) {
                             return [[NSUbiquitousKeyValueStore defaultStore] arrayForKey:@"AVAILABLE_NOTES"];
                         }
                         """],
                        note: "The identifier without $(TeamIdentifierPrefix): a warning."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>App</string>\n<key>CFBundleIdentifier</key><string>com.example.app</string>")],
                        binaryFixtures: ["App↓": "Storage/kvstore-icloud"], kind: .app,
                        note: "A built app: the executable references NSUbiquitousKeyValueStore and its signature's entitlements turn on CloudKit only."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist", "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"],
                              sources: ["App/App.swift"], links: ["DeviceId"]),
                ExampleTarget("DeviceId", type: "library.static", sources: ["DeviceId/DeviceId.swift"]),
            ]),
                         "App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.clip</string>"),
                         "App/App.entitlements": plistXML("<key>com.apple.security.application-groups</key><array><string>group.example</string></array>"),
                         "App/App.swift": "import UIKit\n",
                         "DeviceId/DeviceId.swift": "import Foundation\n\nstruct DeviceIdentifier {\n    static func load() -> String? {\n        ↓NSUbiquitousKeyValueStore.default.string(forKey: \"device-id\")\n    }\n}\n"],
                        kind: .project,
                        note: "Linked code the bundle's own code never names: a note (isowords' App Clip links a package whose DeviceId target uses the store)."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>com.apple.developer.ubiquity-kvstore-identifier</key><string>$(TeamIdentifierPrefix)$(CFBundleIdentifier)</string>"),
                         "App/Notes.m": """
                         #import <Foundation/Foundation.h>

                         @implementation NotesStore
                         - (void)save:(NSArray *)notes {
                             NSUbiquitousKeyValueStore *store = [NSUbiquitousKeyValueStore defaultStore];
                             [store setArray:notes forKey:@"AVAILABLE_NOTES"];
                             [store synchronize];
                         }
                         @end
                         """],
                        note: "The seed's own sample with the iCloud key-value storage capability."),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Settings.swift": """
                         import Foundation

                         final class NSUbiquitousKeyValueStore {
                             static let `default` = NSUbiquitousKeyValueStore()
                             func set(_ value: Any?, forKey key: String) {}
                         }

                         func saveTheme(_ name: String) {
                             NSUbiquitousKeyValueStore.default.set(name, forKey: "theme")
                             UserDefaults.standard.set(name, forKey: "theme")
                         }
                         """],
                        note: "The project's own type of that name (a test double) is not Apple's store; UserDefaults needs no entitlement."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>App</string>\n<key>CFBundleIdentifier</key><string>com.example.app</string>")],
                        binaryFixtures: ["App": "Storage/kvstore-entitled"], kind: .app,
                        note: "A built app signed with the key-value store entitlement, prefixed with its team."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var out: [Finding] = []
        for (host, facts) in SecurityFacts(context).byHost(Security.kvStore) {
            let ordered = facts.sorted { ($0.direct ? 0 : 1, UsageReading.describe($0.usage)) < ($1.direct ? 0 : 1, UsageReading.describe($1.usage)) }
            guard let shown = ordered.first else { continue }
            let u = shown.usage
            let own = shown.direct && !SecurityFacts.isPackaged(u) && shown.holder.kind != .framework
            guard let entitlements = BundleEntitlements(host) else {
                guard context.product.kind == .project, own, host.entitlementsPath == nil else { continue }
                var f = finding("\(host.name) uses NSUbiquitousKeyValueStore (\(UsageReading.describe(u))) and the target has no entitlements file: without \(Self.key) nothing syncs through iCloud",
                                bundle: host.name, at: SecurityFacts.location(u), key: Self.key,
                                evidence: ordered.prefix(5).map { UsageReading.evidenceRef($0.usage) },
                                fix: "Turn on iCloud > Key-value storage in \(host.name)'s Signing & Capabilities.", fingerprint: ["no-entitlements"])
                f.severity = .warning
                out.append(f)
                continue
            }
            if entitlements.root[Self.key] == nil {
                var f = finding("\(host.name) uses NSUbiquitousKeyValueStore (\(UsageReading.describe(u))) but its entitlements lack \(Self.key): the store never syncs through iCloud and synchronize() returns false",
                                bundle: host.name, at: SecurityFacts.location(u), key: Self.key,
                                evidence: ordered.prefix(5).map { UsageReading.evidenceRef($0.usage) },
                                fix: "Turn on iCloud > Key-value storage for \(host.name) (\(Self.key) = $(TeamIdentifierPrefix)$(CFBundleIdentifier), or the app's identifier to share its store).",
                                fingerprint: ["missing"])
                if !own {
                    // Linked or shared code the bundle's own code never names may not run in it.
                    f.severity = shown.direct ? .warning : .note
                    f.message += " (if this code runs in \(host.name): \(u.origin.label) may reach it only through code the bundle does not call)"
                }
                out.append(f)
            }
        }
        // The identifier's form, for every bundle that has one.
        for b in context.product.bundles where b.kind.ships {
            guard let entitlements = BundleEntitlements(b), let value = entitlements.root[Self.key]?.string else { continue }
            guard let problem = Self.formProblem(value, team: Signing.team(of: b) ?? entitlements.root["com.apple.developer.team-identifier"]?.string) else { continue }
            var f = finding("\(b.name): \(Self.key) is '\(value)', \(problem); no store of the team matches it",
                            bundle: b.name, at: entitlements.location(Self.key), key: Self.key,
                            fix: "Use $(TeamIdentifierPrefix)$(CFBundleIdentifier), or $(TeamIdentifierPrefix) followed by the identifier of the app whose store is shared.",
                            fingerprint: ["form", value])
            f.severity = .warning
            out.append(f)
        }
        return out
    }

    /// Why an identifier is not team-prefixed, or nil when it is.
    static func formProblem(_ value: String, team: String?) -> String? {
        if value.hasPrefix("$(TeamIdentifierPrefix)") || value.hasPrefix("${TeamIdentifierPrefix}") { return nil }
        if value.hasPrefix("$(") || value.hasPrefix("${") { return nil }  // a setting that may hold the prefix
        // The team the app is signed with decides, when known; its shape only otherwise.
        if let team, !team.isEmpty {
            if value.hasPrefix(team + ".") { return nil }
            return TeamPrefixed.hasTeamIdentifier(value) ? "prefixed with another team than the one the app is signed with (\(team))"
                : "without the team identifier prefix (\(team))"
        }
        guard TeamPrefixed.hasTeamIdentifier(value) else { return "without the team identifier prefix" }
        return nil
    }
}
