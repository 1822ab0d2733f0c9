import Foundation
import Artifacts
import Evidence

public struct ShippedPrivateKeyFileRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "shipped_private_key_file",
        name: "Private key file shipped in the app",
        summary: "An app ships a PKCS#12 key store, a DER private key or a Java key store holding a private key (built apps; projects: the files a shipping target copies).",
        rationale: """
        Key files in a bundle are readable by anyone who downloads the app. A DER private key \
        (PKCS#8, PKCS#1 or SEC 1, recognised by its ASN.1 shape) is usable as it is: an error. \
        A PKCS#12 (`.p12`/`.pfx`) or Java key store is protected by a password, but an app that \
        opens it ships the password too (or it is short enough to guess), so the key should be \
        treated as public: a warning. Certificates and public keys (`.cer`, `.der` of a \
        certificate) are not reported; `preflight inspect` lists every key and database file a \
        bundle ships. PEM private keys are reported by `shipped_secret`.

        Fix: issue per-device credentials at run time (a server-side enrolment, or a key made \
        on the device in the Secure Enclave), and revoke the shipped key.
        """,
        area: .storage, severity: .error, tags: ["security", "secrets", "masvs-storage-14"],
        references: ["https://mas.owasp.org/MASVS/controls/MASVS-STORAGE-1/",
                     "https://developer.apple.com/documentation/security/protecting-keys-with-the-secure-enclave"],
        triggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>")],
                        binaryFixtures: ["Certificates/client.p12↓": "stores/client.p12"], kind: .app,
                        note: "A PKCS#12 key store (warning): its password ships in the app that opens it."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>")],
                        binaryFixtures: ["signing.der↓": "stores/client-key.der"], kind: .app,
                        note: "An unencrypted EC private key in DER (error)."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>")],
                        binaryFixtures: ["pinned.der": "stores/server-cert.der"], kind: .app,
                        note: "A certificate for pinning holds only a public key."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>App</string>")],
                        binaryFixtures: ["Tests/client.p12": "stores/client.p12"],
                        note: "Source folders without a project are not read: which files a target ships is not known there."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                            ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"], resources: ["App/pinned.der"]),
                            ExampleTarget("AppTests", type: "bundle.unit-test", resources: ["AppTests/client.p12"]),
                         ]),
                         "App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>")],
                        binaryFixtures: ["App/pinned.der": "stores/server-cert.der", "AppTests/client.p12": "stores/client.p12",
                                         "Tools/signing.der": "stores/client-key.der"],
                        kind: .project, note: "A project: the app copies a certificate; the key store is a test target's, the key is copied by no target."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        context.evidence.shippedStores.compactMap { s in
            guard let shape = s.keyShape, shape != .pemPrivateKey, shape.holdsPrivateKey else { return nil }
            let what: String
            switch shape {
            case .pkcs12: what = "a PKCS#12 key store (a private key under a password the app must also ship)"
            case .derPrivateKey: what = "an unencrypted private key in DER"
            case .javaKeyStorePrivateKey: what = "a Java key store whose first entry is a private key"
            case .pemPrivateKey, .other: return nil
            }
            var f = finding("\(s.bundle ?? "The app") ships \(s.path): \(what); anyone who downloads the app can extract it",
                            bundle: s.bundle, at: FileLocation(path: s.path),
                            fix: "Remove the key from the app, revoke it, and provision a per-device credential at run time.",
                            fingerprint: [s.path])
            f.severity = shape == .derPrivateKey ? .error : .warning
            return f
        }
    }
}
