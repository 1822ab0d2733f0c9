import Foundation
import Artifacts
import Evidence

public struct ICloudContainerEntitlementRule: Rule {
    public init() {}
    typealias Security = ProtectedResourceCatalog.Security
    static let services = "com.apple.developer.icloud-services"
    static let containers = "com.apple.developer.icloud-container-identifiers"
    static let ubiquityContainers = "com.apple.developer.ubiquity-container-identifiers"

    public static let description = RuleDescription(
        identifier: "icloud_container_not_entitled",
        name: "iCloud container not entitled",
        summary: "Code opens a CloudKit container or an iCloud document container that the bundle's iCloud entitlements do not list, or uses CloudKit or iCloud Documents without that service.",
        rationale: """
        A process reaches only the iCloud containers its entitlements name: \
        `com.apple.developer.icloud-container-identifiers` (and, for iCloud Drive documents, \
        `com.apple.developer.ubiquity-container-identifiers`), for the services in \
        `com.apple.developer.icloud-services` (`CloudKit`, `CloudDocuments`). \
        `CKContainer(identifier:)` with a container the entitlements lack raises an exception on \
        first use; `CKContainer.default()` needs the first listed container; \
        `url(forUbiquityContainerIdentifier:)` returns nil. Each app and extension is signed with \
        its own entitlements, so an extension that shares the app's container needs it too.

        Reported for literal identifiers and for `CKContainer.default()`/`url(…: nil)` in bundles \
        whose entitlements are known: an **error** in the bundle's own sources, a **warning** for \
        a binary that references `CKContainer` without CloudKit among its services, and for code \
        the bundle may not run.
        """,
        area: .entitlements, severity: .error, tags: ["icloud", "entitlements"],
        references: ["https://developer.apple.com/documentation/bundleresources/entitlements/com.apple.developer.icloud-container-identifiers",
                     "https://developer.apple.com/documentation/cloudkit/ckcontainer"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>com.apple.developer.icloud-services</key><array><string>CloudKit</string></array>\n<key>com.apple.developer.icloud-container-identifiers</key><array><string>iCloud.$(CFBundleIdentifier)</string></array>"),
                         "App/Sync.swift": """
                         import CloudKit

                         let shared = ↓CKContainer(identifier: "iCloud.com.example.shared")
                         let own = CKContainer(identifier: "iCloud.com.example.app")
                         """]),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>com.apple.developer.icloud-services</key><array><string>CloudKit</string></array>\n<key>com.apple.developer.icloud-container-identifiers</key><array><string>iCloud.com.example.app</string></array>"),
                         "App/Documents.swift": """
                         import Foundation

                         func documents() -> URL? {
                             ↓FileManager.default.url(forUbiquityContainerIdentifier: nil)?.appendingPathComponent("Documents")
                         }
                         """],
                        note: "iCloud Documents without the CloudDocuments service."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>com.apple.developer.icloud-services</key><array><string>CloudKit</string><string>CloudDocuments</string></array>\n<key>com.apple.developer.icloud-container-identifiers</key><array><string>iCloud.$(CFBundleIdentifier)</string></array>\n<key>com.apple.developer.ubiquity-container-identifiers</key><array><string>iCloud.$(CFBundleIdentifier)</string></array>"),
                         "App/Sync.swift": """
                         import CloudKit

                         let database = CKContainer.default().privateCloudDatabase
                         let own = CKContainer(identifier: "iCloud.com.example.app")
                         let documents = FileManager.default.url(forUbiquityContainerIdentifier: nil)
                         """]),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Sync.swift": """
                         import CloudKit

                         let shared = CKContainer(identifier: "iCloud.com.example.shared")
                         """],
                        note: "No entitlements file is known for the bundle: not judged."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        let facts = SecurityFacts(context)
        var out: [Finding] = []
        for (kind, capability, service) in [("CloudKit", Security.cloudKit, "CloudKit"), ("iCloud Documents", Security.ubiquityContainer, "CloudDocuments")] {
            for (host, hostFacts) in facts.byHost(capability) {
                guard let entitlements = BundleEntitlements(host) else { continue }
                let identifier = host.identifier.flatMap { $0.contains("$") ? nil : $0 }
                let services = entitlements.strings(Self.services)
                let listed = (entitlements.strings(Self.containers)
                    + (service == "CloudDocuments" ? entitlements.strings(Self.ubiquityContainers) : []))
                    .map { TeamPrefixed.normalized($0, bundleIdentifier: identifier, team: Signing.team(of: host)) }
                let hasService = services.contains { $0.hasPrefix(service) }
                    || (service == "CloudDocuments" && !entitlements.strings(Self.ubiquityContainers).isEmpty)
                var reported = Set<String>()
                for fact in hostFacts {
                    let u = fact.usage
                    let own = fact.direct && !SecurityFacts.isPackaged(u) && SecurityFacts.isSource(u)
                    let problem: String
                    if !hasService {
                        problem = "its entitlements do not turn on \(service) (\(Self.services) is \(services.isEmpty ? "absent" : services.joined(separator: ", ")))"
                    } else if u.key == "default" {
                        guard listed.isEmpty else { continue }
                        problem = "its entitlements list no iCloud container, and the default container is the first one listed"
                    } else if u.key != "CKContainer" {
                        guard !listed.contains(where: { TeamPrefixed.matches($0, u.key) }) else { continue }
                        problem = "the container '\(u.key)' is not in \(Self.containers) (\(listed.isEmpty ? "empty" : listed.joined(separator: ", ")))"
                    } else {
                        continue
                    }
                    guard reported.insert(problem + "|" + (own ? "own" : "other")).inserted else { continue }
                    var f = finding("\(host.name) uses \(kind) (\(UsageReading.describe(u))) but \(problem): the call fails at run time",
                                    bundle: host.name, at: SecurityFacts.location(u), key: u.key, evidence: [UsageReading.evidenceRef(u)],
                                    fix: "Turn on iCloud > \(kind) for \(host.name) in Signing & Capabilities and check the container\(u.key == "default" || u.key == "CKContainer" ? "" : " '\(u.key)'"), or use a container it lists.",
                                    fingerprint: [kind, u.key])
                    if !own { f.severity = .warning }
                    out.append(f)
                }
            }
        }
        return out
    }
}
