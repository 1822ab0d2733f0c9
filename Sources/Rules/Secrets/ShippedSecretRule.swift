import Foundation
import Artifacts
import Evidence
import Formats

public struct ShippedSecretRule: Rule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "shipped_secret",
        name: "Credential shipped in the app",
        summary: "An app carries a private key or a service credential in a resource or a binary's strings (built apps; projects: the files a shipping target copies).",
        rationale: """
        Everything in an app is readable by whoever downloads it: unzip the .ipa, read the \
        property lists, run `strings` on the executable. A private key (PEM block) or an API \
        secret with a recognisable format (Stripe `sk_live_`, Slack `xoxb-`, GitHub `ghp_`, \
        SendGrid `SG.`, an AWS access key ID) is public from the first upload, and App Store \
        binaries stay available for years. OWASP MASVS-STORAGE-1 asks that secrets live on a \
        server, or in the Keychain once provisioned at run time, never in the bundle.

        Only formats that validate are reported (prefix, alphabet, exact length, token \
        boundaries; a private key's body must decode to a DER key): no entropy guessing. In a \
        binary's C strings, a value of credential shape that directly follows an \
        environment-style name ending in `SECRET`, `API_KEY`, `ACCESS_TOKEN`, `PASSWORD`… (what \
        react-native-config compiles into `react_native_config.framework`) is a warning too. Every \
        output shows the secret masked (first four and last two characters, with its length). \
        Private keys and live secret keys are errors; an AWS access key ID (half of a \
        credential), a Stripe test key or a passphrase-protected key are warnings; a Google API \
        key outside `GoogleService-Info.plist` is a note (it identifies a project; check that it \
        is restricted to the app's bundle id). The `API_KEY` of `GoogleService-Info.plist` is a \
        public identifier and is not reported.

        In a project folder, the files each shipping target copies into its bundle are read (its \
        Resources phase, folder references and synchronized folders), at their place in the \
        project; files no shipping target copies (tests, scripts, docs) are not.

        Fix: remove the value from the app, revoke it with its issuer (it is already public), and \
        make the calls that need it from your server.
        """,
        area: .storage, severity: .error, tags: ["security", "secrets", "masvs-storage-14"],
        references: ["https://mas.owasp.org/MASVS/controls/MASVS-STORAGE-1/",
                     "https://support.google.com/googleapi/answer/6310037"],
        triggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "config.json": "{\n  \"stripe\": \"↓sk_live_KLzdocJ2isAjIhKtJ0RlgLKO\",\n  \"aws\": \"↓AKIAQ3EGRJ2XK7LDPZ5M\"\n}\n"],
                        kind: .app, note: "A Stripe live secret key (error) and an AWS access key ID (warning) in a JSON resource."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "Certificates/server.pem": """
                         ↓-----BEGIN PRIVATE KEY-----
                         MIIBVQIBADANBgkqhkiG9w0BAQEFAASCAT8wggE7AgEAAkEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgH
                         cTz6sE2I2yPB4mtCGb8P0PzH3WH1zSdYCE4S3hk6S3xkG2tzT4QIDAQABAkEAhh2V
                         -----END PRIVATE KEY-----

                         """],
                        kind: .app, note: "A PEM private key in a resource: the body decodes to a DER SEQUENCE."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                            ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"], resources: ["App/config.json"]),
                         ]),
                         "App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/config.json": "{\n  \"stripe\": \"↓sk_live_KLzdocJ2isAjIhKtJ0RlgLKO\"\n}\n"],
                        kind: .project, note: "A project: the app target's Resources phase copies the file."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>")],
                        binaryFixtures: ["Example↓": "Secrets"], kind: .app,
                        note: "A GitHub token, a Slack bot token and the value after `PAYMENT_API_KEY` among the executable's C strings."),
        ],
        nonTriggering: [
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "GoogleService-Info.plist": plistXML("<key>API_KEY</key><string>AIzayVmihA-2O76UMFxFkM-R5Kjp1vRt_1fjORS</string>")],
                        kind: .app, note: "The Firebase configuration's API key is a public identifier of the project."),
            RuleExample(["Info.plist": plistXML("<key>CFBundleExecutable</key><string>Example</string>"),
                         "config.json": "{\n  \"publishable\": \"pk_live_KLzdocJ2isAjIhKtJ0RlgLKO\",\n  \"aws\": \"AKIAIOSFODNN7EXAMPLE\",\n  \"placeholder\": \"sk_live_XXXXXXXXXXXXXXXXXXXXXXXX\",\n  \"entropy\": \"Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5\"\n}\n",
                         "header.txt": "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----\n"],
                        kind: .app, note: "A publishable key, AWS's documented example ID, a placeholder, a high-entropy string of no known format and a PEM header without a key."),
            RuleExample(["App/config.json": "{ \"stripe\": \"sk_live_KLzdocJ2isAjIhKtJ0RlgLKO\" }\n",
                         "App/Info.plist": plistXML("<key>CFBundleExecutable</key><string>App</string>")],
                        note: "Source folders without a project are not read for secrets: which files a target ships is not known there."),
            RuleExample(["App.xcodeproj/project.pbxproj": exampleProject(targets: [
                            ExampleTarget("App", settings: ["INFOPLIST_FILE": "App/Info.plist"], resources: ["App/Settings.json"]),
                            ExampleTarget("AppTests", type: "bundle.unit-test", resources: ["AppTests/stub.json"]),
                         ]),
                         "App/Info.plist": plistXML("<key>CFBundleIdentifier</key><string>com.example.app</string>"),
                         "App/Settings.json": "{ \"theme\": \"dark\" }\n",
                         "AppTests/stub.json": "{ \"stripe\": \"sk_live_KLzdocJ2isAjIhKtJ0RlgLKO\" }\n",
                         "scripts/deploy.json": "{ \"stripe\": \"sk_live_KLzdocJ2isAjIhKtJ0RlgLKO\" }\n"],
                        kind: .project, note: "A project: files copied only by a test target, or by no target, do not ship."),
        ])

    public func check(_ context: RuleContext) -> [Finding] {
        context.evidence.secrets.map { s in
            let kind = s.secret.kind
            let place = s.inBinary ? "among the C strings of \(s.path)" : "in \(s.path)"
            let who = s.origin == .app || s.origin == .sdk(s.bundle ?? "") ? "" : " (\(s.origin.label))"
            var f = finding("\(s.bundle ?? "The app") ships a \(kind.label), \(s.secret.masked), \(place)\(who): \(kind.why)",
                            bundle: s.bundle,
                            at: FileLocation(path: s.path, position: s.secret.line.map { SourcePosition(line: $0, column: s.secret.column ?? 1) }),
                            evidence: s.inBinary ? [.symbol(binary: s.path, symbol: s.secret.masked)] : [],
                            fix: kind.gravity == .identifier
                                ? "Restrict the key to this app's bundle identifier and to the APIs it needs in the Google Cloud console."
                                : "Remove it from the app, revoke it with its issuer (it is public already), and make the calls that need it from your server.",
                            fingerprint: [kind.rawValue, s.path, s.secret.masked])
            switch kind.gravity {
            case .credential: f.severity = .error
            case .partial: f.severity = .warning
            case .identifier: f.severity = .note
            }
            return f
        }
    }
}
