import Foundation
import Artifacts
import Evidence

public struct SensitiveDataDefaultProtectionRule: Rule {
    public init() {}
    typealias Security = ProtectedResourceCatalog.Security
    static let key = "com.apple.developer.default-data-protection"

    /// Entitlements that say a bundle handles health data or credentials.
    static let sensitiveEntitlements: [String: String] = [
        "com.apple.developer.healthkit": "HealthKit",
        "com.apple.developer.authentication-services.autofill-credential-provider": "AutoFill credential provider",
    ]
    /// Extension points that handle credentials.
    static let sensitiveExtensionPoints: [String: String] = [
        "com.apple.authentication-services-credential-provider-ui": "a credential provider extension",
    ]

    public static let description = RuleDescription(
        identifier: "sensitive_data_default_protection",
        name: "Sensitive data at default protection",
        summary: "A bundle that handles health data or credentials keeps its files at the system default class (readable while locked after the first unlock) and asks for complete protection nowhere.",
        rationale: """
        Without `com.apple.developer.default-data-protection`, iOS gives every file \
        `completeUntilFirstUserAuthentication`: once the user has unlocked the device after a \
        restart, the files stay readable while it is locked. Apple's *Encrypting Your App's Files* \
        recommends `complete` for files with sensitive data, so that they are unreadable while \
        the device is locked; for an app with HealthKit or one that provides credentials to \
        AutoFill, that is most of what it writes. This is advice, not an error: the Data \
        Protection capability (default `NSFileProtectionComplete`) or `.completeFileProtection` \
        on the files that hold the data are both fine, and either silences this note. Background \
        code that must read files while locked needs a weaker class for those files \
        (`complete_protection_while_locked`).
        """,
        area: .storage, severity: .note, tags: ["data-protection", "MASVS-STORAGE-1"],
        references: ["https://developer.apple.com/documentation/uikit/encrypting-your-app-s-files",
                     "https://developer.apple.com/documentation/bundleresources/entitlements/com.apple.developer.default-data-protection"],
        triggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXMLMarkingRoot("<key>com.apple.developer.healthkit</key><true/>")]),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>com.apple.developer.authentication-services.autofill-credential-provider</key><true/>\n<key>com.apple.developer.default-data-protection</key>↓<string>NSFileProtectionCompleteUntilFirstUserAuthentication</string>")],
                        note: "The default written out is no stronger."),
        ],
        nonTriggering: [
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>com.apple.developer.healthkit</key><true/>\n<key>com.apple.developer.default-data-protection</key><string>NSFileProtectionComplete</string>")]),
            RuleExample(["App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/App.entitlements": plistXML("<key>com.apple.developer.healthkit</key><true/>"),
                         "App/Store.swift": """
                         import Foundation

                         func save(_ samples: Data, to url: URL) throws {
                             try samples.write(
                                 to: url, options: .completeFileProtection)
                         }
                         """],
                        note: "The health data is written with complete protection."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        var strongerInCode = Set<String>()
        for (host, fact) in SecurityFacts(context).all(Security.fileProtection)
        where fact.usage.key == "complete" || fact.usage.key == "completeUnlessOpen" {
            strongerInCode.insert(host.name)
        }
        var out: [Finding] = []
        for b in context.product.bundles where b.kind.ships && EmbeddingChains.hostKinds.contains(b.kind) {
            guard let entitlements = BundleEntitlements(b) else { continue }
            var why = Self.sensitiveEntitlements.filter { entitlements.root[$0.key] != nil && entitlements.root[$0.key]?.bool != false }
                .map(\.value).sorted()
            if let point = b.infoValue("NSExtension")?.node.dictionary?["NSExtensionPointIdentifier"]?.string,
               let what = Self.sensitiveExtensionPoints[point] {
                why.append(what)
            }
            guard !why.isEmpty, !strongerInCode.contains(b.name) else { continue }
            let value = entitlements.root[Self.key]?.string
            guard value == nil || value == "NSFileProtectionCompleteUntilFirstUserAuthentication" || value == "NSFileProtectionNone" else { continue }
            let effective = value ?? "NSFileProtectionCompleteUntilFirstUserAuthentication (the system default)"
            out.append(finding("\(b.name) handles sensitive data (\(why.joined(separator: ", "))) and its files default to \(effective), readable while the device is locked; no code asks for complete protection",
                               bundle: b.name, at: value == nil ? entitlements.rootLocation : entitlements.location(Self.key), key: Self.key,
                               fix: "Turn on Data Protection (\(Self.key) = NSFileProtectionComplete) or write the files with sensitive data with .completeFileProtection.",
                               fingerprint: [Self.key]))
        }
        return out
    }
}
